// Prose chunks: one chunk per heading section with its heading path as breadcrumb
// (`Install > Linux`); text before the first heading is a `text` chunk. Sections over the
// budget are cut at paragraph boundaries, never inside a code fence unless the fence alone
// is over budget, and every piece keeps the section's breadcrumb.
import type { Chunk, SourceDocument } from '../../types';
import { outlineOf, type Heading, type ProseFlavor } from './outline';
import { LineTable, UNNAMED_TEXT, blankLineCuts, emitSpan, type ChunkLabel, type LineSpan } from './spans';

interface Section extends LineSpan {
  level: number;
  label: ChunkLabel;
}

export function chunkProse(doc: SourceDocument, target: number, flavor: ProseFlavor): Chunk[] {
  const table = new LineTable(doc.text);
  const { headings, noCutBefore } = outlineOf(table.lines, flavor);
  const cuts = blankLineCuts(table, (i) => noCutBefore[i] === true);
  const out: Chunk[] = [];

  const firstHeading = headings[0]?.start ?? table.length;
  emitSpan(out, doc, table, { start: 0, end: firstHeading - 1 }, target, UNNAMED_TEXT, cuts);
  for (const section of mergeTinyParents(sectionsOf(headings, table.length), table, target)) {
    emitSpan(out, doc, table, section, target, section.label, cuts);
  }
  return out;
}

/** Each heading's section runs to the line before the next heading, at whatever level. */
function sectionsOf(headings: readonly Heading[], lineCount: number): Section[] {
  const sections: Section[] = [];
  const path: Heading[] = [];
  headings.forEach((h, k) => {
    while (path.length > 0 && (path[path.length - 1] as Heading).level >= h.level) path.pop();
    const parent = path.map((p) => p.title).join(' > ');
    path.push(h);
    const end = (headings[k + 1]?.start ?? lineCount) - 1;
    const label: ChunkLabel = { kind: 'section', symbol: h.title, context: path.map((p) => p.title).join(' > ') };
    if (parent) label.parent = parent;
    sections.push({ start: h.start, end, level: h.level, label });
  });
  return sections;
}

/**
 * A section under a quarter of the budget that is directly followed by its own first
 * subsection (`# Install` then `## Linux`) is folded into that subsection. The merged chunk
 * keeps the subsection's name: its breadcrumb (`Install > Linux`) already names the parent, so
 * nothing in the chunk is misnamed. (When the subsection is over budget, the parent heading
 * simply opens its first piece.) Tiny *sibling* sections are not merged: a chunk named
 * `Linux` that also held `macOS` would send a reader to the wrong place, and a short section
 * is still a precise hit for its own heading.
 */
function mergeTinyParents(sections: Section[], table: LineTable, target: number): Section[] {
  const merged: Section[] = [];
  for (let k = 0; k < sections.length; k++) {
    const s = sections[k] as Section;
    const next = sections[k + 1];
    if (next && next.level > s.level && table.cost(s.start, s.end) < target / 4) {
      next.start = s.start;
      continue;
    }
    merged.push(s);
  }
  return merged;
}
