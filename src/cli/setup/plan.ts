// What `cairn setup CLIENT` would change, worked out before anything is written: the file's
// text before and after, and why. Writing is a separate step (`applyChange`), so --dry-run and
// a refusal (invalid JSON, a differing entry without --force) write nothing by construction.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureDirectoryInside } from '../../core/clientApi';
import { type ClientSpec, type ServerEntry, SERVER_NAME } from './clients';
import { ConfigError, parseConfig, sameJson, serversOf, setServer } from './jsonConfig';
import { withInstructions } from './instructions';
import { rewriteRefusal, writeKeepingMode } from './writeConfig';

export type ChangeStatus =
  /** The file does not exist yet. */
  | 'create'
  /** The entry (or section) is added or replaced. */
  | 'update'
  /** Nothing to do. */
  | 'unchanged'
  /** A `cairn` entry exists and differs; only --force replaces it. */
  | 'conflict';

export interface FileChange {
  /** Relative to the root, with forward slashes. */
  file: string;
  status: ChangeStatus;
  before: string | undefined;
  after: string;
  /** For a conflict: the entry that is there now. */
  existing?: unknown;
}

/** Reads a file under the root; undefined when missing. Refuses a link, which a rewrite would replace. */
export function readInsideRoot(root: string, rel: string): string | undefined {
  const full = path.join(root, rel);
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(full);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
  if (stats.isSymbolicLink()) throw new ConfigError(`${rel} is a symbolic link: edit the file it points to by hand; nothing was written`);
  if (!stats.isFile()) throw new ConfigError(`${rel} is not a regular file; nothing was written`);
  return fs.readFileSync(full, 'utf8');
}

/** The change to the client's configuration that adds `entry` as the `cairn` server. */
export function planConfig(root: string, client: ClientSpec, entry: ServerEntry, force: boolean): FileChange {
  const file = client.configPath;
  if (!file) throw new Error(`${client.name} has no configuration file`);
  const before = readInsideRoot(root, file);
  const config = parseConfig(before ?? '', file, client.jsonc);
  const existing = serversOf(config, client.serversKey, file)?.[SERVER_NAME];
  if (existing !== undefined && sameJson(existing, entry)) return { file, status: 'unchanged', before, after: before ?? '' };
  const after = setServer(before ?? '', client.serversKey, SERVER_NAME, entry);
  if (existing !== undefined && !force) return { file, status: 'conflict', before, after, existing };
  return { file, status: before === undefined ? 'create' : 'update', before, after };
}

/** The change to the client's instructions file that puts in Cairn's section. */
export function planInstructions(root: string, client: ClientSpec): FileChange {
  const file = client.instructionsPath;
  const before = readInsideRoot(root, file);
  const after = withInstructions(before, client.instructionsPreamble);
  return { file, status: before === undefined ? 'create' : after === before ? 'unchanged' : 'update', before, after };
}

const writes = (change: FileChange): boolean => change.status === 'create' || change.status === 'update';

/**
 * Writes a planned change crash-safely, keeping the file's mode, making folders under the root
 * without leaving it.
 */
export function applyChange(root: string, change: FileChange): void {
  if (!writes(change)) return;
  const target = path.join(root, change.file);
  const dir = ensureDirectoryInside(root, path.dirname(target));
  writeKeepingMode(path.join(dir, path.basename(target)), change.file, change.after);
}

export interface SetupOptions {
  force: boolean;
  dryRun: boolean;
  instructions: boolean;
}

export interface SetupOutcome {
  changes: FileChange[];
  /** Whether the changes were written: not on a dry run, and not at all when one of them is a conflict. */
  written: boolean;
  conflict?: FileChange;
}

/** Plans every change for `client`, then writes them all, or none (dry run, conflict, invalid file). */
export function runSetup(root: string, client: ClientSpec, entry: ServerEntry, options: SetupOptions): SetupOutcome {
  const changes: FileChange[] = [];
  if (client.configPath) changes.push(planConfig(root, client, entry, options.force));
  if (options.instructions) changes.push(planInstructions(root, client));
  const conflict = changes.find((c) => c.status === 'conflict');
  const written = !options.dryRun && !conflict;
  if (written) {
    // Every file is checked before any is written: all of them or none.
    for (const change of changes.filter(writes)) {
      const refusal = rewriteRefusal(path.join(root, change.file), change.file);
      if (refusal) throw new ConfigError(refusal);
    }
    for (const change of changes) applyChange(root, change);
  }
  return { changes, written, ...(conflict ? { conflict } : {}) };
}
