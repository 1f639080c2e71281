// Local annotations: stored atomically per note, keyed to repository, entry, version and
// revision; stale ones hidden unless asked for; their text never injected into fetch results.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ANNOTATION_LABEL, ANNOTATIONS_DIR } from '../../src/core/registry';
import { entryFolderName } from '../../src/core/registry/annotations';
import { codes, RegistryFixture } from './registryFixture';

const ID = 'http/fetch-user';

describe('registry annotations', () => {
  let fx: RegistryFixture;
  beforeEach(() => {
    fx = new RegistryFixture();
    fx.pack(ID, { files: { 'DOC.md': '# Fetch\n' }, packageVersion: '2.0.0', revision: 'r1' });
  });
  afterEach(() => fx.cleanup());

  it('stores a labelled note keyed to the current version and revision, one file per note', async () => {
    const registry = fx.registry({ repository: 'acme/web' });
    const result = await registry.annotate(ID, '  The proxy blocks port 8443 here.  ', { kind: 'environment' });
    assert.equal(result.ok, true, JSON.stringify(result.diagnostics));
    const note = result.annotation;
    assert.ok(note);
    assert.deepEqual(
      [note.entryId, note.repository, note.sourceId, note.packageVersion, note.revision, note.kind, note.text, note.trust, note.label, note.stale],
      [ID, 'acme/web', 'local-docs', '2.0.0', 'r1', 'environment', 'The proxy blocks port 8443 here.', 'user-written', ANNOTATION_LABEL, false],
    );
    const folder = path.join(fx.root, ANNOTATIONS_DIR, entryFolderName(ID));
    assert.equal(result.path, `.agent-context/knowledge/annotations/${entryFolderName(ID)}/${note.id}.json`);
    await registry.annotate(ID, 'Retry twice on 503.', { kind: 'workaround' });
    const files = fs.readdirSync(folder);
    assert.equal(files.length, 2);
    assert.ok(files.every((f) => f.endsWith('.json') && !f.startsWith('.')), 'no temporary files left behind');
    const listed = await registry.annotations(ID);
    assert.deepEqual(listed.notes.map((n) => n.text), ['The proxy blocks port 8443 here.', 'Retry twice on 503.']);
    assert.deepEqual(listed.current, { repository: 'acme/web', packageVersion: '2.0.0', revision: 'r1' });
    assert.deepEqual(listed.diagnostics, []);
  });

  it('a symlinked .agent-context/knowledge leading outside the repository is refused: nothing is written there', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-outside-'));
    try {
      fs.symlinkSync(outside, path.join(fx.root, '.agent-context', 'knowledge'));
      const result = await fx.registry({ repository: 'acme/web' }).annotate(ID, 'Should stay inside.', { kind: 'environment' });
      assert.equal(result.ok, false);
      assert.deepEqual(codes(result.diagnostics), ['path-traversal']);
      assert.match(result.diagnostics[0]!.message, /knowledge is a link to .*outside the root/);
      assert.deepEqual(fs.readdirSync(outside), [], 'no folder or file was created outside the root');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a link that stays inside the repository is followed', async () => {
    fs.mkdirSync(path.join(fx.root, 'notes-here'));
    fs.symlinkSync(path.join(fx.root, 'notes-here'), path.join(fx.root, '.agent-context', 'knowledge'));
    const result = await fx.registry({ repository: 'acme/web' }).annotate(ID, 'Inside is fine.', { kind: 'environment' });
    assert.equal(result.ok, true, JSON.stringify(result.diagnostics));
    assert.equal(fs.readdirSync(path.join(fx.root, 'notes-here', 'annotations', entryFolderName(ID))).length, 1);
  });

  it('notes from an older revision are stale: hidden unless includeStale, counted in every summary', async () => {
    const registry = fx.registry();
    await registry.annotate(ID, 'OLD-NOTE-TEXT: works only with v2 auth', { kind: 'version-difference' });
    fx.editManifest(ID, (m) => ({ ...m, revision: 'r2' }));
    await registry.annotate(ID, 'CURRENT-NOTE-TEXT: verified on r2', { kind: 'workaround' });

    const current = await registry.annotations(ID);
    assert.deepEqual(current.notes.map((n) => n.text), ['CURRENT-NOTE-TEXT: verified on r2']);
    assert.deepEqual(current.stale, { count: 1, versions: [{ packageVersion: '2.0.0', revision: 'r1', count: 1 }] });
    assert.deepEqual(codes(current.diagnostics), ['stale-revision']);

    const all = await registry.annotations(ID, { includeStale: true });
    assert.deepEqual(all.notes.map((n) => [n.revision, n.stale, n.staleBecause]), [['r1', true, ['revision']], ['r2', false, []]]);
    assert.ok(all.notes.every((n) => n.trust === 'user-written' && n.label === ANNOTATION_LABEL));

    const fetched = await registry.get(ID, { mode: 'full' });
    assert.equal(fetched.annotationAvailable, true);
    assert.deepEqual(fetched.annotations, { current: 1, stale: { count: 1, versions: [{ packageVersion: '2.0.0', revision: 'r1', count: 1 }] } });
    const text = JSON.stringify(fetched);
    assert.ok(!text.includes('OLD-NOTE-TEXT') && !text.includes('CURRENT-NOTE-TEXT'), 'note text must never be injected into fetch results');
  });

  it('with only stale notes, a fetch says a note is available only when includeStale is set', async () => {
    const registry = fx.registry();
    await registry.annotate(ID, 'For 2.0.0 only');
    fx.editManifest(ID, (m) => ({ ...m, packageVersion: '3.0.0' }));
    const plain = await registry.get(ID);
    assert.equal(plain.annotationAvailable, false);
    assert.equal(plain.annotations.stale.count, 1);
    assert.ok(codes(plain.diagnostics).includes('stale-revision'));
    const withStale = await registry.get(ID, { includeStale: true });
    assert.equal(withStale.annotationAvailable, true);
    const [note] = (await registry.annotations(ID, { includeStale: true })).notes;
    assert.deepEqual(note?.staleBecause, ['package-version']);
  });

  it('notes written in another repository are stale here', async () => {
    await fx.registry({ repository: 'other/repo' }).annotate(ID, 'elsewhere');
    const here = await fx.registry({ repository: 'acme/web' }).annotations(ID, { includeStale: true });
    assert.deepEqual(here.notes.map((n) => n.staleBecause), [['repository']]);
  });

  it('refuses empty, oversized and unkeyable notes and bad kinds', async () => {
    const registry = fx.registry();
    for (const [id, note, kind, code] of [
      [ID, '   ', undefined, 'invalid-note'],
      [ID, 'x'.repeat(9000), undefined, 'invalid-note'],
      [ID, 'fine', 'gossip', 'invalid-note'],
      ['no/such-entry', 'fine', undefined, 'not-found'],
    ] as const) {
      const result = await registry.annotate(id, note, kind ? { kind } : {});
      assert.deepEqual([result.ok, result.annotation, codes(result.diagnostics)], [false, null, [code]], `${id} ${note.slice(0, 10)} ${kind}`);
    }
    assert.ok(!fs.existsSync(path.join(fx.root, ANNOTATIONS_DIR)), 'nothing was written');
  });

  it('a corrupt note file is a diagnostic; the others are still returned', async () => {
    const registry = fx.registry();
    await registry.annotate(ID, 'good note');
    const folder = path.join(fx.root, ANNOTATIONS_DIR, entryFolderName(ID));
    fs.writeFileSync(path.join(folder, 'zz-broken.json'), '{"text": ');
    fs.writeFileSync(path.join(folder, 'zz-wrong.json'), JSON.stringify({ schemaVersion: 1, text: 'no key' }));
    const listed = await registry.annotations(ID);
    assert.deepEqual(listed.notes.map((n) => n.text), ['good note']);
    assert.deepEqual(listed.diagnostics.map((d) => [d.code, path.basename(d.path ?? '')]), [['invalid-annotation', 'zz-broken.json'], ['invalid-annotation', 'zz-wrong.json']]);
  });

  it('ids differing only by case or separators get separate folders', () => {
    const names = ['a/b', 'a--b', 'A/b', 'a_b'].map(entryFolderName);
    assert.equal(new Set(names.map((n) => n.toLowerCase())).size, 4);
  });
});
