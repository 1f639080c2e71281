// The `cairn` launcher (dist/cli.js) runs the CLI bundle with V8's code cache, kept per command
// in the user's cache directory. Driven through real processes: a cache never changes what a
// command prints, a bad or stale cache is replaced, and a failed run or CAIRN_CODE_CACHE=off
// leaves none.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OPTIMIZE_WASM_ABOVE_BYTES } from '../../src/core/chunking/wasmTiers';
import { CLI, runCairn, type Run } from './cli';

describe('cairn launcher: code cache (bundled CLI)', function () {
  this.timeout(120000);
  let base: string;
  let fixture: string;
  let cacheHome: string;
  let cacheDir: string;

  const cairn = (args: string[], env: Record<string, string> = {}): Run =>
    runCairn(args, { cwd: fixture, env: { CAIRN_STORE: path.join(base, 'store'), XDG_CACHE_HOME: cacheHome, ...env } });
  const caches = (): string[] => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = mkdtempSync(path.join(tmpdir(), 'cairn-code-cache-'));
    fixture = path.join(base, 'repo');
    cacheHome = path.join(base, 'cache');
    cacheDir = path.join(cacheHome, 'cairn', 'code-cache');
    mkdirSync(path.join(fixture, 'src'), { recursive: true });
    writeFileSync(path.join(fixture, 'src', 'retry.ts'), 'export async function retryWithBackoff(times: number) {\n  return times;\n}\n');
    assert.equal(cairn(['index', '--json']).code, 0);
  });
  after(() => rmSync(base, { recursive: true, force: true }));
  beforeEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('a successful run leaves its command a cache, and the next run uses it unchanged', () => {
    const first = cairn(['search', 'retryWithBackoff', '--json']);
    assert.equal(first.code, 0, first.stderr);
    const [file, ...more] = caches();
    assert.ok(file?.startsWith('search.') && file.endsWith('.bin'), `cache files: ${caches().join(', ')}`);
    assert.deepEqual(more, []);
    const written = statSync(path.join(cacheDir, file));
    const second = cairn(['search', 'retryWithBackoff', '--json']);
    assert.equal(second.code, 0, second.stderr);
    const firstHits = (JSON.parse(first.stdout) as { results: { docid: string }[] }).results.map((r) => r.docid);
    assert.deepEqual((JSON.parse(second.stdout) as { results: { docid: string }[] }).results.map((r) => r.docid), firstHits);
    assert.deepEqual(firstHits, ['src/retry.ts:1-3']);
    const after = statSync(path.join(cacheDir, file));
    assert.equal(after.mtimeMs, written.mtimeMs, 'an accepted cache is not written again');
    assert.equal(after.ino, written.ino);
  });

  it('each command has its own cache', () => {
    assert.equal(cairn(['search', 'retryWithBackoff']).code, 0);
    assert.equal(cairn(['symbol', 'retryWithBackoff']).code, 0);
    assert.deepEqual(caches().map((f) => f.split('.')[0]), ['search', 'symbol']);
  });

  it('a garbage cache is rejected, the command still answers, and the cache is replaced', () => {
    assert.equal(cairn(['status', '--json']).code, 0);
    const [file] = caches();
    assert.ok(file);
    writeFileSync(path.join(cacheDir, file), 'not a code cache');
    const r = cairn(['status', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { chunks: number }).chunks > 0, true);
    assert.deepEqual(caches(), [file]);
    assert.ok(statSync(path.join(cacheDir, file)).size > 1000, 'replaced by a real cache');
  });

  it("a stale cache of the same command is removed; other commands' are kept", () => {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(path.join(cacheDir, 'search.v0.0.0-x64-1-1.bin'), 'old');
    writeFileSync(path.join(cacheDir, 'symbol.v0.0.0-x64-1-1.bin'), 'other');
    assert.equal(cairn(['search', 'retryWithBackoff']).code, 0);
    const left = caches();
    assert.ok(!left.includes('search.v0.0.0-x64-1-1.bin'), left.join(', '));
    assert.ok(left.includes('symbol.v0.0.0-x64-1-1.bin'));
    assert.equal(left.filter((f) => f.startsWith('search.')).length, 1);
  });

  it('a failed run leaves no cache', () => {
    const r = cairn(['search', 'retryWithBackoff', '--no-such-option']);
    assert.equal(r.code, 2, r.stderr);
    assert.deepEqual(caches(), []);
  });

  it('CAIRN_CODE_CACHE=off leaves no cache', () => {
    assert.equal(cairn(['search', 'retryWithBackoff'], { CAIRN_CODE_CACHE: 'off' }).code, 0);
    assert.deepEqual(caches(), []);
  });

  it('an index job big enough to lift the baseline wasm compiler leaves no cache the next run would reject', () => {
    // Over OPTIMIZE_WASM_ABOVE_BYTES of text: the job changes V8's flags, and a cache made
    // under them would be rejected (and written again) by the next run, started under the old.
    const big = path.join(base, 'big');
    mkdirSync(big, { recursive: true });
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i} of the notes on retries and backoff ${i % 97}`).join('\n') + '\n';
    for (let i = 0; i * text.length < OPTIMIZE_WASM_ABOVE_BYTES * 1.1; i++) writeFileSync(path.join(big, `notes-${i}.txt`), text);
    const r = cairn(['index', big, '--store', path.join(base, 'big-store'), '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok((JSON.parse(r.stdout) as { files: number }).files > 100);
    assert.deepEqual(caches(), [], 'no cache made under the lifted flags');
    assert.equal(cairn(['index', '--json']).code, 0);
    const [file] = caches();
    assert.ok(file?.startsWith('index.'), caches().join(', '));
    const written = statSync(path.join(cacheDir, file));
    assert.equal(cairn(['index', '--json']).code, 0);
    assert.equal(statSync(path.join(cacheDir, file)).mtimeMs, written.mtimeMs, "a small run's cache is accepted by the next");
  });

  it('a launcher without its bundle says so in one line and exits 1', () => {
    const lonely = path.join(base, 'lonely');
    mkdirSync(lonely, { recursive: true });
    copyFileSync(CLI, path.join(lonely, 'cli.js'));
    const r = spawnSync(process.execPath, [path.join(lonely, 'cli.js'), 'status'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^cairn: cannot read the CLI bundle .*cliMain\.js .*node esbuild\.mjs`\n$/);
    assert.deepEqual(caches(), []);
  });
});
