// Turns a document of a segment into a SearchHit: metadata from the segment, preview lines
// from the working tree, and a staleness check so a hit never silently points at wrong lines.
import * as fs from 'node:fs';
import { bucketOf } from '../languages';
import { makeDocid } from '../chunking/ids';
import { hashBytes } from '../discovery/read';
import { openRegularSync, RootReader } from '../fsRead';
import { sameFileStat, statOf } from '../store/fileStat';
import type { FileStat } from '../types';
import { NO_START_BYTE, type Segment, type SegmentFile } from '../index/segment';
import { identifierParts, proseForm } from '../index/tokenizer';
import { boundedLevenshtein } from './query';
import type { CompiledQuery } from './compiled';
import type { NestedDefinition } from '../types';
import type { SearchHit } from './types';

const MAX_PREVIEW_LINE = 240;

/** Where a file's bytes come from: read whole already, or read from the start as far as needed. */
interface ByteSupply {
  /** Bytes known so far (a prefix of the file unless `complete`). */
  bytes: Buffer;
  complete: boolean;
  /** Reads further into the file; false at its end. */
  more(): boolean;
}

/** Opens the file a reader reads (a root-confined open for the working tree's files). */
export type Opener = () => { fd: number; stats: fs.Stats };

function openerOf(file: string | Opener): Opener {
  return typeof file === 'string' ? () => openRegularSync(file) : file;
}

function wholeBytes(bytes: Buffer): ByteSupply {
  return { bytes, complete: true, more: () => false };
}

/** First read of a file's prefix; each further read doubles what is known. */
const FIRST_READ = 16 * 1024;
/**
 * First read from a chunk's own first line: a preview's three lines of at most 240 characters
 * fit (measured: each fresh 4 KB page of a read costs a query ~17 µs to fault in, so a 16 KB
 * read cost a hit ~50 µs more than the preview needed).
 */
const FIRST_READ_AT_LINE = 4 * 1024;

/**
 * A file read from `base` (its start by default) in growing blocks: a hit near the top of a
 * 700 KB bundle reads 16 KB, not the whole file. Opens the file for each block, so nothing is
 * left open.
 */
class FilePrefix implements ByteSupply {
  bytes: Buffer = Buffer.alloc(0);
  complete = false;
  /** Sized to the rest of the file on the first read; pages the reads never reach are never touched. */
  private buffer: Buffer | undefined;

  constructor(
    private readonly open: Opener,
    private readonly base = 0,
    private readonly firstRead = FIRST_READ,
  ) {}

