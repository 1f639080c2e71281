// Entry point of a chunk worker thread (bundled as dist/chunkWorker.js). Each worker owns its
// AST chunker (wasm state is per thread) and answers batches file by file.
import { parentPort, workerData } from 'node:worker_threads';
import type { SourceDocument } from '../types';
import { createAstChunker } from './astLoader';
import { chunkDocument, errorMessage, type ChunkContext } from './chunkFile';
import { createParseOnly } from './parseOnly';
import { analysisBuffers, analyzeFile } from '../index/fields';
import type { AstChunkerLike } from './contract';
import { CRASH_MARKER_ENV, FAIL_START_ENV, toWire, wireTransfer, type BatchMessage, type FromWorker, type WorkerInit } from './protocol';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('chunkWorker must run as a worker thread');
  if (process.env[FAIL_START_ENV]) throw new Error('start-up failure requested by the test hook');
  const init = workerData as WorkerInit;
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
  const send = (m: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

  const runBatch = async (msg: BatchMessage): Promise<void> => {
    for (let index = 0; index < msg.docs.length; index++) {
      const doc = msg.docs[index] as SourceDocument;
      if (crashMarker && doc.text.includes(crashMarker)) process.exit(70);
      if (parseOnly) {
        await parseOnly(doc);
        send({ type: 'file', batch: msg.batch, index, result: toWire(doc, { path: doc.path, chunks: [], strategy: 'ast', diagnostics: [] }) });
        continue;
      }
      const result = await chunkDocument(doc, ctx);
      if (init.analyze) result.analysis = analyzeFile(result.chunks, doc.language);
      const wire = toWire(doc, result);
      send({ type: 'file', batch: msg.batch, index, result: wire }, result.analysis ? [...wireTransfer(wire), ...analysisBuffers(result.analysis)] : wireTransfer(wire));
    }
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
