// Plain line chunks: whole lines packed greedily up to the target size. Under REFERENCE_POLICY
// (flat 400) this is the reference design: a chunk grows while the sum of its line lengths plus
// their newlines stays <= 400, and a longer single line is a chunk of its own.
import type { Chunk, SourceDocument } from '../../types';
import { LineTable, UNNAMED_TEXT, emitSpan } from './spans';

export function chunkPlain(doc: SourceDocument, target: number): Chunk[] {
  const table = new LineTable(doc.text);
  const out: Chunk[] = [];
  emitSpan(out, doc, table, { start: 0, end: table.length - 1 }, target, UNNAMED_TEXT);
  return out;
}
