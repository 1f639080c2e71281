// `cairn serve`: one root's index kept open and watched, answering `cairn search`, `symbol`,
// `pack` and `status` over the store's socket (src/server/). The CLI starts it in the
// background on demand; run it by hand to watch its log in the foreground.
import { UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { locateAssets } from '../assets';
import { resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { resolveStoreDir } from '../storeDir';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_RELEASE_IDLE_MS, runDaemon } from '../../server/daemon';

const spec: CommandSpec = {
  name: 'serve',
  usage: 'cairn serve [--root ROOT] [--store DIR] [--idle-timeout MIN] [--release-idle MIN]',
  maxPositionals: 0,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    'idle-timeout': { type: 'string', valueName: 'MIN', description: `exit after this many minutes without a request (default ${DEFAULT_IDLE_TIMEOUT_MS / 60_000}; fractions allowed)` },
    'release-idle': { type: 'string', valueName: 'MIN', description: `let go of the index's caches after this many minutes without a request (default ${DEFAULT_RELEASE_IDLE_MS / 60_000}); the next query reads them again` },
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
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
    ...(out.interactive || process.stderr.isTTY ? { echo: (line: string) => out.note(`cairn serve: ${line}`) } : {}),
  });
}

/** Minutes (a fraction allowed, so tests can use a second) as milliseconds. */
function minutesOption(flag: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const minutes = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!(minutes > 0)) throw new UsageError(`${flag} must be a positive number of minutes, got '${String(value)}'`);
  return Math.round(minutes * 60_000);
}

export const command: Command = { spec, run };
