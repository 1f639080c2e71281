// The repository's own history in answers, through the real CLI: in a git repository whose past
// commits repeat a kind of change, `search --group file` and `pack` rank the files those commits
// changed and name the signal, as does a word those commits always used; the log is kept in the
// store; a text like nothing in the history gets no such part.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCairn } from './cli';

describe('cairn search --group file and pack with the repository history (bundled CLI)', function () {
  this.timeout(120_000);
  let base: string;
  let repo: string;
  let store: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  };
  const commitAll = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
  };
  const json = (args: string[]) => {
    const r = runCairn([...args, '--root', repo, '--store', store, '--json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  type File = { path: string; scoreBreakdown: Array<{ name?: string }> };
  const pastPart = (f: File | undefined, signal = 'similar-past-commit') => f?.scoreBreakdown.find((p) => p.name?.startsWith(signal))?.name;

  before(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-history-'));
    repo = path.join(base, 'repo');
    store = path.join(base, 'store');
    fs.mkdirSync(repo);
    git('init', '-q', '-b', 'main');
    write('src/server.ts', 'export function serve(port: number): void {\n  listen(port, route);\n}\n');
    write('src/router.ts', 'export function route(path: string): string {\n  return table[path] ?? notFound(path);\n}\n');
    write('.github/workflows/ci.yml', 'jobs:\n  test:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v3\n');
    commitAll('initial server and router');
    for (const v of [4, 5]) {
      write('.github/workflows/ci.yml', `jobs:\n  test:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v${v}\n`);
      commitAll('bump pinned github actions');
      write('src/router.ts', `export function route(path: string): string {\n  return table[path] ?? notFound(path); // ${v}\n}\n`);
      commitAll('route unknown paths to the not-found page');
    }
    write('.github/workflows/ci.yml', 'jobs:\n  test:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@1d96c772d19495a3b5c517cd2bc0cb401ea0529f\n');
    commitAll('pin actions by commit hash');
    // Other work, so that the workflow is not a file most commits change.
    for (const [i, message] of ['tidy the server', 'log the server start', 'server: shorter listen timeout', 'server: handle shutdown'].entries()) {
      write('src/server.ts', `export function serve(port: number): void {\n  listen(port, route); // ${i}\n}\n`);
      commitAll(message);
    }
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  it('search --group file ranks the files past commits like the text changed, and names why', () => {
    const r = json(['search', 'bump the pinned github actions', '--group', 'file']);
    const files = r.files as File[];
    assert.equal(files[0]?.path, '.github/workflows/ci.yml');
    assert.equal(pastPart(files[0]), 'similar-past-commit: bump pinned github actions');
    const head = git('rev-parse', 'HEAD').toString().trim();
    assert.ok(fs.existsSync(path.join(store, `history-${head}.json`)), 'the log is kept in the store for this HEAD');
  });

  it("the pack's must-inspect files follow the same ranking", () => {
    const r = json(['pack', 'bump the pinned github actions']);
    const must = r.mustInspect as Array<{ path: string }>;
    assert.equal(must[0]?.path, '.github/workflows/ci.yml');
  });

  it('a word every past change of a file used points at it, though no past message is like the text', () => {
    // "actions" went with the workflow in all three of its commits; no message shares two words with the text.
    const files = json(['search', 'route caching for actions', '--group', 'file']).files as File[];
    assert.equal(files[0]?.path, '.github/workflows/ci.yml', JSON.stringify(files.map((f) => [f.path, f.scoreBreakdown])));
    assert.equal(pastPart(files[0], 'past-commit-words'), 'past-commit-words: actions');
    assert.equal(pastPart(files[0]), undefined);
  });

  it('a text like no past message gets no such part', () => {
    const files = json(['search', 'serve on a port', '--group', 'file']).files as File[];
    assert.ok(files.length > 0 && files.every((f) => pastPart(f) === undefined && pastPart(f, 'past-commit-words') === undefined), JSON.stringify(files.map((f) => f.scoreBreakdown)));
  });
});
