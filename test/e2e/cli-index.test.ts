// The CLI contract of the index commands (index, search, symbol, status, export, pack), driven
// through the real bundled `cairn` binary on a fixture repository. Agents and the extension's
// tests depend on these JSON shapes: keep them stable.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, runCairn, runCairnAsync, type Run } from './cli';


describe('cairn index / search / symbol / status / export / pack (bundled CLI)', function () {
  this.timeout(120000);
  let fixture: string;
  let store: string;

  const cairn = (...args: string[]): Run => runCairn(args, { cwd: fixture, env: { CAIRN_STORE: store } });
  const json = (r: Run): Record<string, unknown> => {
    assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  const write = (rel: string, content: string) => {
    const abs = path.join(fixture, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    const t = new Date(Date.now() + 2000 + Math.random() * 1000);
    utimesSync(abs, t, t);
  };

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    const base = mkdtempSync(path.join(tmpdir(), 'cairn-cli-'));
    fixture = path.join(base, 'repo with spaces');
    store = path.join(base, 'store');
    mkdirSync(fixture);
    write('src/http/client.ts', [
      'import { retry } from "../util/retry";',
      '',
      '/** An HTTP client with retries. */',
      'export class HttpClient {',
      '  constructor(private readonly baseUrl: string) {}',
      '',
      '  async fetchUser(id: string): Promise<User> {',
      '    return retry(() => this.get(`/users/${id}`), 3);',
      '  }',
      '',
      '  private async get(path: string) {',
      '    return fetch(this.baseUrl + path);',
      '  }',
      '}',
      '',
    ].join('\n'));
    write('src/util/retry.ts', 'export async function retry<T>(fn: () => Promise<T>, times: number): Promise<T> {\n  for (let i = 0; ; i++) {\n    try { return await fn(); } catch (e) { if (i >= times) throw e; }\n  }\n}\n');
    write('app/models.py', 'from dataclasses import dataclass\n\n@dataclass\nclass UserRecord:\n    """A user row."""\n    name: str\n\n    @property\n    def display_name(self) -> str:\n        return self.name.title()\n');
    write('docs/guide.md', '# Guide\n\n## Retries\n\nThe `HttpClient` retries failed requests using `retry` from src/util/retry.ts.\n');
    write('test/client.test.ts', "import { HttpClient } from '../src/http/client';\nit('fetches a user', async () => { await new HttpClient('x').fetchUser('1'); });\n");
    write('naïve/café.ts', 'export const cafeMenu = ["naïve"];\n');
  });
  after(() => rmSync(path.dirname(fixture), { recursive: true, force: true }));

  it('index --json reports files, chunks, skips and duration', () => {
    const r = json(cairn('index', fixture, '--json'));
    assert.equal(r.files, 6);
    assert.ok((r.chunks as number) >= 8);
    assert.equal(r.added, 6);
    assert.ok(typeof r.durationMs === 'number');
    assert.deepEqual(r.skippedByReason, {});
    const again = json(cairn('index', fixture, '--json'));
    assert.deepEqual([again.added, again.changed, again.removed, again.unchanged], [0, 0, 0, 6]);
  });

  it('search --json follows the contract: results with spans, scores, breakdowns and previews', () => {
    const r = json(cairn('search', 'fetchUser', '--root', fixture, '--json', '--limit', '3'));
    const results = r.results as Array<Record<string, unknown>>;
    assert.ok(results.length >= 1 && results.length <= 3);
    const top = results[0]!;
    for (const k of ['docid', 'path', 'startLine', 'endLine', 'score', 'scoreBreakdown', 'symbol', 'kind', 'language', 'context', 'preview']) assert.ok(k in top, `missing ${k}`);
    assert.deepEqual([top.path, top.symbol, top.kind, top.context, top.startLine, top.endLine], ['src/http/client.ts', 'fetchUser', 'method', 'HttpClient.fetchUser', 7, 9]);
    assert.equal(top.docid, 'src/http/client.ts:7-9');
    const sum = (top.scoreBreakdown as Array<{ value: number }>).reduce((s, p) => s + p.value, 0);
    assert.ok(Math.abs(sum - (top.score as number)) < 1e-5);
    assert.match(top.preview as string, /«fetchUser»/);
    assert.ok(typeof r.tookMs === 'number');
    const index = r.index as Record<string, unknown>;
    assert.deepEqual([index.files, index.fresh], [6, true]);
  });

  it('search previews start at the line that matched, and say which line that is', () => {
    const r = json(cairn('search', 'retry users', '--root', fixture, '--json', '--path', 'src/http/**'));
    const hit = (r.results as Array<Record<string, unknown>>).find((h) => h.docid === 'src/http/client.ts:7-9');
    assert.ok(hit, JSON.stringify(r.results));
    // The method's first line names one word (`User`, by stem); its body line names both.
    assert.equal(hit.previewLine, 8);
    assert.deepEqual(hit.matchLines, [7, 8]);
    const first = (hit.preview as string).split('\n')[0];
    assert.equal(first, 'return «retry»(() => this.get(`/«users»/${id}`), 3);');
    // The human output names that line beside the span, then shows it.
    const text = cairn('search', 'retry users', '--root', fixture, '--path', 'src/http/**');
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.split('\n');
    const head = lines.findIndex((l) => l.startsWith('src/http/client.ts:7-9  src/http/client.ts:8  method HttpClient.fetchUser'));
    assert.ok(head >= 0, text.stdout);
    assert.equal(lines[head + 1]?.trim(), first);
  });

  it('search --group file --json ranks files: each with a score, its breakdown and its best spans', () => {
    const r = json(cairn('search', 'retry fetch user', '--root', fixture, '--json', '--group', 'file', '--limit', '2'));
    const files = r.files as Array<{ path: string; score: number; scoreBreakdown: Array<{ value: number }>; spans: Array<Record<string, unknown>>; matchedChunks: number }>;
    assert.equal(files.length, 2, '--limit counts files');
    assert.equal(new Set(files.map((f) => f.path)).size, 2, 'each file once');
    assert.ok(files[0]!.score >= files[1]!.score);
    for (const f of files) {
      const sum = f.scoreBreakdown.reduce((s, p) => s + p.value, 0);
      assert.ok(Math.abs(sum - f.score) < 1e-5, `${f.path}: breakdown adds up`);
      assert.ok(f.spans.length >= 1 && f.spans.length <= 3);
      for (const h of f.spans) {
        assert.equal(h.path, f.path);
        for (const k of ['docid', 'startLine', 'endLine', 'score', 'scoreBreakdown', 'preview']) assert.ok(k in h, `missing ${k}`);
      }
    }
    for (const k of ['total', 'tookMs', 'index', 'warnings', 'diagnostics']) assert.ok(k in r, `missing ${k}`);
    assert.ok((r.total as number) >= 2);
    const text = cairn('search', 'retry fetch user', '--root', fixture, '--group', 'file', '--limit', '2');
    assert.equal(text.code, 0);
    assert.match(text.stdout, new RegExp(`^${files[0]!.path}  \\(`, 'm'));
    assert.match(text.stdout, /^ {4}\d+-\d+ {2}\w+/m, 'span lines under each file');
    assert.equal(cairn('search', 'x', '--group', 'folder').code, 2);
  });

  it('search filters: --lang, --kind, --path, --scope', () => {
    const paths = (...args: string[]) => [...new Set((json(cairn('search', ...args, '--root', fixture, '--json')).results as Array<{ path: string }>).map((h) => h.path))];
    assert.deepEqual(paths('user', '--lang', 'py'), ['app/models.py']);
    assert.deepEqual(paths('retry', '--kind', 'function'), ['src/util/retry.ts']);
    assert.deepEqual(paths('retry', '--path', 'docs/**'), ['docs/guide.md']);
    assert.deepEqual(paths('retries', '--scope', 'docs'), ['docs/guide.md']);
  });

  it('search finds an edit without an explicit index run (refreshes first)', () => {
    write('src/util/backoff.ts', 'export function exponentialBackoff(attempt: number) { return 2 ** attempt * 100; }\n');
    const r = json(cairn('search', 'exponentialBackoff', '--root', fixture, '--json'));
    assert.equal((r.results as Array<{ path: string }>)[0]?.path, 'src/util/backoff.ts');
    assert.equal((r.index as { files: number }).files, 7);
  });

  it('search finds a same-size rewrite whose mtime was put back with touch -d, and not the old text', function () {
    if (process.platform === 'win32') this.skip(); // no touch -d
    const base = mkdtempSync(path.join(tmpdir(), 'cairn-touch-'));
    try {
      const root = path.join(base, 'root');
      const ownStore = path.join(base, 'store');
      mkdirSync(root);
      const file = path.join(root, 'settings.ts');
      // A build tool's fixed timestamp, before and after the rewrite.
      const stamp = '2020-01-02T03:04:05';
      writeFileSync(file, 'export const mode = "quokka";\n');
      execFileSync('touch', ['-d', stamp, file]);
      // Indexed once the file's change is old, as an edit made later would find it.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2200);
      json(runCairn(['index', root, '--store', ownStore, '--json']));
      writeFileSync(file, 'export const mode = "wombat";\n');
      execFileSync('touch', ['-d', stamp, file]);
      const found = (q: string): string[] =>
        (json(runCairn(['search', q, '--root', root, '--store', ownStore, '--json'])).results as Array<{ path: string }>).map((h) => h.path);
      assert.deepEqual({ wombat: found('wombat'), quokka: found('quokka') }, { wombat: ['settings.ts'], quokka: [] });
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('search --provider ripgrep and hybrid answer in the same shape', () => {
    const rg = json(cairn('search', 'this.baseUrl + path', '--root', fixture, '--json', '--provider', 'ripgrep'));
    const hit = (rg.results as Array<Record<string, unknown>>)[0]!;
    assert.equal(hit.path, 'src/http/client.ts');
    assert.ok((hit.startLine as number) <= 12 && (hit.endLine as number) >= 12);
    const hybrid = json(cairn('search', 'fetchUser', '--root', fixture, '--json', '--provider', 'hybrid'));
    assert.equal((hybrid.results as Array<{ docid: string }>)[0]?.docid, 'src/http/client.ts:7-9');
    assert.equal(cairn('search', 'x', '--regex').code, 2, '--regex needs --provider ripgrep');
  });

  it('symbol --json: exact matches first, and a plain answer when nothing matches exactly', () => {
    const exact = json(cairn('symbol', 'display_name', '--root', fixture, '--json'));
    assert.equal(exact.exact, true);
    const hit = (exact.results as Array<Record<string, unknown>>)[0]!;
    assert.deepEqual([hit.docid, hit.kind, hit.context], ['app/models.py:8-10', 'method', 'UserRecord.display_name']);
    const close = json(cairn('symbol', 'fetchUsr', '--root', fixture, '--json'));
    assert.equal(close.exact, false);
    assert.match(close.note as string, /no symbol named "fetchUsr"; closest: .*HttpClient\.fetchUser/);
    assert.ok((close.results as unknown[]).length <= 5);
  });

  it('paths with spaces and non-ASCII characters round-trip', () => {
    const r = json(cairn('search', 'cafeMenu', '--root', fixture, '--json'));
    assert.equal((r.results as Array<{ path: string }>)[0]?.path, 'naïve/café.ts');
  });

  it('status --json says what is indexed and how big the store is', () => {
    const s = json(cairn('status', fixture, '--json'));
    assert.equal(s.exists, true);
    assert.equal(s.files, 7);
    assert.ok((s.storeBytes as number) > 0);
    assert.equal(s.storeDir, store);
    assert.deepEqual(Object.keys(s.languages as object).sort(), ['markdown', 'python', 'typescript']);
  });

  it('export --format jsonl writes every chunk with metadata and text', () => {
    const r = cairn('export', fixture, '--format', 'jsonl');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const status = json(cairn('status', fixture, '--json'));
    assert.equal(lines.length, status.chunks);
    const method = lines.find((l) => l.symbol === 'fetchUser')!;
    assert.equal(method.text, '  async fetchUser(id: string): Promise<User> {\n    return retry(() => this.get(`/users/${id}`), 3);\n  }');
    for (const l of lines) assert.equal(l.docid, `${l.path}:${l.startLine}-${l.endLine}`);
  });

  it('pack --json: must-inspect spans with code, related files, the budget respected', () => {
    const r = json(cairn('pack', 'make fetchUser retry more times', '--root', fixture, '--json', '--budget', '900'));
    const must = r.mustInspect as Array<Record<string, unknown>>;
    assert.equal(must[0]?.docid, 'src/http/client.ts:7-9');
    assert.ok(must.some((m) => m.path === 'src/util/retry.ts'), 'the called retry() is pulled in');
    assert.ok((r.usedTokens as number) <= 900);
    assert.match(r.markdown as string, /### 1\. `src\/http\/client\.ts:7-9`/);
    const human = cairn('pack', 'make fetchUser retry more times', '--root', fixture);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^# Context pack/);
  });

  it('a corrupted store is rebuilt with a diagnostic, and the answer still comes', () => {
    const manifest = path.join(store, 'manifest.json');
    writeFileSync(manifest, '{ torn');
    const r = json(cairn('search', 'fetchUser', '--root', fixture, '--json'));
    assert.equal((r.results as Array<{ symbol: string }>)[0]?.symbol, 'fetchUser');
    assert.ok((r.diagnostics as Array<{ code: string }>).some((d) => d.code === 'store-corrupt'));
  });

  it('a store path that cannot be a directory is a one-line error at once, not a wait for a lock', () => {
    const base = path.dirname(fixture);
    const file = path.join(base, 'a-file');
    writeFileSync(file, 'not a store');
    const fifo = path.join(base, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    checkStore(file, /the store .*a-file exists and is not a directory/);
    checkStore(fifo, /the store .*a-fifo exists and is not a directory/);
    // Node's own recursive mkdir spins forever on this one.
    if (existsSync('/proc/self')) checkStore('/proc/cairn-no-such', /the store \/proc\/cairn-no-such cannot be created/);

    function checkStore(dir: string, message: RegExp): void {
      const started = Date.now();
      const r = runCairn(['search', 'fetchUser', '--root', fixture, '--store', dir], { cwd: fixture });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.ok(Date.now() - started < 15000, `took ${Date.now() - started} ms`);
    }
  });

  it('a search while another process holds the writer lock answers at once from the index, saying who holds it', async () => {
    cairn('index');
    write('src/late.ts', 'export function lateArrival() {}\n');
    const lockJs = path.resolve(__dirname, '../../src/core/store/lock.js');
    const holder = spawn(process.execPath, ['-e', `require(${JSON.stringify(lockJs)}).acquireLock(${JSON.stringify(store)}).then(() => { console.log('held'); setInterval(() => {}, 1000); })`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => holder.stdout.on('data', (d) => String(d).includes('held') && resolve()));
      const started = Date.now();
      const r = await runCairnAsync(['search', 'fetchUser', '--json'], { cwd: fixture, env: { CAIRN_STORE: store } });
      assert.ok(Date.now() - started < 10000, `took ${Date.now() - started} ms`);
      const response = json(r);
      assert.equal((response.results as Array<{ symbol: string }>)[0]?.symbol, 'fetchUser');
      const skipped = (response.diagnostics as Array<{ code: string; message: string }>).find((d) => d.code === 'refresh-skipped');
      assert.ok(skipped, r.stdout);
      assert.match(skipped.message, new RegExp(`another refresh is running \\(pid ${holder.pid} `));
    } finally {
      holder.kill();
    }
  });

  it('a huge query or name is cut, with a warning, and answered quickly', () => {
    const fuzzy = Array.from({ length: 3000 }, (_, i) => `word${i}~2`).join(' ');
    const started = Date.now();
    const r = json(cairn('search', '--json', '--', `fetchUser ${fuzzy}`));
    assert.ok(Date.now() - started < 10000, `took ${Date.now() - started} ms`);
    assert.ok((r.warnings as string[]).some((w) => /the query was cut to its first \d+ characters \(of \d+/.test(w)), JSON.stringify(r.warnings));
    // So long a text is plain text: its `~2` are characters, and only its telling words are searched.
    assert.ok((r.warnings as string[]).some((w) => /a long text: searched for \d+ of its \d+ distinct words/.test(w)), JSON.stringify(r.warnings));
    assert.ok((r.query as string).length <= 16000);
    const name = cairn('symbol', 'x'.repeat(100_000));
    assert.equal(name.code, 0, name.stderr);
    assert.ok(name.stdout.length + name.stderr.length < 2000, 'the name is not echoed whole');
  });

  it('usage errors exit 2 with one line; runtime errors exit 1; --json errors are JSON', () => {
    const bad = cairn('search', 'x', '--limit', 'lots');
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    assert.match(bad.stderr, /^cairn search: --limit must be a whole number/);
    const missing = cairn('search', 'x', '--root', path.join(fixture, 'nope'), '--json');
    assert.equal(missing.code, 1);
    assert.equal((JSON.parse(missing.stderr) as { error: { code: string } }).error.code, 'not-found');
    const noQuery = cairn('search');
    assert.notEqual(noQuery.code, 0);
  });

  it('an empty query or name is a usage error (exit 2); a query starting with - goes after --, and the error says so', () => {
    for (const args of [['search', ''], ['search', '   '], ['symbol', ''], ['pack', '']]) {
      const r = cairn(...args, '--root', fixture);
      assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code} ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
    const dashed = cairn('search', '-test', '--root', fixture);
    assert.equal(dashed.code, 2);
    assert.match(dashed.stderr, /an argument starting with '-' goes after --/);
    const r = json(cairn('search', '--root', fixture, '--json', '--', 'fetchUser -test'));
    assert.ok((r.results as Array<{ path: string }>).length > 0);
    assert.ok((r.results as Array<{ path: string }>).every((h) => !h.path.startsWith('test/')), 'the -test term excluded chunks holding "test"');
  });
});
