// Through the real `cairn`: a store folder that is not Cairn's, or is another root's, is refused
// with a message and exit 1, and the user's files in it survive; `export --out` onto a folder
// says so instead of crashing; a damaged store rebuilt during an export is mentioned.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from '../unit/check';
import { CLI, runCairn } from './cli';

const USER_FILES: Record<string, string> = {
  'manifest.json': '{"name": "my-app"}\n',
  'state-machine.json': '{"initial": "idle"}\n',
  'state-2024.json': '[1, 2, 3]\n',
  'build.tmp': 'scratch\n',
};

interface Result {
  code: number | null;
  /** The error code `--json` printed. */
  error: string | undefined;
  /** The message names the folder, and no stack trace is printed. */
  namesFolder: boolean;
  stackTrace: boolean;
  /** Every user file (or the other root's index) still there, unchanged. */
  intact: boolean;
}

function errorCode(stderr: string): string | undefined {
  const line = stderr.split('\n').find((l) => l.startsWith('{"error"'));
  return line ? (JSON.parse(line) as { error: { code: string } }).error.code : undefined;
}

describe('cairn --store: only a folder Cairn made, for one root (bundled CLI)', function () {
  this.timeout(120000);
  let base: string;
  let rootA: string;
  let rootB: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-store-e2e-'));
    rootA = path.join(base, 'a');
    rootB = path.join(base, 'b');
    fs.mkdirSync(path.join(rootA, 'src'), { recursive: true });
    fs.mkdirSync(path.join(rootB, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(rootA, 'src', 'alpha.py'), 'def alpha_handler():\n    return 1\n');
    fs.writeFileSync(path.join(rootB, 'lib', 'beta.py'), 'def beta_handler():\n    return 2\n');
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  const env = (): Record<string, string> => ({ XDG_CACHE_HOME: path.join(base, 'cache') });

  checkAll<'user folder' | 'symbolic link to a user folder' | 'store of another root' | 'a file of the user\'s', Result>(
    [
      { input: 'user folder', expected: { code: 1, error: 'store-not-cairn', namesFolder: true, stackTrace: false, intact: true } },
      { input: 'symbolic link to a user folder', expected: { code: 1, error: 'store-not-cairn', namesFolder: true, stackTrace: false, intact: true } },
      { input: 'store of another root', expected: { code: 1, error: 'store-other-root', namesFolder: true, stackTrace: false, intact: true } },
      { input: 'a file of the user\'s', expected: { code: 1, error: 'store-location', namesFolder: true, stackTrace: false, intact: true } },
    ],
    (kind) => {
      const dir = fs.mkdtempSync(path.join(base, 'store-'));
      let store = dir;
      let snapshot: () => string;
      if (kind === 'a file of the user\'s') {
        store = path.join(dir, 'notes.txt');
        fs.writeFileSync(store, 'my notes\n');
        snapshot = () => (fs.readFileSync(store, 'utf8') === 'my notes\n' ? 'same' : 'changed');
      } else if (kind === 'store of another root') {
        const r = runCairn(['index', rootB, '--store', dir], { env: env() });
        assert.equal(r.code, 0, r.stderr);
        const listing = (): string => fs.readdirSync(dir).sort().map((n) => `${n}:${fs.readFileSync(path.join(dir, n)).toString('base64')}`).join('\n');
        const before = listing();
        snapshot = () => (listing() === before ? 'same' : 'changed');
      } else {
        for (const [name, text] of Object.entries(USER_FILES)) fs.writeFileSync(path.join(dir, name), text);
        if (kind === 'symbolic link to a user folder') {
          store = `${dir}-link`;
          fs.symlinkSync(dir, store);
        }
        snapshot = () => (fs.readdirSync(dir).sort().join(',') === Object.keys(USER_FILES).sort().join(',') && Object.entries(USER_FILES).every(([n, t]) => fs.readFileSync(path.join(dir, n), 'utf8') === t) ? 'same' : 'changed');
      }
      const r = runCairn(['index', rootA, '--store', store, '--json'], { env: env() });
      return { code: r.code, error: errorCode(r.stderr), namesFolder: r.stderr.includes(store), stackTrace: /\n\s+at /.test(r.stderr), intact: snapshot() === 'same' };
    },
  );

  it("a root's store keeps answering for it after another root was refused it", () => {
    const store = path.join(base, 'shared');
    assert.equal(runCairn(['index', rootA, '--store', store], { env: env() }).code, 0);
    const refused = runCairn(['index', rootB, '--store', store], { env: env() });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /holds the index of .*[/\\]a, not of .*[/\\]b/);
    const found = runCairn(['symbol', 'alpha_handler', '--root', rootA, '--store', store, '--json', '--no-refresh'], { env: env() });
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /alpha\.py/);
    const status = runCairn(['status', rootA, '--store', store, '--json'], { env: env() });
    assert.equal((JSON.parse(status.stdout) as { root: string }).root, rootA);
  });

  it('export --out onto a folder: a clear error, exit 1, no stack trace, the folder untouched', () => {
    const folder = fs.mkdtempSync(path.join(base, 'out-'));
    fs.writeFileSync(path.join(folder, 'keep.txt'), 'mine\n');
    const r = runCairn(['export', rootA, '--format', 'jsonl', '--out', folder], { env: env() });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--out .* is a folder; give a file name/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(fs.readdirSync(folder), ['keep.txt']);
  });

  it('export of a damaged store says it was rebuilt, and exports the rebuilt index', () => {
    const store = path.join(base, 'damaged');
    assert.equal(runCairn(['index', rootA, '--store', store], { env: env() }).code, 0);
    fs.writeFileSync(path.join(store, 'manifest.json'), '{"format": "cairn-ind');
    const out = path.join(base, 'chunks.jsonl');
    const r = runCairn(['export', rootA, '--format', 'jsonl', '--out', out, '--store', store], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /the index was discarded and rebuilt/);
    assert.match(fs.readFileSync(out, 'utf8'), /alpha_handler/);
  });
});

describe('cairn serve writes its log and pid file only as files in its store (bundled CLI)', function () {
  this.timeout(120000);
  let base: string;
  let root: string;

  before(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-serve-links-'));
    root = path.join(base, 'root');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'alpha.py'), 'def alpha_handler():\n    return 1\n');
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  checkAll<'serve.log' | 'serve.pid', { victim: string }>(
    [
      { input: 'serve.log', expected: { victim: 'precious\n' } },
      { input: 'serve.pid', expected: { victim: 'precious\n' } },
    ],
    (name) => {
      const store = path.join(base, `store-${name}`);
      const victim = path.join(base, `victim-${name}`);
      assert.equal(runCairn(['index', root, '--store', store]).code, 0);
      fs.writeFileSync(victim, 'precious\n');
      fs.symlinkSync(victim, path.join(store, name));
      // A short idle timeout: the server exits on its own about a second after it starts.
      runCairn(['serve', '--root', root, '--store', store, '--idle-timeout', '0.02'], { env: { CAIRN_SERVER: '1' } });
      return { victim: fs.readFileSync(victim, 'utf8') };
    },
  );
});
