// `cairn eval --tasks` through the bundled CLI (`node dist/cli.js`, built by `node esbuild.mjs`)
// on a two-commit git repository built in a temp folder, with a task asked at each commit.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, runCairn } from './cli';

const PARSER = `"""Reading message headers and bodies."""


def parse_header(line):
    """Split a header line into its name and value."""
    name, _, value = line.partition(":")
    return name.strip().lower(), value.strip()


def parse_body(lines):
    """Join the body lines of a message."""
    return "\\n".join(lines)
`;

const RENDER = `def render_table(rows):
    width = max(len(r) for r in rows)
    return [r.ljust(width) for r in rows]


def render_chart(values):
    return ["#" * v for v in values]
`;

// Only in the second commit: a task asked at the first must never see it.
const CACHE = `"""An in-memory cache whose entries expire."""
import time


class Cache:
    def __init__(self, ttl):
        self.ttl = ttl
        self.entries = {}

    def put(self, key, value):
        self.entries[key] = (time.time(), value)

    def evict_stale_entries(self):
        """Drop the stale entries: those older than the ttl."""
        now = time.time()
        for key, (stamp, _) in list(self.entries.items()):
            if now - stamp < self.ttl:
                del self.entries[key]
`;

// The fix of the first task: line 6 of parser.py (in parse_header) rewritten, two lines added.
const PATCH = `diff --git a/src/parser.py b/src/parser.py
--- a/src/parser.py
+++ b/src/parser.py
@@ -4,4 +4,6 @@ def parse_header(line):
 def parse_header(line):
     """Split a header line into its name and value."""
-    name, _, value = line.partition(":")
+    name, colon, value = line.partition(":")
+    if not colon:
+        raise ValueError(f"not a header line: {line!r}")
     return name.strip().lower(), value.strip()
`;

interface TaskJson {
  evaluated: number;
  skipped: { otherRepo: number; missingCommit: string[]; noSearchableGold: string[] };
  variants: Array<{ name: string; settings: Record<string, unknown> }>;
  systems: Array<{ name: string; system: string; variant?: string; metrics: Record<string, number | null> }>;
  cases: Array<{ instanceId: string; goldFiles: string[]; goldFunctions?: string[]; outcomes: Record<string, { topFiles: string[] }> }>;
}

