// Gives a scratch tree a history that ends at the commit it shows, so any signal read from git
// in it (log, blame, recency) sees that commit's ancestry and nothing later: a task asked at a
// base commit must not be answered from the fix that followed it.
//
// The tree gets a `.git` of its own that borrows the repository's objects (an alternates file,
// nothing copied) and has no refs: only a detached HEAD at the commit, no reflog, an index of
// that commit. Objects of later commits are in the borrowed store but reachable from nothing,
// so `git log --all` in the tree lists the ancestry only. Discovery never walks `.git`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git } from './git';

/** The object folder of the repository whose git directory is `gitDir` (worktrees share their main repository's). */
export async function objectsDir(gitDir: string): Promise<string> {
  const common = (await git(gitDir, ['rev-parse', '--git-common-dir'])).trim();
  return path.join(path.resolve(gitDir, common), 'objects');
}

/** Points the tree's own `.git` (created on first use) at `commit`, detached, with nothing after it reachable. */
export async function pinHistory(tree: string, objects: string, commit: string, signal?: AbortSignal): Promise<void> {
  const dotGit = path.join(tree, '.git');
  if (!fs.existsSync(path.join(dotGit, 'HEAD'))) {
    await git(tree, ['init', '-q', '--template=', tree], { signal });
    fs.mkdirSync(path.join(dotGit, 'objects', 'info'), { recursive: true });
    fs.writeFileSync(path.join(dotGit, 'objects', 'info', 'alternates'), `${objects}\n`);
  }
  const repo = ['-c', 'core.logAllRefUpdates=false'];
  await git(tree, [...repo, 'update-ref', '--no-deref', 'HEAD', commit], { signal });
  // A branch `git init` named stays unborn (no ref file), so HEAD is the only way in.
  await git(tree, [...repo, 'read-tree', '--reset', commit], { signal });
}
