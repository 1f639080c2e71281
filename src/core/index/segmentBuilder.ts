// Writes a segment (segmentFormat.ts): documents are added file by file — analysed chunks from
// an index refresh, or stored documents copied verbatim by a merge — and serialised once.
import type { Chunk, FileOccurrences } from '../types';
import { BlockColumnWriter } from './blockColumn';
import { drainSteps, type BuildSteps } from './buildSteps';
import { chunkFlags, docFlags, FIELD_COUNT, FileAnalyzer, KIND_INDEX, type FileAnalysis } from './fields';
import { lineStartBytes, NO_START_BYTE, spanBytes } from './lineBytes';
import { grown, ListPool } from './listPool';
import { OccurrenceTableBuilder } from './occurrenceTable';
import { DEFLATED_BIT, packPostings, writeFieldFrequencies } from './postingsCodec';
import { assembleParts, bytesOf, decodeContext, encodeContext, SECTION, storedRecord, stringTable, TERM_STRIDE, writeId, type RawDoc, type SegmentFile, type SegmentFileInput } from './segmentFormat';
import { SymbolDictionaryBuilder } from './symbolDict';
import { forEachToken } from './tokenizer';
import { ByteWriter } from './varint';

/**
 * How far a segment build is after each of its steps (buildSteps' yields): the posting lists and
 * the symbol dictionary (its ranking sort) take most of the time, the other sections little.
 */
const BUILD_STEPS = { sorted: 0.1, postings: 0.4, records: 0.42, symbols: 0.8, occurrences: 0.98 } as const;

/** Path terms are indexed per file, not per chunk: every chunk of a file has the same path. */
interface FileTermPostings {
  writer: ByteWriter;
  lastFile: number;
  df: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Symbols and breadcrumbs are shown on one line: newlines inside are flattened. */
function oneLine(s: string): string {
  return s.includes('\n') || s.includes('\r') ? s.replace(/[\r\n]+/g, ' ') : s;
}

/** A string as a string column gives it back: UTF-8 holds no lone surrogate, so each reads as U+FFFD. */
function asStored(s: string): string {
  return /[\uD800-\uDFFF]/.test(s) ? decoder.decode(encoder.encode(s)) : s;
}

/** Accumulates documents and serialises them into the segment format. */
export class SegmentBuilder {
  private readonly files: SegmentFile[] = [];
  private docs = 0;
  private docStart = new Int32Array(1024);
  private docEnd = new Int32Array(1024);
  private docStartByte = new Uint32Array(1024);
  private readonly docKind = new ByteWriter(1024);
  private readonly docFlags = new ByteWriter(1024);
  private fieldLengths = new ByteWriter(1024);
  private readonly symbols = new BlockColumnWriter();
  private readonly contexts = new BlockColumnWriter();
  private readonly records = new BlockColumnWriter();
  private readonly symbolDict = new SymbolDictionaryBuilder();
  private readonly occurrences = new OccurrenceTableBuilder();
  private ids = new ByteWriter(1024);
  /** Each term's postings list in `postingLists`, by term. */
  private readonly termLists = new Map<string, number>();
  private postingLists = new ListPool();
  /** By list: the last document written and the document frequency. */
  private lastDoc = new Int32Array(256);
  private termDf = new Int32Array(256);
  /** One posting, encoded before it is copied into its list. */
  private readonly scratch = new ByteWriter(64);
  private readonly filePostings = new Map<string, FileTermPostings>();
  private readonly fieldTotals = new Float64Array(FIELD_COUNT);
  /** Heap held outside the postings pool and the block columns (terms, paths, typed arrays). */
  private otherBytes = 0;
  /** For files given without their analysis (analysed on this thread), made on first use. */
  private analyzer: FileAnalyzer | undefined;

  /**
   * Bytes held, roughly, so callers can flush large builds into several segments. Counts what
   * the heap really holds per term and per document (measured against heap snapshots), not
   * just the encoded bytes, since that is what decides a cold index's peak memory.
   */
  get approxBytes(): number {
    return this.otherBytes + this.postingLists.reservedBytes + this.symbols.bytes + this.contexts.bytes + this.records.bytes + this.symbolDict.bytes + this.occurrences.bytes + this.docs * 24;
  }

  get docCount(): number {
    return this.docs;
  }

  get fileCount(): number {
    return this.files.length;
  }