describe('cairn eval --tasks (bundled CLI)', function () {
  this.timeout(120000);
  let dir: string;
  let repo: string;
  let tasksFile: string;
  let scratchParent: string;
  const commits: string[] = [];

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    dir = mkdtempSync(path.join(tmpdir(), 'cairn-eval-tasks-'));
    repo = path.join(dir, 'repo');
    scratchParent = path.join(dir, 'scratch');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    mkdirSync(scratchParent);
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=Fixture Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined },
      }).trim();
    git('init', '-q');
    writeFileSync(path.join(repo, 'src/parser.py'), PARSER);
    writeFileSync(path.join(repo, 'src/render.py'), RENDER);
    git('add', '-A');
    git('commit', '-q', '-m', 'Message parsing and rendering');
    commits.push(git('rev-parse', 'HEAD'));
    writeFileSync(path.join(repo, 'src/cache.py'), CACHE);
    git('add', '-A');
    git('commit', '-q', '-m', 'An expiring cache');
    commits.push(git('rev-parse', 'HEAD'));
    const tasks = [
      {
        instance_id: 'acme__mail-1',
        repo: 'acme/mail',
        base_commit: commits[0],
        problem_statement: "parse_header accepts a header line without a colon\n\nparse_header('Subject') gives an empty value for such a stale line instead of raising ValueError.",
        patch: PATCH,
      },
      {
        instance_id: 'acme__mail-2',
        repo: 'acme/mail',
        base_commit: commits[1],
        // Longer than 64 words: the search keeps its telling words, and the run says so.
        problem_statement: `Cache.evict_stale_entries drops the fresh entries and keeps the stale ones (the ttl comparison is reversed)\n\n${'Steps to reproduce: put an entry, wait, evict. '.repeat(30)}`,
        gold_files: ['src/cache.py'],
      },
    ];
    tasksFile = path.join(dir, 'tasks.jsonl');
    writeFileSync(tasksFile, tasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints file and function figures for every ranker, each task at its base commit', () => {
    const r = runCairn(['eval', '--tasks', tasksFile, repo, '--scratch', scratchParent]);
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n');
    assert.match(rows[0] ?? '', /^ranker\s+tasks\s+file Acc@1\s+Acc@3\s+Acc@5\s+Acc@10\s+MRR\s+fn tasks\s+fn Acc@5\s+fn Acc@10\s+ms\/task$/);
    // Every figure but the time; the function columns only for rankers answering with spans, over the task with a patch.
    assert.deepEqual(
      rows.slice(2).map((l) => l.split(/\s{2,}/).slice(0, -1)),
      [
        ['cairn search', '2', '1.000', '1.000', '1.000', '1.000', '1.000', '1', '1.000', '1.000'],
        ['cairn search --group file', '2', '1.000', '1.000', '1.000', '1.000', '1.000', '1', '1.000', '1.000'],
        ['cairn pack mustInspect', '2', '1.000', '1.000', '1.000', '1.000', '1.000', '1', '1.000', '1.000'],
        ['bm25 whole-file', '2', '1.000', '1.000', '1.000', '1.000', '1.000', '0', 'n/a', 'n/a'],
      ],
    );
    assert.match(r.stderr, /2 of 2 tasks evaluated on /);
    assert.match(r.stderr, /warning: 1 task\(s\) searched with a warning about the problem statement as a query, e\.g\. acme__mail-2: a long text: searched for \d+ of its \d+ distinct words/);
    assert.match(r.stderr, /task 2\/2 acme__mail-2, \d+:\d\d elapsed, about \d+:\d\d left/);
    assert.deepEqual(readdirSync(scratchParent), [], 'the scratch folder is removed');
  });

  it('--json: the gold function of the patch, and nothing from after the base commit', () => {
    const r = runCairn(['eval', '--tasks', tasksFile, repo, '--json', '--scratch', scratchParent]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as TaskJson;
    const [first, second] = report.cases;
    assert.deepEqual([first?.instanceId, first?.goldFunctions], ['acme__mail-1', ['src/parser.py#parse_header@4']]);
    assert.deepEqual([second?.instanceId, second?.goldFunctions], ['acme__mail-2', undefined]);
    // The first task's text says "stale", which only the later cache.py holds.
    for (const [system, outcome] of Object.entries(first?.outcomes ?? {})) assert.ok(!outcome.topFiles.includes('src/cache.py'), `${system} saw a file of a later commit: ${outcome.topFiles.join(', ')}`);
    assert.ok(second?.outcomes['bm25 whole-file']?.topFiles.includes('src/cache.py'));
  });

  it('compares --param and --config variants in the same run: their rows, then the baseline once', () => {
    const config = path.join(dir, 'variants.json');
    writeFileSync(config, JSON.stringify({ variants: [{ name: 'lines', strategy: 'lines' }] }));
    const r = runCairn(['eval', '--tasks', tasksFile, repo, '--json', '--scratch', scratchParent, '--param', 'ranking.pastCommitWords=0', '--name', 'no-words', '--config', config]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as TaskJson;
    assert.deepEqual(report.variants, [
      { name: 'default', settings: {} },
      { name: 'lines', settings: { strategy: 'lines' } },
      { name: 'no-words', settings: { ranking: { pastCommitWords: 0 } } },
    ]);
    const rankers = ['cairn search', 'cairn search --group file', 'cairn pack mustInspect'];
    assert.deepEqual(
      report.systems.map((s) => [s.name, s.system, s.variant, s.metrics.tasks]),
      [
        ...rankers.map((n) => [n, n, 'default', 2]),
        ...rankers.map((n) => [`${n} [lines]`, n, 'lines', 2]),
        ...rankers.map((n) => [`${n} [no-words]`, n, 'no-words', 2]),
        ['bm25 whole-file', 'bm25 whole-file', undefined, 2],
      ],
    );
    // Every task answered by every row; the default rows as in a run without variants.
    for (const c of report.cases) assert.deepEqual(Object.keys(c.outcomes).sort(), report.systems.map((s) => s.name).sort());
    assert.ok(report.systems.filter((s) => s.variant === 'default').every((s) => s.metrics.fileAccAt1 === 1), JSON.stringify(report.systems));
  });

  it('--repo keeps one repository\'s tasks; a base commit the repository lacks is skipped and named', () => {
    const mixed = path.join(dir, 'mixed.jsonl');
    const other = { instance_id: 'other__x-1', repo: 'other/x', base_commit: commits[0], problem_statement: 'parse_header', gold_files: ['src/parser.py'] };
    const lost = { instance_id: 'acme__mail-9', repo: 'acme/mail', base_commit: 'deadbeef'.repeat(5), problem_statement: 'parse_header', gold_files: ['src/parser.py'] };
    writeFileSync(mixed, [other, lost].map((t) => JSON.stringify(t)).join('\n'));
    const r = runCairn(['eval', '--tasks', mixed, repo, '--repo', 'acme/mail', '--json', '--scratch', scratchParent]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as TaskJson;
    assert.deepEqual([report.evaluated, report.skipped.otherRepo, report.skipped.missingCommit], [0, 1, ['acme__mail-9']]);
  });

  it('a malformed task file exits 1 naming the line; a bad --repo exits 2', () => {
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify({ instance_id: 'a', repo: 'o/r', base_commit: commits[0], problem_statement: 'p', gold_files: ['x'] })}\n{"instance_id": "b"}\n`);
    const r = runCairn(['eval', '--tasks', bad, repo]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), `cairn eval: ${bad}:2 (b): "repo" must be a non-empty string`);
    const usage = runCairn(['eval', '--tasks', tasksFile, repo, '--repo', 'just-a-name']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--repo just-a-name: expected OWNER\/NAME/);
  });
});
