// Turns a document of a segment into a SearchHit: metadata from the segment, preview lines
// from the working tree, and a staleness check so a hit never silently points at wrong lines.
import { bucketOf } from '../languages';
import { makeDocid } from '../chunking/ids';
import { hashBytes } from '../discovery/read';
import { RootReader } from '../fsRead';
import { sameFileStat, statOf } from '../store/fileStat';
import type { FileStat } from '../types';
import { NO_START_BYTE } from '../index/lineBytes';
import type { Segment } from '../index/segment';
import type { SegmentFile } from '../index/segmentFormat';
import { bomLength, LazyLines, textOfBytes, type Opener } from './lazyLines';
import { preview, type Preview, type PreviewContext } from './preview';
import type { CompiledQuery } from './compiled';
import type { NestedDefinition } from '../types';
import type { SearchHit } from './types';

interface FileView {
  lines?: LazyLines;
  stale?: 'modified' | 'deleted';
  /** The content is the one indexed: its stat vouches for it, or its bytes hash the same. */
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
      if (needLines && !cached.lines && cached.unchanged) cached.lines = this.linesOf(file.path, open);
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
          if (needLines) v.lines = this.linesOf(file.path, open);
        } else {
          const bytes = this.tree.readSync(file.path);
          // The index's own content hash: the same bytes are the content indexed, so the chunk's
          // byte offsets hold (a racy stat, written in the second it was indexed, lands here).
          if (hashBytes(bytes) !== file.hash) v.stale = 'modified';
          else v.unchanged = true;
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
   * The lines of a file its stat vouches for: from the bytes this reader read of it already (a
   * references lookup reads a file whole for its imports, then lines of it), else read as asked.
   */
  private linesOf(relPath: string, open: Opener): LazyLines {
    const bytes = this.whole.get(relPath);
    return bytes ? LazyLines.of(bytes) : LazyLines.fromFile(open);
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
   * A whole file's text as `text` gives it (its lines joined by `\n`: no BOM, no CR before a
   * line break), decoded at once rather than line by line; undefined when unreadable.
   */
  wholeText(relPath: string): string | undefined {
    const bytes = this.bytesOf(relPath);
    if (!bytes) return undefined;
    let text = bytes.toString('utf8', bomLength(bytes));
    if (text.includes('\r')) text = text.replace(/\r\n/g, '\n').replace(/\r$/, '');
    return text;
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
      bytes = this.tree.readSync(relPath, { singleLink: true });
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
