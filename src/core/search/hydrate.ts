// Turns a document of a segment into a SearchHit: metadata from the segment, preview lines
// from the working tree, and a staleness check so a hit never silently points at wrong lines.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bucketOf } from '../languages';
import { makeDocid } from '../chunking/ids';
import { hashBytes } from '../discovery/read';
import { openRegularSync, readRegularSync } from '../fsRead';
import { NO_START_BYTE, type Segment, type SegmentFile } from '../index/segment';
import { identifierParts, proseForm } from '../index/tokenizer';
import { wildcardMatcher, type ParsedQuery } from './query';
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
    private readonly abs: string,
    private readonly base = 0,
    private readonly firstRead = FIRST_READ,
  ) {}

  more(): boolean {
    if (this.complete) return false;
    const known = this.bytes.length;
    let got = 0;
    try {
      const { fd, stats } = openRegularSync(this.abs);
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

  /** A file's lines, reading it from the start only as far as they are asked for. */
  static fromFile(abs: string): LazyLines {
    return new LazyLines(new FilePrefix(abs));
  }

  /**
   * The lines of a file from the one starting at byte `start` (line 0 here), read from there.
   * Undefined unless the byte before `start` ends a line: the offset does not fit the file.
   */
  static fromFileAt(abs: string, start: number): LazyLines | undefined {
    if (start < 1) return undefined;
    const supply = new FilePrefix(abs, start - 1, FIRST_READ_AT_LINE);
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

interface FileView {
  lines?: LazyLines;
  stale?: 'modified' | 'deleted';
  /** Size and modification time are those indexed: the file was not read to know it. */
  unchanged?: boolean;
}

/** Reads working-tree files for previews; one instance per query (caches per path). */
export class FileReader {
  private readonly files = new Map<string, FileView>();
  private readonly unchecked = new Map<string, FileView>();

  constructor(readonly root: string) {}

  /**
   * A file's staleness, and its lines when `needLines`. Without a preview an unchanged stat is
   * enough: the file is not read at all (hits without previews cost one lstat each).
   */
  private view(file: SegmentFile, needLines: boolean): FileView {
    const cached = this.files.get(file.path);
    const abs = path.join(this.root, file.path);
    if (cached) {
      // Known unchanged without its lines (a hit read it from an offset): no second stat.
      if (needLines && !cached.lines && cached.unchanged) cached.lines = LazyLines.fromFile(abs);
      return cached;
    }
    const v: FileView = {};
    try {
      const st = fs.lstatSync(abs);
      if (!st.isFile()) v.stale = 'deleted';
      else {
        const sameStat = st.size === file.size && Math.floor(st.mtimeMs) === Math.floor(file.mtimeMs);
        if (sameStat) {
          v.unchanged = true;
          if (needLines) v.lines = LazyLines.fromFile(abs);
        } else {
          const bytes = readRegularSync(abs);
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

  /** Lines start..end (1-based, inclusive) of a file as it is now, or undefined when unreadable. */
  text(relPath: string, startLine: number, endLine: number): string | undefined {
    let v = this.files.get(relPath);
    if (!v?.lines) v = this.unchecked.get(relPath);
    if (!v) {
      // Read without a staleness check; hit() still checks when the same file becomes a hit.
      v = {};
      try {
        v.lines = LazyLines.of(readRegularSync(path.join(this.root, relPath)));
      } catch {
        v.stale = 'deleted';
      }
      this.unchecked.set(relPath, v);
    }
    const lines = v.lines;
    if (!lines) return undefined;
    return lines.slice(startLine - 1, endLine).join('\n');
  }

  isProse(hit: SearchHit): boolean {
    return bucketOf(hit.language) === 'prose';
  }

  /** A document as a hit; `shown` narrows the preview to some of its lines (a symbol's name line on). */
  hit(seg: Segment, doc: number, previewLines: number, parsed: ParsedQuery | undefined, shown?: { startLine: number; endLine: number }): SearchHit {
    const file = seg.fileOf(doc);
    const startLine = seg.docStart.at(doc);
    const endLine = seg.docEnd.at(doc);
    const from = shown ? Math.max(startLine, Math.min(shown.startLine, endLine)) : startLine;
    const to = shown ? Math.max(from, Math.min(shown.endLine, endLine)) : endLine;
    const record = seg.record(doc);
    const v = this.view(file, false);
    let text: string | undefined;
    if (previewLines > 0) {
      // An unchanged file is read from the chunk's first line, when the index knows where it
      // starts; otherwise (and for a stale file) from the top.
      const at = v.unchanged && startLine > 1 ? seg.startByteOf(doc) : NO_START_BYTE;
      const window = at !== NO_START_BYTE ? LazyLines.fromFileAt(path.join(this.root, file.path), at) : undefined;
      if (window) text = preview(window, from - startLine + 1, to - startLine + 1, previewLines, parsed);
      else {
        const lines = this.view(file, true).lines;
        if (lines) text = preview(lines, from, to, previewLines, parsed);
      }
    }
    const hit: SearchHit = {
      docid: makeDocid(file.path, startLine, endLine),
      path: file.path,
      startLine,
      endLine,
      score: 0,
      scoreBreakdown: [],
      symbol: seg.symbolOf(doc),
      kind: seg.kindOf(doc),
      language: file.language,
      context: seg.contextOf(doc),
      preview: text ?? '',
      id: seg.id(doc),
    };
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

/** The first lines of a span, trimmed of common indentation, with matched words marked «…». */
export function preview(lines: LazyLines, startLine: number, endLine: number, count: number, parsed: ParsedQuery | undefined): string {
  const slice: string[] = [];
  for (let i = startLine - 1; i < endLine && slice.length < count; i++) {
    const line = lines.get(i, MAX_PREVIEW_LINE);
    if (line === undefined) break;
    if (slice.length === 0 && line.trim() === '') continue;
    slice.push(line.length > MAX_PREVIEW_LINE ? `${line.slice(0, MAX_PREVIEW_LINE)}…` : line);
  }
  const indent = Math.min(...slice.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)?.[0].length ?? 0));
  const text = slice.map((l) => l.slice(Number.isFinite(indent) ? indent : 0).trimEnd()).join('\n');
  return parsed ? markMatches(text, parsed) : text;
}

const WORD = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}[\p{L}\p{N}_]*/gu;

/** Wraps words of `text` that the query matched in «». */
export function markMatches(text: string, parsed: ParsedQuery): string {
  const exact = new Set<string>();
  const stems = new Set<string>();
  const wildcards: Array<(t: string) => boolean> = [];
  for (const c of parsed.clauses) {
    if (c.presence === 'prohibited') continue;
    if (c.wildcard) wildcards.push(wildcardMatcher(c.wildcard).test);
    for (const w of c.words) {
      for (const t of [w.whole, ...w.parts]) {
        exact.add(t);
        const s = proseForm(t);
        if (s) stems.add(s);
      }
    }
  }
  if (exact.size === 0 && wildcards.length === 0) return text;
  return text.replace(WORD, (word) => {
    const forms = formsOf(word);
    const hit = exact.has(forms.lower) || stems.has(forms.prose) || forms.parts.some((p) => exact.has(p)) || wildcards.some((t) => t(forms.lower));
    return hit ? `«${word}»` : word;
  });
}

interface WordForms {
  lower: string;
  prose: string;
  parts: readonly string[];
}

/**
 * What a preview word is compared by, remembered across hits and queries: the words of code
 * repeat, and stemming each one anew was most of marking a hit's preview (33 µs a hit).
 */
function formsOf(word: string): WordForms {
  const known = wordForms.get(word);
  if (known) return known;
  const lower = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
  const forms: WordForms = { lower, prose: proseForm(lower), parts: identifierParts(word) };
  if (wordForms.size >= WORD_FORMS_KEPT) wordForms.clear();
  wordForms.set(word, forms);
  return forms;
}

const wordForms = new Map<string, WordForms>();
/** Distinct words remembered (a few MB at most); past it the memory starts over. */
const WORD_FORMS_KEPT = 20_000;
