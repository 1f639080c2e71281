// The extraction engine: walks the containers of a syntax tree (file, class bodies, namespaces,
// impl blocks...) and turns their members into chunk drafts, driven by a LanguageSpec.
//
// It never enters a function body: only the children of containers are listed, and an oversized
// node is opened only to cut it (split.ts). Members are grouped into "units" of items sharing
// rows, so chunks are whole lines; comments and attributes directly above a definition join it.
// Where code shares a line with definitions (minified code, `var a=1;function f(){}`), or a line
// is longer than the budget, chunks are character ranges of the line instead (a draft's span),
// so every character lands in one chunk and no chunk's text is a whole minified line.
import type { Node } from 'web-tree-sitter';
import type { ChunkKind } from '../../types';
import { cleanComment } from './docs';
import type { SourceText } from './source';
import type { DefInfo, LanguageSpec, SpecContext } from './spec';
import { oneLine } from './spec';
import { atomsOf, cutSpan, packAtoms, type CharRange, type RowRange, type SpanPart } from './split';
import { groupUnits, PUNCTUATION, typeTableFor, type Item, type Role, type TypeTable, type Unit } from './units';

/** What a definition's chunks share: every piece of a split function carries it. */
export interface Identity {
  kind: ChunkKind;
  symbol: string;
  /** Breadcrumb including the symbol (or the enclosing breadcrumb for code). */
  path: string[];
  parent: string[];
  signature: string | undefined;
  docstring: string | undefined;
  visibility: string | undefined;
  decorators: string[] | undefined;
  /** Nesting depth, so a container sorts before members starting on the same row. */
  depth: number;
  /** Where the name is (offset), as the spec's tree says; -1 for code. The definitions query may correct it. */
  nameAt: number;
  /** The definition node's range (offsets), to find the definition among the query's matches; -1 for code. */
  nodeStart: number;
  nodeEnd: number;
  /** The definition's last row (its whole range, whatever the parts). */
  defEndRow: number;
}

/** A chunk before ids and docids are computed. Rows are 0-based. */
export interface Draft extends Identity {
  startRow: number;
  endRow: number;
  text: string;
  /** 0 for a definition's first (or only) part, 1, 2… for the parts after it. */
  part: number;
  /**
   * The characters the draft stands for (UTF-16 offsets, end exclusive) when they are not whole
   * rows: the text shares its rows with other chunks' text. -1 and -1 otherwise.
   */
  spanStart: number;
  spanEnd: number;
}

/**
 * Drafts are built field by field in one order so they share a single object shape
 * (spreading objects with optional fields was a measurable cost on definition-dense files).
 * Only the first piece of a definition keeps its docstring and decorators.
 */
function draftOf(id: Identity, startRow: number, endRow: number, text: string, part: number, span?: CharRange): Draft {
  const first = part === 0;
  return {
    kind: id.kind,
    symbol: id.symbol,
    path: id.path,
    parent: id.parent,
    signature: id.signature,
    docstring: first ? id.docstring : undefined,
    visibility: id.visibility,
    decorators: first ? id.decorators : undefined,
    depth: id.depth,
    nameAt: id.nameAt,
    nodeStart: id.nodeStart,
    nodeEnd: id.nodeEnd,
    defEndRow: id.defEndRow,
    startRow,
    endRow,
    text,
    part,
    spanStart: span ? span.start : -1,
    spanEnd: span ? span.end : -1,
  };
}

export interface ExtractResult {
  drafts: Draft[];
  /** Definitions found (a file with none is a script, or unparseable). */
  defCount: number;
}

const CLASS_LIKE: ReadonlySet<ChunkKind> = new Set<ChunkKind>(['class', 'struct', 'interface', 'trait', 'impl', 'enum', 'union']);
/** Containers nested deeper than this are chunked as plain definitions. */
const MAX_CONTAINER_DEPTH = 12;
/** Nested flattenable nodes (ERROR in ERROR, #ifdef in #ifdef) deeper than this stay code. */
const MAX_FLATTEN_DEPTH = 8;
/** A member line longer than this is shortened in a summary and kept whole in a code chunk. */
const INLINE_MEMBER_MAX = 160;
const SIGNATURE_MAX = 200;

