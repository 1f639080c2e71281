// Docs ↔ code in a search's answer: the definitions its top prose hits name, added as marked
// cross-references.
import type { Segment } from '../index/segment';
import { compareHits } from './chunkHits';
import { crossReferenceNames } from './crossref';
import { round } from './fileScore';
import type { FileReader } from './hydrate';
import type { SnapshotScorer } from './scorer';
import type { SymbolIndex } from './symbols';
import type { SearchHit } from './types';

/** Docs ↔ code: definitions named in the top prose hits, added as marked cross-references. */
export function addCrossReferences(
  hits: SearchHit[],
  symbols: SymbolIndex,
  reader: FileReader,
  scorer: SnapshotScorer,
  previewLines: number,
  limit: number,
  allowed: (seg: Segment, segIndex: number, doc: number) => boolean,
): void {
  const seen = new Set(hits.map((h) => h.docid));
  const added: SearchHit[] = [];
  const maxAdded = Math.min(5, Math.max(1, Math.floor(limit / 2)));
  for (const from of hits.slice(0, 5)) {
    if (added.length >= maxAdded) break;
    if (!reader.isProse(from)) continue;
    const text = reader.text(from.path, from.startLine, from.endLine);
    if (!text) continue;
    for (const name of crossReferenceNames(text)) {
      if (added.length >= maxAdded) break;
      const target = name.includes('/') ? symbols.firstChunkOfPath(name) : symbols.definitionsNamed(name)[0];
      if (!target) continue;
      const seg = scorer.snapshot.segments[target.seg] as Segment;
      if (!allowed(seg, target.seg, target.doc)) continue;
      const hit = reader.hit(seg, target.doc, previewLines, undefined);
      if (seen.has(hit.docid)) continue;
      seen.add(hit.docid);
      const value = round(from.score * 0.5);
      hit.score = value;
      hit.scoreBreakdown = [{ kind: 'match', name: `cross-reference from ${from.docid}`, value }];
      hit.crossReferenceFrom = from.docid;
      added.push(hit);
    }
  }
  hits.push(...added);
  hits.sort(compareHits);
}
