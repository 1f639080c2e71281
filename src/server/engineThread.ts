// The VS Code extension's engine thread: an EngineHost (core/engine/host.ts) served over the
// parent port as EngineHostApi; parsing, index builds and refresh scheduling happen here (and in
// the chunk workers this thread starts), never on the thread that owns the UI. A root the
// extension asks to `serve` is also served on its store's socket (server.ts), watched by a native
// watcher (watch.ts), so `cairn` and MCP clients started from the editor's terminal get the
// editor's warm, watched index. The worker entry (cli/engineWorker.ts) hands in the CLI's command
// runner: this module knows the protocol, not the commands.
import type { MessagePort } from 'node:worker_threads';
import { serveRpc, type RpcHandlers } from '../core/clientApi';
import { type EngineHostApi, type EngineHostEvents, EngineHost } from '../core/engineApi';
import type { CommandRunner } from '../command/context';
import { serveSocket, type SocketServer } from './server';
import { RootWatcher } from './watch';

interface Served {
  watcher: RootWatcher;
  socket: SocketServer;
}

/** Serves an EngineHost on `port` until the thread ends; `runCommand` answers socket clients. */
export function serveEngineThread(port: MessagePort, runCommand: CommandRunner): void {
  const host = new EngineHost({
    progress: (key, progress) => emit('progress', { key, progress } satisfies EngineHostEvents['progress']),
    state: (key, state) => emit('state', { key, state } satisfies EngineHostEvents['state']),
    refreshed: (key, report, request) => emit('refreshed', { key, report, request } satisfies EngineHostEvents['refreshed']),
  });

  const served = new Map<string, Served>();

  async function stopServing(key: string): Promise<void> {
    const s = served.get(key);
    served.delete(key);
    await s?.socket.close().catch(() => undefined);
    await s?.watcher.close().catch(() => undefined);
  }

  const handlers: RpcHandlers<EngineHostApi> = {
    async open(key, options) {
      await stopServing(key);
      return host.open(key, options);
    },
    async serve(key, root, storeDir, watcherModule) {
      if (served.has(key)) return served.get(key)!.socket.socketPath;
      const log = (line: string): void => emit('log', { key, line } satisfies EngineHostEvents['log']);
      const watcher = new RootWatcher({ host, key, root, storeDir, log, ...(watcherModule ? { watcherModule } : {}) });
      const socket = await serveSocket(host, key, storeDir, { root, settle: () => watcher.settle(), log, runCommand });
      served.set(key, { watcher, socket });
      void watcher.start().then(() => log(watcher.live ? `serving ${root} on ${socket.socketPath}; watching` : `serving ${root} on ${socket.socketPath}; not watching`));
      return socket.socketPath;
    },
    unserve: (key) => stopServing(key),
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
    references: (key, name, options) => host.references(key, name, options),
    buildPack: (key, task, options) => host.buildPack(key, task, options),
    contextSearch: (key, query, options) => host.contextSearch(key, query, options),
    contextGet: (key, id, options) => host.contextGet(key, id, options),
    status: async (key) => host.status(key),
    async close(key) {
      await stopServing(key);
      await host.close(key);
    },
  };

  const emit = serveRpc<EngineHostApi>(port, handlers);
}
