// Collection statistics count live chunks only, whatever the scorer has seen before: two
// snapshots that share a segment (and so its cached postings) but not its tombstones must each
// score as a scorer that never saw the other would.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Segment } from '../../src/core/index/segment';
import { SegmentBuilder } from '../../src/core/index/segmentBuilder';
import { SnapshotScorer } from '../../src/core/search/scorer';
import { SymbolIndex } from '../../src/core/search/symbols';
import { FileReader } from '../../src/core/search/hydrate';
import { searchSnapshot } from '../../src/core/search/search';
import type { Snapshot } from '../../src/core/store/store';
import type { Chunk } from '../../src/core/types';
import { checkAll } from './check';
import { c } from './helpers/snapshot';

/**
 * 3,000 chunks, every one with `common` in its body (enough for the segment to keep the list
 * decoded between queries), in files under `common/` or `other/` (so `common` also has path
 * postings); one in ten also says `rare`.
 */
function corpus(): Chunk[] {
  const chunks: Chunk[] = [];
  for (let f = 0; f < 300; f++) {
    const file = `${f % 2 ? 'common' : 'other'}/file${f}.ts`;
    for (let k = 0; k < 10; k++) {
      const line = k * 4 + 1;
      const words = k === 3 ? 'common rare common' : k % 2 ? 'common value' : 'common';
      chunks.push(c(`${file}:${line}-${line + 2} function fn${f}_${k}`, `function fn${f}_${k}() {\n  ${words};\n}`));
    }
  }
  return chunks;
}

describe('scoring statistics follow each snapshot’s tombstones', function () {
  this.timeout(20000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-stats-'));
  const chunks = corpus();
  const builder = new SegmentBuilder();
  const byPath = new Map<string, Chunk[]>();
  for (const ch of chunks) byPath.set(ch.path, [...(byPath.get(ch.path) ?? []), ch]);
  for (const [p, list] of byPath) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), list.map((ch) => `${ch.text}\n`).join('\n'));
    const st = fs.statSync(path.join(root, p));
    builder.addFile({ path: p, size: st.size, mtimeMs: st.mtimeMs, hash: 'unused', language: 'typescript' }, list);
  }
  const bytes = builder.build();
  const shared = new Segment('seg-shared.cseg', bytes);
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const snapshotWith = (segment: Segment, deleted: Uint8Array): Snapshot => ({
    manifest: { format: 'cairn-index', version: 0, generation: 1, root, configHash: '', segments: [], state: '', createdAt: '', updatedAt: '', files: byPath.size, chunks: chunks.length },
    segments: [segment],
    deleted: [deleted],
  });
  const tombstones = (every: number, from: number): Uint8Array => {
    const d = new Uint8Array(shared.docCount);
    for (let i = from; i < d.length; i += every) d[i] = 1;
    return d;
  };
  const scores = (snapshot: Snapshot, query: string) =>
    searchSnapshot(new SnapshotScorer(snapshot), new SymbolIndex(snapshot), new FileReader(root), query, { limit: 5, previewLines: 0, crossReferences: false }).hits.map((h) => [h.docid, h.score, h.scoreBreakdown]);

  // In this order, each query meets the shared segment after a snapshot with other tombstones.
  const cases = [
    { name: 'no tombstones', deleted: tombstones(1, shared.docCount) },
    { name: 'every third chunk deleted', deleted: tombstones(3, 0) },
    { name: 'every other chunk deleted', deleted: tombstones(2, 1) },
    { name: 'every third chunk deleted, again', deleted: tombstones(3, 0) },
    { name: 'no tombstones, again', deleted: tombstones(1, shared.docCount) },
  ];
  for (const query of ['common rare', 'path:common rare', 'common value']) {
    checkAll(
      cases.map(({ name, deleted }) => ({ name: `${query}: ${name}`, input: deleted, expected: true })),
      (deleted) => {
        // A segment of its own: nothing cached from another snapshot.
        const fresh = new Segment('seg-fresh.cseg', bytes);
        assert.deepEqual(scores(snapshotWith(shared, deleted), query), scores(snapshotWith(fresh, deleted), query));
        return true;
      },
    );
  }
});
