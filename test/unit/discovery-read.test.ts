import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverFiles, hashBytes, loadDocument, loadDocuments } from '../../src/core/discovery';
import type { SkippedFile } from '../../src/core/types';
import { readAtMost } from '../../src/core/discovery/read';
import { checkAll } from './check';
import { makeTempDir, permissionsEnforced, removeTree, writeTree, type Tree } from './discovery-fixture';

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

const BOM_BYTES = Buffer.from('\ufeff# Title\n', 'utf8');
const NUL_LATE = Buffer.concat([Buffer.alloc(2000, 'a'), Buffer.from([0]), Buffer.from('b')]);

const TREE: Tree = {
  'src/index.ts': 'export const x = 1;\n',
  'docs/naïve café.md': '# Café\n',
  'src/my file.ts': 'let y;\n',
  Dockerfile: 'FROM scratch\n',
  'notes.xyz': 'unknown\n',
  'bom.md': BOM_BYTES,
  'binary.ts': Buffer.concat([Buffer.from('abc'), Buffer.from([0]), Buffer.from('def')]),
  'nul-late.txt': NUL_LATE,
  'latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'truncated.md': Buffer.from([0x61, 0xe2, 0x82]),
  'big.txt': Buffer.alloc(2 * 1024 * 1024, 'a'),
  'empty.ts': '',
  'link.ts': { symlink: 'src/index.ts' },
  'dangling.ts': { symlink: 'nowhere.ts' },
  'linked-dir': { symlink: 'src' },
  'locked.ts': { mode: 0o000, content: 'x\n' },
};