  more(): boolean {
    if (this.complete) return false;
    const known = this.bytes.length;
    let got = 0;
    try {
      const { fd, stats } = this.open();
      try {
        this.buffer ??= Buffer.allocUnsafe(Math.max(0, stats.size - this.base));
        const want = Math.min(Math.max(this.firstRead, known), this.buffer.length - known);
        while (got < want) {
          const n = fs.readSync(fd, this.buffer, known + got, want - got, this.base + known + got);
          if (n === 0) break;
          got += n;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // Deleted or unreadable since its stat: the lines read so far are all there is.
    }
    if (!this.buffer || known + got >= this.buffer.length || got === 0) this.complete = true;
    this.bytes = this.buffer ? this.buffer.subarray(0, known + got) : this.bytes;
    return got > 0;
  }
}

/**
 * A file's lines, found and decoded on demand: a three-line preview near the top of a 1 MB file
 * scans to its line and decodes three lines, instead of decoding and splitting the whole file.
 */
export class LazyLines {
  /** Byte offset where each line found so far starts. */
  private readonly starts: number[];
  /** True once every line start is known. */
  private scanned = false;
  /** Bytes before this offset hold no newline after the last known line start. */
  private searched = 0;

  /** With `firstStart`, line 0 starts there (a window into a file); otherwise after any BOM. */
  constructor(
    private readonly supply: ByteSupply,
    firstStart?: number,
  ) {
    if (!supply.complete && supply.bytes.length < 3) supply.more();
    const b = supply.bytes;
    const bom = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
    this.starts = [firstStart ?? (bom ? 3 : 0)];
  }

  static of(bytes: Buffer): LazyLines {
    return new LazyLines(wholeBytes(bytes));
  }

  /**
   * The lines of the bytes `start..end` of a file (a chunk's own characters), line 0 the first:
   * at most SPAN_READ bytes of them, read at once. Undefined when the file cannot be read.
   */
  static fromFileSpan(file: string | Opener, start: number, end: number): LazyLines | undefined {
    try {
      const bytes = readRange(openerOf(file), start, Math.min(end, start + SPAN_READ));
      return new LazyLines(wholeBytes(bytes), 0);
    } catch {
      return undefined;
    }
  }

  /** A file's lines, reading it from the start only as far as they are asked for. */
  static fromFile(file: string | Opener): LazyLines {
    return new LazyLines(new FilePrefix(openerOf(file)));
  }

  /**
   * The lines of a file from the one starting at byte `start` (line 0 here), read from there.
   * Undefined unless the byte before `start` ends a line: the offset does not fit the file.
   */
  static fromFileAt(file: string | Opener, start: number): LazyLines | undefined {
    if (start < 1) return undefined;
    const supply = new FilePrefix(openerOf(file), start - 1, FIRST_READ_AT_LINE);
    supply.more();
    return supply.bytes[0] === 10 ? new LazyLines(supply, 1) : undefined;
  }

  /**
   * Line `i` (0-based) without its line break, or undefined past the end. With `maxChars`, a
   * longer line is cut after at least that many characters (a minified line is not read whole).
   */
  get(i: number, maxChars?: number): string | undefined {
    while (!this.scanned && this.starts.length <= i) this.scanNext();
    const start = this.starts[i];
    if (start === undefined) return undefined;
    const limit = maxChars === undefined ? Infinity : start + (maxChars + 1) * 4;
    // Find where the line ends, searching (and reading) no further than `limit` into it. (The
    // bytes already read were once compared with the limit instead of the bytes searched: a
    // preview line then ran on through the next lines of the 16 KB first read.)
    while (!this.scanned && this.starts.length <= i + 1 && Math.max(this.searched, start) < limit) this.scanNext();
    const bytes = this.supply.bytes;
    const next = this.starts[i + 1];
    let end = Math.min(next !== undefined ? next - 1 : bytes.length, limit);
    if (end > start && bytes[end - 1] === 13) end--; // CRLF
    return bytes.toString('utf8', start, end);
  }

  /** Lines from..to (0-based, exclusive end), clipped to the file. */
  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = from; i < to; i++) {
      const line = this.get(i);
      if (line === undefined) break;
      out.push(line);
    }
    return out;
  }

  /**
   * One step towards the next line start: finds it in the bytes known so far, or reads one
   * more block of the file (so a caller with a character limit can stop inside a long line).
   */
  private scanNext(): void {
    const bytes = this.supply.bytes;
    const nl = bytes.indexOf(10, Math.max(this.searched, this.starts[this.starts.length - 1] as number));
    if (nl >= 0) {
      this.starts.push(nl + 1);
      return;
    }
    this.searched = bytes.length;
    if (this.supply.complete || !this.supply.more()) this.scanned = true;
  }
}

/** Bytes of a chunk's own characters read for its preview: its text fits, at the default budget. */
const SPAN_READ = 16 * 1024;