  /**
   * Adds a file and its chunks (already analysed on a worker, or analysed here). Returns its
   * document range. With the file's text, each chunk records where its first line starts in
   * the file, so a hit's preview reads from there instead of from the top of the file. With its
   * occurrences (the AST chunker's), the file's names go into the occurrence table.
   */
  addFile(
    file: SegmentFileInput,
    chunks: readonly Chunk[],
    analysis: FileAnalysis = (this.analyzer ??= new FileAnalyzer()).analyze(chunks, file.language),
    text?: string,
    occurrences?: FileOccurrences,
  ): { firstDoc: number; docCount: number } {
    const fileIndex = this.appendFile(file, chunks.length, pathTermsOf(file.path));
    const startBytes = text === undefined ? undefined : lineStartBytes(text, file.size, chunks.map((c) => c.startLine));
    const spans = text === undefined || !chunks.some((c) => c.span) ? undefined : spanBytes(text, file.size, chunks.map((c) => c.span));
    const firstDoc = this.docCount;
    const flags = docFlags(file.path, file.language);
    // One dictionary lookup per distinct term of the file.
    const lists = analysis.terms.map((t) => this.listOf(t));
    chunks.forEach((chunk, d) => {
      const doc = this.appendDoc({
        fileIndex,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        startByte: startBytes?.[d] ?? NO_START_BYTE,
        kind: KIND_INDEX.get(chunk.kind) ?? (KIND_INDEX.get('text') as number),
        flags: flags | chunkFlags(chunk),
        fieldLengths: analysis.fieldLengths.subarray(d * FIELD_COUNT, (d + 1) * FIELD_COUNT),
        symbol: chunk.symbol,
        context: chunk.context,
        record: storedRecord(chunk, spans && spans[2 * d] !== NO_START_BYTE ? [spans[2 * d] as number, spans[2 * d + 1] as number] : undefined),
        id: chunk.id,
      });
      for (let r = analysis.docStarts[d] as number; r < (analysis.docStarts[d + 1] as number); r++) {
        this.writePosting(lists[analysis.termRefs[r] as number] as number, doc, analysis.tfs, r * FIELD_COUNT);
      }
    });
    if (occurrences) this.occurrences.addFile(firstDoc, chunks.map((c) => c.startLine), occurrences);
    return { firstDoc, docCount: chunks.length };
  }

  /**
   * Low-level: occurrences `from..to` of the arrays, of `name` in `doc`, in line and column order
   * (merges; documents ascending per name).
   */
  appendOccurrences(name: string, doc: number, lineOffsets: ArrayLike<number>, columns: ArrayLike<number>, roles: ArrayLike<number>, from: number, to: number): void {
    this.occurrences.appendOccurrences(name, doc, lineOffsets, columns, roles, from, to);
  }

  /**
   * Low-level: registers a file whose `docCount` documents are appended next, with its path's
   * terms and frequencies (file-level postings). Returns its index.
   */
  appendFile(file: SegmentFileInput, docCount: number, pathTerms: ReadonlyMap<string, number>): number {
    const fileIndex = this.files.length;
    let pathLength = 0;
    for (const [term, tf] of pathTerms) {
      pathLength += tf;
      let p = this.filePostings.get(term);
      if (!p) {
        p = { writer: new ByteWriter(4), lastFile: 0, df: 0 };
        this.filePostings.set(term, p);
        this.otherBytes += term.length * 2 + 200;
      }
      p.writer.varint(fileIndex - p.lastFile);
      p.writer.varint(tf);
      p.lastFile = fileIndex;
      p.df++;
    }
    this.files.push({ ...file, firstDoc: this.docCount, docCount, pathLength });
    this.otherBytes += file.path.length * 2 + 200;
    return fileIndex;
  }

  /** Low-level: appends one document's metadata. Returns its doc number. */
  appendDoc(d: RawDoc): number {
    const doc = this.docCount;
    // Readers derive each document's file from the file table: a file's documents come right after it.
    if (d.fileIndex !== this.files.length - 1) throw new Error(`document ${doc} appended to file ${d.fileIndex}, not to the last file`);
    if (doc === this.docStart.length) {
      this.docStart = grown(this.docStart, doc * 2);
      this.docEnd = grown(this.docEnd, doc * 2);
      this.docStartByte = grown(this.docStartByte, doc * 2);
    }
    this.docs++;
    this.docStart[doc] = d.startLine;
    this.docEnd[doc] = d.endLine;
    this.docStartByte[doc] = d.startByte;
    this.docKind.byte(d.kind);
    this.docFlags.byte(d.flags);
    const symbol = oneLine(d.symbol);
    const context = encodeContext(oneLine(d.context), symbol);
    this.symbols.add(symbol);
    this.contexts.add(context);
    this.records.add(d.record);
    const storedSymbol = asStored(symbol);
    this.symbolDict.add(doc, d, storedSymbol, decodeContext(asStored(context), storedSymbol));
    writeId(this.ids, d.id);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const len = d.fieldLengths[f] as number;
      this.fieldLengths.byte(len & 0xff);
      this.fieldLengths.byte(len >>> 8);
      this.fieldTotals[f] = (this.fieldTotals[f] as number) + len;
    }
    return doc;
  }

