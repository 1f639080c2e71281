// `cairn serve`: one root's index kept open and watched, answering `cairn search`, `symbol`,
// `pack` and `status` over the store's socket (src/server/). The CLI starts it in the
// background on demand; run it by hand to watch its log in the foreground. `--list` shows the
// servers running for this user, `--stop` stops the one of a root (`--all`: every one).
import * as path from 'node:path';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command, CommandEnv } from '../command';
import { locateAssets } from '../assets';
import { JSON_OPTION, resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { resolveStoreDir } from '../../command/storeLocation';
import { userCacheDir } from '../../command/cacheDir';
import { formatBytes } from '../format';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_RELEASE_IDLE_MS, runDaemon } from '../../server/daemon';
import { removeRecord, runningServers, stopServer, type RunningServer } from '../../server/registry';

const spec: CommandSpec = {
  name: 'serve',
  usage: 'cairn serve [--root ROOT] [--store DIR] [--idle-timeout MIN] [--release-idle MIN] | --list [--json] | --stop [--root ROOT | --all] [--json]',
  maxPositionals: 0,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    ...JSON_OPTION,
    list: { type: 'boolean', description: 'list the servers running for you: pid, uptime, memory, root, socket' },
    stop: { type: 'boolean', description: "stop the server of the root (--root, default: the current folder), and let go of its socket" },
    all: { type: 'boolean', description: 'with --stop: stop every server running for you' },
    'idle-timeout': { type: 'string', valueName: 'MIN', description: `exit after this many minutes without a request (default ${DEFAULT_IDLE_TIMEOUT_MS / 60_000}; fractions allowed)` },
    'release-idle': { type: 'string', valueName: 'MIN', description: `let go of the index's caches after this many minutes without a request (default ${DEFAULT_RELEASE_IDLE_MS / 60_000}); the next query reads them again` },
  },
};

/** Where running servers record themselves (src/server/registry.ts). */
function recordDir(): string {
  return path.join(userCacheDir(), 'cairn', 'servers');
}

async function run(args: ParsedArgs, out: Output, env: CommandEnv): Promise<number> {
  const { list, stop, all } = args.values;
  if (list === true && stop === true) throw new UsageError('--list and --stop do not go together');
  if (all === true && stop !== true) throw new UsageError('--all goes with --stop');
  if (all === true && typeof args.values.root === 'string') throw new UsageError('--stop takes --root ROOT or --all, not both');
  if (list === true) return listServers(out);
  if (stop === true) return stopServers(out, all === true ? undefined : resolveRoot(args.values));
  if (args.values.json === true) throw new UsageError('--json goes with --list or --stop');
  const root = resolveRoot(args.values);
  const store = typeof args.values.store === 'string' ? args.values.store : undefined;
  if (store === '') throw new UsageError('--store needs a directory');
  const assets = locateAssets();
  // Tests make the watcher fail to start (as with inotify used up) without exhausting the machine's.
  const injectedFailure = process.env.CAIRN_TEST_WATCHER_FAILURE;
  return runDaemon({
    engine: {
      root,
      storeDir: resolveStoreDir(root, store),
      grammarsDir: assets.grammarsDir,
      workerScript: assets.chunkWorker,
      indexWorkerScript: assets.indexWorker,
      ripgrepPath: assets.ripgrep,
    },
    idleTimeoutMs: minutesOption('--idle-timeout', args.values['idle-timeout'], DEFAULT_IDLE_TIMEOUT_MS),
    releaseIdleMs: minutesOption('--release-idle', args.values['release-idle'], DEFAULT_RELEASE_IDLE_MS),
    ...(injectedFailure ? { watcherPrecheck: () => injectedFailure } : {}),
    recordDir: recordDir(),
    runCommand: env.runServed,
    ...(out.interactive || process.stderr.isTTY ? { echo: (line: string) => out.note(`cairn serve: ${line}`) } : {}),
  });
}

async function listServers(out: Output): Promise<number> {
  const servers = await runningServers(recordDir());
  if (out.json) {
    out.record({ servers: servers.map(asJson) });
    return 0;
  }
  if (servers.length === 0) {
    out.line('no cairn server is running');
    return 0;
  }
  const rows = [
    ['PID', 'UPTIME', 'MEMORY', 'ROOT', 'SOCKET'],
    ...servers.map((s) => [String(s.pid), formatUptime(s.uptimeMs), s.rssBytes === undefined ? '-' : formatBytes(s.rssBytes), s.root, `${s.socket}${s.answering ? '' : ' (not answering)'}`]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) out.line(r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
  return 0;
}

/** Stops the servers of `root` (undefined: all of them). Exit 0 also when none was running. */
async function stopServers(out: Output, root: string | undefined): Promise<number> {
  const servers = (await runningServers(recordDir())).filter((s) => root === undefined || s.root === root);
  const stopped: Array<RunningServer & { outcome: string }> = [];
  for (const s of servers) {
    const outcome = await stopServer(s);
    removeRecord(recordDir(), s.pid, s.startedAt);
    stopped.push({ ...s, outcome });
  }
  if (out.json) {
    out.record({ stopped: stopped.map((s) => ({ ...asJson(s), outcome: s.outcome })) });
    return 0;
  }
  if (stopped.length === 0) out.line(root === undefined ? 'no cairn server was running' : `no cairn server was running for ${root}`);
  for (const s of stopped) {
    const how = s.outcome === 'killed' ? 'killed (it did not stop when asked)' : 'stopped';
    out.line(`${how} the server for ${s.root} (pid ${s.pid})`);
  }
  return 0;
}

function asJson(s: RunningServer): Record<string, unknown> {
  return { pid: s.pid, root: s.root, storeDir: s.storeDir, socket: s.socket, startedAt: s.startedAt, uptimeMs: s.uptimeMs, rssBytes: s.rssBytes ?? null, answering: s.answering };
}

/** 42s, 5m03s, 2h05m. */
export function formatUptime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** Minutes (a fraction allowed, so tests can use a second) as milliseconds. */
function minutesOption(flag: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const minutes = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!(minutes > 0)) throw new UsageError(`${flag} must be a positive number of minutes, got '${String(value)}'`);
  return Math.round(minutes * 60_000);
}

export const command: Command = { spec, run };
