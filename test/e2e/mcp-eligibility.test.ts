// Safe by default, through the real `cairn mcp` server (`node dist/cli.js mcp`, built by
// `node esbuild.mjs`): every file discovery refuses — ignored by .gitignore or .cairnignore,
// under node_modules, over the size cap, not UTF-8, secret-named, a hard link to `.env` — is
// refused by read_span with its reason, and stays out of hybrid search even after refresh_index
// names it explicitly. The fixture is a git work tree, so .gitignore is git's own decision.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './cli';

/** Each refused file holds its own marker word, so a search for it can only find that file. */
const REFUSED: ReadonlyArray<{ path: string; marker: string; why: RegExp }> = [
  { path: 'config/local.yaml', marker: 'quokkagitignored', why: /is ignored by \.gitignore/ },
  { path: 'private/notes.md', marker: 'quokkaprivatefolder', why: /is ignored by \.gitignore/ },
  { path: 'drafts/plan.md', marker: 'quokkacairnignored', why: /is ignored by \.cairnignore/ },
  { path: 'node_modules/pkg/index.js', marker: 'quokkadependency', why: /lies inside node_modules/ },
  { path: 'big.txt', marker: 'quokkaoversized', why: /larger than the size cap/ },
  { path: 'latin1.txt', marker: 'quokkanotutf', why: /not valid UTF-8/ },
  { path: '.env', marker: 'quokkadotenv', why: /secret deny-list/ },
  { path: 'client_secret.json', marker: 'quokkaclientsecret', why: /secret deny-list/ },
  { path: '.docker/config.json', marker: 'quokkadockerauth', why: /secret deny-list/ },
  { path: 'deploy/secret.yaml', marker: 'quokkak8ssecret', why: /secret deny-list/ },
  { path: 'prod.env', marker: 'quokkaprodenv', why: /secret deny-list/ },
  { path: 'token.txt', marker: 'quokkatokenfile', why: /secret deny-list/ },
];

interface Call {
  text: string;
  isError: boolean;
}

describe('cairn mcp: every read follows discovery (bundled CLI, MCP SDK client)', function () {
  this.timeout(60000);
  let base: string;
  let repo: string;
  let client: Client;
  let stderr = '';

  const write = (rel: string, content: string | Buffer): void => {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), content);
  };
  const call = async (name: string, args: Record<string, unknown>): Promise<Call> => {
    const r = await client.callTool({ name, arguments: args });
    return { text: (r.content as Array<{ text: string }>).map((c) => c.text).join('\n'), isError: r.isError === true };
  };

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-mcp-eligible-')));
    repo = path.join(base, 'repo');
    const store = path.join(base, 'store');
    write('src/app.ts', 'export function startApp(): string {\n  return "quokkaordinary";\n}\n');
    write('.gitignore', 'config/local.yaml\nprivate/\n');
    write('.cairnignore', 'drafts/\n');
    for (const f of REFUSED) {
      if (f.path === 'big.txt') write(f.path, `${f.marker}\n${'x'.repeat(99)}\n`.repeat(20_000));
      else if (f.path === 'latin1.txt') write(f.path, Buffer.concat([Buffer.from(`${f.marker} caf`), Buffer.from([0xe9, 0x0a])]));
      else write(f.path, `${f.marker}: hunter2\n`);
    }
    // A hard link to `.env` under an innocent name: the same bytes, a name no rule refuses.
    linkSync(path.join(repo, '.env'), path.join(repo, 'notes.txt'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', repo, '--store', store, '--refresh-interval', '3600000'],
      env: { ...env, CAIRN_STORE: store, CAIRN_REGISTRY_REMOTE: '' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'cairn-e2e', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('read_span refuses each refused class with its reason, and never returns its text', async () => {
    for (const f of [...REFUSED, { path: 'notes.txt', marker: 'quokkadotenv', why: /is a hard link \(2 names\)/ }]) {
      const r = await call('read_span', { path: f.path });
      assert.equal(r.isError, true, `${f.path} should be refused, got: ${r.text}`);
      assert.match(r.text, f.why, f.path);
      assert.doesNotMatch(r.text, new RegExp(`${f.marker}|hunter2`), `${f.path}: no content`);
    }
    const ok = await call('read_span', { path: 'src/app.ts' });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /quokkaordinary/);
  });

  it('refresh_index with explicit paths indexes none of them, says why, and hybrid search finds none', async () => {
    const named = [...REFUSED.map((f) => f.path), 'notes.txt', 'src/app.ts', 'private', 'node_modules'];
    const refreshed = await call('refresh_index', { paths: named });
    assert.equal(refreshed.isError, false, `${refreshed.text}\nstderr: ${stderr}`);
    assert.match(refreshed.text, /^not indexed: config\/local\.yaml is ignored by \.gitignore/m);
    assert.match(refreshed.text, /^not indexed: notes\.txt is a hard link/m);
    assert.match(refreshed.text, /^not indexed: latin1\.txt is not valid UTF-8/m);
    assert.match(refreshed.text, /^not indexed: \.env looks like a file holding secrets/m);
    assert.doesNotMatch(refreshed.text, /not indexed: (src\/app\.ts|private|node_modules) /, 'eligible files and folders are not reported');

    const control = await call('search_code', { query: 'quokkaordinary', provider: 'hybrid' });
    assert.match(control.text, /src\/app\.ts:\d+-\d+/, `the search itself works: ${control.text}`);
    for (const marker of new Set(REFUSED.map((f) => f.marker))) {
      for (const provider of ['hybrid', 'ripgrep'] as const) {
        const r = await call('search_code', { query: marker, provider });
        assert.equal(r.isError, false, r.text);
        assert.match(r.text, /^no results for /, `${provider} search for ${marker} must find nothing: ${r.text}`);
      }
    }
    const status = await call('index_status', {});
    assert.match(status.text, /indexed: 3 files/, `src/app.ts, .gitignore and .cairnignore only: ${status.text}`);
    assert.match(status.text, /skipped files: .*hard-link 1/, status.text);
  });
});

