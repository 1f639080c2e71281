// A scratch copy of a repository's tree at one commit, moved from commit to commit in place.
//
// The tree is written with `git read-tree --reset -u` against the repository's object store,
// using a work tree and an index file of our own (GIT_WORK_TREE, GIT_INDEX_FILE): the user's
// index, work tree, branches and stash are never touched. Moving to the next commit rewrites
// only the files that differ (git compares the two trees), and `changedPaths` says which, so
// the index store living beside the tree is refreshed incrementally, not rebuilt.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git, splitNul } from './git';

/** Keeps a user's sparse-checkout settings from leaving files out of the scratch tree. */
const TREE_CONFIG = ['-c', 'core.sparseCheckout=false', '-c', 'core.sparseCheckoutCone=false', '-c', 'core.fsmonitor=false', '-c', 'core.splitIndex=false'];

export interface TreeMove {
  commit: string;
  /** Paths (old and new) that differ from the previous commit; undefined on the first move (everything). */
  changedPaths?: string[];
}

export class ScratchTree {
  /** The folder holding the tree, the private index file and the index stores. */
  readonly base: string;
  /** The materialised tree: this is what gets indexed and searched. */
  readonly tree: string;
  private readonly indexFile: string;
  private current?: string;

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
    if (this.current === commit) return { commit, changedPaths: [] };
    let changedPaths: string[] | undefined;
    if (this.current !== undefined) {
      const out = await git(this.tree, ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', this.current, commit], { env: this.gitEnv(), signal });
      changedPaths = splitNul(out);
    }
    await git(this.tree, [...TREE_CONFIG, 'read-tree', '--reset', '-u', commit], { env: this.gitEnv(), signal });
    this.current = commit;
    return changedPaths === undefined ? { commit } : { commit, changedPaths };
  }

  private gitEnv(): Record<string, string> {
    return { GIT_DIR: this.gitDir, GIT_WORK_TREE: this.tree, GIT_INDEX_FILE: this.indexFile };
  }

  /** Deletes the scratch folder: tree, private index and stores. */
  dispose(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}