  /**
   * Low-level: appends a posting of `term` for `doc` with the field frequencies
   * `tfs[base .. base+FIELD_COUNT)`. Docs must be appended in ascending order per term.
   */
  appendPosting(term: string, doc: number, tfs: Uint16Array, base: number): void {
    this.writePosting(this.listOf(term), doc, tfs, base);
  }

  private listOf(term: string): number {
    let list = this.termLists.get(term);
    if (list === undefined) {
      list = this.postingLists.newList();
      this.termLists.set(term, list);
      if (list === this.lastDoc.length) {
        this.lastDoc = grown(this.lastDoc, list * 2);
        this.termDf = grown(this.termDf, list * 2);
      }
      // The key string, its map entry and the list's slots in the pool's tables.
      this.otherBytes += term.length * 2 + 100;
    }
    return list;
  }

  private writePosting(list: number, doc: number, tfs: Uint16Array, base: number): void {
    const w = this.scratch;
    w.length = 0;
    w.varint(doc - (this.lastDoc[list] as number));
    writeFieldFrequencies(w, tfs, base);
    this.postingLists.append(list, w.bytes, w.length);
    this.lastDoc[list] = doc;
    this.termDf[list] = (this.termDf[list] as number) + 1;
  }

  /** Serialises the segment. The builder must not be used afterwards. */
  build(): Uint8Array {
    const parts = this.buildParts();
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /**
   * Serialises the segment as pieces to be written one after another: a large segment is
   * written without first being copied whole into one buffer (tens of MB at a cold index's
   * peak). The builder must not be used afterwards. `onStep(fraction)` is told how far the build
   * is, so a view's progress moves during a build that takes seconds on a large tree.
   */
  buildParts(onStep?: (fraction: number) => void): Uint8Array[] {
    return drainSteps(this.buildSteps(), onStep);
  }

  /** buildParts as steps, each yielding how far the build is (see BuildSteps). */
  *buildSteps(): BuildSteps<Uint8Array[]> {
    const docCount = this.docCount;
    const terms = [...new Set([...this.termLists.keys(), ...this.filePostings.keys()])].sort();
    yield BUILD_STEPS.sorted;
    const termStep = Math.max(1, Math.ceil(terms.length / 32));
    const dictionary = stringTable(terms);
    const postingOffsets = new Uint32Array(terms.length + 1);
    const termDf = new Uint32Array(terms.length);
    // Each list is packed straight into one buffer sized for the lists as written (packing
    // never grows a list): no per-term copies are held until the end of the build.
    let rawPostings = 0;
    for (const list of this.termLists.values()) rawPostings += this.postingLists.lengthOf(list);
    const postingsOut = new Uint8Array(rawPostings);
    let postingsLen = 0;
    const filePostingOffsets = new Uint32Array(terms.length + 1);
    const termFileDf = new Uint32Array(terms.length);
    let filePostingsLen = 0;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i] as string;
      postingOffsets[i] = postingsLen;
      const list = this.termLists.get(t);
      if (list !== undefined) {
        const e = packPostings(this.postingLists.bytesOf(list));
        postingsOut.set(e.bytes, postingsLen);
        postingsLen += e.bytes.length;
        termDf[i] = (this.termDf[list] as number) + (e.deflated ? DEFLATED_BIT : 0);
      }
      if (i % termStep === 0) yield BUILD_STEPS.sorted + (BUILD_STEPS.postings - BUILD_STEPS.sorted) * (i / terms.length);
      const fp = this.filePostings.get(t);
      filePostingOffsets[i] = filePostingsLen;
      filePostingsLen += fp?.writer.length ?? 0;
      termFileDf[i] = fp?.df ?? 0;
    }
    postingOffsets[terms.length] = postingsLen;
    filePostingOffsets[terms.length] = filePostingsLen;
    const postings = postingsOut.subarray(0, postingsLen);
    this.postingLists = new ListPool(); // its pages can go before the segment is assembled
    const filePostings = new Uint8Array(filePostingsLen);
    terms.forEach((t, i) => {
      const fp = this.filePostings.get(t);
      if (fp) filePostings.set(fp.writer.result(), filePostingOffsets[i] as number);
    });
    this.termLists.clear();
    this.filePostings.clear();
    yield BUILD_STEPS.postings;

