// `cairn serve`: one root's index kept open and watched, answering `cairn search`, `symbol`,
// `pack` and `status` over the store's socket (src/server/). The CLI starts it in the
// background on demand; run it by hand to watch its log in the foreground.
import { UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { locateAssets } from '../assets';
import { resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { resolveStoreDir } from '../storeDir';
import { DEFAULT_IDLE_TIMEOUT_MS, runDaemon } from '../../server/daemon';

const spec: CommandSpec = {
  name: 'serve',
  usage: 'cairn serve [--root ROOT] [--store DIR] [--idle-timeout MIN]',
  maxPositionals: 0,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    'idle-timeout': { type: 'string', valueName: 'MIN', description: `exit after this many minutes without a request (default ${DEFAULT_IDLE_TIMEOUT_MS / 60_000}; fractions allowed)` },
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const root = resolveRoot(args.values);
  const store = typeof args.values.store === 'string' ? args.values.store : undefined;
  if (store === '') throw new UsageError('--store needs a directory');
  const assets = locateAssets();
  return runDaemon({
    engine: {
      root,
      storeDir: resolveStoreDir(root, store),
      grammarsDir: assets.grammarsDir,
      workerScript: assets.chunkWorker,
      indexWorkerScript: assets.indexWorker,
      ripgrepPath: assets.ripgrep,
    },
    idleTimeoutMs: idleTimeout(args.values['idle-timeout']),
    ...(out.interactive || process.stderr.isTTY ? { echo: (line: string) => out.note(`cairn serve: ${line}`) } : {}),
  });
}

/** Minutes (a fraction allowed, so tests can use a second) as milliseconds. */
function idleTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_IDLE_TIMEOUT_MS;
  const minutes = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!(minutes > 0)) throw new UsageError(`--idle-timeout must be a positive number of minutes, got '${String(value)}'`);
  return Math.round(minutes * 60_000);
}

export const command: Command = { spec, run };
