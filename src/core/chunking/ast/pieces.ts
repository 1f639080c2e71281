// Definitions the extractor does not list (functions inside `module.exports = { create() {…} }`,
// visitor methods of the object a rule returns, helpers inside a big function) still end up in
// chunks: code between definitions, and the pieces of a definition split for size, are packed
// by rows up to the budget, so one piece could hold several functions and read "lines N–M".
// Such a piece is cut again at the definitions the tree-sitter query found in it: each one
// starts a chunk named after it, with a breadcrumb through the definitions around it
// (`create.Program:exit`), and the code around them keeps the piece's own identity.
import type { ChunkKind } from '../../types';
import type { Draft } from './extract';
import type { DefinitionMatch } from './nested';
import type { SourceText } from './source';

/** Definitions that get a chunk of their own when they sit inside a packed piece. */
const OWN_CHUNK_KINDS: ReadonlySet<ChunkKind> = new Set<ChunkKind>(['function', 'method', 'class', 'constructor']);

/** A row that belongs with the definition below it: a comment or decorator line. */
const LEADING_ROW = /^\s*(\/\/|\/\*|\*|#|@)/;

/** Breadcrumbs of the matches: the names of the matches around each one, outermost first, and its own. */
function breadcrumbs(defs: readonly DefinitionMatch[]): string[][] {
  const order = [...defs.keys()].sort((a, b) => (defs[a] as DefinitionMatch).start - (defs[b] as DefinitionMatch).start || (defs[b] as DefinitionMatch).end - (defs[a] as DefinitionMatch).end);
  const crumbs = new Array<string[]>(defs.length);
  const stack: number[] = [];
  for (const i of order) {
    const m = defs[i] as DefinitionMatch;
    while (stack.length > 0 && (defs[stack[stack.length - 1] as number] as DefinitionMatch).end < m.end) stack.pop();
    const outer = stack.length > 0 ? (crumbs[stack[stack.length - 1] as number] as string[]) : [];
    crumbs[i] = [...outer, m.name];
    stack.push(i);
  }
  return crumbs;
}

/** A draft for (part of) definition `m` found inside the packed piece `d`. */
function definitionDraft(d: Draft, m: DefinitionMatch, crumb: string[], startRow: number, endRow: number, text: string, part: number, src: SourceText): Draft {
  return {
    ...d,
    kind: m.kind,
    symbol: m.name,
    path: crumb,
    parent: crumb.slice(0, -1),
    signature: undefined,
    docstring: undefined,
    visibility: undefined,
    decorators: undefined,
    depth: d.depth + 1,
    nameAt: m.nameAt,
    nodeStart: m.start,
    nodeEnd: m.end,
    defEndRow: src.lastRowOf(m.start, m.end),
    startRow,
    endRow,
    text,
    part,
  };
}

/** How many definitions before a piece are looked at for one still open at its start. */
const ENCLOSING_LIMIT = 64;

/**
 * The innermost definition (of the kinds that get chunks) open at offset `at`, begun before it
 * and not the piece's own definition.
 */
function enclosing(defs: readonly DefinitionMatch[], byStart: readonly number[], at: number, d: Draft): DefinitionMatch | undefined {
  let lo = 0;
  let hi = byStart.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((defs[byStart[mid] as number] as DefinitionMatch).start < at) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo - 1, seen = 0; k >= 0 && seen < ENCLOSING_LIMIT; k--, seen++) {
    const m = defs[byStart[k] as number] as DefinitionMatch;
    if (m.end <= at) continue;
    if (m.start === d.nodeStart && m.end === d.nodeEnd) return undefined;
    return m;
  }
  return undefined;
}

/** Kinds whose pieces are summaries of members (chunks of their own already), not the rows' text. */
const SUMMARY_KINDS: ReadonlySet<ChunkKind> = new Set<ChunkKind>(['class', 'struct', 'interface', 'trait', 'impl', 'enum', 'union', 'module', 'namespace']);

/** Whether a draft is a packed piece of rows: code, or a part of a function split for size. */
function isPackedPiece(d: Draft, src: SourceText): boolean {
  return d.spanStart < 0 && !SUMMARY_KINDS.has(d.kind) && (d.kind === 'code' || d.part > 0 || d.defEndRow > d.endRow) && d.text.length === src.rowsLength(d.startRow, d.endRow);
}

/**
 * The drafts with every packed piece that holds a definition cut at it (see the file comment).
 * `defs` are the query's matches, sorted by name offset. Drafts come back in draft order.
 */