describe('discovery reading', function () {
  this.timeout(20_000);
  let root = '';
  let symlinks = true;
  let enforced = true;

  before(() => {
    root = makeTempDir();
    enforced = permissionsEnforced(root);
    ({ symlinks } = writeTree(root, TREE));
    // One file under two names: either may be a refused file's other name.
    fs.writeFileSync(path.join(root, 'twin-a.ts'), 'export const twin = 1;\n');
    fs.linkSync(path.join(root, 'twin-a.ts'), path.join(root, 'twin-b.ts'));
  });
  after(() => root && removeTree(root));

  type Outcome = { text: string; language: string; hash: string; size: number } | SkippedFile;
  const outcome = async (file: string): Promise<Outcome> => {
    const r = await loadDocument(root, file);
    if ('skipped' in r) return r.skipped;
    const { text, language, hash, size } = r.doc;
    return { text, language, hash, size };
  };

  describe('loadDocument', () => {
    checkAll<string, Outcome>(
      [
        { input: 'src/index.ts', expected: { text: 'export const x = 1;\n', language: 'typescript', hash: sha256('export const x = 1;\n'), size: 20 } },
        { input: 'docs/naïve café.md', expected: { text: '# Café\n', language: 'markdown', hash: sha256('# Café\n'), size: 8 } },
        { input: './src/my file.ts', expected: { text: 'let y;\n', language: 'typescript', hash: sha256('let y;\n'), size: 7 } },
        { input: 'Dockerfile', expected: { text: 'FROM scratch\n', language: 'dockerfile', hash: sha256('FROM scratch\n'), size: 13 } },
        { input: 'notes.xyz', expected: { text: 'unknown\n', language: 'text', hash: sha256('unknown\n'), size: 8 } },
        { input: 'empty.ts', expected: { text: '', language: 'typescript', hash: sha256(''), size: 0 } },
        { name: 'strips a UTF-8 BOM but hashes the raw bytes', input: 'bom.md', expected: { text: '# Title\n', language: 'markdown', hash: sha256(BOM_BYTES), size: BOM_BYTES.length } },
        { name: 'a NUL past the first KiB is text', input: 'nul-late.txt', expected: { text: NUL_LATE.toString('utf8'), language: 'text', hash: sha256(NUL_LATE), size: NUL_LATE.length } },
        { input: 'binary.ts', expected: { path: 'binary.ts', reason: 'binary' } },
        { input: 'latin1.md', expected: { path: 'latin1.md', reason: 'invalid-utf8' } },
        { input: 'truncated.md', expected: { path: 'truncated.md', reason: 'invalid-utf8' } },
        { input: 'big.txt', expected: { path: 'big.txt', reason: 'too-large', detail: '2097152 bytes (limit 1048576)' } },
        { input: 'missing.ts', expected: { path: 'missing.ts', reason: 'vanished' } },
        { input: 'src/index.ts/child.ts', expected: { path: 'src/index.ts/child.ts', reason: 'vanished' } },
        { input: 'src', expected: { path: 'src', reason: 'not-a-file', detail: 'directory' } },
        { input: 'twin-a.ts', expected: { path: 'twin-a.ts', reason: 'hard-link', detail: '2 names' } },
        { input: 'twin-b.ts', expected: { path: 'twin-b.ts', reason: 'hard-link', detail: '2 names' } },
        { input: '../escape.ts', expected: { path: '../escape.ts', reason: 'unreadable', detail: 'outside the root' } },
      ],
      outcome,
    );

    it('never follows a symlink, even a dangling one', async function () {
      if (!symlinks) this.skip();
      assert.deepEqual(await outcome('link.ts'), { path: 'link.ts', reason: 'symlink' });
      assert.deepEqual(await outcome('dangling.ts'), { path: 'dangling.ts', reason: 'symlink' });
      assert.deepEqual(await outcome('linked-dir/index.ts'), { path: 'linked-dir/index.ts', reason: 'symlink', detail: 'inside a symlinked directory' });
      assert.deepEqual(await outcome('linked-dir/nested/missing.ts'), { path: 'linked-dir/nested/missing.ts', reason: 'symlink', detail: 'inside a symlinked directory' });
    });

    it('reports permission denied as unreadable with the error code', async function () {
      if (!enforced) this.skip(); // running as root: chmod 000 does not stop reads
      assert.deepEqual(await outcome('locked.ts'), { path: 'locked.ts', reason: 'unreadable', detail: 'EACCES' });
    });

    it('accepts a DiscoveredFile and reports fresh size and mtime', async () => {
      const { files } = await discoverFiles(root, { only: ['src/index.ts'] });
      const r = await loadDocument(root, files[0]);
      assert.ok('doc' in r);
      assert.equal(r.doc.path, 'src/index.ts');
      assert.equal(r.doc.mtimeMs, fs.statSync(path.join(root, 'src/index.ts')).mtimeMs);
    });

    it('accepts an absolute path inside root', async () => {
      const r = await loadDocument(root, path.join(root, 'src', 'index.ts'));
      assert.ok('doc' in r);
      assert.equal(r.doc.path, 'src/index.ts');
    });

    it('honours a raised size cap', async () => {
      const r = await loadDocument(root, 'big.txt', { maxFileBytes: 3 * 1024 * 1024 });
      assert.ok('doc' in r);
      assert.equal(r.doc.size, 2 * 1024 * 1024);
    });

    it('skips a file that grew past the cap since listing', async () => {
      const file = path.join(root, 'growing.md');
      fs.writeFileSync(file, 'small\n');
      try {
        const { files } = await discoverFiles(root, { only: ['growing.md'], maxFileBytes: 100 });
        assert.equal(files.length, 1);
        fs.appendFileSync(file, Buffer.alloc(200, 'x'));
        const r = await loadDocument(root, files[0], { maxFileBytes: 100 });
        assert.deepEqual(r, { skipped: { path: 'growing.md', reason: 'too-large', detail: '206 bytes (limit 100)' } });
      } finally {
        fs.rmSync(file);
      }
    });

    describe('bounded reading of a file that grew after fstat', () => {
      checkAll(
        [
          { name: 'reads all of a file that grew within the cap', input: { expected: 10, limit: 1000 }, expected: 300 },
          { name: 'stops one byte past the cap', input: { expected: 10, limit: 100 }, expected: 101 },
          { name: 'reads an exactly-capped file whole', input: { expected: 300, limit: 300 }, expected: 300 },
          { name: 'a zero cap still reads one byte, enough to tell the file is too large', input: { expected: 0, limit: 0 }, expected: 1 },
        ],
        async ({ expected, limit }) => {
          const file = path.join(root, 'grown.txt');
          fs.writeFileSync(file, Buffer.alloc(300, 'g'));
          const handle = await fs.promises.open(file, 'r');
          try {
            const bytes = await readAtMost(handle, expected, limit);
            assert.ok(bytes.every((b) => b === 0x67));
            return bytes.length;
          } finally {
            await handle.close();
            fs.rmSync(file);
          }
        },
      );
    });

    it('rejects a FIFO without blocking on it', async function () {
      const fifo = path.join(root, 'pipe.md');
      try {
        execFileSync('mkfifo', [fifo], { stdio: 'ignore' });
      } catch {
        this.skip(); // no mkfifo (Windows)
      }
      try {
        assert.deepEqual(await outcome('pipe.md'), { path: 'pipe.md', reason: 'not-a-file', detail: 'fifo' });
        const listed = await discoverFiles(root, { only: ['pipe.md'] });
        assert.deepEqual(listed.skipped, [{ path: 'pipe.md', reason: 'not-a-file', detail: 'fifo' }]);
      } finally {
        fs.rmSync(fifo);
      }
    });
  });

  describe('loadDocuments', () => {
    it('keeps input order for docs and skips', async () => {
      const input = ['src/index.ts', 'binary.ts', 'Dockerfile', 'missing.ts', 'bom.md', 'notes.xyz', 'latin1.md', 'docs/naïve café.md'];
      const { docs, skipped } = await loadDocuments(root, input);
      assert.deepEqual(
        docs.map((d) => d.path),
        ['src/index.ts', 'Dockerfile', 'bom.md', 'notes.xyz', 'docs/naïve café.md'],
      );
      assert.deepEqual(skipped, [
        { path: 'binary.ts', reason: 'binary' },
        { path: 'missing.ts', reason: 'vanished' },
        { path: 'latin1.md', reason: 'invalid-utf8' },
      ]);
    });

    it('reads every file discovery lists, reporting each skip', async () => {
      const listed = await discoverFiles(root, { useGit: false });
      const { docs, skipped } = await loadDocuments(root, listed.files);
      assert.equal(docs.length + skipped.length, listed.files.length);
      const expectedSkips = ['binary.ts', 'latin1.md', 'truncated.md', 'twin-a.ts', 'twin-b.ts', ...(enforced ? ['locked.ts'] : [])];
      assert.deepEqual(skipped.map((s) => s.path).sort(), expectedSkips.sort());
    });

    it('passes the size cap through', async () => {
      const { docs, skipped } = await loadDocuments(root, ['big.txt'], { maxFileBytes: 3 * 1024 * 1024 });
      assert.equal(docs.length, 1);
      assert.deepEqual(skipped, []);
    });

    it('handles an empty list', async () => {
      assert.deepEqual(await loadDocuments(root, []), { docs: [], skipped: [] });
    });

    it('rejects with the abort reason when aborted', async () => {
      await assert.rejects(loadDocuments(root, ['src/index.ts'], { signal: AbortSignal.abort() }), { name: 'AbortError' });
    });
  });

  describe('hashBytes', () => {
    checkAll(
      [
        { input: '', expected: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
        { input: 'abc', expected: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
      ],
      (s) => hashBytes(new TextEncoder().encode(s)),
    );
  });
});
