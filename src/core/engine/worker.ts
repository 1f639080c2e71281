// Worker-thread entry (dist/engineWorker.js): hosts one engine (and one context registry) per
// root and serves EngineHostApi over the parent port. Parsing and index builds happen here
// (and in the chunk workers this thread starts), never on the thread that owns the UI.
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { Engine } from './engine';
import { serveRpc, type RpcHandlers } from './rpc';
import type { EngineHostApi, EngineHostEvents } from './hostApi';
import { ContextRegistry } from '../registry';
import { registryGuidance } from '../pack/guidance';

if (!parentPort) throw new Error('engineWorker must run in a worker thread');
const port = parentPort;

interface Entry {
  engine: Engine;
  registry: ContextRegistry;
}
const entries = new Map<string, Entry>();

function entry(key: string): Entry {
  const e = entries.get(key);
  if (!e) throw new Error(`no engine open for ${key}`);
  return e;
}

const handlers: RpcHandlers<EngineHostApi> = {
  async open(key, options) {
    await entries.get(key)?.engine.close();
    const engine = new Engine(options);
    const registry = new ContextRegistry({
      root: options.root,
      cacheDir: path.join(options.storeDir, 'registry-cache'),
      ...(options.registryDir ? { registryDir: options.registryDir } : {}),
    });
    entries.set(key, { engine, registry });
    return engine.status();
  },
  async refresh(key, options, signal) {
    const { engine } = entry(key);
    const report = await engine.refresh({
      ...options,
      signal,
      onProgress: (progress) => emit('progress', { key, progress } satisfies EngineHostEvents['progress']),
    });
    // The next save is chunked in this thread: ready its parsers now, while nobody waits.
    if (!options.only) void engine.warmUp();
    return report;
  },
  search: (key, query, options) => entry(key).engine.search(query, options),
  searchFiles: (key, query, options) => entry(key).engine.searchFiles(query, options),
  findSymbol: (key, name, options) => entry(key).engine.findSymbol(name, options),
  buildPack: (key, task, options) => {
    const { engine, registry } = entry(key);
    return engine.buildPack(task, { ...options, guidance: registryGuidance(registry) });
  },
  contextSearch: (key, query, options) => entry(key).registry.search(query, options),
  contextGet: (key, id, options) => entry(key).registry.get(id, options),
  async status(key) {
    return entry(key).engine.status();
  },
  async close(key) {
    await entries.get(key)?.engine.close();
    entries.delete(key);
  },
};

const emit = serveRpc<EngineHostApi>(port, handlers);
