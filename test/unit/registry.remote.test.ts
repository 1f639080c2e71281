// Remote registries against a real HTTP server on 127.0.0.1: a good document, then every way a
// server can fail (timeout, oversize, bad hash, bad schema, unreachable), each reported as a
// diagnostic, with the cached copy answering when there is one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { computeContentHash, type RemoteSourceConfig } from '../../src/core/registry';
import { hashBytes } from '../../src/core/discovery/read';
import { remoteCacheFile } from '../../src/core/registry/remote';
import { codes, diagnosticsWith, RegistryFixture } from './registryFixture';

const DOC = '# Remote fetch guide\n\n```sh\ncurl -s https://example.invalid\n```\n';
const API = '# API reference\n';
const sha = (text: string): string => hashBytes(Buffer.from(text));

function remoteDocument(overrides: { docText?: string; apiSha?: string; revision?: string } = {}): Record<string, unknown> {
  const docText = overrides.docText ?? DOC;
  const files = [
    { path: 'DOC.md', sha256: sha(docText), content: docText },
    { path: 'references/api.md', sha256: overrides.apiSha ?? sha(API), url: 'files/api.md', role: 'reference' },
  ];
  return {
    schemaVersion: 1,
    sourceId: 'acme-remote',
    entries: [
      {
        id: 'remote/fetch-guide',
        title: 'Remote fetch guide',
        tags: ['fetch'],
        packageVersion: '4.1.0',
        revision: overrides.revision ?? 'r10',
        language: 'typescript',
        trust: 'verified',
        primary: 'DOC.md',
        files,
        contentHash: computeContentHash(files.map((f) => ({ path: f.path, sha256: f.sha256 }))),
      },
    ],
  };
}

type Behaviour = 'good' | 'hang' | 'huge' | 'huge-declared' | 'bad-hash' | 'bad-schema' | 'not-json' | 'http-500' | 'revised';

/** A registry server whose `/registry.json` behaves as told; counts requests. */
class RegistryServer {
  behaviour: Behaviour = 'good';
  requests = 0;
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/registry.json`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requests++;
    if (req.url === '/files/api.md') {
      res.end(API);
      return;
    }
    const json = (value: unknown): void => {
      const body = JSON.stringify(value);
      const etag = `"${sha(body).slice(0, 16)}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', etag }).end(body);
    };
    switch (this.behaviour) {
      case 'good':
        return json(remoteDocument());
      case 'revised':
        return json(remoteDocument({ docText: '# Remote fetch guide, revised\n', revision: 'r11' }));
      case 'hang':
        return; // never answers
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          while (sent < 64 && res.write(chunk)) sent++;
          if (sent < 64) res.once('drain', pump);
          else res.end();
        };
        pump();
        return;
      }
      case 'huge-declared':
        res.writeHead(200, { 'content-length': String(10_000_000) });
        res.write('{');
        return;
      case 'bad-hash':
        return json(remoteDocument({ apiSha: sha('something else') }));
      case 'bad-schema':
        return json({ schemaVersion: 1, sourceId: 'acme-remote', entries: [{ id: 'x', title: 'no files' }] });
      case 'not-json':
        res.end('<html>login page</html>');
        return;
      case 'http-500':
        res.writeHead(500).end('oops');
        return;
    }
  }
}

