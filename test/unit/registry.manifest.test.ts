// Manifests and the registry index: valid ones load, every invalid case yields its diagnostic
// and the pack is not served.
import * as assert from 'node:assert/strict';
import { computeContentHash, parseManifest } from '../../src/core/registry';
import { hashBytes } from '../../src/core/discovery/read';
import { checkAll } from './check';
import { codes, diagnosticsWith, REGISTRY, RegistryFixture } from './registryFixture';

const DOC_HASH = hashBytes(Buffer.from('# Doc\n'));
const REF_HASH = hashBytes(Buffer.from('ref\n'));

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const files = (overrides.files as Array<{ path: string; sha256: string }> | undefined) ?? [
    { path: 'DOC.md', sha256: DOC_HASH },
    { path: 'references/api.md', sha256: REF_HASH, role: 'reference' },
  ];
  return {
    schemaVersion: 1,
    id: 'http/fetch-user',
    title: 'Fetching users',
    sourceId: 'acme',
    packageVersion: '2.3.0',
    revision: 'r7',
    language: 'typescript',
    trust: 'verified',
    primary: 'DOC.md',
    files,
    contentHash: computeContentHash(files),
    ...overrides,
  };
}

/** The codes parseManifest reports, [] when the manifest is valid. */
function problemCodes(value: unknown): string[] {
  const outcome = parseManifest(typeof value === 'string' ? value : JSON.stringify(value));
  return outcome.ok ? [] : [...new Set(outcome.problems.map((p) => p.code))].sort();
}

