// The VS Code extension's engine thread: an EngineHost (core/engine/host.ts) served over the
// parent port as EngineHostApi; parsing, index builds and refresh scheduling happen here (and in
// the chunk workers this thread starts), never on the thread that owns the UI. A root the
// extension asks to `serve` is also served on its store's socket (server.ts), watched by a native
// watcher (watch.ts), so `cairn` and MCP clients started from the editor's terminal get the
// editor's warm, watched index. The worker entry (cli/engineWorker.ts) hands in the CLI's command
// runner: this module knows the protocol, not the commands.
import type { MessagePort } from 'node:worker_threads';
import { serveRpc, type RpcHandlers } from '../core/clientApi';
import { ENGINE_HOST_METHODS, EngineHost, type EngineHostApi, type EngineHostEvents, type EngineThreadApi, type Remote } from '../core/engineApi';
import type { CommandRunner } from '../command/context';
import { serveSocket, type SocketServer } from './server';
import { RootWatcher } from './watch';

interface Served {
  watcher: RootWatcher;
  socket: SocketServer;
}

/** Serves an EngineHost on `port` until the thread ends; `runCommand` answers socket clients. */
export function serveEngineThread(port: MessagePort, runCommand: CommandRunner): void {
  // Events cross the port as they are: the thread's API declares the same shapes the host emits.
  const host = new EngineHost({
    progress: (e) => emit('progress', e),
    state: (e) => emit('state', e),
    refreshed: (e) => emit('refreshed', e),
  });

  const served = new Map<string, Served>();

  async function stopServing(key: string): Promise<void> {
    const s = served.get(key);
    served.delete(key);
    await s?.socket.close().catch(() => undefined);
    await s?.watcher.close().catch(() => undefined);
  }

  const handlers: RpcHandlers<EngineThreadApi> = {
    ...forwardingHandlers(host),
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
    async close(key) {
      await stopServing(key);
      await host.close(key);
    },
  };

  const emit = serveRpc<EngineThreadApi>(port, handlers);
}

/**
 * A handler for every method of EngineHostApi that calls the host's own: derived from the
 * interface's checked method list, so a method added to the host is served without a line here.
 * The caller's AbortSignal is passed on as the last argument (EngineHost.refresh reads it).
 */
function forwardingHandlers(host: EngineHost): RpcHandlers<Remote<EngineHostApi>> {
  const call = host as unknown as Record<string, (...args: unknown[]) => unknown>;
  const entries = ENGINE_HOST_METHODS.map((name) => [name, async (...args: unknown[]) => call[name]!.apply(host, args)] as const);
  return Object.fromEntries(entries) as unknown as RpcHandlers<Remote<EngineHostApi>>;
}
