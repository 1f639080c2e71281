// Drives the real `cairn mcp` server (`node dist/cli.js mcp`, built by `node esbuild.mjs`) with
// the MCP SDK's own client over stdio, on a fixture repository with TypeScript, Python and
// Markdown files and a context registry pack: every tool, its errors, path confinement, and
// index freshness (built on demand, refreshed by refresh_index or automatically).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI } from './cli';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildManifest } from '../../src/core/registry';

const ENTRY = 'http/fetch-user';
const DOC = '# Fetch user\n\nUse fetchUser with a timeout of 5 seconds.\n\n```sh\nnpm install undici\n```\n';

const CONFIG_TS = [
  'export interface AppConfig {',
  '  port: number;',
  '  host: string;',
  '}',
  '',
  '/** Parses the application configuration from its JSON text. */',
  'export function parseConfig(text: string): AppConfig {',
  '  const raw = JSON.parse(text) as Partial<AppConfig>;',
  "  return { port: raw.port ?? 8080, host: raw.host ?? 'localhost' };",
  '}',
  '',
].join('\n');

const SERVER_TS = [
  "import { parseConfig } from './config';",
  '',
  'export class HttpServer {',
  '  start(configText: string): string {',
  '    const config = parseConfig(configText);',
  '    return `${config.host}:${config.port}`;',
  '  }',
  '}',
  '',
].join('\n');

const REPORT_PY = [
  'class ReportWriter:',
  '    def render_report(self, rows):',
  '        """Render the quarterly revenue table."""',
  '        return "\\n".join(str(r) for r in rows)',
  '',
].join('\n');

const GUIDE_MD = '# Guide\n\n## Configuration\n\nCall parseConfig with the JSON text of the configuration file; the port defaults to 8080.\n';

interface Call {
  text: string;
  isError: boolean;
  parts: string[];
}

/** One `cairn mcp` process and an SDK client connected to it. */
class Session {
  readonly client = new Client({ name: 'cairn-e2e', version: '1.0.0' });
  readonly transport: StdioClientTransport;
  stderr = '';
  readonly protocolErrors: Error[] = [];

  constructor(repo: string, store: string, refreshIntervalMs: number) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    this.transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', repo, '--store', store, '--refresh-interval', String(refreshIntervalMs)],
      // The registry cache follows CAIRN_STORE; no remote registries.
      env: { ...env, CAIRN_STORE: store, CAIRN_REGISTRY_REMOTE: '' },
      stderr: 'pipe',
    });
    this.transport.stderr?.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.client.onerror = (e) => this.protocolErrors.push(e);
  }

  async start(): Promise<this> {
    await this.client.connect(this.transport);
    return this;
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<Call> {
    const r = await this.client.callTool({ name, arguments: args });
    const parts = (r.content as Array<{ type: string; text: string }>).map((c) => c.text);
    return { text: parts.join('\n'), isError: r.isError === true, parts };
  }

  /** A call that must succeed; its text. */
  async ok(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const r = await this.call(name, args);
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed: ${r.text}\nstderr: ${this.stderr}`);
    return r.text;
  }

  /** A call that must fail; its message. */
  async fails(name: string, args: Record<string, unknown>, pattern: RegExp): Promise<string> {
    const r = await this.call(name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail, got: ${r.text}`);
    assert.match(r.text, pattern);
    return r.text;
  }
}