/** A line of a container summary and the rows (and characters) it stands for. */
interface SummaryEntry {
  text: string;
  startRow: number;
  endRow: number;
  start: number;
  end: number;
}

/** Rows of a container that its own header and closing occupy (members there share them). */
interface SharedRows {
  headerLastRow: number;
  closingFirstRow: number;
}

export function extract(root: Node, src: SourceText, spec: LanguageSpec, budget: number): ExtractResult {
  const ex = new Extractor(src, spec, budget, typeTableFor(root.tree.language));
  const ctx: SpecContext = { source: src.text, depth: 0, budget };
  const items: Item[] = [];
  ex.collect(root, ctx, true, -1, items, 0);
  ex.emitUnits(groupUnits(items), ctx, [], undefined, undefined);
  return { drafts: ex.drafts, defCount: ex.defCount };
}

class Extractor {
  readonly drafts: Draft[] = [];
  defCount = 0;

  constructor(
    private readonly src: SourceText,
    private readonly spec: LanguageSpec,
    private readonly budget: number,
    private readonly types: TypeTable,
  ) {}

  // -------------------------------------------------------------------------
  // Listing and grouping members

  /** Lists the children of `parent` as items, splicing in flattened nodes. */
  collect(parent: Node, ctx: SpecContext, keepAnonymous: boolean, skipUntil: number, out: Item[], flattenDepth: number): void {
    const spec = this.spec;
    const types = this.types;
    const kids = parent.children;
    const parentEnd = parent.endIndex;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (!c) continue;
      // A child ends where the next begins, less whitespace: all text belongs to some child,
      // and this saves a wasm call per child.
      const endIndex = this.src.trimEnd(c.startIndex, kids[i + 1]?.startIndex ?? parentEnd);
      if (endIndex <= skipUntil) continue;
      const typeId = c.typeId;
      if (!types.isNamed(typeId)) {
        if (!keepAnonymous) continue;
        const text = this.src.text.slice(c.startIndex, endIndex);
        // Statement terminators that are just newlines (Go) carry nothing to chunk.
        if (text.trim()) out.push(this.item(c, endIndex, PUNCTUATION.test(text) ? 'punct' : 'code'));
        continue;
      }
      const type = types.name(typeId);
      if (spec.comments.has(type)) {
        out.push(this.item(c, endIndex, 'comment'));
        continue;
      }
      if (spec.attributes?.has(type)) {
        out.push(this.item(c, endIndex, 'attribute'));
        continue;
      }
      if (flattenDepth < MAX_FLATTEN_DEPTH) {
        // ERROR nodes are flattened so definitions inside a broken region are still found
        // (a childless ERROR is just an unexpected token: it stays code).
        const inner = type === 'ERROR' ? (c.childCount > 0 ? c : undefined) : spec.flatten?.(c, type, ctx);
        if (inner) {
          const innerEnd = inner === c ? endIndex : inner.endIndex;
          this.pushRaw(out, c.startIndex, inner.startIndex);
          this.collect(inner, type === 'ERROR' ? ctx : { ...ctx, flattened: type }, true, -1, out, flattenDepth + 1);
          this.pushRaw(out, innerEnd, endIndex);
          continue;
        }
      }
      const def = spec.definition(c, type, ctx);
      if (def) {
        const it = this.item(c, endIndex, 'def');
        it.def = def;
        out.push(it);
        continue;
      }
      const it = this.item(c, endIndex, 'code');
      const section = spec.section?.(c, type);
      if (section) it.section = section;
      out.push(it);
    }
  }

  private item(node: Node, endIndex: number, role: Role): Item {
    const startIndex = node.startIndex;
    return { node, role, startIndex, endIndex, startRow: node.startPosition.row, endRow: this.src.lastRowOf(startIndex, endIndex) };
  }

  /** Text between offsets that belongs to no kept node (e.g. `((module) => {` around an IIFE body). */
  private pushRaw(out: Item[], from: number, to: number): void {
    const text = this.src.text;
    while (from < to && /\s/.test(text[from]!)) from++;
    while (to > from && /\s/.test(text[to - 1]!)) to--;
    if (from >= to) return;
    const startRow = this.src.rowOf(from);
    const endRow = this.src.rowOf(to - 1);
    out.push({ node: null, role: 'code', startIndex: from, endIndex: to, startRow, endRow });
  }

  // -------------------------------------------------------------------------
  // Emitting chunks

  /**
   * Emits the units of one container (or the file). Inside a container, `summary` collects one
   * line per member for the container's summary chunk.
   */
  emitUnits(units: readonly Unit[], ctx: SpecContext, path: string[], shared: SharedRows | undefined, summary: SummaryEntry[] | undefined): void {
    let run: Unit[] = [];
    let section: string | undefined;
    const flush = (): void => {
      if (run.length > 0) this.emitCode(run, path, ctx.depth);
      run = [];
    };
    for (const u of units) {
      for (const it of u.items) if (it.section) section = it.section;
      if (u.role === 'def') {
        flush();
        this.emitDefUnit(u, ctx, path, shared, summary, section);
        continue;
      }
      if (!summary) {
        run.push(u);
        continue;
      }
      const isShared = shared !== undefined && (u.startRow <= shared.headerLastRow || u.endRow >= shared.closingFirstRow);
      const text = isShared ? this.src.text.slice(u.startIndex, u.endIndex) : this.src.rowsText(u.startRow, u.endRow);
      if (u.startRow === u.endRow && text.length <= INLINE_MEMBER_MAX) {
        flush();
        summary.push({ text: isShared ? `  ${text.trim()}` : text.trimEnd(), startRow: u.startRow, endRow: u.endRow, start: u.startIndex, end: u.endIndex });
      } else {
        // Multi-line fields, static blocks, comment blocks: named in the summary, kept whole in code.
        const first = text.split('\n', 1)[0]!.trimEnd();
        const shown = first.length > INLINE_MEMBER_MAX ? first.slice(0, INLINE_MEMBER_MAX) : first;
        summary.push({ text: `${shown} …`, startRow: u.startRow, endRow: u.endRow, start: u.startIndex, end: u.endIndex });
        run.push(u);
      }
    }
    flush();
  }

  private emitDefUnit(u: Unit, ctx: SpecContext, path: string[], shared: SharedRows | undefined, summary: SummaryEntry[] | undefined, section: string | undefined): void {
    const defs = u.items.filter((it) => it.role === 'def');
    const main = defs[0]!;
    const sharedWithContainer = shared !== undefined && (u.startRow <= shared.headerLastRow || u.endRow >= shared.closingFirstRow);
    // A definition owns its unit's rows unless code shares them (comments and attributes on its
    // rows are its own).
    if (defs.length === 1 && !sharedWithContainer && !u.items.some((it) => this.isCode(it))) {
      const text = this.src.rowsText(u.startRow, u.endRow);
      this.emitDef(main, u.prefix, { start: u.startRow, end: u.endRow }, text, () => [...u.prefix, ...u.items], undefined, ctx, path, section, summary);
      return;
    }
    // Shared rows (minified code, one-line classes): each definition gets its own node's text,
    defs.forEach((it, k) => {
      const prefix = k === 0 ? u.prefix : [];
      const startIndex = prefix[0]?.startIndex ?? it.startIndex;
      const rows = { start: prefix[0]?.startRow ?? it.startRow, end: it.endRow };
      const text = this.src.text.slice(startIndex, it.endIndex);
      this.emitDef(it, prefix, rows, text, () => [...prefix, it], startIndex, ctx, path, section, summary);
    });
    // and the code around them chunks of its own, one per run between definitions: coverage is
    // by character, not by row (`var marker=1;` before `function f(){}` on one line is searchable).
    let run: Item[] = [];
    for (const it of u.items) {
      if (it.role !== 'def') {
        run.push(it);
        continue;
      }
      this.emitStrays(run, path, ctx.depth);
      run = [];
    }
    this.emitStrays(run, path, ctx.depth);
  }

  /** Code beside definitions on their rows, as character ranges; punctuation at its edges (`;`) is left out. */
  private emitStrays(items: readonly Item[], path: string[], depth: number): void {
    let first = 0;
    let last = items.length;
    while (first < last && !this.carriesText(items[first]!)) first++;
    while (last > first && !this.carriesText(items[last - 1]!)) last--;
    if (first === last) return;
    const run = items.slice(first, last);
    const start = run[0]!.startIndex;
    const end = run[run.length - 1]!.endIndex;
    let endRow = run[0]!.endRow;
    for (const it of run) if (it.endRow > endRow) endRow = it.endRow;
    const unit: Unit = { role: 'code', items: run, prefix: [], startRow: run[0]!.startRow, endRow, startIndex: start, endIndex: end };
    this.emitCode([unit], path, depth, { start, end });
  }

  /** A statement or expression (not a definition, comment, attribute or bare punctuation). */
  private isCode(it: Item): boolean {
    return it.role === 'code' && !PUNCTUATION.test(this.textOf(it));
  }

  /** Anything but a definition or bare punctuation: text a search should find. */
  private carriesText(it: Item): boolean {
    return it.role !== 'def' && it.role !== 'punct' && !PUNCTUATION.test(this.textOf(it));
  }

  /**
   * True when only whitespace (and with `punctuation`, `};` and the like) shares the rows of
   * `start..end` with it: the range is its rows' text.
   */
  private ownsRows(start: number, end: number, punctuation = false): boolean {
    const text = this.src.text;
    const ignored = punctuation ? isSpaceOrPunctuation : isSpaceCode;
    // Scanned outwards from the range: on a minified line the first characters decide.
    for (let i = start - 1; i >= 0; i--) {
      const c = text.charCodeAt(i);
      if (c === 10) break;
      if (!ignored(c)) return false;
    }
    for (let i = end; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) break;
      if (!ignored(c)) return false;
    }
    return true;
  }

  /** Emits one definition (recursing into containers) and adds its line to the parent's summary, if any. */
  private emitDef(
    it: Item,
    prefix: readonly Item[],
    rows: RowRange,
    text: string,
    parts: () => readonly Item[],
    sliceStart: number | undefined,
    ctx: SpecContext,
    path: string[],
    section: string | undefined,
    summary: SummaryEntry[] | undefined,
  ): void {
    const info = it.def!;
    this.defCount++;
    // A slice of shared rows stands for its characters; one that owns its rows, for the rows.
    const span = sliceStart !== undefined && !this.ownsRows(sliceStart, it.endIndex) ? { start: sliceStart, end: it.endIndex } : undefined;
    const scope = info.scope ?? [];
    const ownerName = scope.length > 0 ? scope[scope.length - 1] : ctx.container?.name;
    let kind = info.kind;
    if (kind === 'function' && (scope.length > 0 || (ctx.container && CLASS_LIKE.has(ctx.container.kind)))) kind = 'method';
    if (kind === 'method' && this.spec.isConstructor?.(info.name, ownerName)) kind = 'constructor';
    // Attached attributes and comments (most definitions have neither: no arrays then).
    let attached: string[] | undefined;
    let comments: string | undefined;
    for (const p of prefix) {
      if (p.role === 'attribute') (attached ??= []).push(oneLine(this.textOf(p), 120));
      else if (p.role === 'comment') comments = comments === undefined ? this.textOf(p) : `${comments}\n${this.textOf(p)}`;
    }
    const decorators = attached ? [...attached, ...(info.decorators ?? [])] : (info.decorators ?? []);
    const docstring = info.docstring ?? (comments !== undefined ? cleanComment(comments) : undefined);
    const signature = this.signature(info, it, decorators);
    const defPath = [...path, ...scope, info.name];
    const id: Identity = {
      kind,
      symbol: info.name,
      path: defPath,
      parent: scope.length > 0 ? [...path, ...scope] : path,
      signature,
      docstring: docstring || undefined,
      visibility: info.visibility ?? section,
      decorators: decorators.length > 0 ? decorators : undefined,
      depth: ctx.depth,
      nameAt: nameOffset(this.src.text, info),
      nodeStart: info.node.startIndex,
      nodeEnd: info.node.endIndex,
      defEndRow: rows.end,
    };
    if (info.members && ctx.depth < MAX_CONTAINER_DEPTH) {
      this.emitContainer(it, info, id, rows, sliceStart, ctx, kind, span);
    } else if (text.length <= this.budget) {
      this.drafts.push(draftOf(id, rows.start, rows.end, text, 0, span));
    } else {
      this.emitPieces(id, parts(), span);
    }
    if (!summary) return;
    const indent = sliceStart === undefined ? this.src.indentOf(rows.start) : '  ';
    const line = `${indent}${decorators.length > 0 ? `${decorators.join(' ')} ` : ''}${signature}`;
    summary.push({ text: line, startRow: rows.start, endRow: rows.end, start: sliceStart ?? this.src.rowStart(rows.start), end: it.endIndex });
  }

  /** A container: a summary chunk over its full range, then its members. */
  private emitContainer(it: Item, info: DefInfo, id: Identity, rows: RowRange, sliceStart: number | undefined, ctx: SpecContext, kind: ChunkKind, span: CharRange | undefined): void {
    const src = this.src;
    const members = info.members!;
    const headerStart = sliceStart ?? src.rowStart(rows.start);
    const headerEnd = Math.max(headerStart, info.headerEnd ?? openingEnd(members));
    const childCtx: SpecContext = { source: src.text, depth: ctx.depth + 1, container: { kind, name: info.name, type: info.node.type }, budget: this.budget };
    const items: Item[] = [];
    this.collect(members, childCtx, false, headerEnd, items, 0);
    const closingStart = this.closingStart(members, items, headerEnd, it.endIndex);
    const closing = src.text.slice(closingStart, it.endIndex).trim();
    const header = src.text.slice(headerStart, headerEnd).trimEnd() || src.rowsText(rows.start, rows.start);
    const shared: SharedRows = {
      headerLastRow: src.rowOf(headerStart + Math.max(0, header.length - 1)),
      closingFirstRow: closing ? src.rowOf(closingStart) : rows.end + 1,
    };
    const entries: SummaryEntry[] = [];
    header.split('\n').forEach((line, i) => entries.push({ text: line.trimEnd(), startRow: rows.start + i, endRow: rows.start + i, start: headerStart, end: headerEnd }));
    const memberEntries: SummaryEntry[] = [];
    this.emitUnits(groupUnits(items), childCtx, id.path, shared, memberEntries);
    entries.push(...memberEntries);
    let closer: SummaryEntry | undefined;
    if (closing && closing.length <= 40 && !closing.includes('\n')) {
      const indent = sliceStart === undefined ? src.indentOf(shared.closingFirstRow) : '';
      closer = { text: indent + closing, startRow: shared.closingFirstRow, endRow: shared.closingFirstRow, start: closingStart, end: it.endIndex };
    }
    this.emitSummary(id, entries, closer, rows, span);
  }

  /** Where a container's closing text (`}`, `end`, `};`) starts; `end` when it has none. */
  private closingStart(members: Node, items: readonly Item[], headerEnd: number, end: number): number {
    const last = members.lastChild;
    if (last && !last.isNamed && PUNCTUATION.test(last.text) && last.startIndex >= headerEnd) return last.startIndex;
    let from = Math.max(headerEnd, items.length > 0 ? items[items.length - 1]!.endIndex : headerEnd, members.endIndex);
    while (from < end && /\s/.test(this.src.text[from]!)) from++;
    return Math.min(from, end);
  }

  /**
   * Packs summary lines into chunks; the first covers the whole container, the rest the members
   * they list. The closing line (`}`) is added only where it fits: alone it would be noise.
   * A container on shared rows stands for its characters (`span`), and so do its later parts.
   */
  private emitSummary(id: Identity, entries: readonly SummaryEntry[], closer: SummaryEntry | undefined, rows: RowRange, span: CharRange | undefined): void {
    let part: SummaryEntry[] = [];
    let size = 0;
    let index = 0;
    let first = true;
    const flush = (): void => {
      if (part.length === 0) return;
      const text = part.map((e) => e.text).join('\n');
      let startRow = rows.start;
      let endRow = rows.end;
      let partSpan = span;
      if (!first) {
        startRow = part[0]!.startRow;
        endRow = part[0]!.endRow;
        let start = part[0]!.start;
        let end = part[0]!.end;
        for (const e of part) {
          if (e.startRow < startRow) startRow = e.startRow;
          if (e.endRow > endRow) endRow = e.endRow;
          if (e.start < start) start = e.start;
          if (e.end > end) end = e.end;
        }
        if (span) partSpan = { start, end };
      }
      this.drafts.push(draftOf(id, startRow, endRow, text, index++, partSpan));
      first = false;
      part = [];
      size = 0;
    };
    for (const e of entries) {
      if (part.length > 0 && size + 1 + e.text.length > this.budget) flush();
      size += (part.length > 0 ? 1 : 0) + e.text.length;
      part.push(e);
    }
    if (closer && size + 1 + closer.text.length <= this.budget) part.push(closer);
    flush();
  }

  /** An oversized definition: pieces cut at its children's boundaries, each keeping its identity. */
  private emitPieces(id: Identity, parts: readonly Item[], span: CharRange | undefined): void {
    const atoms: RowRange[] = [];
    atomsOf(this.src, parts, this.budget, atoms);
    this.pushPieces(id, packAtoms(this.src, atoms, this.budget), () => parts, span, true);
  }

  /** Code between definitions, packed up to the budget; clipped to its characters when it shares its rows. */
  private emitCode(run: readonly Unit[], path: string[], depth: number, clip?: CharRange): void {
    const first = run[0];
    const last = run[run.length - 1];
    // (A member's `;` or its class's `}` beside it leaves it its rows, as it always had them.)
    if (!clip && first && last && !this.ownsRows(first.startIndex, last.endIndex, true)) clip = { start: first.startIndex, end: last.endIndex };
    const atoms: RowRange[] = [];
    for (const u of run) {
      if (this.src.rowsLength(u.startRow, u.endRow) <= this.budget) atoms.push({ start: u.startRow, end: u.endRow });
      else atomsOf(this.src, [...u.prefix, ...u.items], this.budget, atoms);
    }
    const id: Identity = {
      kind: 'code', symbol: '', path, parent: path, signature: undefined, docstring: undefined, visibility: undefined, decorators: undefined, depth,
      nameAt: -1, nodeStart: -1, nodeEnd: -1, defEndRow: -1,
    };
    this.pushPieces(id, packAtoms(this.src, atoms, this.budget), () => run.flatMap((u) => [...u.prefix, ...u.items]), clip, false);
  }

  /**
   * Drafts for packed row pieces, clipped to `clip` (the characters of a definition or of code on
   * shared rows). A piece still over the budget is one row (a minified line): it is cut by characters.
   * Pieces of a definition are numbered (parts after the first are `continued`); code's are not.
   */
  private pushPieces(id: Identity, pieces: readonly RowRange[], parts: () => readonly SpanPart[], clip: CharRange | undefined, numbered: boolean): void {
    const src = this.src;
    let part = 0;
    const step = numbered ? 1 : 0;
    for (const p of pieces) {
      const rowsStart = src.rowStart(p.start);
      const rowsEnd = src.rowEnd(p.end);
      const start = clip ? Math.max(clip.start, rowsStart) : rowsStart;
      const end = clip ? Math.min(clip.end, rowsEnd) : rowsEnd;
      if (src.trimEnd(start, end) <= start) continue;
      if (end - start <= this.budget) {
        this.pushRange(id, start, end, part, start === rowsStart && end === rowsEnd ? p : undefined);
        part += step;
        continue;
      }
      for (const c of cutSpan(src, parts(), start, end, this.budget)) {
        this.pushRange(id, c.start, c.end, part, undefined);
        part += step;
      }
    }
  }

  /** One draft for `start..end`: its rows' text when it owns them, else its own characters. */
  private pushRange(id: Identity, start: number, end: number, part: number, rows: RowRange | undefined): void {
    const src = this.src;
    const startRow = rows ? rows.start : src.rowOf(start);
    const endRow = rows ? rows.end : src.lastRowOf(start, end);
    if (rows || this.ownsRows(start, end)) this.drafts.push(draftOf(id, startRow, endRow, src.rowsText(startRow, endRow), part));
    else this.drafts.push(draftOf(id, startRow, endRow, src.text.slice(start, end), part, { start, end }));
  }

  // -------------------------------------------------------------------------
  // Reading definitions

  private textOf(it: Item): string {
    return this.src.text.slice(it.startIndex, it.endIndex);
  }

  /** The header up to the body (or the first line when there is no body), on one line, without decorators. */
  private signature(info: DefInfo, it: Item, decorators: readonly string[]): string {
    const text = this.src.text;
    const start = it.startIndex;
    let sig: string;
    if (info.body && info.body.startIndex > start) {
      sig = oneLine(text.slice(start, Math.min(info.body.startIndex, start + 4 * SIGNATURE_MAX)), 4 * SIGNATURE_MAX);
    } else {
      sig = oneLine(firstSignatureLine(text.slice(start, Math.min(it.endIndex, start + 4 * SIGNATURE_MAX)), decorators), 4 * SIGNATURE_MAX);
    }
    for (const d of decorators) if (sig.startsWith(d)) sig = sig.slice(d.length).trimStart();
    // A trailing `{` or `:` (and the space before it) opens the body: not part of the signature.
    const last = sig.charCodeAt(sig.length - 1);
    if (last === 123 || last === 58) sig = sig.slice(0, -1).trimEnd();
    return sig.length > SIGNATURE_MAX ? `${sig.slice(0, SIGNATURE_MAX - 1)}…` : sig;
  }
}

