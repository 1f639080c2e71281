// YAML chunks without a parser: one chunk per top-level key (comments directly above a key
// belong to it), a `---` separator starts a new document, and a block over budget is cut at
// its child entries (`jobs.build`), recursively, so every piece stays within the budget and
// is named after the deepest key it holds whole.
import type { Chunk, SourceDocument } from '../../types';
import {
  LineTable, UNNAMED_TEXT, blankLineCuts, emitSpan, isBlank, type ChunkLabel, type CutScore, type LineSpan,
} from './spans';

const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:[ \t]|$)/;
const COMMENT = /^[ \t]*#/;
const SEQUENCE_ITEM = /^[ \t]*-(?:[ \t]|$)/;

/** An entry of a mapping or sequence: the lines it spans and the key it is named by, if any. */
interface Entry extends LineSpan {
  /** The line holding the key or the `-` of the item. */
  head: number;
  key?: string;
}

interface YamlContext {
  doc: SourceDocument;
  lines: string[];
  table: LineTable;
  target: number;
  cuts: CutScore;
  out: Chunk[];
}

export function chunkYaml(doc: SourceDocument, target: number): Chunk[] {
  const table = new LineTable(doc.text);
  const lines = table.lines;
  const ctx: YamlContext = { doc, lines, table, target, cuts: blankLineCuts(table), out: [] };
  const documents = documentsOf(lines);
  documents.forEach((document, k) => {
    const next = documents[k + 1];
    // `%YAML 1.2` before `---` is a header of the next document, not a document of its own.
    if (next && isHeaderOnly(lines, document)) next.start = document.start;
    else chunkDocument(ctx, document);
  });
  return ctx.out;
}

function isHeaderOnly(lines: readonly string[], span: LineSpan): boolean {
  for (let i = span.start; i <= span.end; i++) {
    const line = lines[i] as string;
    if (!(isBlank(line) || COMMENT.test(line) || line.startsWith('%') || DOCUMENT_MARKER.test(line))) return false;
  }
  return true;
}

/** Line spans of the documents in a stream; each `---` opens a new one and belongs to it. */
function documentsOf(lines: readonly string[]): LineSpan[] {
  const docs: LineSpan[] = [];
  let start = 0;
  for (let i = 1; i < lines.length; i++) {
    if ((lines[i] as string).startsWith('---') && DOCUMENT_MARKER.test(lines[i] as string)) {
      docs.push({ start, end: i - 1 });
      start = i;
    }
  }
  docs.push({ start, end: lines.length - 1 });
  return docs;
}

function chunkDocument(ctx: YamlContext, document: LineSpan): void {
  const keys = entriesAt(ctx.lines, document, 0, (line) => keyOf(line) !== undefined);
  if (keys.length === 0) {
    // A root sequence or scalar: no names to give, cut between items.
    emitSpan(ctx.out, ctx.doc, ctx.table, document, ctx.target, UNNAMED_TEXT, itemCuts(ctx.table, 0));
    return;
  }
  const preamble: LineSpan = { start: document.start, end: (keys[0] as Entry).start - 1 };
  // A `---`, directives or a short header comment ride along with the first key rather than
  // making a chunk of their own; a long header (a licence) is a text chunk.
  if (ctx.table.cost(preamble.start, preamble.end) < ctx.target / 4) (keys[0] as Entry).start = preamble.start;
  else emitSpan(ctx.out, ctx.doc, ctx.table, preamble, ctx.target, UNNAMED_TEXT, ctx.cuts);
  // Every top-level key is its own chunk, however small: a key and its value are what a
  // query about configuration is after.
  for (const entry of keys) chunkBlock(ctx, entry, [entry.key as string]);
}

/**
 * Emits one block (a key with its value) named by `path`: whole when it fits, otherwise cut
 * at its child entries. Runs of small children are packed together (up to the budget) and
 * named after the block, so a long `env:` map does not turn into one chunk per line.
 */
function chunkBlock(ctx: YamlContext, block: Entry, path: string[]): void {
  const { table, target } = ctx;
  if (table.cost(block.start, block.end) <= target) return emit(ctx, block, path);
  const children = childEntries(ctx.lines, block);
  if (children.length === 0) return emit(ctx, block, path, indentCuts(ctx.table));
  // The block's own head (comments, the key line) opens its first child's chunk.
  (children[0] as Entry).start = block.start;

  let run: Entry[] = [];
  const flushRun = (): void => {
    if (run.length === 1) emit(ctx, run[0] as Entry, childPath(path, run[0] as Entry));
    else if (run.length > 1) emit(ctx, { start: (run[0] as Entry).start, end: (run[run.length - 1] as Entry).end }, path);
    run = [];
  };
  for (const child of children) {
    const size = table.cost(child.start, child.end);
    if (size > target) {
      flushRun();
      chunkBlock(ctx, child, childPath(path, child));
    } else if (size < target / 4) {
      const runStart = run[0]?.start ?? child.start;
      if (table.cost(runStart, child.end) > target) flushRun();
      run.push(child);
    } else {
      flushRun();
      emit(ctx, child, childPath(path, child));
    }
  }
  flushRun();
}

