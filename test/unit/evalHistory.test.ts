// A task asked at a base commit sees that commit's history and nothing later: the scratch tree's
// own `.git` (src/eval/history.ts) reaches the commit's ancestry only, even after it showed
// a later commit.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { locateRepository } from '../../src/eval/git';
import { objectsDir, pinHistory } from '../../src/eval/history';
import { ScratchTree } from '../../src/eval/scratch';
import { buildHistoryFixture, type HistoryFixture } from './evalFixture';

describe('eval: the history a scratch tree shows', function () {
  this.timeout(60000);
  let fixture: HistoryFixture;
  let scratch: ScratchTree;
  let objects: string;

  before(async () => {
    fixture = buildHistoryFixture();
    const { gitDir } = await locateRepository(fixture.dir);
    scratch = ScratchTree.create(gitDir);
    objects = await objectsDir(gitDir);
  });
  after(() => {
    scratch.dispose();
    fixture.dispose();
  });

  const inTree = (...args: string[]): string =>
    execFileSync('git', args, { cwd: scratch.tree, encoding: 'utf8', env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined } }).trim();

  const show = async (label: string): Promise<void> => {
    const commit = fixture.commits[label] as string;
    await scratch.moveTo(commit);
    await pinHistory(scratch.tree, objects, commit);
  };

  it('HEAD is the commit, everything reachable is its ancestry, and the tree is clean', async () => {
    await show('median');
    assert.equal(inTree('rev-parse', 'HEAD'), fixture.commits.median);
    assert.equal(inTree('log', '--all', '--reflog', '--format=%H'), fixture.git('rev-list', fixture.commits.median as string));
    assert.equal(inTree('status', '--porcelain'), '');
  });

  it('moved back to an earlier commit, the later one is unreachable (no ref, no reflog)', async () => {
    await show('median');
    await show('retry');
    assert.equal(inTree('rev-parse', 'HEAD'), fixture.commits.retry);
    const reachable = inTree('log', '--all', '--reflog', '--format=%H').split('\n');
    assert.deepEqual(reachable, fixture.git('rev-list', fixture.commits.retry as string).split('\n'));
    assert.ok(!reachable.includes(fixture.commits.median as string));
    assert.equal(inTree('status', '--porcelain'), '');
  });
});
