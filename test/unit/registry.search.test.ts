// Ranking: exact ids first whatever the trust or quality, code-aware matching, breakdowns that
// add up, and metadata only (never content).
import * as assert from 'node:assert/strict';
import type { RegistryHit } from '../../src/core/registry';
import { REGISTRY, RegistryFixture } from './registryFixture';

function assertBreakdownAddsUp(hit: RegistryHit): void {
  const sum = hit.scoreBreakdown.reduce((s, c) => s + c.value, 0);
  assert.ok(Math.abs(sum - hit.score) < 1e-6, `${hit.id}: breakdown ${sum} != score ${hit.score}`);
}

describe('registry search', () => {
  let fx: RegistryFixture;
  before(() => {
    fx = new RegistryFixture();
    // `fetch` is also a word in the verified, high-quality pack: it would win without the exact-id rule.
    fx.pack('fetch', { title: 'Minimal fetch notes', trust: 'unreviewed', quality: 0, files: { 'DOC.md': 'SECRET-CONTENT-fetch\n' } });
    fx.pack('http/fetch-user', {
      title: 'Fetch user records over HTTP',
      description: 'Calling the users endpoint with fetch, retries and fetch timeouts',
      tags: ['fetch', 'http', 'users'],
      trust: 'verified',
      quality: 1,
      files: { 'DOC.md': 'SECRET-CONTENT-http\n' },
    });
    fx.pack('db/migrations', { title: 'Database migrations', language: 'python', sourceId: 'db-docs', files: { 'DOC.md': '# Migrations\n' } });
    fx.pack('api/fetchUser', { title: 'The fetchUser helper', files: { 'DOC.md': '# fetchUser\n' } });
  });
  after(() => fx.cleanup());

  it('an exact id outranks higher trust and quality', async () => {
    const response = await fx.registry().search('fetch');
    const ids = response.results.map((h) => h.id);
    assert.equal(ids[0], 'fetch');
    assert.ok(ids.includes('http/fetch-user'));
    const [top, next] = response.results as [RegistryHit, RegistryHit];
    const exact = top.scoreBreakdown.find((c) => c.kind === 'match' && c.name === 'exact-id');
    assert.ok(exact, 'exact-id component');
    assert.ok(top.score - exact.value < next.score, 'the fixture must make the exact id lose on everything else');
    assert.ok(top.scoreBreakdown.some((c) => c.kind === 'boost' && c.name === 'trust:unreviewed' && c.factor < 1));
    assert.ok(next.scoreBreakdown.some((c) => c.kind === 'boost' && c.name === 'trust:verified' && c.factor > 1));
    for (const hit of response.results) assertBreakdownAddsUp(hit);
  });

  it('without the exact id, trust and quality decide between equal matches', async () => {
    const response = await fx.registry().search('fetch timeouts');
    assert.equal(response.results[0]?.id, 'http/fetch-user');
    for (const hit of response.results) assertBreakdownAddsUp(hit);
  });

  it('is code-aware: fetchUser finds "fetch user" and "fetch user" finds fetchUser', async () => {
    const camel = await fx.registry().search('fetchUser');
    assert.deepEqual(camel.results.slice(0, 2).map((h) => h.id).sort(), ['api/fetchUser', 'http/fetch-user']);
    const words = await fx.registry().search('fetch user');
    assert.ok(words.results.some((h) => h.id === 'api/fetchUser'));
    const fields = new Set(camel.results.flatMap((h) => h.scoreBreakdown.flatMap((c) => (c.kind === 'field' ? [c.field] : []))));
    assert.ok(fields.has('id') && fields.has('title'));
  });

  it('matches language and source fields, and filters by language aliases', async () => {
    const bySource = await fx.registry().search('db-docs');
    assert.equal(bySource.results[0]?.id, 'db/migrations');
    assert.ok(bySource.results[0]?.scoreBreakdown.some((c) => c.kind === 'field' && c.field === 'source'));
    const filtered = await fx.registry().search('guide fetch migrations', { language: 'py' });
    assert.deepEqual(filtered.results.map((h) => h.id), ['db/migrations']);
  });

  it('returns metadata, never content; counts total before the limit', async () => {
    const response = await fx.registry().search('fetch', { limit: 1 });
    assert.equal(response.results.length, 1);
    assert.ok(response.total >= 2);
    const text = JSON.stringify(response);
    assert.ok(!text.includes('SECRET-CONTENT'), 'content leaked into search results');
    const hit = response.results[0] as RegistryHit;
    assert.deepEqual(hit.provenance, { kind: 'local', sourceId: 'local-docs', path: `${REGISTRY}/fetch`, manifest: `${REGISTRY}/fetch/pack.json` });
    assert.equal(hit.integrity, 'verified');
    assert.equal(hit.files.length, 1);
    assert.match(hit.contentHash, /^[0-9a-f]{64}$/);
  });

  it('the last id segment earns a smaller bonus', async () => {
    const response = await fx.registry().search('migrations');
    assert.equal(response.results[0]?.id, 'db/migrations');
    assert.ok(response.results[0]?.scoreBreakdown.some((c) => c.kind === 'match' && c.name === 'id-name'));
  });

  it('an empty query is an invalid-request diagnostic', async () => {
    const response = await fx.registry().search('   ');
    assert.deepEqual(response.results, []);
    assert.deepEqual(response.diagnostics.map((d) => d.code), ['invalid-request']);
  });

  it('no match is an empty result with no error', async () => {
    const response = await fx.registry().search('kubernetes');
    assert.deepEqual([response.results.length, response.total], [0, 0]);
    assert.deepEqual(response.diagnostics, []);
  });
});
