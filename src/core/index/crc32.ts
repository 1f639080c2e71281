// CRC-32 (the IEEE polynomial, as zlib and gzip compute it) for the checksums of segment pages
// and state files. Node 20.15+ has it natively in zlib, several times faster than any
// JavaScript version; older releases of Node 20 fall back to the table-driven version below
// (slicing by 8). Both give the same values.
import * as zlib from 'node:zlib';

type Crc32 = (bytes: Uint8Array, previous?: number) => number;

/** Eight 256-entry tables: `TABLE[k * 256 + b]` is the CRC of byte b followed by k zero bytes. */
const TABLE = ((): Int32Array => {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n] as number;
    for (let k = 1; k < 8; k++) {
      c = (t[c & 0xff] as number) ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/**
 * The CRC-32 of `bytes`, continuing from `previous` (the CRC of the bytes before them), so
 * `crc32(b, crc32(a))` is the CRC of a followed by b. Table-driven, for Node without zlib's.
 */
export function crc32Table(bytes: Uint8Array, previous = 0): number {
  const t = TABLE;
  let crc = ~previous;
  let i = 0;
  for (const last = bytes.length - 7; i < last; i += 8) {
    const a = crc ^ ((bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24));
    crc =
      (t[1792 + (a & 0xff)] as number) ^
      (t[1536 + ((a >>> 8) & 0xff)] as number) ^
      (t[1280 + ((a >>> 16) & 0xff)] as number) ^
      (t[1024 + (a >>> 24)] as number) ^
      (t[768 + (bytes[i + 4] as number)] as number) ^
      (t[512 + (bytes[i + 5] as number)] as number) ^
      (t[256 + (bytes[i + 6] as number)] as number) ^
      (t[bytes[i + 7] as number] as number);
  }
  for (; i < bytes.length; i++) crc = (t[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return ~crc >>> 0;
}

const native = (zlib as { crc32?: Crc32 }).crc32;

/** The CRC-32 of `bytes`, continuing from `previous`: zlib's where Node has it. */
export const crc32: Crc32 = native ? (bytes, previous = 0) => native(bytes, previous) : crc32Table;