/**
 * The first line of a body-less definition's text that is neither blank nor one of its
 * decorators (the first line when none is). Lines are read one at a time: most
 * definitions are one line (macros, one-line keys), and splitting them all was a measurable cost.
 */
function firstSignatureLine(text: string, decorators: readonly string[]): string {
  let first: string | undefined;
  for (let from = 0; from <= text.length; ) {
    let end = text.indexOf('\n', from);
    if (end === -1) end = text.length;
    const line = text.slice(from, end);
    first ??= line;
    if (line.trim() && !isDecoration(line, decorators)) return line;
    from = end + 1;
  }
  return first ?? '';
}

function isDecoration(line: string, decorators: readonly string[]): boolean {
  if (decorators.length === 0) return false;
  const flat = oneLine(line);
  return decorators.some((d) => d.startsWith(flat) || flat.startsWith(d));
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_$]/u;

/**
 * Where a definition's name is: its node's `name` field when that holds the name, else the
 * first whole-word occurrence of the name in the node's text, else the node's start.
 */
function nameOffset(text: string, info: DefInfo): number {
  const name = info.name;
  const node = info.node;
  if (!name) return node.startIndex;
  const field = node.childForFieldName('name');
  if (field && text.startsWith(name, field.startIndex)) return field.startIndex;
  const end = node.endIndex;
  for (let at = text.indexOf(name, node.startIndex); at >= 0 && at < end; at = text.indexOf(name, at + 1)) {
    const before = at > 0 ? text[at - 1]! : ' ';
    const after = text[at + name.length] ?? ' ';
    if (!IDENTIFIER_CHAR.test(before) && !IDENTIFIER_CHAR.test(after)) return at;
  }
  return node.startIndex;
}

/** Offset just after a members node's opening token (`{`), or its start when it has none. */
function openingEnd(members: Node): number {
  const first = members.firstChild;
  if (first && !first.isNamed && PUNCTUATION.test(first.text)) return first.endIndex;
  return members.startIndex;
}

/** Whitespace but `\n`. */
function isSpaceCode(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 12 || c === 11;
}

/** Whitespace but `\n`, or a character of PUNCTUATION (`{}()[];,.:`). */
function isSpaceOrPunctuation(c: number): boolean {
  return isSpaceCode(c) || c === 123 || c === 125 || c === 40 || c === 41 || c === 91 || c === 93 || c === 59 || c === 44 || c === 46 || c === 58;
}
