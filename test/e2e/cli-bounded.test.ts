// Special files and swapped folders through the real bundled `cairn`: a FIFO named .gitignore
// must not hang an index (nor leave the writer lock behind), and a folder replaced by a link
// to outside the root after indexing must not put the outside file's text in any answer.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, cairnEnv } from './cli';

/** Far above what a run takes here; a run past it was blocked. */
const TIMEOUT_MS = 20_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

function cairn(args: string[], store: string, cwd: string): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: TIMEOUT_MS, env: cairnEnv({ CAIRN_STORE: store }) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, killed: r.signal !== null };
}

function canMakeFifo(dir: string): boolean {
  try {
    execFileSync('mkfifo', [path.join(dir, 'probe')], { stdio: 'ignore' });
    rmSync(path.join(dir, 'probe'));
    return true;
  } catch {
    return false;
  }
}

describe('bounded reads (bundled CLI)', function () {
  this.timeout(4 * TIMEOUT_MS);
  let base: string;

  before(() => assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`));
  beforeEach(() => (base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-bounded-')))));
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  for (const { name, git, fifo, untracked } of [
    { name: 'root .gitignore, no git', git: false, fifo: '.gitignore' },
    { name: 'subfolder .gitignore in a git repository', git: true, fifo: 'src/.gitignore' },
    // git lists untracked files from folders no tracked file names: the probe must look there too.
    { name: '.gitignore of a folder holding only untracked files', git: true, fifo: 'fresh/.gitignore', untracked: 'fresh/new.ts' },
    // Above the root, where git reads it and the walk does not: still named, relative to the root.
    { name: '.gitignore above the root, in the work tree', git: true, fifo: '../.gitignore' },
  ]) {
    it(`a FIFO as ${name}: cairn index finishes, reports it, and releases the writer lock`, function () {
      if (!canMakeFifo(base)) this.skip();
      // The work tree is `base/top`; the root is its folder `repo`.
      const top = path.join(base, 'top');
      const root = path.join(top, 'repo');
      const store = path.join(base, 'store');
      mkdirSync(path.join(root, 'src'), { recursive: true });
      writeFileSync(path.join(root, 'src', 'a.ts'), 'export function fetchUser() {}\n');
      if (git) {
        execFileSync('git', ['init', '-q'], { cwd: top });
        execFileSync('git', ['add', '.'], { cwd: top });
      }
      if (untracked) {
        mkdirSync(path.join(root, path.dirname(untracked)), { recursive: true });
        writeFileSync(path.join(root, untracked), 'export const fresh = 1;\n');
      }
      execFileSync('mkfifo', [path.join(root, ...fifo.split('/'))]);

      const r = cairn(['index', '--json'], store, root);
      assert.ok(!r.killed, 'cairn index was blocked');
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout) as { files: number; skippedFiles: unknown[] };
      assert.equal(report.files, untracked ? 2 : 1);
      assert.deepEqual(report.skippedFiles, [{ path: fifo, reason: 'not-a-file', detail: 'fifo' }]);
      assert.ok(!existsSync(path.join(store, 'write.lock')), 'the writer lock was left behind');
      const search = cairn(['search', 'fetchUser', '--json'], store, root);
      assert.ok(!search.killed, 'a refreshing search was blocked');
      assert.equal((JSON.parse(search.stdout) as { results: Array<{ path: string }> }).results[0]?.path, 'src/a.ts');
    });
  }

  /** A one-file repository indexed into its own store, both under `base`. */
  function indexedRepo(): { root: string; store: string } {
    const root = path.join(base, 'repo');
    const store = path.join(base, 'store');
    mkdirSync(path.join(root, 'src'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'a.ts'), 'export function fetchUser() {}\n');
    assert.equal(cairn(['index'], store, root).code, 0);
    return { root, store };
  }

  for (const { file, expected } of [
    { file: 'manifest.json', expected: /warning: cannot read manifest\.json: .* is a named pipe, not a regular file; the index was discarded and rebuilt/ },
    { file: 'state', expected: /is a named pipe, not a regular file; the index was discarded and rebuilt/ },
    { file: 'write.lock', expected: /1 of 1 results/ },
    { file: 'cairn-store.json', expected: /has a cairn-store\.json Cairn cannot read; remove .* to let Cairn rebuild it/ },
  ]) {
    it(`a FIFO as the store's ${file}: search answers or refuses with a reason, never waits`, function () {
      if (!canMakeFifo(base)) this.skip();
      const { root, store } = indexedRepo();
      const name = file === 'state' ? readdirSync(store).find((n) => n.endsWith('.cstate'))! : file;
      rmSync(path.join(store, name), { force: true });
      execFileSync('mkfifo', [path.join(store, name)]);

      const r = cairn(['search', 'fetchUser'], store, root);
      assert.ok(!r.killed, `cairn search waited on the FIFO ${file}`);
      assert.match(r.stderr, expected);
      if (file === 'cairn-store.json') assert.equal(r.code, 1);
      else assert.match(r.stdout, /src\/a\.ts:1/);
    });
  }

  it("a FIFO as the store's write.lock under a running cairn serve: a served search answers within its bound", async function () {
    if (!canMakeFifo(base)) this.skip();
    const { root, store } = indexedRepo();
    const served = cairnEnv({ CAIRN_STORE: store, CAIRN_SERVER: '1', CAIRN_DEBUG: '1' });
    const server = spawn(process.execPath, [CLI, 'serve', '--root', root, '--store', store, '--idle-timeout', '2'], { cwd: root, env: served, stdio: 'ignore' });
    try {
      // A probe before the socket exists would start a server of its own.
      const deadline = Date.now() + TIMEOUT_MS;
      while (!existsSync(path.join(store, 'serve.sock'))) {
        assert.ok(Date.now() < deadline, 'the server never opened its socket');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const search = () => spawnSync(process.execPath, [CLI, 'search', 'fetchUser'], { cwd: root, encoding: 'utf8', timeout: TIMEOUT_MS, env: served });
      // Once the server has answered, its start-up refresh is over: the FIFO meets a query's lock check.
      assert.match(search().stderr, new RegExp(`answered by the server \\(pid ${server.pid}\\)`));
      execFileSync('mkfifo', [path.join(store, 'write.lock')]);
      const r = search();
      assert.equal(r.signal, null, 'cairn search waited on the server, which waited on the FIFO');
      assert.match(r.stderr, new RegExp(`answered by the server \\(pid ${server.pid}\\)`), r.stderr);
      assert.match(r.stdout, /src\/a\.ts:1/);
    } finally {
      // SIGKILL: a server blocked opening the FIFO runs no signal handler.
      server.kill('SIGKILL');
    }
  });

  it('src/ swapped for a link to outside the root: search, pack and export show none of its text', function () {
    const root = path.join(base, 'repo');
    const store = path.join(base, 'store');
    const outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(root, 'src', 'a.ts'), 'export function fetchUser() { return "inside text"; }\n');
    writeFileSync(path.join(outside, 'a.ts'), 'export function fetchUser() { return "OUTSIDE_SECRET"; }\n');
    const indexed = cairn(['index'], store, root);
    assert.equal(indexed.code, 0, indexed.stderr);
    rmSync(path.join(root, 'src'), { recursive: true });
    try {
      symlinkSync(outside, path.join(root, 'src'), 'dir');
    } catch {
      this.skip();
    }

    for (const args of [
      ['search', 'fetchUser', '--no-refresh'],
      ['search', 'fetchUser', '--no-refresh', '--json'],
      ['pack', 'fetchUser', '--no-refresh'],
      ['export', '--format', 'jsonl', '--no-refresh'],
      // Last: a refresh drops the file (discovery never enters a linked folder).
      ['search', 'fetchUser'],
    ]) {
      const r = cairn(args, store, root);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.doesNotMatch(r.stdout + r.stderr, /OUTSIDE_SECRET/, `cairn ${args.join(' ')} printed the outside file's text`);
      if (args.includes('--json')) {
        // The index still answers: the hit is there, marked as no longer readable where it was.
        const hits = (JSON.parse(r.stdout) as { results: Array<{ path: string; staleReason?: string }> }).results;
        assert.deepEqual(hits.map((h) => [h.path, h.staleReason]), [['src/a.ts', 'deleted']]);
      }
    }
  });
});
