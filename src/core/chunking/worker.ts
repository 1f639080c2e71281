// Entry point of a chunk worker thread (bundled as dist/chunkWorker.js). Each worker owns its
// AST chunker (wasm state is per thread) and answers batches in order, a group of files per reply.
import { parentPort, workerData } from 'node:worker_threads';
import type { FileChunks, SourceDocument } from '../types';
import { createAstChunker } from './astLoader';
import { chunkDocument, errorMessage, type ChunkContext } from './chunkFile';
import { createParseOnly } from './parseOnly';
import { analysisBuffers, FileAnalyzer } from '../index/fields';
import type { AstChunkerLike } from './contract';
import { adoptTimings, timed, timedAsync } from '../timings';
import { CRASH_MARKER_ENV, FAIL_START_ENV, IDLE, PROGRESS_BATCH, PROGRESS_FILE, toWire, wireTransfer, type BatchMessage, type FromWorker, type WireFileChunks, type WorkerInit } from './protocol';

/**
 * A reply carries at most this many files, or about this many characters of packed strings. One
 * message per file makes postMessage a large part of a worker's time and keeps the pool's thread
 * busy receiving; grouped, both spend that time chunking. A batch's last group goes as soon as its
 * last file is done.
 */
const REPLY_MAX_FILES = 64;
const REPLY_MAX_CHARS = 512 * 1024;

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
  const runBatch = async (msg: BatchMessage): Promise<void> => {
    let group: WireFileChunks[] = [];
    let transfer: ArrayBuffer[] = [];
    let first = 0;
    let chars = 0;
    const flush = (): void => {
      if (group.length === 0) return;
      send({ type: 'files', batch: msg.batch, first, results: group }, transfer);
      first += group.length;
      group = [];
      transfer = [];
      chars = 0;
    };
    Atomics.store(progress, PROGRESS_BATCH, msg.batch);
    await (parseOnly ?? ctx.ast)?.prepare(msg.languages);
    for (let index = 0; index < msg.docs.length; index++) {
      const doc = msg.docs[index] as SourceDocument;
      Atomics.store(progress, PROGRESS_FILE, index);
      if (crashMarker && doc.text.includes(crashMarker)) process.exit(70);
      let result: FileChunks;
      if (parseOnly) {
        await parseOnly.parse(doc);
        result = { path: doc.path, chunks: [], strategy: 'ast', diagnostics: [] };
      } else {
        result = await timedAsync('chunk', () => chunkDocument(doc, ctx));
        if (analyzer) result.analysis = timed('analyze', () => analyzer.analyze(result.chunks, doc.language));
      }
      const done = result;
      const wire = timed('transfer', () => toWire(doc, done));
      transfer.push(...wireTransfer(wire));
      if (result.analysis) transfer.push(...analysisBuffers(result.analysis));
      Atomics.store(progress, PROGRESS_FILE, IDLE);
      group.push(wire);
      chars += wire.packed.strings.length;
      if (group.length >= REPLY_MAX_FILES || chars >= REPLY_MAX_CHARS) flush();
    }
    flush();
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
