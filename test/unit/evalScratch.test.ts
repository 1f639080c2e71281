import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { locateRepository } from '../../src/eval/git';
import { runEvaluation } from '../../src/eval/runner';
import { ScratchTree } from '../../src/eval/scratch';
import { formatSummary } from '../../src/eval/table';
import type { EvalReport } from '../../src/eval/types';
import { CLIENT_V1, CLIENT_V2, buildHistoryFixture, type HistoryFixture } from './evalFixture';
import { GRAMMARS_DIR } from './helpers/workspace';

const RG = (() => {
  try {
    return require.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`);
  } catch {
    return undefined;
  }
})();

function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(root, p));
    else out.push(p);
  }
  return out.sort();
}

/** What a user would notice changing in their checkout: status, staged index, HEAD, branches. */
function userState(f: HistoryFixture): string {
  const index = fs.statSync(path.join(f.dir, '.git', 'index'));
  return JSON.stringify([f.git('--no-optional-locks', 'status', '--porcelain'), f.git('rev-parse', 'HEAD'), f.git('branch', '--list'), f.git('stash', 'list'), index.size, index.mtimeMs, fs.readFileSync(path.join(f.dir, 'src/http/client.ts'), 'utf8')]);
}

describe('eval: scratch tree', function () {
  this.timeout(60000);
  let fixture: HistoryFixture;
  let scratch: ScratchTree;

  before(async () => {
    fixture = buildHistoryFixture();
    // A user with work in progress: one staged change, one unstaged edit.
    fs.writeFileSync(path.join(fixture.dir, 'src/util.ts'), 'export const staged = 1;\n');
    fixture.git('add', 'src/util.ts');
    fs.writeFileSync(path.join(fixture.dir, 'src/http/client.ts'), '// my unsaved experiment\n');
    scratch = ScratchTree.create((await locateRepository(fixture.dir)).gitDir);
  });
  after(() => {
    scratch.dispose();
    fixture.dispose();
  });

  it('materialises a commit, then moves to the next rewriting only what differs, never touching the user checkout', async () => {
    const before = userState(fixture);
    const first = await scratch.moveTo(fixture.commits.root as string);
    assert.equal(first.changedPaths, undefined, 'the first move writes everything');
    assert.deepEqual(listFiles(scratch.tree), fixture.git('ls-tree', '-r', '--name-only', fixture.commits.root as string).split('\n').sort());
    assert.equal(fs.readFileSync(path.join(scratch.tree, 'src/http/client.ts'), 'utf8'), CLIENT_V1);
    const untouched = fs.statSync(path.join(scratch.tree, 'src/parser.ts')).mtimeMs;

    const second = await scratch.moveTo(fixture.commits.retry as string);
    assert.deepEqual(second.changedPaths, ['src/http/client.ts']);
    assert.equal(fs.readFileSync(path.join(scratch.tree, 'src/http/client.ts'), 'utf8'), CLIENT_V2);
    assert.equal(fs.statSync(path.join(scratch.tree, 'src/parser.ts')).mtimeMs, untouched, 'unchanged files are not rewritten');

    await scratch.moveTo(fixture.commits.newfile as string);
    assert.ok(fs.existsSync(path.join(scratch.tree, 'src/requestCache.ts')));
    const back = await scratch.moveTo(fixture.commits.port as string);
    assert.ok(back.changedPaths?.includes('src/requestCache.ts'));
    assert.equal(fs.existsSync(path.join(scratch.tree, 'src/requestCache.ts')), false, 'files absent from the target commit are deleted');
    assert.deepEqual(listFiles(scratch.tree), fixture.git('ls-tree', '-r', '--name-only', fixture.commits.port as string).split('\n').sort());
    assert.equal(userState(fixture), before);
  });

  it('moving to the commit it already shows changes nothing', async () => {
    const again = await scratch.moveTo(scratch.commit as string);
    assert.deepEqual(again.changedPaths, []);
  });
});

describe('eval: a run over the fixture history', function () {
  this.timeout(120000);
  let fixture: HistoryFixture;
  let report: EvalReport;

  before(async () => {
    fixture = buildHistoryFixture();
    report = await runEvaluation({ repoDir: fixture.dir, engine: { grammarsDir: GRAMMARS_DIR, workers: 0, ripgrepPath: RG }, maxCases: 10, keepScratch: true });
  });
  after(() => {
    if (report?.scratch) fs.rmSync(report.scratch, { recursive: true, force: true });
    fixture.dispose();
  });

  it('indexes the first parent once, then refreshes only the files that differ between neighbouring parents', () => {
    assert.deepEqual(
      report.cases.map((c) => [c.commit, c.treeChanges, c.refresh.default]),
      [
        [fixture.commits.retry, 'all', { ...report.cases[0]?.refresh.default, full: true, requestedPaths: 11, filesScanned: 11, added: 11, changed: 0, removed: 0, unchanged: 0 }],
        // root -> retry: the client only
        [fixture.commits.escapes, 1, { ...report.cases[1]?.refresh.default, full: false, requestedPaths: 1, filesScanned: 1, added: 0, changed: 1, removed: 0, unchanged: 0 }],
        // retry -> docs: parser (escapes, typo), its test, package.json (bump), README (docs)
        [fixture.commits.median, 4, { ...report.cases[2]?.refresh.default, full: false, requestedPaths: 4, filesScanned: 4, added: 0, changed: 4, removed: 0, unchanged: 0 }],
        // docs -> merge: math.ts from the feature branch
        [fixture.commits.port, 1, { ...report.cases[3]?.refresh.default, full: false, requestedPaths: 1, filesScanned: 1, added: 0, changed: 1, removed: 0, unchanged: 0 }],
      ],
    );
  });

  it('scores every system on every case', () => {
    assert.equal(report.evaluated, 4);
    assert.deepEqual(report.systems.map((s) => [s.name, s.cases, s.spans]), [
      ['cairn index', 4, true],
      ['cairn files', 4, false],
      ['cairn hybrid', 4, true],
      ['cairn pack', 4, true],
      ['bm25 whole-file', 4, false],
      ['rg query-words', 4, false],
    ]);
    for (const s of report.systems) {
      const m = s.metrics;
      assert.ok(m, s.name);
      for (const v of [m.recallAt1, m.recallAt5, m.recallAt10, m.mrr]) assert.ok(v >= 0 && v <= 1, `${s.name}: ${JSON.stringify(m)}`);
      assert.equal(m.hitAt10 === null, !s.spans, `${s.name}: Hit@10 is n/a exactly for whole-file systems`);
      assert.equal(m.packCoverage === null, s.system !== 'pack', s.name);
    }
  });

  it('per-case outcomes agree with the means', () => {
    for (const s of report.systems) {
      const outcomes = report.cases.map((c) => c.outcomes[s.name]);
      assert.ok(outcomes.every(Boolean), s.name);
      const r10 = outcomes.reduce((sum, o) => sum + (o?.recallAt10 ?? 0), 0) / outcomes.length;
      const mrr = outcomes.reduce((sum, o) => sum + (o?.firstRelevantRank ? 1 / o.firstRelevantRank : 0), 0) / outcomes.length;
      assert.ok(Math.abs(r10 - (s.metrics?.recallAt10 ?? -1)) < 1e-9, s.name);
      assert.ok(Math.abs(mrr - (s.metrics?.mrr ?? -1)) < 1e-9, s.name);
    }
  });

  it('finds the obvious answers: the client for the retry task, the config for the port task', () => {
    const retry = report.cases.find((c) => c.commit === fixture.commits.retry);
    const port = report.cases.find((c) => c.commit === fixture.commits.port);
    assert.equal(retry?.outcomes['cairn index']?.firstRelevantRank, 1, JSON.stringify(retry?.outcomes['cairn index']));
    assert.equal(port?.outcomes['cairn index']?.firstRelevantRank, 1, JSON.stringify(port?.outcomes['cairn index']));
    assert.equal(port?.outcomes['bm25 whole-file']?.firstRelevantRank, 1);
  });

  it('keeps the scratch folder only when asked, and reports where it is', () => {
    assert.ok(report.scratch && fs.existsSync(path.join(report.scratch, 'tree', 'src', 'config.ts')));
  });
});

describe('eval: a repository that lacks some blobs', function () {
  this.timeout(120000);
  let dir: string;
  const commits: Record<string, string> = {};
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Fixture Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', '-c', 'gc.auto=0', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined },
    }).trim();
  const commit = (label: string, message: string, files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    git('add', '-A');
    git('commit', '-q', '-m', message);
    commits[label] = git('rev-parse', 'HEAD');
  };
  /** Deletes a blob's loose object file, as a snapshot that left out large files would lack it. */
  const dropBlob = (spec: string) => {
    const oid = git('rev-parse', spec);
    fs.rmSync(path.join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2)));
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-eval-missing-'));
    git('init', '-q', '-b', 'main');
    commit('root', 'Initial import', {
      'src/http/client.ts': CLIENT_V1,
      'src/config.ts': 'export function readConfig(text: string): unknown {\n  return JSON.parse(text);\n}\n',
      'tools/maven-wrapper.tar.gz.txt': 'a large archive the snapshot left out\n',
    });
    commit('retry', 'Add retry with exponential backoff to the HTTP client (#12)', { 'src/http/client.ts': CLIENT_V2 });
    commit('config', 'Reject configuration files that are not objects', {
      'src/config.ts': 'export function readConfig(text: string): object {\n  const v: unknown = JSON.parse(text);\n  if (typeof v !== "object" || v === null) throw new Error("not an object");\n  return v;\n}\n',
    });
    dropBlob(`${commits.root}:tools/maven-wrapper.tar.gz.txt`);
    dropBlob(`${commits.root}:src/config.ts`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the scratch tree leaves those paths out and says which', async () => {
    const scratch = ScratchTree.create((await locateRepository(dir)).gitDir);
    try {
      const first = await scratch.moveTo(commits.root as string);
      assert.deepEqual(first.missingPaths, ['src/config.ts', 'tools/maven-wrapper.tar.gz.txt']);
      assert.deepEqual(listFiles(scratch.tree), ['src/http/client.ts']);
      const next = await scratch.moveTo(commits.config as string);
      assert.deepEqual(next.missingPaths, ['tools/maven-wrapper.tar.gz.txt']);
      assert.deepEqual(next.changedPaths, ['src/config.ts', 'src/http/client.ts']);
      assert.deepEqual(listFiles(scratch.tree), ['src/config.ts', 'src/http/client.ts']);
      const back = await scratch.moveTo(commits.root as string);
      assert.deepEqual(back.changedPaths, ['src/config.ts', 'src/http/client.ts']);
      assert.deepEqual(listFiles(scratch.tree), ['src/http/client.ts'], 'a path whose blob is missing is removed, not left stale');
    } finally {
      scratch.dispose();
    }
  });

  it('the evaluation runs on, skipping a commit whose diff needs a missing blob, and counts the paths left out', async () => {
    const report = await runEvaluation({ repoDir: dir, engine: { grammarsDir: GRAMMARS_DIR, workers: 0 }, maxCases: 5, systems: ['index', 'bm25'] });
    assert.deepEqual(report.cases.map((c) => c.commit), [commits.retry]);
    assert.equal(report.evaluated, 1);
    assert.deepEqual(report.mining.skipped, { root: 1, 'missing-blobs': 1 });
    assert.deepEqual(report.missingBlobPaths, ['src/config.ts', 'tools/maven-wrapper.tar.gz.txt']);
    assert.ok(report.warnings.some((w) => w.startsWith('2 path(s) left out of the scratch trees: the repository lacks their blobs')), report.warnings.join('\n'));
    assert.match(formatSummary(report)[0] ?? '', /; 2 path\(s\) without blobs left out of the trees$/);
  });
});
