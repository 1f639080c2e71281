// A scratch copy of a repository's tree at one commit, moved from commit to commit in place.
//
// The commit is read into an index file of our own (`git read-tree --reset`, GIT_INDEX_FILE,
// which reads trees only), and the files that differ from what the scratch tree shows are
// written with `git checkout-index` against the repository's object store, with a work tree of
// our own (GIT_WORK_TREE): the user's index, work tree, branches and stash are never touched.
// Moving to the next commit rewrites only the entries whose blob or mode differ, and
// `changedPaths` says which, so the index store living beside the tree is refreshed
// incrementally, not rebuilt.
//
// A repository may lack some blobs (a partial clone, a snapshot that left out large files):
// those paths are left out of the tree and reported (`missingPaths`), never fatal.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareCodeUnits } from '../core/discovery/paths';
import { git, splitNul } from './git';

/** Keeps a user's sparse-checkout settings from leaving files out of the scratch tree. */
const TREE_CONFIG = ['-c', 'core.sparseCheckout=false', '-c', 'core.sparseCheckoutCone=false', '-c', 'core.fsmonitor=false', '-c', 'core.splitIndex=false'];

export interface TreeMove {
  commit: string;
  /** Paths (old and new) that differ from the previous commit; undefined on the first move (everything). */
  changedPaths?: string[];
  /** Paths of the commit left out of the tree because the repository lacks their blobs. */
  missingPaths: string[];
}

/** One entry of `git ls-files -s`: what the tree shows at a path. */
interface TreeEntry {
  mode: string;
  oid: string;
}

const GITLINK = '160000';

/** Parses `git ls-files -s -z` (`mode oid stage\tpath`); submodules are left out. */
export function parseStagedEntries(output: string): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  for (const record of splitNul(output)) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, oid] = record.slice(0, tab).split(' ');
    if (!mode || !oid || mode === GITLINK) continue;
    entries.set(record.slice(tab + 1), { mode, oid });
  }
  return entries;
}

export class ScratchTree {
  /** The folder holding the tree, the private index file and the index stores. */
  readonly base: string;
  /** The materialised tree: this is what gets indexed and searched. */
  readonly tree: string;
  private readonly indexFile: string;
  private current?: string;
  /** What the tree shows now, by path (blobs present only). */
  private shown = new Map<string, TreeEntry>();
  /** Blob ids known to be present / absent in the object store. */
  private readonly present = new Set<string>();
  private readonly absent = new Set<string>();

  private constructor(private readonly gitDir: string, base: string) {
    this.base = base;
    this.tree = path.join(base, 'tree');
    this.indexFile = path.join(base, 'git-index');
    fs.mkdirSync(this.tree, { recursive: true });
  }

  /** A scratch folder under `parentDir` (default: the system temp folder) for the repository `gitDir`. */
  static create(gitDir: string, parentDir?: string): ScratchTree {
    const where = parentDir ?? os.tmpdir();
    fs.mkdirSync(where, { recursive: true });
    return new ScratchTree(gitDir, fs.mkdtempSync(path.join(where, 'cairn-eval-')));
  }

  /** The commit the tree currently shows. */
  get commit(): string | undefined {
    return this.current;
  }

  /** A folder for one index store, outside the tree so it is never indexed itself. */
  storeDir(name: string): string {
    return path.join(this.base, 'stores', name.replace(/[^\w.-]+/g, '_'));
  }

  /** Makes the tree show `commit`, rewriting only what differs from the commit shown now. */
  async moveTo(commit: string, signal?: AbortSignal): Promise<TreeMove> {
    if (this.current === commit) return { commit, changedPaths: [], missingPaths: [] };
    const env = this.gitEnv();
    await git(this.tree, [...TREE_CONFIG, 'read-tree', '--reset', commit], { env, signal });
    const next = parseStagedEntries(await git(this.tree, ['ls-files', '-s', '-z'], { env, signal }));
    await this.checkBlobs([...next.values()].map((e) => e.oid), signal);
    const missingPaths: string[] = [];
    for (const [p, e] of next) {
      if (!this.absent.has(e.oid)) continue;
      missingPaths.push(p);
      next.delete(p);
    }
    const removed = [...this.shown.keys()].filter((p) => !next.has(p));
    const written = [...next].filter(([p, e]) => {
      const before = this.shown.get(p);
      return !before || before.oid !== e.oid || before.mode !== e.mode;
    }).map(([p]) => p);
    // Deletions first, so a file that became a folder (or the reverse) is out of the way.
    for (const p of removed) this.removeFile(p);
    if (missingPaths.length > 0) {
      await git(this.tree, ['update-index', '--force-remove', '-z', '--stdin'], { env, signal, input: missingPaths.map((p) => `${p}\0`).join('') });
    }
    if (written.length > 0) {
      for (const p of written) if (this.shown.has(p)) fs.rmSync(path.join(this.tree, p), { force: true, recursive: true });
      await git(this.tree, ['checkout-index', '-f', '-z', '--stdin'], { env, signal, input: written.map((p) => `${p}\0`).join('') });
    }
    const first = this.current === undefined;
    this.current = commit;
    this.shown = next;
    if (first) return { commit, missingPaths };
    return { commit, changedPaths: [...removed, ...written].sort(compareCodeUnits), missingPaths };
  }

  /** Sorts blob ids into present and absent (`git cat-file --batch-check`), asking about new ones only. */
  private async checkBlobs(oids: readonly string[], signal?: AbortSignal): Promise<void> {
    const unknown = [...new Set(oids)].filter((o) => !this.present.has(o) && !this.absent.has(o));
    if (unknown.length === 0) return;
    const out = await git(this.tree, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { env: this.gitEnv(), signal, input: unknown.map((o) => `${o}\n`).join('') });
    const found = new Set<string>();
    for (const line of out.split('\n')) {
      const [oid, type] = line.split(' ');
      if (oid && type && type !== 'missing') found.add(oid);
    }
    for (const o of unknown) (found.has(o) ? this.present : this.absent).add(o);
  }

  /** Deletes a file of the tree and the folders it leaves empty. */
  private removeFile(rel: string): void {
    fs.rmSync(path.join(this.tree, rel), { force: true, recursive: true });
    for (let dir = path.dirname(rel); dir !== '.' && dir !== ''; dir = path.dirname(dir)) {
      try {
        fs.rmdirSync(path.join(this.tree, dir));
      } catch {
        break; // not empty (or gone)
      }
    }
  }

  private gitEnv(): Record<string, string> {
    return { GIT_DIR: this.gitDir, GIT_WORK_TREE: this.tree, GIT_INDEX_FILE: this.indexFile };
  }

  /** Deletes the scratch folder: tree, private index and stores. */
  dispose(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}
