// Writes a paged table: sorted rows with front-coded keys and restart points, in pages of about
// PAGE_BYTES (deflated when that is smaller) behind an index of every page's first key. The
// symbol dictionary and the occurrence table are such tables; symbolDict.ts describes the layout
// and holds the reader (PagedTable).
import { deflateRawSync } from 'node:zlib';
import { SMALL_DEFLATE } from './blockColumn';
import type { BuildSteps } from './buildSteps';
import { ByteWriter } from './varint';

/** Raw bytes of rows after which a page is closed (a row is never split: a long one makes a long page). */
export const PAGE_BYTES = 4096;
/** Rows from one whole key to the next in a page. */
export const RESTART_ROWS = 16;
/** The bit of an index entry's page start that says the page is deflated. */
export const DEFLATED_PAGE = 0x80000000;
/** Rows written between two pauses of writeTableSteps. */
const PAUSE_ROWS = 4096;

/** A string code unit by code unit: one byte each when all fit, else two (the length's low bit says which). */
export function writeString(w: ByteWriter, s: string): void {
  let wide = false;
  for (let i = 0; i < s.length && !wide; i++) wide = s.charCodeAt(i) > 0xff;
  w.varint(s.length * 2 + (wide ? 1 : 0));
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    w.byte(c & 0xff);
    if (wide) w.byte(c >>> 8);
  }
}

/** A table's pages and their index, as the reader takes them. */
export interface WrittenTable {
  index: Uint8Array;
  pages: Uint8Array;
  pageCount: number;
}

/**
 * Rows `0 .. count-1` in pages (symbolDict.ts describes the layout), with their index, as steps
 * of a build: a pause every PAUSE_ROWS rows.
 */
export function* writeTableSteps(count: number, keyOf: (r: number) => string, writeBody: (w: ByteWriter, r: number) => void): BuildSteps<WrittenTable> {
  const starts: number[] = [];
  const firstRows: number[] = [];
  const keys = new ByteWriter(256);
  const keyStarts: number[] = [];
  const pages = new ByteWriter(4096);
  const rowBytes = new ByteWriter(PAGE_BYTES * 2);
  const body = new ByteWriter(64);
  const page = new ByteWriter(PAGE_BYTES * 2);
  let restarts: number[] = [];
  let rows = 0;
  let previous = '';
  const seal = (firstRow: number) => {
    page.length = 0;
    page.varint(restarts.length);
    restarts.forEach((at, i) => page.varint(at - (i ? (restarts[i - 1] as number) : 0)));
    page.append(rowBytes.result());
    const raw = page.result();
    const packed = deflateRawSync(raw, SMALL_DEFLATE);
    const deflated = packed.length < raw.length;
    starts.push(pages.length + (deflated ? DEFLATED_PAGE : 0));
    firstRows.push(firstRow);
    pages.append(deflated ? packed : raw);
    if (pages.length >= DEFLATED_PAGE) throw new Error('a paged table of 2 GB');
    rowBytes.length = 0;
    restarts = [];
    rows = 0;
  };
  for (let r = 0; r < count; r++) {
    const key = keyOf(r);
    let shared = 0;
    if (rows === 0) {
      keyStarts.push(keys.length);
      writeString(keys, key);
    }
    if (rows % RESTART_ROWS === 0) restarts.push(rowBytes.length);
    else while (shared < key.length && shared < previous.length && key.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
    rowBytes.varint(shared);
    writeString(rowBytes, shared ? key.slice(shared) : key);
    body.length = 0;
    writeBody(body, r);
    rowBytes.varint(body.length);
    rowBytes.append(body.result());
    previous = key;
    rows++;
    if (rowBytes.length >= PAGE_BYTES) seal(r + 1 - rows);
    if (r % PAUSE_ROWS === PAUSE_ROWS - 1) yield;
  }
  if (rows > 0) seal(count - rows);
  const pageCount = starts.length;
  starts.push(pages.length);
  firstRows.push(count);
  keyStarts.push(keys.length);
  const index = new Uint8Array(12 * (pageCount + 1) + keys.length);
  const view = new DataView(index.buffer);
  for (let p = 0; p <= pageCount; p++) {
    view.setUint32(12 * p, starts[p] as number, true);
    view.setUint32(12 * p + 4, firstRows[p] as number, true);
    view.setUint32(12 * p + 8, keyStarts[p] as number, true);
  }
  index.set(keys.result(), 12 * (pageCount + 1));
  return { index, pages: pages.result(), pageCount };
}