describe('cairn mcp: a store inside the root is not served (bundled CLI, MCP SDK client)', function () {
  this.timeout(60000);
  let base: string;
  let client: Client;

  before(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-mcp-store-')));
    const repo = path.join(base, 'repo');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    writeFileSync(path.join(repo, 'src', 'app.ts'), 'export function startApp(): string {\n  return "wombatordinary";\n}\n');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', repo, '--store', path.join(repo, 'cairn-index'), '--refresh-interval', '3600000'],
      env: { ...env, CAIRN_REGISTRY_REMOTE: '' },
      stderr: 'pipe',
    });
    client = new Client({ name: 'cairn-e2e', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("read_span refuses the store's own files, and serves the root's", async () => {
    const built = await client.callTool({ name: 'refresh_index', arguments: {} });
    assert.notEqual(built.isError, true);
    const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as Array<{ text: string }>).map((c) => c.text).join('\n');
    const store = await client.callTool({ name: 'read_span', arguments: { path: 'cairn-index/manifest.json' } });
    assert.equal(store.isError, true, text(store));
    assert.doesNotMatch(text(store), /"generation"/);
    const app = await client.callTool({ name: 'read_span', arguments: { path: 'src/app.ts' } });
    assert.match(text(app), /wombatordinary/);
  });
});

/**
 * A file read_span served once is refused as soon as discovery would refuse it: the server keeps
 * git's answer between reads, and each row's change must still reach the second read. The
 * fixture is aged past the window in which answers are not kept (gitAnswers.ts RACY_MS).
 */
const CHANGED: ReadonlyArray<{ path: string; change: (repo: string) => void; why: RegExp }> = [
  { path: 'src/ignored.ts', change: (repo) => appendFileSync(path.join(repo, '.gitignore'), 'src/ignored.ts\n'), why: /is ignored by \.gitignore/ },
  { path: 'lib/deep/folder.ts', change: (repo) => writeFileSync(path.join(repo, 'lib/.gitignore'), 'deep/\n'), why: /is ignored by \.gitignore/ },
  { path: 'src/excluded.ts', change: (repo) => appendFileSync(path.join(repo, '.git/info/exclude'), 'src/excluded.ts\n'), why: /is ignored by \.gitignore/ },
  { path: 'src/cairn.ts', change: (repo) => writeFileSync(path.join(repo, '.cairnignore'), 'src/cairn.ts\n'), why: /is ignored by \.cairnignore/ },
  { path: 'src/linked.ts', change: (repo) => linkSync(path.join(repo, 'src/linked.ts'), path.join(repo, 'copy.txt')), why: /is a hard link \(2 names\)/ },
  { path: 'src/grown.ts', change: (repo) => appendFileSync(path.join(repo, 'src/grown.ts'), `// ${'x'.repeat(99)}\n`.repeat(12_000)), why: /larger than the size cap/ },
];

describe('cairn mcp: a file read before is refused once discovery would refuse it (bundled CLI)', function () {
  this.timeout(60000);
  let base: string;
  let repo: string;
  let client: Client;

  const read = async (p: string): Promise<Call> => {
    const r = await client.callTool({ name: 'read_span', arguments: { path: p } });
    return { text: (r.content as Array<{ text: string }>).map((c) => c.text).join('\n'), isError: r.isError === true };
  };

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-mcp-reread-')));
    repo = path.join(base, 'repo');
    for (const f of CHANGED) {
      mkdirSync(path.dirname(path.join(repo, f.path)), { recursive: true });
      writeFileSync(path.join(repo, f.path), `export const marker = "wallabykept";\n`);
    }
    writeFileSync(path.join(repo, '.gitignore'), 'build/\n');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--root', repo, '--store', path.join(base, 'store'), '--refresh-interval', '3600000'],
      env: { ...env, CAIRN_REGISTRY_REMOTE: '' },
      stderr: 'pipe',
    });
    client = new Client({ name: 'cairn-e2e', version: '1.0.0' });
    await client.connect(transport);
    // Answers about files changed in the last RACY_MS are not kept: past it, the first reads are.
    await new Promise((resolve) => setTimeout(resolve, 3500));
  });

  after(async () => {
    await client?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('serves each file, then refuses it after the change with its reason', async () => {
    for (const f of CHANGED) {
      const first = await read(f.path);
      assert.equal(first.isError, false, `${f.path}: ${first.text}`);
      assert.match(first.text, /wallabykept/);
    }
    for (const f of CHANGED) f.change(repo);
    for (const f of CHANGED) {
      const again = await read(f.path);
      assert.equal(again.isError, true, `${f.path} should be refused after the change, got: ${again.text}`);
      assert.match(again.text, f.why, f.path);
      assert.doesNotMatch(again.text, /wallabykept/, `${f.path}: no content`);
    }
  });
});
