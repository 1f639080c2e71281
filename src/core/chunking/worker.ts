// Entry point of a chunk worker thread (bundled as dist/chunkWorker.js). Each worker owns its
// AST chunker (wasm state is per thread) and answers batches in order, a group of files per reply.
import { parentPort, workerData } from 'node:worker_threads';
import type { FileChunks, SourceDocument } from '../types';
import { createAstChunker } from './astLoader';
import { chunkDocument, errorMessage, type ChunkContext } from './chunkFile';
import { createParseOnly } from './parseOnly';
import { analysisBuffers, FileAnalyzer } from '../index/fields';
import type { AstChunkerLike } from './contract';
import type { ChunkingPolicy } from './policy';
import { adoptTimings, timed, timedAsync } from '../timings';
import { CRASH_MARKER_ENV, FAIL_START_ENV, IDLE, PARTIAL_MIN_CHARS, PARTIAL_STEP, PROGRESS_BATCH, PROGRESS_FILE, toWire, wireTransfer, type BatchMessage, type FromWorker, type WireFileChunks, type WorkerInit } from './protocol';

/**
 * A reply carries at most this many files, or about this many characters of packed strings. One
 * message per file makes postMessage a large part of a worker's time and keeps the pool's thread
 * busy receiving; grouped, both spend that time chunking. A batch's last group goes as soon as its
 * last file is done.
 */
const REPLY_MAX_FILES = 64;
const REPLY_MAX_CHARS = 512 * 1024;
/**
 * ...or files done over this long: the first files of a language, and files on a busy machine,
 * take long enough that waiting for 64 of them held a refresh's progress still for seconds.
 */
const REPLY_MAX_WAIT_MS = 250;

/**
 * A language's first file costs several times what the next ones do (its queries are compiled,
 * its code not yet optimised). Chunking a few lines as the grammar loads moves a good part of
 * that into start-up, which reports each language it finishes, so the first real file does not
 * hold the progress still. Errors in the sample are fine: every stage still runs.
 */
const WARM_UP_TEXT = 'function f(a) { return g(a).b; }\nclass C { m(x) { return x; } }\n';

async function warmUp(ast: AstChunkerLike, language: string, policy: ChunkingPolicy): Promise<void> {
  const doc: SourceDocument = { path: 'warm-up', text: WARM_UP_TEXT, size: WARM_UP_TEXT.length, mtimeMs: 0, hash: '', language };
  await ast.chunk(doc, policy).catch(() => undefined);
}

/** The share of a file's work done once it is chunked; analysing and packing its chunks is the rest. */
const CHUNKED = 0.9;

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('chunkWorker must run as a worker thread');
  if (process.env[FAIL_START_ENV]) throw new Error('start-up failure requested by the test hook');
  const init = workerData as WorkerInit;
  adoptTimings(init.timings);
  let ast: AstChunkerLike | undefined;
  let astError: string | undefined;
  if (init.strategy === 'ast') {
    try {
      ast = await createAstChunker(init.grammarsDir);
    } catch (e) {
      astError = errorMessage(e);
    }
  }
  const ctx: ChunkContext = { policy: init.policy, strategy: init.strategy, ast };
  const parseOnly = init.parseOnly ? await createParseOnly(init.grammarsDir) : undefined;
  const crashMarker = process.env[CRASH_MARKER_ENV];
  // The thread's own word table, kept across batches.
  const analyzer = init.analyze ? new FileAnalyzer() : undefined;
  const send = (m: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

  const progress = init.progress;
  const chunker = parseOnly ?? ctx.ast;
  /** Languages whose grammars this thread has loaded (or found it has none for). */
  const prepared = new Set<string>();
  const runBatch = async (msg: BatchMessage): Promise<void> => {
    let group: WireFileChunks[] = [];
    let transfer: ArrayBuffer[] = [];
    let first = 0;
    let chars = 0;
    /** When the group under way started: the batch's start, or the last reply. */
    let groupSince = performance.now();
    const flush = (): void => {
      if (group.length === 0) return;
      send({ type: 'files', batch: msg.batch, first, results: group }, transfer);
      first += group.length;
      group = [];
      transfer = [];
      chars = 0;
      groupSince = performance.now();
    };
    Atomics.store(progress, PROGRESS_BATCH, msg.batch);
    // One language at a time, each reported: loading grammars is most of a worker's start-up,
    // and a first index shows it as progress.
    for (const language of msg.languages) {
      if (prepared.has(language)) continue;
      await chunker?.prepare([language]);
      if (!parseOnly && ctx.ast?.supports(language)) await warmUp(ctx.ast, language, init.policy);
      prepared.add(language);
      send({ type: 'loaded', batch: msg.batch, language });
    }
    for (let index = 0; index < msg.docs.length; index++) {
      const doc = msg.docs[index] as SourceDocument;
      Atomics.store(progress, PROGRESS_FILE, index);
      if (crashMarker && doc.text.includes(crashMarker)) process.exit(70);
      const onProgress = doc.text.length >= PARTIAL_MIN_CHARS ? partialReporter(msg.batch, index) : undefined;
      // The files done before a big one are sent first: they are done, and the big one takes a while.
      if (onProgress) flush();
      let result: FileChunks;
      if (parseOnly) {
        await parseOnly.parse(doc);
        result = { path: doc.path, chunks: [], strategy: 'ast', diagnostics: [] };
      } else {
        result = await timedAsync('chunk', () => chunkDocument(doc, ctx, onProgress && ((f) => onProgress(f * CHUNKED))));
        onProgress?.(CHUNKED);
        if (analyzer) result.analysis = timed('analyze', () => analyzer.analyze(result.chunks, doc.language));
      }
      const done = result;
      const wire = timed('transfer', () => toWire(doc, done));
      transfer.push(...wireTransfer(wire));
      if (result.analysis) transfer.push(...analysisBuffers(result.analysis));
      Atomics.store(progress, PROGRESS_FILE, IDLE);
      group.push(wire);
      chars += wire.packed.strings.length;
      if (group.length >= REPLY_MAX_FILES || chars >= REPLY_MAX_CHARS || performance.now() - groupSince >= REPLY_MAX_WAIT_MS) flush();
    }
    flush();
  };
  /** Reports a big file's progress each time it grows by PARTIAL_STEP. */
  const partialReporter = (batch: number, index: number) => {
    let sent = 0;
    return (fraction: number): void => {
      if (fraction - sent < PARTIAL_STEP) return;
      sent = fraction;
      send({ type: 'working', batch, index, fraction });
    };
  };
  // Batches are answered strictly in arrival order.
  let queue = Promise.resolve();
  port.on('message', (msg: BatchMessage) => {
    queue = queue.then(() => runBatch(msg));
  });
  send(astError === undefined ? { type: 'ready' } : { type: 'ready', astError });
}

// A failure here is left unhandled on purpose: it ends the thread and reaches the pool as the
// Worker's 'error' event, with its message, which the pool reports.
void main();