    const sections: Uint8Array[] = [];
    this.writeFileTable(sections);
    const symbols = this.symbols.finish();
    const contexts = this.contexts.finish();
    const records = this.records.finish();
    sections[SECTION.symbolBlocks] = bytesOf(symbols.offsets);
    sections[SECTION.docStart] = bytesOf(new Uint32Array(this.docStart.buffer, 0, docCount));
    sections[SECTION.docEnd] = bytesOf(new Uint32Array(this.docEnd.buffer, 0, docCount));
    sections[SECTION.docStartByte] = bytesOf(this.docStartByte.subarray(0, docCount));
    sections[SECTION.docKind] = this.docKind.result();
    sections[SECTION.docFlags] = this.docFlags.result();
    sections[SECTION.fieldLengths] = this.fieldLengths.result();
    sections[SECTION.symbols] = symbols.blob;
    sections[SECTION.contexts] = contexts.blob;
    sections[SECTION.contextBlocks] = bytesOf(contexts.offsets);
    sections[SECTION.records] = records.blob;
    sections[SECTION.recordBlocks] = bytesOf(records.offsets);
    sections[SECTION.termOffsets] = bytesOf(dictionary.offsets);
    sections[SECTION.termBlob] = dictionary.blob;
    sections[SECTION.termSamples] = encoder.encode(terms.filter((_, i) => i % TERM_STRIDE === 0).join('\n'));
    sections[SECTION.postingOffsets] = bytesOf(postingOffsets);
    sections[SECTION.termDf] = bytesOf(termDf);
    sections[SECTION.postings] = postings;
    sections[SECTION.fieldTotals] = bytesOf(this.fieldTotals);
    sections[SECTION.ids] = this.ids.result();
    sections[SECTION.filePostingOffsets] = bytesOf(filePostingOffsets);
    sections[SECTION.termFileDf] = bytesOf(termFileDf);
    sections[SECTION.filePostings] = filePostings;
    yield BUILD_STEPS.records;
    sections[SECTION.symbolDict] = yield* this.symbolDict.buildSteps(this.files.map((f) => f.path));
    yield BUILD_STEPS.symbols;
    sections[SECTION.occurrences] = yield* this.occurrences.buildSteps();
    yield BUILD_STEPS.occurrences;
    return assembleParts(sections, docCount, terms.length, this.files.length);
  }

  private writeFileTable(sections: Uint8Array[]): void {
    const files = this.files;
    const firstDocs = new Uint32Array(files.length + 1);
    const pathLengths = new Uint32Array(files.length);
    const languageIndex = new Uint16Array(files.length);
    const languages = new Map<string, number>();
    const sizeMtime = new Float64Array(files.length * 2);
    files.forEach((f, i) => {
      firstDocs[i] = f.firstDoc;
      pathLengths[i] = f.pathLength;
      let l = languages.get(f.language);
      if (l === undefined) languages.set(f.language, (l = languages.size));
      languageIndex[i] = l;
      sizeMtime[2 * i] = f.size;
      sizeMtime[2 * i + 1] = f.mtimeMs;
    });
    firstDocs[files.length] = this.docCount;
    if (languages.size > 0xffff) throw new Error('too many languages in one segment');
    const paths = stringTable(files.map((f) => f.path));
    const hashes = stringTable(files.map((f) => f.hash));
    sections[SECTION.fileFirstDoc] = bytesOf(firstDocs);
    sections[SECTION.filePathLength] = bytesOf(pathLengths);
    sections[SECTION.fileLanguage] = bytesOf(languageIndex);
    sections[SECTION.languageNames] = encoder.encode([...languages.keys()].map(oneLine).join('\n'));
    sections[SECTION.filePathOffsets] = bytesOf(paths.offsets);
    sections[SECTION.filePaths] = paths.blob;
    sections[SECTION.fileSizeMtime] = bytesOf(sizeMtime);
    sections[SECTION.fileHashOffsets] = bytesOf(hashes.offsets);
    sections[SECTION.fileHashes] = hashes.blob;
  }
}

/** Path terms of a file and their frequencies (the file-level `path` field). */
export function pathTermsOf(path: string): Map<string, number> {
  const terms = new Map<string, number>();
  forEachToken(path, (t) => terms.set(t, (terms.get(t) ?? 0) + 1));
  return terms;
}
