// Options every index-backed command shares (--root, --store), and the one place the CLI
// assembles an Engine from them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine, QUERY_WAIT_MS } from '../core/engineApi';
import type { EngineOptions } from '../core/api';
import type { OptionSpec, OptionValues } from './args';
import { UsageError } from './args';
import { locateAssets } from './assets';
import { currentContext, type QueryEngine } from '../command/context';
import { CliError, visible } from './output';
import { checkedStoreDir } from './storeDir';
import { resolveStoreDir } from '../command/storeLocation';

export const STORE_OPTIONS: Record<string, OptionSpec> = {
  store: { type: 'string', valueName: 'DIR', description: 'index store directory (default: $CAIRN_STORE, else a per-root folder in the user cache)' },
};

export const ROOT_OPTION: Record<string, OptionSpec> = {
  root: { type: 'string', valueName: 'ROOT', description: 'the indexed folder (default: the current directory)' },
};

/** Read by the `cairn` launcher (src/server/client.ts) before this command runs; listed for --help. */
export const NO_SERVER_OPTION: Record<string, OptionSpec> = {
  'no-server': { type: 'boolean', description: 'answer in this process, without asking or starting a `cairn serve` (also: CAIRN_SERVER=0)' },
};

export const JSON_OPTION: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print JSON for machines' },
};

/** The root from a positional argument or --root, validated. */
export function resolveRoot(values: OptionValues, positional?: string): string {
  const given = positional ?? (typeof values.root === 'string' ? values.root : undefined) ?? '.';
  const root = path.resolve(currentContext()?.cwd ?? process.cwd(), given);
  let st: fs.Stats;
  try {
    st = fs.statSync(root);
  } catch {
    throw new CliError('not-found', `no such folder: ${given}`);
  }
  if (!st.isDirectory()) throw new CliError('not-a-directory', `${given} is not a folder`);
  return root;
}

export function openEngine(values: OptionValues, root: string): Engine {
  return new Engine(engineOptions(values, root));
}

/** What an engine for `root` opens with, from the command line (the store checked first). */
export function engineOptions(values: OptionValues, root: string): EngineOptions {
  const assets = locateAssets();
  const store = typeof values.store === 'string' ? values.store : undefined;
  if (store === '') throw new UsageError('--store needs a directory');
  return {
    root,
    storeDir: checkedStoreDir(root, resolveStoreDir(root, store)),
    grammarsDir: assets.grammarsDir,
    workerScript: assets.chunkWorker,
    indexWorkerScript: assets.indexWorker,
    ripgrepPath: assets.ripgrep,
    onLockWait: (message) => process.stderr.write(`cairn: ${visible(message)}\n`),
    // A query answers within the bound a server keeps too; the rest is left for the next run.
    queryRefreshBudgetMs: QUERY_WAIT_MS,
  };
}

/**
 * The engine search, symbol, pack and status read through: this process's own, or, when
 * `cairn serve` runs the command for a client, the server's warm one (src/server/).
 */
export function openQueryEngine(values: OptionValues, root: string): QueryEngine {
  const served = currentContext();
  return served ? served.queryEngine(values, root) : openEngine(values, root);
}

/** Splits repeatable, comma-separated list options (`--lang ts,py --lang go`). */
export function listOption(values: OptionValues, name: string): string[] | undefined {
  const v = values[name];
  if (v === undefined || typeof v === 'boolean') return undefined;
  const list = (Array.isArray(v) ? v : [v]).flatMap((x: string) => x.split(',')).map((x) => x.trim()).filter(Boolean);
  return list.length ? list : undefined;
}