describe('registry manifests', () => {
  describe('parseManifest', () => {
    const withFiles = (files: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): Record<string, unknown> =>
      manifest({ files, contentHash: computeContentHash(files as Array<{ path: string; sha256: string }>), ...extra });
    checkAll<unknown, string[]>(
      [
        { name: 'valid', input: manifest(), expected: [] },
        { name: 'SKILL.md primary in a subfolder', input: withFiles([{ path: 'skill/SKILL.md', sha256: DOC_HASH }], { primary: 'skill/SKILL.md' }), expected: [] },
        { name: 'not JSON', input: '{"id": ', expected: ['invalid-manifest'] },
        { name: 'missing revision', input: { ...manifest(), revision: undefined }, expected: ['invalid-manifest'] },
        { name: 'misspelt field', input: { ...manifest(), packageVerison: '1' }, expected: ['invalid-manifest'] },
        { name: 'unknown trust level', input: manifest({ trust: 'total' }), expected: ['invalid-manifest'] },
        { name: 'schemaVersion 2', input: manifest({ schemaVersion: 2 }), expected: ['invalid-manifest'] },
        { name: 'bad id', input: manifest({ id: '../etc' }), expected: ['invalid-manifest'] },
        { name: 'short hash', input: withFiles([{ path: 'DOC.md', sha256: 'abc' }]), expected: ['invalid-manifest'] },
        { name: 'primary not DOC.md/SKILL.md', input: withFiles([{ path: 'README.md', sha256: DOC_HASH }], { primary: 'README.md' }), expected: ['invalid-manifest'] },
        { name: 'primary not listed', input: withFiles([{ path: 'other/DOC.md', sha256: DOC_HASH }]), expected: ['invalid-manifest'] },
        { name: 'file listed twice', input: withFiles([{ path: 'DOC.md', sha256: DOC_HASH }, { path: 'DOC.md', sha256: DOC_HASH }]), expected: ['invalid-manifest'] },
        { name: 'contentHash disagrees', input: manifest({ contentHash: '0'.repeat(64) }), expected: ['invalid-manifest'] },
        { name: 'companion ../x', input: withFiles([{ path: 'DOC.md', sha256: DOC_HASH }, { path: '../x', sha256: REF_HASH }]), expected: ['path-traversal'] },
        { name: 'companion /etc/passwd', input: withFiles([{ path: 'DOC.md', sha256: DOC_HASH }, { path: '/etc/passwd', sha256: REF_HASH }]), expected: ['path-traversal'] },
        { name: 'non-canonical ./DOC.md', input: withFiles([{ path: './DOC.md', sha256: DOC_HASH }], { primary: './DOC.md' }), expected: ['invalid-manifest'] },
        { name: 'backslash path', input: withFiles([{ path: 'DOC.md', sha256: DOC_HASH }, { path: 'refs\\a.md', sha256: REF_HASH }]), expected: ['invalid-manifest'] },
      ],
      problemCodes,
    );

    it('fills defaults and assigns the primary role', () => {
      const outcome = parseManifest(JSON.stringify(manifest()));
      assert.ok(outcome.ok);
      assert.equal(outcome.manifest.quality, 0.5);
      assert.deepEqual(outcome.manifest.tags, []);
      assert.deepEqual(outcome.manifest.files.map((f) => [f.path, f.role]), [['DOC.md', 'primary'], ['references/api.md', 'reference']]);
    });
  });

  describe('loading a registry folder', () => {
    let fx: RegistryFixture;
    beforeEach(() => {
      fx = new RegistryFixture();
    });
    afterEach(() => fx.cleanup());

    it('serves valid packs and reports each invalid one with its path and claimed id', async () => {
      fx.pack('good', { files: { 'DOC.md': '# Good\n' } });
      fx.pack('broken', { files: { 'DOC.md': '# Broken\n' } });
      fx.editManifest('broken', (m) => ({ ...m, trust: 'absolute' }));
      fx.write(`${REGISTRY}/notjson/pack.json`, '{ nope');
      fx.write(`${REGISTRY}/notjson/DOC.md`, '# x\n');
      const response = await fx.registry().search('guide');
      assert.deepEqual(response.results.map((h) => h.id), ['good']);
      const invalid = diagnosticsWith(response.diagnostics, 'invalid-manifest');
      assert.deepEqual(invalid.map((d) => d.path).sort(), [`${REGISTRY}/broken/pack.json`, `${REGISTRY}/notjson/pack.json`]);
      assert.equal(invalid.find((d) => d.path?.includes('broken'))?.entryId, 'broken');
      assert.ok(invalid.every((d) => d.severity === 'error'));
    });

    it('refuses both packs when two declare the same id', async () => {
      fx.pack('a', { id: 'same', files: { 'DOC.md': '# A\n' } });
      fx.pack('b', { id: 'same', files: { 'DOC.md': '# B\n' } });
      const registry = fx.registry();
      const response = await registry.search('same');
      assert.deepEqual(response.results, []);
      assert.equal(diagnosticsWith(response.diagnostics, 'duplicate-id').length, 2);
      const fetched = await registry.get('same');
      assert.equal(fetched.ok, false);
      assert.ok(codes(fetched.diagnostics).includes('not-found'));
    });

    it('reports a DOC.md without a manifest instead of guessing one', async () => {
      fx.write(`${REGISTRY}/loose/DOC.md`, '# Loose\n');
      const response = await fx.registry().search('loose');
      assert.deepEqual(response.results, []);
      assert.deepEqual(diagnosticsWith(response.diagnostics, 'missing-file').map((d) => d.path), [`${REGISTRY}/loose/pack.json`]);
    });

    it('with registry.json, serves exactly the listed packs', async () => {
      fx.pack('listed', { files: { 'DOC.md': '# Listed\n' } });
      fx.pack('unlisted', { files: { 'DOC.md': '# Unlisted\n' } });
      fx.write(`${REGISTRY}/registry.json`, JSON.stringify({ schemaVersion: 1, packs: ['listed', '../outside', 'absent'] }));
      const response = await fx.registry().search('guide');
      assert.deepEqual(response.results.map((h) => h.id), ['listed']);
      assert.deepEqual(codes(response.diagnostics), ['missing-file', 'path-traversal']);
    });

    it('an invalid registry.json serves nothing and says why', async () => {
      fx.pack('listed', { files: { 'DOC.md': '# Listed\n' } });
      fx.write(`${REGISTRY}/registry.json`, JSON.stringify({ schemaVersion: 1, packs: 'listed' }));
      const response = await fx.registry().search('guide');
      assert.deepEqual(response.results, []);
      assert.deepEqual(codes(response.diagnostics), ['invalid-index']);
    });

    it('a missing registry folder is an info diagnostic, not an error or an empty success', async () => {
      const response = await fx.registry().search('anything');
      assert.deepEqual(response.results, []);
      assert.deepEqual(response.diagnostics.map((d) => [d.code, d.severity]), [['no-registry', 'info']]);
      assert.equal(response.cache.sources[0]?.status, 'unavailable');
    });

    it('a configurable registry folder', async () => {
      fx.pack('x', { files: { 'DOC.md': '# X\n' } });
      const moved = await fx.registry({ registryDir: 'elsewhere' }).search('guide');
      assert.deepEqual(moved.results, []);
      assert.equal(moved.cache.sources[0]?.location, 'elsewhere');
      const configured = await fx.registry({ registryDir: REGISTRY }).search('guide');
      assert.deepEqual(configured.results.map((h) => h.id), ['x']);
    });
  });
});
