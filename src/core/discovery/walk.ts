// File-system listing for roots outside a git work tree (or with useGit off): a depth-first
// walk that prunes excluded and ignored directories before entering them and never follows
// symlinks, so a link loop cannot hang it.
import * as fs from 'node:fs';
import type { CandidateSet } from './candidates';
import type { IgnoreLayer } from './ignoreRules';
import { joinRel, toAbsolute } from './paths';
import type { PathRules } from './rules';
import { yieldToEventLoop } from './statFiles';

/** Entries processed between yields to the event loop. */
const ENTRIES_PER_YIELD = 2048;

export interface WalkContext {
  root: string;
  rules: PathRules;
  /** `.gitignore` files, and the extra ignore files: independent layers, either can exclude. */
  layers: readonly IgnoreLayer[];
  candidates: CandidateSet;
  signal?: AbortSignal;
}

type EntryKind = 'dir' | 'file' | 'link' | 'other';

function kindOf(entry: fs.Dirent, root: string, relPath: string): EntryKind | undefined {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) return 'other';
  // Some file systems do not report entry types (DT_UNKNOWN): ask lstat.
  const stats = fs.lstatSync(toAbsolute(root, relPath), { throwIfNoEntry: false });
  if (!stats) return undefined;
  return stats.isDirectory() ? 'dir' : stats.isSymbolicLink() ? 'link' : stats.isFile() ? 'file' : 'other';
}

export function isIgnoredByAny(layers: readonly IgnoreLayer[], relPath: string, isDir: boolean): boolean {
  return layers.some((layer) => layer.isIgnored(relPath, isDir));
}

/**
 * Walks the directory `startDir` (relative, '' for the root), which the caller has checked is
 * neither pruned nor ignored and whose ancestors' ignore files are loaded. Synchronous
 * readdir is no slower than the promise API and avoids thousands of promises.
 */
export async function walkDirectory(ctx: WalkContext, startDir: string): Promise<void> {
  const { root, rules, layers, candidates, signal } = ctx;
  const pending = [startDir];
  let sinceYield = 0;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(toAbsolute(root, dir), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      // A directory that vanished mid-walk is simply gone; any other failure is reported.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') candidates.skip({ path: dir === '' ? '.' : dir, reason: 'unreadable', detail: code });
      continue;
    }
    const names = new Set(entries.map((e) => e.name));
    for (const layer of layers) await layer.loadDir(dir, names);

    for (const entry of entries) {
      const rel = joinRel(dir, entry.name);
      let kind: EntryKind | undefined;
      try {
        kind = kindOf(entry, root, rel);
      } catch {
        kind = 'other';
      }
      if (kind === undefined) continue;
      if (kind === 'dir') {
        if (!rules.isExcludedDirName(entry.name) && !isIgnoredByAny(layers, rel, true)) pending.push(rel);
      } else if (!isIgnoredByAny(layers, rel, false)) {
        // Like git, a symlink is matched against ignore rules as a file, whatever it points to.
        candidates.consider(rel, kind === 'link');
      }
    }

    sinceYield += entries.length;
    if (sinceYield >= ENTRIES_PER_YIELD) {
      sinceYield = 0;
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
  }
}