describe('cairn mcp (bundled CLI, MCP SDK client over stdio)', function () {
  this.timeout(60000);
  let base: string;
  let repo: string;
  let store: string;
  let session: Session;

  const write = (rel: string, content: string): void => {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), content);
  };

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-mcp-e2e-')));
    repo = path.join(base, 'repo');
    store = path.join(base, 'store');
    write('src/config.ts', CONFIG_TS);
    write('src/server.ts', SERVER_TS);
    write('tools/report.py', REPORT_PY);
    write('docs/guide.md', GUIDE_MD);
    write('.env', 'API_TOKEN=hunter2\n');
    writeFileSync(path.join(base, 'secret.txt'), 'outside the root\n');
    symlinkSync(path.join(base, 'secret.txt'), path.join(repo, 'link-out.txt'));
    const pack = `.agent-context/registry/${ENTRY}`;
    write(`${pack}/DOC.md`, DOC);
    write(`${pack}/references/api.md`, '# API\n\nfetchUser(id, { timeoutMs })\n');
    const manifest = buildManifest(path.join(repo, pack), {
      id: ENTRY,
      sourceId: 'acme',
      title: 'Fetching users over HTTP',
      packageVersion: '1.2.0',
      revision: 'r1',
      language: 'typescript',
      trust: 'community',
      primary: 'DOC.md',
      files: [{ path: 'DOC.md' }, { path: 'references/api.md', role: 'reference' }],
    });
    write(`${pack}/pack.json`, JSON.stringify(manifest));
    // A long interval: after the first query, only refresh_index brings changes in.
    session = await new Session(repo, store, 3_600_000).start();
  });

  after(async () => {
    await session?.client.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('lists the tools with titles, descriptions and JSON schemas', async () => {
    const { tools } = await session.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['search_code', 'find_symbol', 'find_references', 'get_context_pack', 'read_span', 'context_search', 'context_get', 'index_status', 'refresh_index'],
    );
    for (const t of tools) {
      assert.ok((t.description ?? '').length > 80, `${t.name} has a description`);
      assert.ok(t.title, `${t.name} has a title`);
      assert.equal(t.inputSchema.type, 'object');
      assert.ok(t.inputSchema.properties, `${t.name} has properties`);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.search_code?.inputSchema.required, ['query']);
    assert.deepEqual(byName.get_context_pack?.inputSchema.required, ['task']);
    assert.ok(byName.read_span?.inputSchema.properties?.maxLines);
    assert.equal(byName.search_code?.annotations?.readOnlyHint, true);
    assert.equal(byName.refresh_index?.annotations?.readOnlyHint, false);
  });

  it('index_status reports a missing index without building it', async () => {
    const text = await session.ok('index_status');
    assert.match(text, /not indexed yet/);
    assert.ok(text.includes(`store: ${store}`), text);
  });

  it('search_code builds the missing index on demand and answers with path:start-end spans', async () => {
    const text = await session.ok('search_code', { query: 'parse configuration' });
    assert.match(text, /index built just now: \d+ files/);
    const span = /^1\. (src\/config\.ts:(\d+)-(\d+)) {2}function parseConfig/m.exec(text);
    assert.ok(span, text);
    const lines = CONFIG_TS.split('\n');
    const defLine = lines.indexOf('export function parseConfig(text: string): AppConfig {') + 1;
    assert.ok(Number(span[2]) <= defLine && Number(span[3]) >= defLine + 3, `the span covers the definition: ${span[1]}`);
    assert.match(text, /«parseConfig»|«configuration»/, 'matched words are marked');
    // The last line is the next useful call, spelled out: read the best hit in full.
    assert.equal(text.split('\n').at(-1), `next: read_span {"span":"${span[1]}"} — read the best result in full`);
    const after = await session.ok('index_status');
    assert.match(after, /indexed: 7 files/, 'code, docs and the registry pack; not .env nor the link');
    assert.match(after, /skipped files: secret-name 1, symlink 1/);
    assert.match(after, /languages: .*typescript 2/);
  });

  it('search_code filters by language, path, scope and kind, and pages with limit/offset', async () => {
    const python = await session.ok('search_code', { query: 'render report', languages: ['python'] });
    assert.match(python, /tools\/report\.py:\d+-\d+/);
    assert.doesNotMatch(python, /src\/|docs\//);
    const docs = await session.ok('search_code', { query: 'parseConfig port', scope: 'docs' });
    assert.match(docs, /docs\/guide\.md:\d+-\d+/);
    assert.doesNotMatch(docs, /\.ts:\d/);
    const underSrc = await session.ok('search_code', { query: 'parseConfig', paths: ['src/server.ts'] });
    assert.match(underSrc, /src\/server\.ts:/);
    assert.doesNotMatch(underSrc, /src\/config\.ts:|docs\//);
    const classes = await session.ok('search_code', { query: 'server start', kinds: ['class'] });
    assert.match(classes, /src\/server\.ts:\d+-\d+ {2}class HttpServer/);
    const page = await session.ok('search_code', { query: 'parseConfig', limit: 1 });
    assert.match(page, /^1 of (\d+) results/);
    assert.match(page, /more results; call again with offset=1/);
    const second = await session.ok('search_code', { query: 'parseConfig', limit: 1, offset: 1 });
    assert.match(second, /^2\. /m);
    const tight = await session.ok('search_code', { query: 'parseConfig', maxTokens: 100, previewLines: 0 });
    const [, shown, total] = /^(\d+) of (\d+) results/.exec(tight) ?? [];
    assert.ok(Number(shown) < Number(total), tight);
    assert.match(tight, new RegExp(`more results; call again with offset=${shown} \\(\\d+ of this page left out to fit maxTokens=100\\)`));
    assert.doesNotMatch(tight, /^ {4}/m, 'previewLines 0: locations only');
  });

  it('search_code with the ripgrep provider finds exact text, and json format is structured', async () => {
    const exact = await session.ok('search_code', { query: 'raw.port ?? 8080', provider: 'ripgrep' });
    assert.match(exact, /src\/config\.ts:\d+-\d+/);
    assert.doesNotMatch(exact, /ripgrep is not available/);
    const regex = await session.ok('search_code', { query: 'def \\w+_report', provider: 'ripgrep', regex: true });
    assert.match(regex, /tools\/report\.py:/);
    const json = JSON.parse(await session.ok('search_code', { query: 'HttpServer', format: 'json' })) as { total: number; results: Array<{ span: string; path: string; kind: string }>; index: string };
    assert.ok(json.total >= 1);
    assert.equal(json.results[0]?.path, 'src/server.ts');
    assert.match(json.results[0]?.span ?? '', /^src\/server\.ts:\d+-\d+$/);
    assert.match(json.index, /^index: checked/);
  });

  it('search_code with groupBy "file" ranks files, each with its best spans', async () => {
    const textAnswer = await session.ok('search_code', { query: 'parse config port server', groupBy: 'file', limit: 2 });
    assert.match(textAnswer, /^2 of \d+\+? files for "parse config port server" \(index provider, ranked as files\)/);
    assert.match(textAnswer, /^1\. src\/\S+ {2}\(score [\d.]+; \d+ matching chunks?\)/m);
    assert.match(textAnswer, /^ {3}- \d+-\d+ {2}\w+/m);
    const json = JSON.parse(await session.ok('search_code', { query: 'parse config port server', groupBy: 'file', limit: 2, format: 'json' })) as {
      groupBy: string;
      total: number;
      files: Array<{ path: string; score: number; matchedChunks: number; spans: Array<{ span: string; path: string }> }>;
    };
    assert.equal(json.groupBy, 'file');
    assert.equal(json.files.length, 2);
    assert.equal(new Set(json.files.map((f) => f.path)).size, 2);
    assert.ok(json.files[0]!.score >= json.files[1]!.score);
    for (const f of json.files) {
      assert.ok(f.spans.length >= 1 && f.spans.length <= 3);
      for (const s of f.spans) assert.equal(s.path, f.path);
    }
  });

  it('search_code groupBy "file" on a task text says why each file and span is there', async () => {
    const task = 'Starting the server crashes when the port is missing\nTypeError: Cannot read properties of undefined\n    at parseConfig (src/config.ts:8:5)\n    at main (src/server.ts:3:1)';
    const textAnswer = await session.ok('search_code', { query: task, groupBy: 'file', limit: 2 });
    assert.match(textAnswer, /^1\. src\/config\.ts {2}\(score/m, textAnswer);
    assert.match(textAnswer, /^ {3}why: traceback-frame: src\/config\.ts:8 in parseConfig$/m, textAnswer);
    const json = JSON.parse(await session.ok('search_code', { query: task, groupBy: 'file', limit: 2, format: 'json' })) as { files: Array<{ path: string; why?: string[]; spans: Array<{ startLine: number; why?: string[] }> }> };
    const first = json.files[0];
    assert.equal(first?.path, 'src/config.ts');
    assert.ok(first?.why?.includes('traceback-frame: src/config.ts:8 in parseConfig'), JSON.stringify(first));
    assert.equal(first?.spans[0]?.startLine, 6);
    assert.ok(first?.spans[0]?.why?.includes('traceback-frame: src/config.ts:8 in parseConfig'), JSON.stringify(first));
  });

  it('find_symbol: exact matches first; otherwise says so plainly and lists the closest', async () => {
    const exact = await session.ok('find_symbol', { name: 'parseConfig' });
    assert.match(exact, /^exact match for "parseConfig": 1 definition/);
    assert.match(exact, /src\/config\.ts:\d+-\d+ {2}function parseConfig {2}\[exact\]/);
    // The doc comment above it is in the range; the name is a line below.
    assert.match(exact, /src\/config\.ts:6-10 {2}function parseConfig {2}\[exact\] {2}\(name at line 7\)/);
    const misspelt = await session.ok('find_symbol', { name: 'parseConfg' });
    assert.match(misspelt, /^no exact match for "parseConfg"; the closest names are below/);
    assert.match(misspelt, /src\/config\.ts:\d+-\d+ {2}function parseConfig/);
    const nothing = await session.ok('find_symbol', { name: 'zzqxNothingLikeIt' });
    assert.match(nothing, /no symbol named "zzqxNothingLikeIt" and nothing close/);
    // The next call: the definition found, else a search by words.
    assert.match(exact.split('\n').at(-1)!, /^next: read_span \{"span":"src\/config\.ts:6-10"\} — read the definition in full$/);
    assert.equal(misspelt.split('\n').at(-1), 'next: search_code {"query":"parseConfg"} — search by words when the name is not a definition here');
  });

  it('find_references: the certain references of a definition, grouped by file, never in prose, bounded by maxTokens', async () => {
    const text = await session.ok('find_references', { name: 'parseConfig' });
    assert.match(text, /^3 references to parseConfig \(3 certain\) in 2 files\ndefined at src\/config\.ts:7:17 \(function parseConfig\)$/m);
    const body = text.split('\n').filter((l) => /^src\/|^ {2}\d/.test(l));
    assert.deepEqual(body, [
      'src/config.ts  (1 reference, 1 certain)',
      '  7:17  [certain, definition]  parseConfig  export function parseConfig(text: string): AppConfig {',
      'src/server.ts  (2 references, 2 certain)',
      "  1:10  [certain, resolves to src/config.ts:7, import]  -  import { parseConfig } from './config';",
      '  5:20  [certain, resolves to src/config.ts:7]  HttpServer.start  const config = parseConfig(configText);',
    ]);
    assert.doesNotMatch(text, /docs\/guide\.md/, 'a name in prose is not a reference');
    assert.equal(text.split('\n').at(-1), 'next: read_span {"span":"src/server.ts:1-10"} — read the first certain reference in context');
    // The tightest budget keeps the first reference, says what it left out, and stays near it.
    const tight = await session.ok('find_references', { name: 'parseConfig', maxTokens: 100 });
    const kept = tight.split('\n').filter((l) => /^ {2}\d+:\d+ /.test(l));
    assert.ok(kept.length >= 1 && kept.length < 3, tight);
    assert.match(tight, new RegExp(`^${3 - kept.length} more references? left out to fit maxTokens=100$`, 'm'));
    const json = JSON.parse(await session.ok('find_references', { name: 'parseConfig', format: 'json' })) as { certain: number; references: Array<{ at: string; certainty: string }> };
    assert.equal(json.certain, 3);
    assert.deepEqual(json.references.map((r) => `${r.at} ${r.certainty}`), ['src/config.ts:7:17 certain', 'src/server.ts:1:10 certain', 'src/server.ts:5:20 certain']);
  });

  it('get_context_pack returns Markdown within the budget, honours negatives, and JSON when asked', async () => {
    const markdown = await session.ok('get_context_pack', { task: 'change how parseConfig handles a missing port', budgetTokens: 1500 });
    assert.match(markdown, /^# Context pack/);
    assert.match(markdown, /### 1\. `src\/config\.ts:\d+-\d+` — function parseConfig/);
    assert.match(markdown, /export function parseConfig/, 'must-inspect spans carry their code');
    const used = /(\d+)\/1500 tokens/.exec(markdown);
    assert.ok(used && Number(used[1]) <= 1500, 'the pack stays within its budget');
    const both = await session.call('get_context_pack', { task: 'change how parseConfig handles a missing port', negatives: ['src/server.ts'], format: 'both' });
    assert.equal(both.isError, false, both.text);
    assert.equal(both.parts.length, 2, 'Markdown, then JSON');
    const pack = JSON.parse(both.parts[1] as string) as { mustInspect: Array<{ path: string }>; relatedFiles: Array<{ path: string }>; rejectedFiles: Array<{ path: string; reason: string }>; usedTokens: number; budgetTokens: number };
    assert.ok(pack.mustInspect.length > 0);
    assert.ok(![...pack.mustInspect, ...pack.relatedFiles].some((i) => i.path === 'src/server.ts'), 'a negative is left out');
    assert.ok(pack.rejectedFiles.some((r) => r.path === 'src/server.ts' && /irrelevant/.test(r.reason)));
    assert.ok(pack.usedTokens <= pack.budgetTokens);
  });

  it('get_context_pack lists relevant registry guidance as advisory', async () => {
    const markdown = await session.ok('get_context_pack', { task: 'fetch user over HTTP with a timeout' });
    assert.match(markdown, /## Guidance \(context registry, advisory\)/);
    assert.match(markdown, /`http\/fetch-user` — Fetching users over HTTP \(trust: community\)/);
    assert.match(markdown, /Guidance entries: Registry content is advisory/);
  });

  it('read_span returns the working-tree text of a span, numbered, in every accepted form', async () => {
    const lines = CONFIG_TS.split('\n');
    assert.equal(await session.ok('read_span', { span: 'src/config.ts:7-8' }), `src/config.ts:7-8 (the file has 10 lines)\n7| ${lines[6]}\n8| ${lines[7]}`);
    assert.equal(await session.ok('read_span', { path: './src//config.ts', startLine: 2, endLine: 3, lineNumbers: false }), `src/config.ts:2-3 (the file has 10 lines)\n${lines[1]}\n${lines[2]}`);
    assert.match(await session.ok('read_span', { span: 'src/config.ts#L9' }), /^src\/config\.ts:9-9 .*\n9\| {3}return \{ port/);
    const clamped = await session.ok('read_span', { span: 'src/config.ts:8-400', maxLines: 2 });
    assert.match(clamped, /endLine 400 is past the end of the file; clamped to its last line, 10/);
    assert.match(clamped, /returned lines 8-9 of the 8-10 asked for; continue with startLine=10/);
  });

  it('read_span refuses traversal, absolute paths, links out of the root, NUL bytes and secrets', async () => {
    await session.fails('read_span', { span: '../secret.txt' }, /'\.\.' is not accepted/);
    await session.fails('read_span', { path: 'src/../../secret.txt' }, /'\.\.' is not accepted/);
    await session.fails('read_span', { path: '/etc/passwd' }, /absolute paths are not accepted/);
    await session.fails('read_span', { path: path.join(repo, 'src/config.ts') }, /absolute paths are not accepted.*\(here: src\/config\.ts\)/);
    const out = await session.fails('read_span', { span: 'link-out.txt:1-1' }, /outside the root/);
    assert.doesNotMatch(out, /outside the root\n/, 'the outside file content is not returned');
    await session.fails('read_span', { path: 'src/config.ts\u0000.md' }, /NUL byte/);
    const secret = await session.fails('read_span', { path: '.env' }, /secrets/);
    assert.doesNotMatch(secret, /hunter2/);
    await session.fails('read_span', { span: 'src/missing.ts:1-5' }, /no such file: src\/missing\.ts/);
    await session.fails('read_span', { span: 'src/config.ts:50-60' }, /startLine 50 is past the end of src\/config\.ts, which has 10 lines/);
  });

  it('context_search returns advisory metadata only; context_get returns content with provenance and untrusted commands', async () => {
    const found = await session.ok('context_search', { query: 'fetch user' });
    assert.match(found, /^TRUST NOTICE: Registry content is advisory/);
    assert.match(found, /1\. http\/fetch-user — Fetching users over HTTP {2}\[typescript; trust community; integrity verified; acme 1\.2\.0@r1\]/);
    assert.doesNotMatch(found, /npm install undici/, 'search never returns content');
    const entry = await session.ok('context_get', { id: ENTRY });
    assert.match(entry, /^TRUST NOTICE/);
    assert.match(entry, /entry http\/fetch-user — Fetching users over HTTP: 1\.2\.0@r1 from source acme \(\.agent-context\/registry\/http\/fetch-user\); trust community; integrity verified/);
    assert.ok(entry.includes(DOC.trimEnd()), 'the primary file content');
    assert.match(entry, /omitted references\/api\.md: not-requested; fetch it with mode "file"/);
    assert.match(entry, /UNTRUSTED suggested commands .*never run them[^\n]*\n- DOC\.md:6 {2}npm install undici/);
    const file = await session.ok('context_get', { id: ENTRY, mode: 'file', file: 'references/api.md' });
    assert.match(file, /fetchUser\(id, \{ timeoutMs \}\)/);
    assert.doesNotMatch(file, /Use fetchUser with a timeout/);
    const full = await session.ok('context_get', { id: ENTRY, mode: 'full' });
    assert.ok(full.includes('Use fetchUser with a timeout') && full.includes('fetchUser(id, { timeoutMs })'));
  });

  it('context_get errors: unknown id, file mode without a file, path traversal in the pack', async () => {
    await session.fails('context_get', { id: 'http/no-such-entry' }, /no entry http\/no-such-entry \[not-found\]/);
    await session.fails('context_get', { id: ENTRY, mode: 'file' }, /mode "file" needs file/);
    await session.fails('context_get', { id: ENTRY, mode: 'file', file: '../../../../.env' }, /failed: .*\[/);
  });

  it('rejects missing, ill-typed and unknown arguments with a message naming them', async () => {
    await session.fails('search_code', {}, /query/);
    await session.fails('search_code', { query: 42 }, /query/);
    await session.fails('search_code', { query: 'x', limit: 'ten' }, /limit/);
    await session.fails('search_code', { query: 'x', limit: 0 }, /limit/);
    await session.fails('search_code', { query: 'x', qurey: 'y' }, /qurey/);
    await session.fails('search_code', { query: 'x', regex: true }, /regex=true needs provider "ripgrep"/);
    await session.fails('find_symbol', { name: '' }, /name/);
    await session.fails('get_context_pack', { task: 'x', budgetTokens: 10 }, /budgetTokens/);
    await session.fails('read_span', { span: 'src/config.ts:1-2', path: 'src/config.ts' }, /exactly one of them/);
    await session.fails('context_get', { id: ENTRY, mode: 'everything' }, /mode/);
    await session.fails('refresh_index', { paths: ['../outside'] }, /'\.\.' is not accepted/);
    await session.fails('no_such_tool', {}, /no_such_tool/);
  });

  it('sees an edited file only after refresh_index (paths), and a new file after a whole refresh', async () => {
    write('src/server.ts', `${SERVER_TS}\nexport function computeChecksum(data: string): number {\n  return data.length % 251;\n}\n`);
    const stale = await session.ok('search_code', { query: 'computeChecksum' });
    assert.doesNotMatch(stale, /function computeChecksum/, 'the index is not refreshed within the interval');
    assert.match(stale, /index: checked .* ago; call refresh_index if you changed files since/);
    const refreshed = await session.ok('refresh_index', { paths: ['src/server.ts'] });
    assert.match(refreshed, /^index \(src\/server\.ts\) refreshed just now: 1 changed, 0 added, 0 removed/);
    const found = await session.ok('search_code', { query: 'computeChecksum' });
    assert.match(found, /src\/server\.ts:\d+-\d+ {2}function computeChecksum/);
    const span = /src\/server\.ts:(\d+)-(\d+) {2}function computeChecksum/.exec(found);
    const text = await session.ok('read_span', { span: `src/server.ts:${span?.[1]}-${span?.[2]}` });
    assert.match(text, /export function computeChecksum/);

    write('src/hash.ts', 'export function fnvHashOf(text: string): number {\n  return text.length;\n}\n');
    assert.match(await session.ok('find_symbol', { name: 'fnvHashOf' }), /^no /);
    assert.match(await session.ok('refresh_index'), /^index refreshed just now: 0 changed, 1 added, 0 removed/);
    assert.match(await session.ok('find_symbol', { name: 'fnvHashOf' }), /^exact match for "fnvHashOf"/);
    assert.match(await session.ok('index_status'), /indexed: 8 files/);
  });

  it('with --refresh-interval 0, a query sees an edit at once and says the index was refreshed', async () => {
    const autoStore = path.join(base, 'auto-store');
    const auto = await new Session(repo, autoStore, 0).start();
    try {
      assert.match(await auto.ok('find_symbol', { name: 'HttpServer' }), /index built just now/);
      write('tools/report.py', `${REPORT_PY}\n\ndef summarise_quarter(rows):\n    return len(rows)\n`);
      const text = await auto.ok('find_symbol', { name: 'summarise_quarter' });
      assert.match(text, /^exact match for "summarise_quarter"/);
      assert.match(text, /index refreshed just now: 1 changed, 0 added, 0 removed/);
      assert.match(text, /tools\/report\.py:\d+-\d+ {2}function summarise_quarter/);
    } finally {
      await auto.client.close();
    }
    assert.match(auto.stderr, /stopping: the client closed stdin/, 'the server exits on its own when the client goes');
    assert.deepEqual(auto.protocolErrors, []);
  });

  it('keeps stdout for the protocol only, and logs to stderr', () => {
    assert.deepEqual(session.protocolErrors, [], 'every stdout line was a protocol message');
    assert.match(session.stderr, /cairn mcp: serving .* over stdio \(9 tools\)/);
    assert.equal(readFileSync(path.join(repo, 'src/config.ts'), 'utf8'), CONFIG_TS, 'no tool wrote into the tree');
  });
});
