// History evidence (src/core/history): which files past commits with messages like a text
// changed. A text close to a recurring kind of change points at its files; a text like no past
// message (a long issue in its own words) gets nothing; tests and prose never count.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';
import { headFromFiles, headOf, parseLog, type CommitLog } from '../../src/core/history/commitLog';
import { messageWords } from '../../src/core/history/messageWords';
import { pastCommitEvidence, similarCommits } from '../../src/core/history/similarCommits';
import type { FileHit } from '../../src/core/search/types';

const commit = (subject: string, files: string[]) => ({ subject, words: messageWords(subject), files });
const LOG: CommitLog = {
  head: 'a'.repeat(40),
  commits: [
    commit('update dev dependencies', ['.github/workflows/tests.yaml', '.pre-commit-config.yaml']),
    commit('add json provider for responses', ['src/json/provider.py', 'tests/test_json.py', 'CHANGES.rst']),
    commit('update dev dependencies', ['.github/workflows/tests.yaml', '.github/workflows/publish.yaml']),
    commit('document the session interface', ['docs/session.rst']),
    commit('fix session cookie domain', ['src/sessions.py', 'tests/test_sessions.py']),
    commit('release version 2.0', ['pyproject.toml']),
  ],
};
const counts = (p: string) => !p.startsWith('tests/') && !p.endsWith('.rst');

describe('past commits like a text, and the files they changed', () => {
  checkAll<string, Array<[string, number]>>(
    [
      { name: 'a recurring change points at the files each time it changed, strongest first', input: 'update dev dependencies', expected: [['.github/workflows/tests.yaml', 1], ['.github/workflows/publish.yaml', 0.5], ['.pre-commit-config.yaml', 0.5]] },
      { name: 'tests and prose never count', input: 'json provider', expected: [['src/json/provider.py', 1]] },
      { name: 'a text like no past message gets nothing', input: 'TypeError when the template loader is given a pathlib object on Windows, see traceback', expected: [] },
      { name: 'a few shared common words are not enough', input: 'update the docs for the new template loader and the config', expected: [] },
      { name: 'an empty text gets nothing', input: '', expected: [] },
      { name: 'one shared word is not enough (a one-word query)', input: 'dependencies', expected: [] },
      { name: 'one word of a past message, even its only rare one, is not enough', input: 'cookie', expected: [] },
    ],
    (text) => pastCommitEvidence(LOG, text, counts).map((e) => [e.path, Math.round(e.strength * 100) / 100]),
  );

  it('the closest commits come first, at most three, each with its cosine', () => {
    const found = similarCommits(LOG, 'update dev dependencies');
    assert.deepEqual(found.map((f) => f.index), [0, 2]);
    assert.ok(found.every((f) => f.similarity > 0.99), JSON.stringify(found));
  });

  it('reads git log output: subject, body words, files; a sweeping commit is left out', () => {
    const sweep = Array.from({ length: 60 }, (_, i) => `src/f${i}.py`).join('\n');
    const out = `\x1eupdate dev dependencies\x00bump the pinned actions\x00\n\n.github/workflows/tests.yaml\n.pre-commit-config.yaml\n\x1eformat everything\x00\x00\n\n${sweep}\n\x1ethe\x00\x00\n\nsrc/a.py\n`;
    assert.deepEqual(parseLog(out), [
      { subject: 'update dev dependencies', words: ['dev', 'dependencies', 'bump', 'pinned', 'actions'], files: ['.github/workflows/tests.yaml', '.pre-commit-config.yaml'] },
    ]);
  });
});