describe('registry remote sources', function () {
  this.timeout(10_000);
  let fx: RegistryFixture;
  let server: RegistryServer;
  let url: string;
  const remote = (extra: Partial<RemoteSourceConfig> = {}): RemoteSourceConfig[] => [{ url, timeoutMs: 1500, maxBytes: 100_000, ...extra }];

  beforeEach(async () => {
    fx = new RegistryFixture();
    server = new RegistryServer();
    url = await server.start();
  });
  afterEach(async () => {
    await server.stop();
    fx.cleanup();
  });

  it('are off unless configured', async () => {
    fx.pack('local/one', { files: { 'DOC.md': '# One\n' } });
    const response = await fx.registry().search('fetch guide');
    assert.deepEqual(response.cache.sources.map((s) => s.kind), ['local']);
    assert.equal(server.requests, 0);
  });

  it('a good document: searchable, fetchable in full with verified files, then answered as a hit', async () => {
    const registry = fx.registry({ remote: remote() });
    const search = await registry.search('fetch guide');
    assert.deepEqual(search.results.map((h) => h.id), ['remote/fetch-guide']);
    assert.equal(search.results[0]?.provenance.kind, 'remote');
    assert.deepEqual(search.cache.sources.map((s) => [s.kind, s.status]), [['local', 'unavailable'], ['remote', 'rebuilt']]);

    const full = await registry.get('remote/fetch-guide', { mode: 'full' });
    assert.equal(full.ok, true, JSON.stringify(full.diagnostics));
    assert.deepEqual(full.files.map((f) => [f.path, f.content]), [['DOC.md', DOC], ['references/api.md', API]]);
    assert.equal(full.cache.status, 'hit', 'the ETag answered 304');
    assert.deepEqual(full.provenance && { ...full.provenance, fetchedAtMs: 0 }, { kind: 'remote', sourceId: 'acme-remote', url, fetchedAtMs: 0, servedFromCache: false });
    assert.equal(full.freshness.workingTree, 'not-applicable');
    assert.equal(full.version?.manifestHash.length, 64);
    assert.deepEqual(full.suggestedCommands.map((c) => [c.command, c.trusted]), [['curl -s https://example.invalid', false]]);

    server.behaviour = 'revised';
    const revised = await registry.get('remote/fetch-guide');
    assert.equal(revised.cache.status, 'refreshed');
    assert.equal(revised.version?.revision, 'r11');
  });

  it('maxAgeMs answers from the cached copy without asking the server', async () => {
    const registry = fx.registry({ remote: remote({ maxAgeMs: 60_000 }) });
    await registry.search('fetch');
    const requests = server.requests;
    const again = await registry.search('fetch');
    assert.equal(server.requests, requests);
    assert.equal(again.cache.sources[1]?.status, 'hit');
  });

  const failures: Array<{ behaviour: Behaviour | 'unreachable'; code: string; config?: Partial<RemoteSourceConfig> }> = [
    { behaviour: 'hang', code: 'remote-timeout', config: { timeoutMs: 200 } },
    { behaviour: 'huge', code: 'remote-too-large', config: { maxBytes: 50_000 } },
    { behaviour: 'huge-declared', code: 'remote-too-large' },
    { behaviour: 'bad-hash', code: 'hash-mismatch' },
    { behaviour: 'bad-schema', code: 'remote-bad-schema' },
    { behaviour: 'not-json', code: 'remote-bad-schema' },
    { behaviour: 'http-500', code: 'remote-http-error' },
    { behaviour: 'unreachable', code: 'remote-unreachable' },
  ];

  for (const failure of failures) {
    describe(`${failure.behaviour} -> ${failure.code}`, () => {
      const breakServer = async (): Promise<void> => {
        if (failure.behaviour === 'unreachable') await server.stop();
        else server.behaviour = failure.behaviour;
      };

      it('without a cached copy: an error diagnostic and no entries', async () => {
        await breakServer();
        const registry = fx.registry({ remote: remote(failure.config) });
        const started = Date.now();
        const response = await registry.search('fetch guide');
        assert.ok(Date.now() - started < 5000, 'bounded by the timeout');
        assert.deepEqual(response.results, []);
        assert.deepEqual(response.cache.sources[1]?.status, 'unavailable');
        const found = diagnosticsWith(response.diagnostics, failure.code);
        assert.equal(found.length, 1, JSON.stringify(response.diagnostics));
        assert.deepEqual([found[0]?.severity, found[0]?.url], ['error', url]);
        const fetched = await registry.get('remote/fetch-guide');
        assert.equal(fetched.ok, false);
        assert.ok(codes(fetched.diagnostics).includes('not-found'));
      });

      it('with a cached copy: a warning, and the cached copy answers', async () => {
        const registry = fx.registry({ remote: remote(failure.config) });
        assert.equal((await registry.get('remote/fetch-guide')).ok, true);
        await breakServer();
        const fetched = await registry.get('remote/fetch-guide', { mode: 'full' });
        assert.equal(fetched.ok, true, JSON.stringify(fetched.diagnostics));
        assert.deepEqual(fetched.files.map((f) => f.path), ['DOC.md', 'references/api.md']);
        assert.equal(fetched.provenance?.kind === 'remote' && fetched.provenance.servedFromCache, true);
        assert.deepEqual(fetched.cache.sources[1]?.servedFromCache, true);
        const problems = fetched.diagnostics.filter((d) => d.code !== 'no-registry'); // no local registry here
        assert.deepEqual(codes(problems), [failure.code, 'remote-fallback'].sort());
        assert.ok(problems.every((d) => d.severity === 'warning'));
      });
    });
  }

  it('a tampered cached copy is caught when the content is returned', async () => {
    const registry = fx.registry({ remote: remote() });
    await registry.search('fetch');
    const cacheFile = remoteCacheFile(fx.cacheDir, url);
    fs.writeFileSync(cacheFile, fs.readFileSync(cacheFile, 'utf8').replace('Remote fetch guide\\n', 'Remote fetch guide: run rm -rf /\\n'));
    await server.stop();
    const fetched = await registry.get('remote/fetch-guide');
    assert.equal(fetched.ok, false);
    assert.deepEqual(fetched.omittedFiles, [
      { path: 'references/api.md', reason: 'not-requested' },
      { path: 'DOC.md', reason: 'hash-mismatch' },
    ]);
  });

  it('the pinned document hash is enforced', async () => {
    const response = await fx.registry({ remote: remote({ sha256: '0'.repeat(64) }) }).search('fetch');
    assert.deepEqual(response.results, []);
    assert.ok(codes(response.diagnostics).includes('hash-mismatch'));
  });

  it('a non-http URL is refused without any request', async () => {
    const response = await fx.registry({ remote: [{ url: 'file:///etc/passwd' }] }).search('fetch');
    assert.deepEqual(codes(response.diagnostics), ['invalid-config', 'no-registry']);
  });

  it('a local entry shadows a remote one with the same id; sourceId picks the remote', async () => {
    fx.pack('remote/fetch-guide', { files: { 'DOC.md': '# Local override\n' } });
    const registry = fx.registry({ remote: remote() });
    const response = await registry.search('remote/fetch-guide');
    assert.deepEqual(response.results.map((h) => h.sourceId), ['local-docs']);
    assert.deepEqual(codes(response.diagnostics), ['shadowed-entry']);
    const remoteCopy = await registry.get('remote/fetch-guide', { sourceId: 'acme-remote' });
    assert.equal(remoteCopy.files[0]?.content, DOC);
  });
});
