// Worker-thread entry (dist/engineWorker.js): hosts one engine per root and serves
// EngineHostApi over the parent port. Parsing and index builds happen here (and in the chunk
// workers this thread starts), never on the thread that owns the UI.
import { parentPort } from 'node:worker_threads';
import { Engine } from './engine';
import { serveRpc, type RpcHandlers } from './rpc';
import type { EngineHostApi, EngineHostEvents } from './hostApi';

if (!parentPort) throw new Error('engineWorker must run in a worker thread');
const port = parentPort;
const engines = new Map<string, Engine>();

function engine(key: string): Engine {
  const e = engines.get(key);
  if (!e) throw new Error(`no engine open for ${key}`);
  return e;
}

const handlers: RpcHandlers<EngineHostApi> = {
  async open(key, options) {
    await engines.get(key)?.close();
    const e = new Engine(options);
    engines.set(key, e);
    return e.status();
  },
  refresh(key, options, signal) {
    return engine(key).refresh({
      ...options,
      signal,
      onProgress: (progress) => emit('progress', { key, progress } satisfies EngineHostEvents['progress']),
    });
  },
  search: (key, query, options) => engine(key).search(query, options),
  findSymbol: (key, name, options) => engine(key).findSymbol(name, options),
  async status(key) {
    return engine(key).status();
  },
  async close(key) {
    await engines.get(key)?.close();
    engines.delete(key);
  },
};

const emit = serveRpc<EngineHostApi>(port, handlers);
