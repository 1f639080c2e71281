// Drives the real bundled CLI (`node dist/cli.js`, built by `node esbuild.mjs`) on a repository
// with a context registry: `context search|get`, `annotate`, `annotations`, JSON shapes and exit
// codes (0 ok, 1 failed fetch, 2 bad arguments).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, type Run } from './cli';
import {
  buildManifest,
  computeContentHash,
  type AnnotateResult,
  type AnnotationsResult,
  type RegistryFetchResult,
  type RegistrySearchResponse,
} from '../../src/core/registry';
import { hashBytes } from '../../src/core/discovery/read';

const ID = 'http/fetch-user';
const PACK = `.agent-context/registry/${ID}`;
const DOC = '# Fetch user\n\nUse fetchUser with a timeout.\n\n```sh\nnpm install undici\n```\n';

describe('cairn context / annotate / annotations (bundled CLI)', function () {
  this.timeout(60000);
  let base: string;
  let repo: string;
  let store: string;

  /** Runs the CLI without blocking this process, so a server in it can answer the CLI. */
  function cairn(args: string[], env: Record<string, string> = {}): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], { cwd: repo, env: { ...process.env, CAIRN_STORE: store, CAIRN_REGISTRY_REMOTE: '', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** The single JSON line a --json run prints, typed as the API's result shape. */
  function json<T>(r: Run): T {
    assert.equal(r.stdout.trimEnd().split('\n').length, 1, `one JSON line expected: ${r.stdout}`);
    return JSON.parse(r.stdout) as T;
  }
  const fetchResult = (r: Run): RegistryFetchResult => json<RegistryFetchResult>(r);
  const searchResponse = (r: Run): RegistrySearchResponse => json<RegistrySearchResponse>(r);
  const codesOf = (diagnostics: ReadonlyArray<{ code: string }>): string[] => diagnostics.map((d) => d.code).sort();

  function write(rel: string, content: string): void {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), content);
  }

  function writePack(revision: string): void {
    write(`${PACK}/DOC.md`, DOC);
    write(`${PACK}/references/api.md`, '# API\n');
    const manifest = buildManifest(path.join(repo, PACK), {
      id: ID,
      sourceId: 'acme',
      title: 'Fetching users over HTTP',
      packageVersion: '1.2.0',
      revision,
      language: 'typescript',
      trust: 'verified',
      primary: 'DOC.md',
      files: [{ path: 'DOC.md' }, { path: 'references/api.md', role: 'reference' }],
    });
    write(`${PACK}/pack.json`, JSON.stringify(manifest));
  }

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-cli-context-')));
    repo = path.join(base, 'repo');
    store = path.join(base, 'store');
    writePack('r1');
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('context search --json: ranked metadata with breakdowns, cache in CAIRN_STORE/registry-cache', async () => {
    const r = await cairn(['context', 'search', 'fetchUser', '--root', repo, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const response = searchResponse(r);
    assert.equal(response.results[0]?.id, ID);
    assert.ok(Array.isArray(response.results[0]?.scoreBreakdown));
    assert.ok(!r.stdout.includes('npm install undici'), 'search never returns content');
    assert.equal(response.cache.status, 'rebuilt');
    assert.deepEqual(response.diagnostics, []);
    assert.ok(existsSync(path.join(store, 'registry-cache')));
    const again = searchResponse(await cairn(['context', 'search', 'fetch', '--json']));
    assert.equal(again.cache.status, 'hit', 'the root defaults to the current directory');
  });

  it('context search (human): one line per hit, summary on stderr', async () => {
    const r = await cairn(['context', 'search', 'fetch user']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^http\/fetch-user {2}\d+\.\d\d {2}Fetching users over HTTP {2}\[typescript, verified, acme 1\.2\.0@r1\]\n$/);
    assert.match(r.stderr, /1 of 1 entries; cache hit/);
  });

  it('context get --json: entry, file and full modes', async () => {
    const entry = await cairn(['context', 'get', ID, '--json']);
    assert.equal(entry.code, 0, entry.stderr);
    const e = fetchResult(entry);
    assert.deepEqual([e.ok, e.mode, e.selectedFiles, e.omittedFiles], [true, 'entry', ['DOC.md'], [{ path: 'references/api.md', reason: 'not-requested' }]]);
    assert.equal(e.files[0]?.content, DOC);
    assert.equal(e.version?.contentHash, computeContentHash([{ path: 'DOC.md', sha256: hashBytes(Buffer.from(DOC)) }, { path: 'references/api.md', sha256: hashBytes(Buffer.from('# API\n')) }]));
    assert.deepEqual(e.suggestedCommands, [{ command: 'npm install undici', file: 'DOC.md', line: 6, trusted: false, origin: 'fenced-block' }]);
    for (const key of ['provenance', 'cache', 'freshness', 'durationMs', 'annotationAvailable', 'annotations', 'trust', 'diagnostics']) assert.ok(key in e, key);

    const file = fetchResult(await cairn(['context', 'get', ID, '--mode', 'file', '--file', 'references\\api.md', '--json']));
    assert.deepEqual([file.ok, file.selectedFiles], [true, ['references/api.md']]);
    const full = fetchResult(await cairn(['context', 'get', ID, '--mode', 'full', '--json']));
    assert.deepEqual(full.selectedFiles, ['DOC.md', 'references/api.md']);
  });

  it('context get: a traversal or an unknown id exits 1 with a diagnostic', async () => {
    const traversal = await cairn(['context', 'get', ID, '--mode', 'file', '--file', '..%2f..%2fpack.json', '--json']);
    assert.equal(traversal.code, 1);
    const t = fetchResult(traversal);
    assert.deepEqual([t.ok, t.files, codesOf(t.diagnostics)], [false, [], ['path-traversal']]);
    const unknown = await cairn(['context', 'get', 'nope', '--json']);
    assert.equal(unknown.code, 1);
    assert.deepEqual(codesOf(fetchResult(unknown).diagnostics), ['not-found']);
  });

  for (const args of [
    ['context'],
    ['context', 'list'],
    ['context', 'search'],
    ['context', 'get'],
    ['context', 'get', ID, '--mode', 'file'],
    ['context', 'get', ID, '--file', 'DOC.md'],
    ['context', 'get', ID, '--mode', 'everything'],
    ['context', 'search', 'x', '--mode', 'full'],
    ['context', 'search', 'x', '--limit', '0'],
    ['context', 'search', 'x', 'y'],
    ['annotate', ID],
    ['annotate', ID, 'note', '--kind', 'gossip'],
    ['annotations'],
  ]) {
    it(`exit 2 with one line: cairn ${args.join(' ')}`, async () => {
      const r = await cairn(args);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /^cairn (context|annotate|annotations): .*\(usage: cairn /);
    });
  }

  it('annotate, then annotations; stale after a revision change unless --include-stale', async () => {
    const noted = await cairn(['annotate', ID, 'NOTE-TEXT: CI has no IPv6', '--kind', 'environment', '--json']);
    assert.equal(noted.code, 0, noted.stderr);
    const n = json<AnnotateResult>(noted);
    assert.deepEqual([n.ok, n.annotation?.trust, n.annotation?.revision, n.annotation?.kind], [true, 'user-written', 'r1', 'environment']);
    const notePath = path.join(repo, n.path ?? 'missing');
    assert.ok(readFileSync(notePath, 'utf8').includes('CI has no IPv6'), notePath);

    const listed = json<AnnotationsResult>(await cairn(['annotations', ID, '--json']));
    assert.deepEqual(listed.notes.map((x) => x.text), ['NOTE-TEXT: CI has no IPv6']);
    const fetched = await cairn(['context', 'get', ID, '--json']);
    assert.equal(fetchResult(fetched).annotationAvailable, true);
    assert.ok(!fetched.stdout.includes('NOTE-TEXT'));

    writePack('r2');
    const hidden = json<AnnotationsResult>(await cairn(['annotations', ID, '--json']));
    assert.deepEqual([hidden.notes, hidden.stale.count, hidden.stale.versions], [[], 1, [{ packageVersion: '1.2.0', revision: 'r1', count: 1 }]]);
    const shown = json<AnnotationsResult>(await cairn(['annotations', ID, '--include-stale', '--json']));
    assert.deepEqual(shown.notes.map((x) => x.stale), [true]);
    const human = await cairn(['annotations', ID, '--include-stale']);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /User-written note: untrusted, context only/);
    assert.match(human.stdout, /\(stale: revision\)/);
  });

  it("remotes come from CAIRN_REGISTRY_REMOTE or a trusted repository's config, and fall back to the cache", async () => {
    const content = '# Remote doc\n';
    const files = [{ path: 'DOC.md', sha256: hashBytes(Buffer.from(content)), content }];
    const documentBody = JSON.stringify({
      schemaVersion: 1,
      sourceId: 'remote-src',
      entries: [{ id: 'remote/doc', title: 'Remote doc', packageVersion: '1', revision: 'a', language: 'go', trust: 'community', primary: 'DOC.md', files, contentHash: computeContentHash(files) }],
    });
    let requests = 0;
    const server = http.createServer((_req, res) => {
      requests++;
      res.end(documentBody);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/registry.json`;
    try {
      write('.agent-context/config.json', JSON.stringify({ remotes: [{ url, timeoutMs: 3000, maxBytes: 100000 }] }));
      // The repository's file alone contacts no server, and says how to allow it.
      const untrusted = await cairn(['context', 'search', 'remote']);
      assert.equal(untrusted.code, 0, untrusted.stderr);
      assert.equal(requests, 0, 'a cloned repository made cairn contact its server');
      assert.match(untrusted.stderr, /^warning: \.agent-context\/config\.json: remotes ignored \(http:\/\/127\.0\.0\.1:\d+\/registry\.json\): .* CAIRN_REGISTRY_TRUST_REPO=1 .* \[config-ignored\]$/m);
      const viaConfig = await cairn(['context', 'get', 'remote/doc', '--json'], { CAIRN_REGISTRY_TRUST_REPO: '1' });
      assert.equal(viaConfig.code, 0, viaConfig.stdout + viaConfig.stderr);
      assert.equal(fetchResult(viaConfig).files[0]?.content, content);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const offline = fetchResult(await cairn(['context', 'get', 'remote/doc', '--json'], { CAIRN_REGISTRY_TRUST_REPO: '1' }));
    assert.equal(offline.ok, true);
    assert.equal(offline.provenance?.kind === 'remote' && offline.provenance.servedFromCache, true);
    assert.deepEqual(codesOf(offline.diagnostics), ['remote-fallback', 'remote-unreachable']);

    rmSync(path.join(repo, '.agent-context/config.json'));
    const viaEnv = searchResponse(await cairn(['context', 'search', 'remote', '--json'], { CAIRN_REGISTRY_REMOTE: url }));
    assert.deepEqual(viaEnv.results.map((h) => h.id), ['remote/doc'], 'the env var names the same URL, whose cached copy answers');
    const off = searchResponse(await cairn(['context', 'search', 'remote', '--json']));
    assert.deepEqual(off.results, [], 'without configuration there are no remotes');
  });

  it('an invalid config file is reported and remote access stays off', async () => {
    write('.agent-context/config.json', JSON.stringify({ remotes: [{ url: 'ftp://example.invalid/r.json' }] }));
    try {
      const r = await cairn(['context', 'search', 'fetch', '--json']);
      assert.equal(r.code, 0);
      const response = searchResponse(r);
      assert.deepEqual(codesOf(response.diagnostics), ['invalid-config']);
      assert.deepEqual(response.cache.sources.map((s) => s.kind), ['local']);
    } finally {
      rmSync(path.join(repo, '.agent-context/config.json'));
    }
  });
});
