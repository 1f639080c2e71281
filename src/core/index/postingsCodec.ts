// How a segment stores a term's postings (the `postings` section; see segmentFormat.ts). Each
// posting is a document gap, then the term's frequency in each field: one byte for the common
// case of one field with a small frequency, else a field bitmask and a varint per field. A long
// list is stored deflated, flagged by the top bit of its document frequency in `termDf`: the
// varint postings of common words repeat the same few byte patterns, so deflate shrinks them
// several times over, while a long-lived reader keeps common lists decoded anyway.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SMALL_DEFLATE } from './blockColumn';
import { FIELD_COUNT } from './fields';
import { type ByteWriter, CorruptDataError } from './varint';

/** Decoded postings of one term in one segment: parallel arrays, docs ascending. */
export interface Postings {
  docs: Uint32Array;
  /** `tfs[i * FIELD_COUNT + f]`: frequency of the term in field f of docs[i]. */
  tfs: Uint16Array;
}

/** Postings lists of at least this many bytes are stored deflated (format 9); shorter ones stay as written. */
const DEFLATE_POSTINGS_MIN = 1024;
/** The bit of a term's stored document frequency that says its list is deflated. */
export const DEFLATED_BIT = 0x80000000;

export function packPostings(bytes: Uint8Array): { bytes: Uint8Array; deflated: boolean } {
  if (bytes.length < DEFLATE_POSTINGS_MIN) return { bytes, deflated: false };
  // A list that fits the small window compresses as well in it, and its zlib state costs far less.
  const packed = deflateRawSync(bytes, bytes.length <= 1 << SMALL_DEFLATE.windowBits ? SMALL_DEFLATE : { level: 1 });
  return packed.length < bytes.length ? { bytes: packed, deflated: true } : { bytes, deflated: false };
}

export function inflatePostings(packed: Uint8Array, df: number, what: string): Uint8Array {
  try {
    // One output buffer that fits (a posting takes 2-3 bytes), not 16 KB pieces joined at the end.
    return inflateRawSync(packed, { chunkSize: Math.min(Math.max(df * 4, 1024), 1 << 24) });
  } catch (e) {
    throw new CorruptDataError(`${what} do not inflate (${(e as Error).message})`);
  }
}

/**
 * Decodes `df` postings from `bytes` into `docs` and `tfs` (FIELD_COUNT per document). Each
 * posting is a document gap (varint), then either one byte `1fff tttt` (a frequency below 16
 * in one field) or a field bitmask followed by a varint per field set. Inlined by hand: this
 * loop is the largest cost of a query that reads a common word for the first time.
 */
export function decodePostings(bytes: Uint8Array, df: number, docCount: number, docs: Uint32Array, tfs: Uint16Array, segment: string): void {
  const end = bytes.length;
  let pos = 0;
  let doc = 0;
  const truncated = () => new CorruptDataError(`segment ${segment}: postings end mid-entry`);
  for (let i = 0; i < df; i++) {
    if (pos >= end) throw truncated();
    let b = bytes[pos++] as number;
    let gap = b & 0x7f;
    for (let shift = 7; b >= 0x80; shift += 7) {
      if (pos >= end || shift > 35) throw truncated();
      b = bytes[pos++] as number;
      gap += (b & 0x7f) * 2 ** shift;
    }
    doc += gap;
    if (doc >= docCount) throw new CorruptDataError(`segment ${segment}: posting points past the documents`);
    docs[i] = doc;
    if (pos >= end) throw truncated();
    const head = bytes[pos++] as number;
    const base = i * FIELD_COUNT;
    if (head & 0x80) {
      const f = (head >> 4) & 0x7;
      if (f >= FIELD_COUNT) throw new CorruptDataError(`segment ${segment}: posting names field ${f}`);
      tfs[base + f] = head & 0xf;
      continue;
    }
    for (let f = 0; f < FIELD_COUNT; f++) {
      if (!(head & (1 << f))) continue;
      if (pos >= end) throw truncated();
      b = bytes[pos++] as number;
      let tf = b & 0x7f;
      for (let shift = 7; b >= 0x80; shift += 7) {
        if (pos >= end || shift > 35) throw truncated();
        b = bytes[pos++] as number;
        tf += (b & 0x7f) * 2 ** shift;
      }
      tfs[base + f] = tf;
    }
  }
  if (pos !== end) throw new CorruptDataError(`segment ${segment}: postings longer than their document frequency`);
}

/** A single field with a small frequency (the common case) takes one byte; otherwise a mask and varints. */
export function writeFieldFrequencies(w: ByteWriter, tfs: Uint16Array, base: number): void {
  let mask = 0;
  let only = -1;
  for (let f = 0; f < FIELD_COUNT; f++) {
    if ((tfs[base + f] as number) > 0) {
      mask |= 1 << f;
      only = only === -1 ? f : -2;
    }
  }
  if (only >= 0 && (tfs[base + only] as number) <= 15) {
    w.byte(0x80 | (only << 4) | (tfs[base + only] as number));
    return;
  }
  w.byte(mask);
  for (let f = 0; f < FIELD_COUNT; f++) {
    const tf = tfs[base + f] as number;
    if (tf > 0) w.varint(tf);
  }
}
