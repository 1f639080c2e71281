// `cairn chunks [PATH]`: discovers files like the indexer would, cuts them into chunks through
// the worker pool and prints every chunk, then a summary. Writes nothing; it is how a person
// (or a test) sees exactly what the index will hold.
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { ChunkPool, type FileChunks, type SourceDocument } from '../../core/engineApi';
import { resolvePolicy, discoverFiles, loadDocuments } from '../../core/clientApi';
import type { Chunk, ChunkStrategy, Diagnostic } from '../../core/api';
import { choiceOption, intOption, type CommandSpec, type ParsedArgs } from '../args';
import { locateAssets } from '../assets';
import type { Command } from '../command';
import { CliError, type Output } from '../output';

const spec: CommandSpec = {
  name: 'chunks',
  usage: 'cairn chunks [PATH] [--json] [--strategy ast|lines] [--workers N] [--max-file-bytes N]',
  maxPositionals: 1,
  options: {
    json: { type: 'boolean', description: 'one JSON object per chunk per line, then {"summary": ...}' },
    strategy: { type: 'string', valueName: 'ast|lines', description: 'chunk code at definitions (ast, default) or by lines' },
    workers: { type: 'string', valueName: 'N', description: 'worker threads; 0 chunks in-process (default: by job size)' },
    'max-file-bytes': { type: 'string', valueName: 'N', description: 'skip files larger than N bytes (default 1048576)' },
  },
};

/** Below this much text, starting worker threads costs more than it saves. */
const IN_PROCESS_BYTES = 512 * 1024;
const YIELD_EVERY_FILES = 64;
/** Each extra worker should get at least this much text. */
const BYTES_PER_WORKER = 256 * 1024;

interface Summary {
  root: string;
  discovery: 'git' | 'walk';
  files: number;
  chunks: number;
  /** Files per chunker that produced them (`ast`, `lines`, `markdown`, `yaml`). */
  strategies: Record<string, number>;
  skipped: Record<string, number>;
  diagnostics: Diagnostic[];
  workers: number;
  elapsedMs: number;
}

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const started = Date.now();
  const strategy = choiceOption<ChunkStrategy>(args.values, 'strategy', ['ast', 'lines'], 'ast');
  const requestedWorkers = intOption(args.values, 'workers', 0);
  const maxFileBytes = intOption(args.values, 'max-file-bytes', 1);
  const rootArg = args.positionals[0] ?? '.';
  const root = path.resolve(rootArg);

  const discovered = await discoverFiles(root, maxFileBytes === undefined ? {} : { maxFileBytes }).catch((e: unknown) => {
    // Discovery only throws for an unusable root, and says why in its message.
    throw new CliError('not-found', e instanceof Error ? e.message : String(e));
  });
  const loaded = await loadDocuments(root, discovered.files, maxFileBytes === undefined ? {} : { maxFileBytes });
  const workers = requestedWorkers ?? workersFor(loaded.docs, strategy);
  const assets = locateAssets();
  const pool = await ChunkPool.create({
    workerScript: assets.chunkWorker,
    grammarsDir: assets.grammarsDir,
    workers,
    policy: resolvePolicy(),
    strategy,
  });

  const summary: Summary = {
    root: rootArg,
    discovery: discovered.source,
    files: 0,
    chunks: 0,
    strategies: {},
    skipped: countBy([...discovered.skipped, ...loaded.skipped].map((s) => s.reason)),
    diagnostics: [...pool.diagnostics],
    workers,
    elapsedMs: 0,
  };
  try {
    for await (const file of pool.stream(loaded.docs)) {
      if (out.closed) break;
      printFile(out, file);
      summary.files++;
      summary.chunks += file.chunks.length;
      summary.strategies[file.strategy] = (summary.strategies[file.strategy] ?? 0) + 1;
      summary.diagnostics.push(...file.diagnostics);
      await out.drain();
      // In-process chunking never leaves the microtask queue; let a closed pipe be noticed.
      if (summary.files % YIELD_EVERY_FILES === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await pool.close();
  }
  summary.elapsedMs = Date.now() - started;
  printSummary(out, summary);
  return 0;
}

/**
 * Line chunking is cheaper than shipping text to a thread and back, so it stays in-process;
 * AST jobs get a worker per BYTES_PER_WORKER of text, up to the core count.
 */
function workersFor(docs: readonly SourceDocument[], strategy: ChunkStrategy): number {
  const bytes = docs.reduce((sum, d) => sum + d.text.length, 0);
  if (strategy === 'lines' || bytes < IN_PROCESS_BYTES) return 0;
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(bytes / BYTES_PER_WORKER)));
}

function printFile(out: Output, file: FileChunks): void {
  if (out.json) {
    for (const chunk of file.chunks) out.record(chunk);
    return;
  }
  for (const d of file.diagnostics) out.note(`${d.severity}: ${d.path ?? file.path}: ${d.message}`);
  for (const chunk of file.chunks) out.line(describeChunk(chunk));
}

function describeChunk(c: Chunk): string {
  return `${c.docid}  ${c.kind}${c.context ? `  ${c.context}` : ''}`;
}

function printSummary(out: Output, s: Summary): void {
  if (out.json) {
    out.record({ summary: s });
    return;
  }
  for (const d of s.diagnostics) if (!d.path) out.note(`${d.severity}: ${d.message}`);
  const skipped = Object.values(s.skipped).reduce((a, b) => a + b, 0);
  const text = [
    `${s.files} files, ${s.chunks} chunks (${formatCounts(s.strategies)})`,
    `skipped ${skipped}${skipped ? ` (${formatCounts(s.skipped)})` : ''}`,
    `${s.diagnostics.length} diagnostic${s.diagnostics.length === 1 ? '' : 's'}`,
    `${(s.elapsedMs / 1000).toFixed(1)} s`,
  ].join('; ');
  // On a terminal the summary ends the listing; in a pipe it goes to stderr so `| head`,
  // `| wc -l` and friends see only chunk lines.
  if (out.interactive) out.line(text);
  else out.note(text);
}

function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}

function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ');
}

export const command: Command = { spec, run };