/** Bytes `start..end` of a file (fewer at its end). */
function readRange(open: Opener, start: number, end: number): Buffer {
  const { fd } = open();
  try {
    const out = Buffer.allocUnsafe(Math.max(0, end - start));
    let got = 0;
    while (got < out.length) {
      const n = fs.readSync(fd, out, got, out.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return out.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The text of bytes `start..end` of `bytes`, clipped to them. The range is moved off the middle
 * of a character (it can only land there in a file changed since it was indexed).
 */
export function textOfBytes(bytes: Buffer, start: number, end: number): string {
  let from = Math.min(start, bytes.length);
  let to = Math.max(from, Math.min(end, bytes.length));
  while (from < to && ((bytes[from] as number) & 0xc0) === 0x80) from++;
  while (to < bytes.length && to > from && ((bytes[to] as number) & 0xc0) === 0x80) to--;
  return bytes.toString('utf8', from, to);
}

interface FileView {
  lines?: LazyLines;
  stale?: 'modified' | 'deleted';
  /** The stat vouches for the content indexed: the file was not read to know it. */
  unchanged?: boolean;
}

/** The stat a refresh recorded for a file (the state table's entry), or undefined when unknown. */
export type RecordedStat = (path: string) => (FileStat & { racy?: boolean }) | undefined;

/**
 * Reads working-tree files for previews, packs and export; one instance per query (caches per
 * path). Every read is confined to the root (`RootReader`): a folder swapped for a link to
 * elsewhere since indexing reads as a deleted file, never as the text it now leads to.
 */
export class FileReader {
  private readonly files = new Map<string, FileView>();
  private readonly unchecked = new Map<string, FileView>();
  /** Whole files read for texts (undefined: unreadable). */
  private readonly whole = new Map<string, Buffer | undefined>();

  private readonly tree: RootReader;

  /**
   * `recorded`: the stats the refresh recorded, so a hit is stale by the refresh's own change
   * test (fileStat.ts: size, mtime, ctime, inode, device, not racy). Without it only the size and
   * mtime the segment keeps can vouch, which misses a rewrite that put the mtime back.
   */
  constructor(
    readonly root: string,
    private readonly recorded?: RecordedStat,
  ) {
    this.tree = new RootReader(root);
  }

  /** Opens a file of the root, confined to it. */
  private opener(relPath: string): Opener {
    return () => this.tree.openSync(relPath);
  }

  /**
   * A file's staleness, and its lines when `needLines`. Without a preview an unchanged stat is
   * enough: the file is not read at all (hits without previews cost one lstat each).
   */
  private view(file: SegmentFile, needLines: boolean): FileView {
    const cached = this.files.get(file.path);
    const open = this.opener(file.path);
    if (cached) {
      // Known unchanged without its lines (a hit read it from an offset): no second stat.
      if (needLines && !cached.lines && cached.unchanged) cached.lines = LazyLines.fromFile(open);
      return cached;
    }
    const v: FileView = {};
    try {
      const st = this.tree.lstatSync(file.path);
      // A file given a second name since indexing may now be a refused file's (`ln .env a.ts`):
      // discovery no longer reads it, so neither does a preview.
      if (!st.isFile() || st.nlink > 1) v.stale = 'deleted';
      else {
        const rec = this.recorded?.(file.path);
        const sameStat = rec
          ? !rec.racy && sameFileStat(rec, statOf(st))
          : st.size === file.size && Math.floor(st.mtimeMs) === Math.floor(file.mtimeMs);
        if (sameStat) {
          v.unchanged = true;
          if (needLines) v.lines = LazyLines.fromFile(open);
        } else {
          const bytes = this.tree.readSync(file.path);
          if (hashBytes(bytes) !== file.hash) v.stale = 'modified'; // the index's own content hash
          v.lines = LazyLines.of(bytes); // read already: lines cost nothing until asked for
        }
      }
    } catch {
      v.stale = 'deleted';
    }
    this.files.set(file.path, v);
    return v;
  }

  /**
   * Line `line` (1-based) of an indexed file as the working tree has it — at least its first
   * `maxChars` characters — and whether the file changed since it was indexed (the same check
   * as a hit's); no text when the file cannot be read or has no such line.
   */
  lineOf(file: SegmentFile, line: number, maxChars: number): { text?: string; stale?: 'modified' | 'deleted' } {
    const v = this.view(file, true);
    const text = v.lines?.get(line - 1, maxChars);
    return { ...(text !== undefined ? { text } : {}), ...(v.stale ? { stale: v.stale } : {}) };
  }

  /** Lines start..end (1-based, inclusive) of a file as it is now, or undefined when unreadable. */
  text(relPath: string, startLine: number, endLine: number): string | undefined {
    let v = this.files.get(relPath);
    if (!v?.lines) v = this.unchecked.get(relPath);
    if (!v) {
      // Read without a staleness check; hit() still checks when the same file becomes a hit.
      const bytes = this.bytesOf(relPath);
      v = bytes ? { lines: LazyLines.of(bytes) } : { stale: 'deleted' };
      this.unchecked.set(relPath, v);
    }
    const lines = v.lines;
    if (!lines) return undefined;
    return lines.slice(startLine - 1, endLine).join('\n');
  }

  /**
   * A document's own text as the working tree has it: the bytes its record says it stands for
   * (a chunk sharing its line, a piece of a minified line), else its lines. A file changed since
   * it was indexed is read at the same place (`hit` says it is stale): the same bytes, or the
   * same lines, as near the chunk as anything can say, and never more than the chunk's size.
   */
  chunkText(seg: Segment, doc: number): string | undefined {
    const file = seg.fileOf(doc);
    const span = seg.record(doc).span;
    if (!span) return this.text(file.path, seg.docStart.at(doc), seg.docEnd.at(doc));
    const bytes = this.bytesOf(file.path);
    return bytes ? textOfBytes(bytes, span[0], span[1]) : undefined;
  }

  /** A whole file's bytes, read once per reader. */
  private bytesOf(relPath: string): Buffer | undefined {
    if (this.whole.has(relPath)) return this.whole.get(relPath);
    let bytes: Buffer | undefined;
    try {
      // As in `view`: a file with a second name may now be a refused file's; it is not read.
      bytes = this.tree.lstatSync(relPath).nlink > 1 ? undefined : this.tree.readSync(relPath);
    } catch {
      bytes = undefined;
    }
    this.whole.set(relPath, bytes);
    return bytes;
  }

  isProse(hit: SearchHit): boolean {
    return bucketOf(hit.language) === 'prose';
  }

  /** A document as a hit; `within` narrows the preview to some of its lines (a symbol's name line on). */
  hit(seg: Segment, doc: number, previewLines: number, query: CompiledQuery | undefined, within?: { startLine: number; endLine: number }): SearchHit {
    const file = seg.fileOf(doc);
    const startLine = seg.docStart.at(doc);
    const endLine = seg.docEnd.at(doc);
    const from = within ? Math.max(startLine, Math.min(within.startLine, endLine)) : startLine;
    const to = within ? Math.max(from, Math.min(within.endLine, endLine)) : endLine;
    const record = seg.record(doc);
    const v = this.view(file, false);
    const symbol = seg.symbolOf(doc);
    let shown: Preview | undefined;
    /** What to add to a preview's line numbers to make them the file's. */
    let base = 0;
    if (previewLines > 0) {
      const context: PreviewContext = { symbol, prose: bucketOf(file.language) === 'prose' };
      // An unchanged file is read from the chunk's own characters, when it stands for some (a
      // piece of a minified line), or from its first line, when the index knows where it
      // starts; otherwise (and for a stale file) from the top.
      const open = this.opener(file.path);
      const at = v.unchanged && startLine > 1 ? seg.startByteOf(doc) : NO_START_BYTE;
      const window =
        v.unchanged && record.span ? LazyLines.fromFileSpan(open, record.span[0], record.span[1]) : at !== NO_START_BYTE ? LazyLines.fromFileAt(open, at) : undefined;
      if (window) {
        shown = preview(window, from - startLine + 1, to - startLine + 1, previewLines, query, context);
        base = startLine - 1;
      } else {
        const lines = this.view(file, true).lines;
        if (lines) shown = preview(lines, from, to, previewLines, query, context);
      }
    }
    const hit: SearchHit = {
      docid: makeDocid(file.path, startLine, endLine),
      path: file.path,
      startLine,
      endLine,
      score: 0,
      scoreBreakdown: [],
      symbol,
      kind: seg.kindOf(doc),
      language: file.language,
      context: seg.contextOf(doc),
      preview: shown?.text ?? '',
      id: seg.id(doc),
      indexed: { size: file.size, mtimeMs: file.mtimeMs, sha256: file.hash },
    };
    if (shown?.firstLine !== undefined) hit.previewLine = shown.firstLine + base;
    if (shown?.matchLines) hit.matchLines = shown.matchLines.map((n) => n + base);
    if (record.signature) hit.signature = record.signature;
    if (record.at && record.at[0] <= endLine - startLine) {
      hit.nameLine = startLine + record.at[0];
      hit.nameColumn = record.at[1];
    } else if (hit.symbol && !record.at) {
      hit.nameLine = startLine;
      hit.nameColumn = 1;
    }
    if (v.stale) {
      hit.stale = true;
      hit.staleReason = v.stale;
    }
    return hit;
  }
}

/**
 * A symbol as a hit: the whole definition (every part of one split for size, or a definition
 * nested in the document's code), its preview from the name's line.
 */
export function symbolHit(reader: FileReader, seg: Segment, doc: number, previewLines: number, nested: NestedDefinition | undefined): SearchHit {
  const startLine = seg.docStart.at(doc);
  const record = seg.record(doc);
  const nameLine = nested?.nameLine ?? (record.at ? startLine + record.at[0] : startLine);
  const hit = reader.hit(seg, doc, previewLines, undefined, { startLine: nameLine, endLine: nested?.endLine ?? seg.docEnd.at(doc) });
  if (nested) {
    hit.startLine = nested.startLine;
    hit.endLine = nested.endLine;
    hit.symbol = nested.symbol;
    hit.kind = nested.kind;
    hit.context = nested.context;
    hit.nameLine = nested.nameLine;
    hit.nameColumn = nested.nameColumn;
    delete hit.signature;
  } else {
    if (record.end !== undefined && record.end > hit.endLine) hit.endLine = record.end;
    if (record.at) {
      hit.nameLine = nameLine;
      hit.nameColumn = record.at[1];
    }
  }
  hit.docid = makeDocid(hit.path, hit.startLine, hit.endLine);
  return hit;
}

/** Lines of a chunk searched for its best preview line: past this, a long chunk is not read. */
const MAX_SCANNED_LINES = 400;
/** Characters of a line compared with the query (a minified line is not read whole). */
const MAX_SCANNED_LINE = 1000;
/** Lines a hit lists in `matchLines`. */
export const MAX_MATCH_LINES = 5;
/** Scores closer than this are a tie. */
const EPSILON = 1e-9;
/** A line a reader can recognise: it holds a letter or a digit (not `/**`, `---`, `{`, `"""`). */
const HAS_WORD = /[\p{L}\p{N}]/u;
/** A line of a comment in most languages: `//`, `/*`, ` * `, `#` (not `#define`), `--`, `;`, `%`, `"""`. */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|#(?!\s*define\b)|--|;|%|"""|''')/;
/** A Markdown, AsciiDoc or reStructuredText-style heading line. */
const HEADING_LINE = /^ {0,3}(?:#{1,6}|={1,6})[ \t]+\S/;

/** What a preview knows of its chunk, to prefer its definition line among equally good lines. */
export interface PreviewContext {
  /** The chunk's symbol (`Server.start`): a line naming it is the definition line. */
  symbol?: string;
  /** Prose: heading lines are the definition lines. */
  prose?: boolean;
}

export interface Preview {
  /** Up to `count` lines from the best line, dedented by its indentation, matches marked «…». */
  text: string;
  /** 1-based line (in the numbering of `lines`) where the preview starts; undefined when nothing was read. */
  firstLine?: number;
  /**
   * Lines holding query matches (1-based, ascending, at most MAX_MATCH_LINES: the best ones,
   * the preview's own line among them); undefined without a query.
   */
  matchLines?: number[];
}

/**
 * The preview of a span: its best-matching line and the lines after it, up to `count`. The best
 * line has the most and strongest query matches (a whole word over a part of it; equal lines:
 * the definition line, then the earlier one). Without a match (fuzzy, path-only or no query) it
 * is the first line with a word in it, so not a comment opener, a `---` or a lone brace.
 */
export function preview(
  lines: LazyLines,
  startLine: number,
  endLine: number,
  count: number,
  query: CompiledQuery | undefined,
  context: PreviewContext = {},
): Preview {
  const matcher = query ? PreviewMatcher.of(query) : undefined;
  const active = matcher && matcher.terms.length > 0 ? matcher : undefined;
  let best = -1;
  let bestScore = 0;
  let bestText = '';
  let withWord = -1;
  let nonBlank = -1;
  const matched: Array<{ line: number; score: number }> = [];
  let isDefinition: ((line: string) => boolean) | undefined;
  const last = Math.min(endLine, startLine - 1 + MAX_SCANNED_LINES);
  for (let n = startLine; n <= last; n++) {
    const line = lines.get(n - 1, MAX_SCANNED_LINE);
    if (line === undefined) break;
    if (nonBlank < 0 && line.trim() !== '') nonBlank = n;
    if (withWord < 0 && HAS_WORD.test(line)) {
      withWord = n;
      if (!active) break;
    }
    if (!active) continue;
    const score = active.lineScore(line);
    if (score <= 0) continue;
    matched.push({ line: n, score });
    if (score > bestScore + EPSILON) {
      best = n;
      bestScore = score;
      bestText = line;
    } else if (score > bestScore - EPSILON) {
      isDefinition ??= definitionLineTest(context);
      if (!isDefinition(bestText) && isDefinition(line)) {
        best = n;
        bestText = line;
      }
    }
  }
  const first = best > 0 ? best : withWord > 0 ? withWord : nonBlank;
  const out: Preview = { text: '' };
  if (matcher) out.matchLines = strongest(matched, best);
  if (first < 0) return out;
  out.firstLine = first;
  const slice: string[] = [];
  for (let n = first; n <= endLine && slice.length < count; n++) {
    const line = lines.get(n - 1, MAX_SCANNED_LINE);
    if (line === undefined) break;
    slice.push(line.trimEnd());
  }
  // Dedented by the first line's indentation (a line after it loses at most what it has): the
  // best line reads from its first word, wherever in a block it sits.
  const indent = /^\s*/.exec(slice[0] ?? '')?.[0].length ?? 0;
  const text = slice.map((l) => clipLine(l.slice(Math.min(indent, /^\s*/.exec(l)?.[0].length ?? 0)), active)).join('\n');
  out.text = active ? active.mark(text) : text;
  return out;
}

/** The lines of the strongest matches, the best line first among them, in line order. */
function strongest(matched: ReadonlyArray<{ line: number; score: number }>, best: number): number[] {
  if (matched.length <= MAX_MATCH_LINES) return matched.map((m) => m.line);
  const ranked = [...matched].sort((a, b) => (a.line === best ? -1 : b.line === best ? 1 : b.score - a.score || a.line - b.line));
  return ranked.slice(0, MAX_MATCH_LINES).map((m) => m.line).sort((a, b) => a - b);
}

/** Whether a line is where the chunk's definition is: it names the symbol, or is a prose heading. */
function definitionLineTest(context: PreviewContext): (line: string) => boolean {
  if (context.prose) return (line) => HEADING_LINE.test(line);
  const symbol = context.symbol ?? '';
  // The last name of a qualified symbol (`Server.start` → `start`).
  let end = symbol.length;
  while (end > 0 && !isWordChar(symbol.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isWordChar(symbol.charCodeAt(start - 1))) start--;
  const name = symbol.slice(start, end);
  if (!name) return () => false;
  return (line) => {
    // A comment naming the symbol (a usage example in its doc comment) is not its definition.
    if (COMMENT_LINE.test(line)) return false;
    for (let i = line.indexOf(name); i >= 0; i = line.indexOf(name, i + 1)) {
      if ((i === 0 || !isWordChar(line.charCodeAt(i - 1))) && !isWordChar(line.charCodeAt(i + name.length))) return true;
    }
    return false;
  };
}

/** A character of an identifier: ASCII letters, digits, `_`, `$`, and any non-ASCII character (NaN past the end: no). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c >= 128;
}

/**
 * A line cut to MAX_PREVIEW_LINE characters. When its first match lies beyond what would be
 * shown, the cut keeps the match and a little before it (`…` marks each cut).
 */
function clipLine(line: string, matcher: PreviewMatcher | undefined): string {
  if (line.length <= MAX_PREVIEW_LINE) return line;
  const at = matcher ? matcher.firstMatch(line) : -1;
  let from = 0;
  if (at > MAX_PREVIEW_LINE - 60) {
    from = at - 40;
    const space = line.lastIndexOf(' ', from);
    if (space > from - 20) from = space + 1;
  }
  const body = line.slice(from, from + MAX_PREVIEW_LINE);
  return `${from > 0 ? '…' : ''}${body}${from + MAX_PREVIEW_LINE < line.length ? '…' : ''}`;
}

const WORD = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}[\p{L}\p{N}_]*/gu;

/** Wraps words of `text` that the query matched in «». */
export function markMatches(text: string, query: CompiledQuery): string {
  return PreviewMatcher.of(query).mark(text);
}

/** How strongly a preview word matches a query word. */
const WHOLE = 1; // one of the word's index tokens (itself or a part) is the query word
const STEM = 0.9; // the same prose stem (`parses` for `parsing`)
const FUZZY = 0.8; // within a fuzzy term's edit distance
/** All parts of a query identifier matched separately (`fetch(user)` for `fetchUser`), scaled by the share matched. */
const ALL_PARTS = 0.6;
/** Weight of a stop word of the query (`the`, `for`) beside its other words. */
const STOP_WORD_WEIGHT = 0.2;

/** One word of the query that preview words are compared with (a wildcard term is one too). */
interface PreviewTerm {
  /** The word, lower-cased (for a wildcard term: its letters before the first `*`). */
  whole: string;
  wholeStem: string;
  parts: readonly string[];
  partStems: readonly string[];
  weight: number;
  editDistance: number;
  wildcard?: (token: string) => boolean;
}

/** A preview word's match of one term: how strongly as a whole, and which of the term's parts (bits). */
interface WordMatch {
  term: number;
  whole: number;
  parts: number;
}

/**
 * A query's words as preview lines are compared with them, made once per query from the words
 * the compiled query marks (`CompiledQuery.marked`: not excluded, not only about paths). A word
 * of a line matches by the index's own rules: its tokens (the word whole, lower-cased, and its
 * identifier parts) against the query's, or prose stems against prose stems.
 */
export class PreviewMatcher {
  readonly terms: PreviewTerm[] = [];
  /** Matches of each word seen, or null: the words of code repeat across lines and hits. */
  private readonly memo = new Map<string, readonly WordMatch[] | null>();
  private readonly wholeOf: Float64Array;
  private readonly partsOf: Int32Array;
  /**
   * The first two letters of the query's prose stems. A stem keeps its word's first letters
   * (Porter rewrites suffixes only), so a word starting otherwise is never stemmed.
   */
  private readonly stemStarts = new Set<string>();
  /** Strings one of which a matching line holds (lower-cased); undefined when any line may match. */
  private readonly needles: string[] | undefined;

  private static readonly byQuery = new WeakMap<CompiledQuery, PreviewMatcher>();

  static of(query: CompiledQuery): PreviewMatcher {
    let m = PreviewMatcher.byQuery.get(query);
    if (!m) PreviewMatcher.byQuery.set(query, (m = new PreviewMatcher(query)));
    return m;
  }

  private constructor(query: CompiledQuery) {
    for (const t of query.marked) {
      // A word's matched parts are bits of an Int32.
      const term: PreviewTerm = { whole: t.whole, wholeStem: t.stem, parts: t.parts.slice(0, 30), partStems: t.partStems.slice(0, 30), weight: t.boost * (t.stopWord ? STOP_WORD_WEIGHT : 1), editDistance: t.editDistance };
      if (t.wildcard) term.wildcard = t.wildcard;
      this.terms.push(term);
    }
    for (const t of this.terms) for (const stem of [t.wholeStem, ...t.partStems]) if (stem) this.stemStarts.add(stem.slice(0, 2));
    // What a line must contain (lower-cased) to match at all: a token is a piece of its word, and
    // a word with a stem holds all of that stem but its last two letters (Porter rewrites at most
    // those: `happi` ← `happy`, `possibl` ← `possibly`). Fuzzy terms and wildcards with no prefix
    // can match anything.
    const needles = new Set<string>();
    for (const t of this.terms) {
      for (const piece of t.wildcard ? [t.whole] : [t.whole, ...t.parts]) if (piece) needles.add(piece);
      for (const stem of [t.wholeStem, ...t.partStems]) if (stem) needles.add(stem.slice(0, Math.max(2, stem.length - 2)));
    }
    const anyLine = this.terms.some((t) => t.editDistance > 0 || (t.wildcard && !t.whole));
    this.needles = anyLine ? undefined : [...needles];
    this.wholeOf = new Float64Array(this.terms.length);
    this.partsOf = new Int32Array(this.terms.length);
  }

  /** How well a line matches the query: per query word its strongest match, weighted and summed. */
  lineScore(line: string): number {
    // Most lines of a chunk hold no query word: two native searches rule them out, where
    // tokenising them cost a cold query most of its preview time.
    if (this.needles) {
      const lower = line.toLowerCase();
      if (!this.needles.some((n) => lower.includes(n))) return 0;
    }
    const { wholeOf, partsOf, terms } = this;
    wholeOf.fill(0);
    partsOf.fill(0);
    let any = false;
    WORD.lastIndex = 0;
    for (let m = WORD.exec(line); m; m = WORD.exec(line)) {
      const matches = this.matchesOf(m[0]);
      if (!matches) continue;
      any = true;
      for (const wm of matches) {
        if (wm.whole > (wholeOf[wm.term] as number)) wholeOf[wm.term] = wm.whole;
        partsOf[wm.term] = (partsOf[wm.term] as number) | wm.parts;
      }
    }
    if (!any) return 0;
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t] as PreviewTerm;
      const parts = term.parts.length > 0 ? (ALL_PARTS * bitCount(partsOf[t] as number)) / term.parts.length : 0;
      score += term.weight * Math.max(wholeOf[t] as number, parts);
    }
    return score;
  }

  /** Where the first matched word of a line starts, or -1. */
  firstMatch(line: string): number {
    WORD.lastIndex = 0;
    for (let m = WORD.exec(line); m; m = WORD.exec(line)) if (this.matchesOf(m[0])) return m.index;
    return -1;
  }

  /** `text` with every matched word wrapped in «». */
  mark(text: string): string {
    if (this.terms.length === 0) return text;
    return text.replace(WORD, (word) => (this.matchesOf(word) ? `«${word}»` : word));
  }

  private matchesOf(word: string): readonly WordMatch[] | null {
    const known = this.memo.get(word);
    if (known !== undefined) return known;
    if (this.needles) {
      // Most words of a line that holds a query word are other words: no splitting or stemming for them.
      const lower = word.toLowerCase();
      if (!this.needles.some((n) => lower.includes(n))) return this.remember(word, null);
    }
    const forms = formsOf(word);
    const tokens = forms.parts.length > 0 ? [forms.lower, ...forms.parts] : [forms.lower];
    const lower = forms.lower;
    const prose = this.stemStarts.has(lower.slice(0, 2)) || this.stemStarts.has(lower.slice(0, 1)) ? proseOf(forms) : '';
    const out: WordMatch[] = [];
    this.terms.forEach((term, t) => {
      let whole = 0;
      if (term.wildcard) {
        if (tokens.some(term.wildcard)) whole = WHOLE;
      } else if (tokens.includes(term.whole)) whole = WHOLE;
      else if (term.wholeStem && prose === term.wholeStem) whole = STEM;
      else if (term.editDistance > 0 && tokens.some((tok) => tok.length >= MIN_FUZZY_LENGTH && boundedLevenshtein(tok, term.whole, term.editDistance) <= term.editDistance)) whole = FUZZY;
      let parts = 0;
      term.parts.forEach((p, k) => {
        const stem = term.partStems[k];
        if (tokens.includes(p) || (stem && prose === stem)) parts |= 1 << k;
      });
      if (whole > 0 || parts !== 0) out.push({ term: t, whole, parts });
    });
    return this.remember(word, out.length > 0 ? out : null);
  }

  private remember(word: string, result: readonly WordMatch[] | null): readonly WordMatch[] | null {
    if (this.memo.size >= WORD_FORMS_KEPT) this.memo.clear();
    this.memo.set(word, result);
    return result;
  }
}

/** Tokens shorter than this never match a fuzzy term (`a` is one edit from every one-letter word). */
const MIN_FUZZY_LENGTH = 2;

function bitCount(n: number): number {
  let c = 0;
  for (let v = n; v !== 0; v &= v - 1) c++;
  return c;
}

interface WordForms {
  lower: string;
  parts: readonly string[];
  /** The prose stem of `lower`, once asked for (stemming is most of a cold query's preview cost). */
  prose?: string;
}

function proseOf(forms: WordForms): string {
  return (forms.prose ??= proseForm(forms.lower));
}

/**
 * What a preview word is compared by, remembered across hits and queries: the words of code
 * repeat, and stemming each one anew was most of marking a hit's preview (33 µs a hit).
 */
function formsOf(word: string): WordForms {
  const known = wordForms.get(word);
  if (known) return known;
  const lower = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
  const forms: WordForms = { lower, parts: identifierParts(word) };
  if (wordForms.size >= WORD_FORMS_KEPT) wordForms.clear();
  wordForms.set(word, forms);
  return forms;
}

const wordForms = new Map<string, WordForms>();
/** Distinct words remembered (a few MB at most); past it the memory starts over. */
const WORD_FORMS_KEPT = 20_000;
