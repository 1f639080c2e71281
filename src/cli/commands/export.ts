// `cairn export --format jsonl`: every indexed chunk with its metadata and text, one JSON object
// per line, for external RAG / graph tools (LightRAG-style ingestion reads `text` plus metadata).
import * as fs from 'node:fs';
import { choiceOption, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { openEngine, resolveRoot, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';

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
  const engine = openEngine(args.values, root);
  const file = typeof args.values.out === 'string' ? fs.createWriteStream(args.values.out) : undefined;
  let count = 0;
  try {
    if (!args.values['no-refresh']) await engine.refresh();
    for await (const chunk of engine.exportChunks()) {
      if (file) {
        if (!file.write(`${JSON.stringify(chunk)}\n`)) await new Promise<void>((r) => file.once('drain', () => r()));
      } else {
        if (out.closed) break;
        // As JSON, not as text for a terminal: JSON escapes what needs escaping itself.
        out.record(chunk);
        await out.drain();
      }
      count++;
    }
  } finally {
    if (file) await new Promise<void>((r) => file.end(r));
    await engine.close();
  }
  out.note(`exported ${count} chunks${file ? ` to ${String(args.values.out)}` : ''}`);
  return 0;
}

export const command: Command = { spec, run };
