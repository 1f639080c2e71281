// `cairn export --format jsonl`: every indexed chunk with its metadata and text, one JSON object
// per line, for external RAG / graph tools (LightRAG-style ingestion reads `text` plus metadata).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic } from '../../core/api';
import { choiceOption, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { openEngine, resolveRoot, STORE_OPTIONS } from '../engineSetup';
import { CliError, type Output } from '../output';

const spec: CommandSpec = {
  name: 'export',
  usage: 'cairn export [ROOT] --format jsonl [--out FILE] [--store DIR] [--no-refresh]',
  maxPositionals: 1,
  options: {
    format: { type: 'string', valueName: 'jsonl', description: 'output format (jsonl: one chunk per line)' },
    out: { type: 'string', valueName: 'FILE', description: 'write to FILE instead of stdout' },
    ...STORE_OPTIONS,
    'no-refresh': { type: 'boolean', description: 'export the index as it is, without refreshing first' },
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  choiceOption(args.values, 'format', ['jsonl'], 'jsonl');
  const root = resolveRoot(args.values, args.positionals[0]);
  const target = typeof args.values.out === 'string' ? args.values.out : undefined;
  const engine = openEngine(args.values, root);
  // Opened before the export starts: a folder or an unwritable path is a message, not a crash
  // from a stream's error event after the index was refreshed.
  let fd: number | undefined;
  try {
    fd = target === undefined ? undefined : openOut(target);
  } catch (e) {
    await engine.close();
    throw e;
  }
  const file = fd === undefined ? undefined : fs.createWriteStream('', { fd });
  let writeError: NodeJS.ErrnoException | undefined;
  file?.on('error', (e) => (writeError ??= e));
  const diagnostics: Diagnostic[] = [];
  let count = 0;
  try {
    if (!args.values['no-refresh']) diagnostics.push(...(await engine.refresh()).diagnostics.filter((d) => d.severity !== 'info'));
    for await (const chunk of engine.exportChunks(diagnostics)) {
      const line = JSON.stringify(chunk);
      if (file) {
        if (writeError) break;
        if (!file.write(`${line}\n`)) await new Promise<void>((r) => file.once('drain', () => r()).once('error', () => r()));
      } else {
        if (out.closed) break;
        // As JSON, not as text for a terminal: JSON escapes what needs escaping itself.
        out.record(chunk);
        await out.drain();
      }
      count++;
    }
  } finally {
    if (file) {
      await new Promise<void>((r) => {
        if (writeError) {
          file.destroy();
          r();
        } else
          file.end((e?: Error | null) => {
            if (e) writeError ??= e;
            r();
          });
      });
    }
    await engine.close();
  }
  if (writeError) throw new CliError('out-unwritable', `--out ${String(target)} could not be written (${writeError.code ?? writeError.message}) after ${count} chunks`);
  // A store found damaged and rebuilt meanwhile is said: the export is complete, but the user
  // should know their index was discarded.
  for (const d of diagnostics) out.note(`${d.severity}: ${d.message}`);
  out.note(`exported ${count} chunks${file ? ` to ${String(args.values.out)}` : ''}`);
  return 0;
}

/** Opens `--out FILE` for writing (created or truncated); a CliError says why it cannot be. */
function openOut(target: string): number {
  let stats: fs.Stats | undefined;
  try {
    stats = fs.statSync(target);
  } catch {
    // a new file
  }
  if (stats?.isDirectory()) throw new CliError('out-is-directory', `--out ${target} is a folder; give a file name, e.g. --out ${path.join(target, 'chunks.jsonl')}`);
  try {
    return fs.openSync(target, 'w', 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError('out-unwritable', `--out ${target} cannot be written (${code ?? String(e)})`);
  }
}

export const command: Command = { spec, run };