export function cutAtDefinitions(drafts: readonly Draft[], defs: readonly DefinitionMatch[], src: SourceText): Draft[] {
  // A definition cut out of a piece may itself be a piece (it goes on past the piece) holding
  // definitions of its own: cut again, as deep as definitions nest, within reason.
  let current = drafts as Draft[];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = cutOnce(current, defs, src);
    if (next.length === current.length) return next;
    current = next;
  }
  return current;
}

/** Nesting levels cut (a rule's `create` › its helpers › their closures is three). */
const MAX_PASSES = 6;

function cutOnce(drafts: readonly Draft[], defs: readonly DefinitionMatch[], src: SourceText): Draft[] {
  if (defs.length === 0 || !drafts.some((d) => isPackedPiece(d, src))) return drafts as Draft[];
  const byStart = [...defs.keys()].filter((i) => OWN_CHUNK_KINDS.has((defs[i] as DefinitionMatch).kind)).sort((a, b) => (defs[a] as DefinitionMatch).start - (defs[b] as DefinitionMatch).start);
  if (byStart.length === 0) return drafts as Draft[];
  let crumbOf: Map<DefinitionMatch, string[]> | undefined;
  const out: Draft[] = [];
  for (const d of drafts) {
    if (!isPackedPiece(d, src)) {
      out.push(d);
      continue;
    }
    const from = src.rowStart(d.startRow);
    const to = src.rowEnd(d.endRow);
    // The outermost definitions starting in the piece (not the piece's own definition).
    let lo = 0;
    let hi = byStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((defs[byStart[mid] as number] as DefinitionMatch).start < from) lo = mid + 1;
      else hi = mid;
    }
    const inside: DefinitionMatch[] = [];
    let coveredTo = -1;
    for (let k = lo; k < byStart.length; k++) {
      const m = defs[byStart[k] as number] as DefinitionMatch;
      if (m.start >= to) break;
      if (m.start < coveredTo || (m.start === d.nodeStart && m.end === d.nodeEnd)) continue;
      inside.push(m);
      coveredTo = m.end;
    }
    // Rows inside a definition that began before them (in an earlier piece) are its continuation.
    const around = (row: number) => enclosing(defs, byStart, src.rowStart(row), d);
    // One whole definition in a statement of its own is findable by its name already; two, one
    // going on past the piece (a rule's `create`), or one in a piece of a larger definition
    // make the piece "lines N–M".
    if (inside.length === 0 || (inside.length === 1 && (inside[0] as DefinitionMatch).end <= to && d.part === 0 && !around(d.startRow))) {
      out.push(d);
      continue;
    }
    if (!crumbOf) {
      const crumbs = breadcrumbs(defs);
      crumbOf = new Map(defs.map((m, i) => [m, crumbs[i] as string[]]));
    }
    const crumbsOf = crumbOf;
    let row = d.startRow;
    let restCount = 0;
    const rest = (startRow: number, endRow: number) => {
      // Blank rows at a piece's edges belong to nobody.
      while (startRow <= endRow && src.isBlankRow(startRow)) startRow++;
      while (endRow >= startRow && src.isBlankRow(endRow)) endRow--;
      if (startRow > endRow) return;
      const named = around(startRow);
      const text = src.rowsText(startRow, endRow);
      if (named) out.push(definitionDraft(d, named, crumbsOf.get(named) ?? [named.name], startRow, endRow, text, 1, src));
      // Only the first rest of a definition's first part is that part; the others follow it.
      else out.push({ ...d, startRow, endRow, text, part: restCount++ === 0 || d.kind === 'code' ? d.part : Math.max(d.part, 1) });
    };
    for (const m of inside) {
      const own = src.rowOf(m.start);
      // A definition sharing its first row with code before it (`return { a() {`) stays in the piece.
      if (own < row || src.text.slice(src.rowStart(own), m.start).trim() !== '') continue;
      let first = own;
      while (first - 1 >= row && LEADING_ROW.test(src.rowsText(first - 1, first - 1))) first--;
      const last = Math.min(src.lastRowOf(m.start, m.end), d.endRow);
      rest(row, first - 1);
      out.push(definitionDraft(d, m, crumbsOf.get(m) ?? [m.name], first, last, src.rowsText(first, last), 0, src));
      row = last + 1;
    }
    rest(row, d.endRow);
  }
  return out;
}
