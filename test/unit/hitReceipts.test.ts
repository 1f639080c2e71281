// Freshness receipts: every hit names the version of its file it was indexed from (size, mtime,
// SHA-256 as the index recorded them), and `stale` says whether the file on disk is still it.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TempWorkspace } from './helpers/workspace';

describe('hits carry the version of the file they were indexed from', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace({ 'src/a.ts': 'export function apple() { return 1 }\n' });
  });
  afterEach(() => ws.dispose());

  const receiptOf = (rel: string) => {
    const abs = path.join(ws.root, rel);
    const st = fs.statSync(abs);
    return { size: st.size, mtimeMs: st.mtimeMs, sha256: createHash('sha256').update(fs.readFileSync(abs)).digest('hex') };
  };

  it('search, symbol and file hits: the indexed size, mtime and hash; not stale while the file is that version', async () => {
    const engine = ws.engine({ strategy: 'lines' });
    await engine.refresh();
    const expected = receiptOf('src/a.ts');
    const hit = (await engine.search('apple', { refresh: 'never' })).results[0]!;
    assert.deepEqual(hit.indexed, expected);
    assert.equal(hit.stale, undefined);
    assert.deepEqual((await engine.searchFiles('apple', { refresh: 'never' })).files[0]!.spans[0]!.indexed, expected);
  });

  it('after an edit the receipt still names the indexed version, and the hit says the file is not that version now', async () => {
    const engine = ws.engine({ strategy: 'lines' });
    await engine.refresh();
    const indexed = receiptOf('src/a.ts');
    ws.write('src/a.ts', 'export function apple() { return 2 }\n// changed\n');
    const hit = (await engine.search('apple', { refresh: 'never' })).results[0]!;
    assert.deepEqual(hit.indexed, indexed);
    assert.equal(hit.stale, true);
    assert.equal(hit.staleReason, 'modified');
    const after = (await engine.search('apple', { refresh: 'always' })).results[0]!;
    assert.deepEqual(after.indexed, receiptOf('src/a.ts'));
    assert.equal(after.stale, undefined);
  });
});
