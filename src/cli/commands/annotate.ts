// `cairn annotate ID "note"`: stores a user-written note about a registry entry (an environment
// limit, a version difference, a recurring failure, a verified workaround), keyed to the entry's
// current package version and revision.
import { ANNOTATION_KINDS } from '../../core/clientApi';
import { type AnnotationKind } from '../../core/api';
import { choiceOption, UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import type { Output } from '../output';
import { noteDiagnostics, openRegistry, REGISTRY_ROOT_OPTION } from '../registrySetup';

const spec: CommandSpec = {
  name: 'annotate',
  usage: `cairn annotate ID "NOTE" [--kind ${ANNOTATION_KINDS.join('|')}] [--root ROOT] [--json]`,
  maxPositionals: 2,
  options: {
    ...REGISTRY_ROOT_OPTION,
    kind: { type: 'string', valueName: 'K', description: `what the note records: ${ANNOTATION_KINDS.join(', ')} (default note)` },
    json: { type: 'boolean', description: 'print the result as one JSON object' },
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const [id, note] = args.positionals;
  if (id === undefined || !id.trim()) throw new UsageError('missing entry ID');
  if (note === undefined || !note.trim()) throw new UsageError('missing NOTE text');
  const kind = choiceOption<AnnotationKind>(args.values, 'kind', ANNOTATION_KINDS, 'note');
  const opened = openRegistry(args.values);
  const result = await opened.registry.annotate(id, note, { kind });
  result.diagnostics.unshift(...opened.diagnostics);
  if (out.json) out.record(result);
  else {
    noteDiagnostics(out, result.diagnostics);
    if (result.annotation) out.line(`noted ${result.annotation.kind} for ${id} ${result.annotation.packageVersion}@${result.annotation.revision} in ${result.path}`);
  }
  return result.ok ? 0 : 1;
}

export const command: Command = { spec, run };
