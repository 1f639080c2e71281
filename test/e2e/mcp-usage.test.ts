// The tool-use counters end to end: real `cairn mcp` processes (two at once on one store) driven
// by the MCP SDK client, then `cairn status --usage` reading what they wrote on exit; and the
// opt-outs (`--no-usage`, CAIRN_USAGE=0), which leave no file behind.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, runCairn } from './cli';
import type { ToolUsage } from '../../src/tools/usage';

const CONFIG_TS = [
  '/** Parses the application configuration from its JSON text. */',
  'export function parseConfig(text: string): { port: number } {',
  '  const raw = JSON.parse(text) as { port?: number };',
  '  return { port: raw.port ?? 8080 };',
  '}',
  '',
  ...Array.from({ length: 60 }, (_, i) => `export const setting${i} = ${i}; // a line the spans do not need`),
  '',
].join('\n');

const SERVER_TS = [
  "import { parseConfig } from './config';",
  '',
  'export class HttpServer {',
  '  start(configText: string): number {',
  '    return parseConfig(configText).port;',
  '  }',
  '}',
  '',
].join('\n');

type Counters = ToolUsage;

interface UsageJson {
  storeDir: string;
  counting: boolean;
  usage: { since: string; tools: Record<string, Counters>; days: Record<string, Counters> } | null;
  totals?: Counters;
  spans?: { tokensServed: number; wholeFileTokens: number };
}

async function connect(repo: string, store: string, extraArgs: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'CAIRN_USAGE') base[k] = v;
  const client = new Client({ name: 'cairn-usage-e2e', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', repo, '--store', store, ...extraArgs],
    env: { ...base, CAIRN_REGISTRY_REMOTE: '', ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args });
  return { text: (r.content as Array<{ text: string }>).map((c) => c.text).join('\n'), isError: r.isError === true };
}

const statusUsage = (repo: string, store: string, json: boolean) => runCairn(['status', repo, '--store', store, '--usage', ...(json ? ['--json'] : [])], { env: { CAIRN_USAGE: '' } });

describe('cairn mcp usage counters (bundled CLI)', function () {
  this.timeout(60000);
  let base: string;
  let repo: string;

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-usage-e2e-')));
    repo = path.join(base, 'repo');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    writeFileSync(path.join(repo, 'src/config.ts'), CONFIG_TS);
    writeFileSync(path.join(repo, 'src/server.ts'), SERVER_TS);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('two servers on one store count their calls; cairn status --usage shows the sum', async () => {
    const store = path.join(base, 'store');
    const one = await connect(repo, store);
    const two = await connect(repo, store);
    try {
      const found = await call(one, 'search_code', { query: 'parse configuration', limit: 1 });
      assert.equal(found.isError, false, found.text);
      const span = /^next: read_span (\{.*\}) — /m.exec(found.text)?.[1];
      assert.ok(span, found.text);
      const read = await call(one, 'read_span', JSON.parse(span) as Record<string, unknown>);
      assert.equal(read.isError, false, read.text);
      assert.equal((await call(one, 'read_span', { path: '../outside.ts' })).isError, true);
      assert.equal((await call(two, 'find_symbol', { name: 'HttpServer' })).isError, false);
      assert.equal((await call(two, 'search_code', { query: 'HttpServer start' })).isError, false);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }

    const r = statusUsage(repo, store, true);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as UsageJson;
    assert.equal(report.counting, true);
    const tools = report.usage?.tools ?? {};
    assert.equal(tools.search_code?.calls, 2);
    assert.equal(tools.search_code?.spansLaterRead, 1, 'the span the first search returned was read');
    assert.equal(tools.read_span?.calls, 2);
    assert.equal(tools.read_span?.errors, 1);
    assert.equal(tools.find_symbol?.calls, 1);
    assert.ok((tools.find_symbol?.results ?? 0) >= 1);
    const configTokens = Math.ceil(Buffer.byteLength(CONFIG_TS) / 3.5);
    assert.ok((tools.read_span?.wholeFileTokens ?? 0) === configTokens, `read_span counted config.ts whole: ${JSON.stringify(tools.read_span)}`);
    assert.equal(report.totals?.calls, 5);
    assert.ok(report.spans && report.spans.wholeFileTokens > report.spans.tokensServed, JSON.stringify(report.spans));

    const text = statusUsage(repo, store, false);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^agent tool use since .*on this machine only/);
    assert.match(text.stdout, /^search_code +2 +0 /m);
    assert.match(text.stdout, /^total +5 +1 /m);
    assert.match(text.stdout, /^served \S+ tokens where the whole files were \S+ \(\d+(\.\d)?%\)$/m);

    // The index's own writes (a commit collects garbage) leave the counters alone.
    writeFileSync(path.join(repo, 'src/extra.ts'), 'export const extra = 1;\n');
    const indexed = runCairn(['index', repo, '--store', store]);
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.equal((JSON.parse(readFileSync(path.join(store, 'usage.json'), 'utf8')) as { tools: Record<string, Counters> }).tools.search_code?.calls, 2);
  });

  it('--no-usage and CAIRN_USAGE=0 count nothing and write no file', async () => {
    const store = path.join(base, 'store-off');
    for (const [args, env] of [[['--no-usage'], {}], [[], { CAIRN_USAGE: '0' }]] as const) {
      const client = await connect(repo, store, [...args], env);
      try {
        assert.equal((await call(client, 'search_code', { query: 'parse configuration' })).isError, false);
        assert.equal((await call(client, 'read_span', { span: 'src/config.ts:1-3' })).isError, false);
      } finally {
        await client.close();
      }
    }
    assert.ok(existsSync(path.join(store, 'manifest.json')), 'the index was built');
    assert.equal(existsSync(path.join(store, 'usage.json')), false);
    const r = statusUsage(repo, store, false);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^no agent tool calls counted yet in /);
  });
});
