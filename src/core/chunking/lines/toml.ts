// TOML and INI chunks: one `section` chunk per `[table]` / `[[array]]` / `[section]` header,
// with the comments directly above the header; keys before the first header are a `text`
// chunk. Sections over budget are cut at blank lines and keep their name.
import type { Chunk, SourceDocument } from '../../types';
import { LineTable, UNNAMED_TEXT, blankLineCuts, emitSpan, type ChunkLabel, type LineSpan } from './spans';

/** A header at column 0; an indented `[1, 2]` is more likely a row of a multi-line array. */
const HEADER = /^\[\[?[ \t]*([^[\]\r\n]+?)[ \t]*\]\]?[ \t]*(?:[#;].*)?$/;
const COMMENT = /^[ \t]*[#;]/;
const MULTILINE_STRING = /"""|'''/g;

export function chunkTomlLike(doc: SourceDocument, target: number): Chunk[] {
  const table = new LineTable(doc.text);
  const lines = table.lines;
  const cuts = blankLineCuts(table);
  const out: Chunk[] = [];
  const headers = headersOf(lines);

  const sections: Array<LineSpan & { name: string }> = headers.map((h) => {
    let start = h.line;
    while (start > 0 && COMMENT.test(lines[start - 1] as string)) start--;
    return { start, end: lines.length - 1, name: h.name };
  });
  sections.forEach((s, k) => {
    const next = sections[k + 1];
    if (next) s.end = next.start - 1;
  });

  emitSpan(out, doc, table, { start: 0, end: (sections[0]?.start ?? lines.length) - 1 }, target, UNNAMED_TEXT, cuts);
  for (const s of sections) {
    const label: ChunkLabel = { kind: 'section', symbol: s.name, context: s.name };
    emitSpan(out, doc, table, s, target, label, cuts);
  }
  return out;
}

/** Header lines, skipping anything inside a multi-line string. */
function headersOf(lines: readonly string[]): Array<{ line: number; name: string }> {
  const headers: Array<{ line: number; name: string }> = [];
  let inString = false;
  lines.forEach((line, i) => {
    if (!inString) {
      const m = HEADER.exec(line);
      if (m) headers.push({ line: i, name: m[1] as string });
    }
    // An odd number of triple quotes opens or closes a multi-line string.
    if (((line.match(MULTILINE_STRING) ?? []).length & 1) === 1) inString = !inString;
  });
  return headers;
}
