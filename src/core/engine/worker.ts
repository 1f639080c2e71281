// Worker-thread entry (dist/engineWorker.js): an EngineHost (host.ts) served over the parent
// port as EngineHostApi. Parsing, index builds and refresh scheduling happen here (and in the
// chunk workers this thread starts), never on the thread that owns the UI.
import { parentPort } from 'node:worker_threads';
import { serveRpc, type RpcHandlers } from './rpc';
import type { EngineHostApi, EngineHostEvents } from './hostApi';
import { EngineHost } from './host';

if (!parentPort) throw new Error('engineWorker must run in a worker thread');
const port = parentPort;

const host = new EngineHost({
  progress: (key, progress) => emit('progress', { key, progress } satisfies EngineHostEvents['progress']),
  state: (key, state) => emit('state', { key, state } satisfies EngineHostEvents['state']),
  refreshed: (key, report, request) => emit('refreshed', { key, report, request } satisfies EngineHostEvents['refreshed']),
});

const handlers: RpcHandlers<EngineHostApi> = {
  open: (key, options) => host.open(key, options),
  refresh(key, { afterQuiet, ...request }, signal) {
    const done = host.request(key, request, afterQuiet);
    signal.addEventListener('abort', () => host.cancel(key), { once: true });
    return done;
  },
  restart: async (key) => host.restart(key),
  pause: async (key) => host.pause(key),
  resume: async (key) => host.resume(key),
  whenIdle: (key) => host.whenIdle(key),
  state: async (key) => host.state(key),
  search: (key, query, options) => host.search(key, query, options),
  searchFiles: (key, query, options) => host.searchFiles(key, query, options),
  findSymbol: (key, name, options) => host.findSymbol(key, name, options),
  buildPack: (key, task, options) => host.buildPack(key, task, options),
  contextSearch: (key, query, options) => host.contextSearch(key, query, options),
  contextGet: (key, id, options) => host.contextGet(key, id, options),
  status: async (key) => host.status(key),
  close: (key) => host.close(key),
};

const emit = serveRpc<EngineHostApi>(port, handlers);