describe('file search with the repository\'s own history (a real git repository)', function () {
  this.timeout(60_000);
  let ws: TempWorkspace;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws.root, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' }, stdio: 'pipe' });
  const commitAll = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
  };

  beforeEach(() => {
    ws = new TempWorkspace({
      'src/app.py': 'def serve(request):\n    return dispatch(request)\n',
      'src/routing.py': 'def dispatch(request):\n    return route_table[request.path]\n',
      'ci/runner.yaml': 'image: runner:1\nsteps:\n  - test\n',
      'README.md': '# App\n\nServes requests.\n',
    });
    git('init', '-q', '-b', 'main');
    commitAll('initial layout');
    for (const v of [2, 3]) {
      ws.write('ci/runner.yaml', `image: runner:${v}\nsteps:\n  - test\n`);
      commitAll('bump the ci runner image');
      ws.write('src/routing.py', `def dispatch(request):\n    return route_table[request.path]  # v${v}\n`);
      commitAll('route requests by path');
    }
  });
  afterEach(() => ws.dispose());

  const pastPart = (f: FileHit): string | undefined => {
    for (const p of f.scoreBreakdown) if ('name' in p && p.name.startsWith('similar-past-commit')) return p.name;
    return undefined;
  };

  it('a text like past commits ranks the files they changed, and says why', async () => {
    const engine = ws.engine();
    const r = await engine.searchFiles('bump ci runner', { limit: 5 });
    assert.equal(r.files[0]?.path, 'ci/runner.yaml');
    assert.equal(r.files[0] && pastPart(r.files[0]), 'similar-past-commit: bump the ci runner image');
    // The log is kept in the store for this HEAD; a new commit replaces it.
    const kept = () => fs.readdirSync(ws.storeDir).filter((n) => n.startsWith('history-'));
    assert.equal(kept().length, 1);
    ws.write('src/app.py', 'def serve(request):\n    return dispatch(request)  # new\n');
    commitAll('serve requests');
    await engine.searchFiles('bump ci runner', { limit: 5 });
    assert.deepEqual(kept(), [`history-${git('rev-parse', 'HEAD').toString().trim()}.json`]);
  });

  it('a long-lived host reads the past commits while idle, before any file search asks', async () => {
    const engine = ws.engine();
    await engine.refresh();
    assert.deepEqual(fs.readdirSync(ws.storeDir).filter((n) => n.startsWith('history-')), []);
    await engine.warmUp();
    assert.deepEqual(fs.readdirSync(ws.storeDir).filter((n) => n.startsWith('history-')), [`history-${git('rev-parse', 'HEAD').toString().trim()}.json`]);
  });

  it("HEAD read from the repository's files is git's own answer: a branch, packed refs, detached, a subfolder, none", async () => {
    const rev = () => git('rev-parse', 'HEAD').toString().trim();
    const seen: Array<[string, string | undefined, string]> = [];
    seen.push(['branch', await headOf(ws.root), rev()]);
    git('pack-refs', '--all');
    seen.push(['packed', await headOf(ws.root), rev()]);
    git('checkout', '-q', '--detach', 'HEAD~1');
    seen.push(['detached', headFromFiles(ws.root) as string, rev()]);
    seen.push(['subfolder', await headOf(path.join(ws.root, 'src')), rev()]);
    for (const [what, got, want] of seen) assert.equal(got, want, what);
    fs.rmSync(path.join(ws.root, '.git'), { recursive: true, force: true });
    assert.equal(await headOf(ws.root), undefined);
  });

  it('a text like no past commit, or a folder outside any repository, gets no such part', async () => {
    const engine = ws.engine();
    const unlike = await engine.searchFiles('serve', { limit: 5 });
    assert.ok(unlike.files.length > 0 && unlike.files.every((f) => pastPart(f) === undefined), JSON.stringify(unlike.files.map((f) => f.scoreBreakdown)));
    fs.rmSync(path.join(ws.root, '.git'), { recursive: true, force: true });
    const outside = await ws.engine({ storeDir: path.join(ws.storeDir, '..', 'other-store') }).searchFiles('bump ci runner', { limit: 5 });
    assert.ok(outside.files.every((f) => pastPart(f) === undefined));
  });
});