/** A key child extends the path (`jobs` -> `jobs.build`); a sequence item keeps it. */
function childPath(path: string[], child: Entry): string[] {
  return child.key === undefined ? path : [...path, child.key];
}

function emit(ctx: YamlContext, span: LineSpan, path: string[], cuts: CutScore = ctx.cuts): void {
  const label: ChunkLabel = path.length === 0
    ? UNNAMED_TEXT
    : { kind: 'key', symbol: path[path.length - 1] as string, context: path.join('.') };
  if (path.length > 1) label.parent = path.slice(0, -1).join('.');
  emitSpan(ctx.out, ctx.doc, ctx.table, span, ctx.target, label, cuts);
}

/**
 * The entries directly under a block: lines at the indentation of its first content line
 * that are keys or sequence items. Sequence items may sit at the key's own indentation
 * (`steps:` then `- run: x`), so that indentation counts as a child level too.
 */
function childEntries(lines: readonly string[], block: Entry): Entry[] {
  const first = firstContent(lines, block);
  if (first < 0) return [];
  const indent = indentOf(lines[first] as string);
  const headIndent = indentOf(lines[block.head] as string);
  if (indent < headIndent || (indent === headIndent && !SEQUENCE_ITEM.test(lines[first] as string))) return [];
  const body: LineSpan = { start: block.head + 1, end: block.end };
  return entriesAt(lines, body, indent, (line) => SEQUENCE_ITEM.test(line) || keyOf(line.slice(indent)) !== undefined);
}

function firstContent(lines: readonly string[], block: Entry): number {
  for (let i = block.head + 1; i <= block.end; i++) {
    if (!isBlank(lines[i] as string) && !COMMENT.test(lines[i] as string)) return i;
  }
  return -1;
}

/**
 * Entries starting at lines with exactly `indent` spaces for which `isHead` holds, within
 * `span`. Each entry runs to the line before the next one (or the end of the span), and the
 * comment lines directly above its head belong to it.
 */
function entriesAt(lines: readonly string[], span: LineSpan, indent: number, isHead: (line: string) => boolean): Entry[] {
  const heads: number[] = [];
  for (let i = span.start; i <= span.end; i++) {
    const line = lines[i] as string;
    if (isBlank(line) || COMMENT.test(line) || indentOf(line) !== indent) continue;
    if (indent === 0 && DOCUMENT_MARKER.test(line)) continue;
    if (isHead(line)) heads.push(i);
  }
  // Keys and items never share a level: items beside keys are an indentless sequence that
  // belongs to the key above them (`steps:` then `- run: x` at the same indentation).
  if (heads.some((h) => !SEQUENCE_ITEM.test(lines[h] as string))) {
    const keyHeads = heads.filter((h) => !SEQUENCE_ITEM.test(lines[h] as string));
    heads.length = 0;
    heads.push(...keyHeads);
  }
  const entries: Entry[] = heads.map((head) => {
    let start = head;
    while (start - 1 >= span.start && COMMENT.test(lines[start - 1] as string)) start--;
    const key = keyOf(lines[head] as string);
    return key === undefined || SEQUENCE_ITEM.test(lines[head] as string) ? { start, end: span.end, head } : { start, end: span.end, head, key };
  });
  for (let k = 0; k + 1 < entries.length; k++) (entries[k] as Entry).end = (entries[k + 1] as Entry).start - 1;
  return entries;
}

const QUOTED_KEY = /^[ \t]*(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)')[ \t]*:(?:[ \t]|$)/;
const PLAIN_KEY = /^[ \t]*([^\s#'"\-?:,[\]{}&*!|>%@`][^#]*?|[-?:][^\s#][^#]*?)[ \t]*:(?:[ \t]|$)/;

/** The key a mapping line starts with (`name: x` -> `name`), undefined for anything else. */
export function keyOf(line: string): string | undefined {
  const quoted = QUOTED_KEY.exec(line);
  if (quoted) return quoted[1] ?? (quoted[2] as string).replace(/''/g, "'");
  const plain = PLAIN_KEY.exec(line);
  return plain ? (plain[1] as string) : undefined;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Prefers cuts before the items of a sequence at `indent`, then at blank lines. */
function itemCuts(table: LineTable, indent: number): CutScore {
  const lines = table.lines;
  const blank = blankLineCuts(table);
  return (i) => {
    const line = lines[i] ?? '';
    return SEQUENCE_ITEM.test(line) && indentOf(line) === indent ? 2 : blank(i);
  };
}

/** For a block with no entries to cut at (a long scalar): prefer blank lines, then less-indented lines. */
function indentCuts(table: LineTable): CutScore {
  const lines = table.lines;
  const blank = blankLineCuts(table);
  return (i) => {
    const s = blank(i);
    if (s === 2) return 2;
    return indentOf(lines[i] ?? '') < indentOf(lines[i - 1] ?? '') ? 2 : 1;
  };
}
