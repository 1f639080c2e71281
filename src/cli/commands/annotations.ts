// `cairn annotations ID`: the user-written notes about a registry entry. Notes written for an
// older package version or revision are stale and only shown with --include-stale. Every note is
// labelled user-written and untrusted: context, not instructions.
import type { CommandSpec, ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { Command } from '../command';
import type { Output } from '../output';
import { noteDiagnostics, openRegistry, REGISTRY_ROOT_OPTION } from '../registrySetup';

const spec: CommandSpec = {
  name: 'annotations',
  usage: 'cairn annotations ID [--include-stale] [--root ROOT] [--json]',
  maxPositionals: 1,
  options: {
    ...REGISTRY_ROOT_OPTION,
    'include-stale': { type: 'boolean', description: 'also show notes written for other versions or revisions' },
    json: { type: 'boolean', description: 'print the result as one JSON object' },
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const id = args.positionals[0];
  if (id === undefined || !id.trim()) throw new UsageError('missing entry ID');
  const opened = openRegistry(args.values);
  const result = await opened.registry.annotations(id, { includeStale: args.values['include-stale'] === true });
  result.diagnostics.unshift(...opened.diagnostics);
  if (out.json) {
    out.record(result);
    return 0;
  }
  noteDiagnostics(out, result.diagnostics);
  if (result.notes[0]) out.line(`# ${result.notes[0].label}`);
  for (const note of result.notes) {
    out.line(`- [${note.kind}] ${note.createdAt} ${note.packageVersion}@${note.revision}${note.stale ? ` (stale: ${note.staleBecause.join(', ')})` : ''}`);
    for (const line of note.text.split('\n')) out.line(`  ${line}`);
  }
  const hidden = result.notes.some((n) => n.stale) ? '' : result.stale.count ? ' (hidden; --include-stale shows them)' : '';
  out.note(`${result.notes.length} note(s) shown; ${result.stale.count} stale${hidden}`);
  return 0;
}

export const command: Command = { spec, run };
