// The state table on disk (`state-<gen>.cstate`): columns a reader maps without building an
// object per file. Layout (little-endian, like segments):
//
//   "CSTATE03"                      magic and layout version
//   u32 crc32                       CRC-32 of every byte after it (since layout 02)
//   u32 count, u32 headerBytes, u32 pathBytes, u32 importBytes
//   header                          JSON {languages, segments, skipped}, padded to 8 bytes
//   f64 size[count], mtimeMs[count], ctimeMs[count], ino[count], dev[count]   (since layout 03)
//   u32 firstDoc[count], docCount[count], language[count], segment[count], importEnd[count]
//   u8  sha256[32 * count]
//   u8  flags[count]                bit 0: racy (stateTable.ts; since layout 03)
//   paths                           UTF-8, separated by NUL (never part of a path), sorted
//   imports                         each file's import list as JSON, back to back (importEnd)
//
// Everything is checked on read (checksum, lengths, order, indexes): damage is a StoreCorruptError.
// The file is read whole, so it carries one checksum: a flipped byte in a document range or a
// segment index would otherwise point refreshes at the wrong chunks.
import type { SkippedFile } from '../types';
import { crc32 } from '../index/crc32';
import { RACY, StateColumns, type FileState, type StateTable } from './stateTable';

const MAGIC = 'CSTATE03';
/** Where the checksum is; it covers the bytes from CHECKED_FROM to the end. */
const CRC_AT = 8;
const CHECKED_FROM = 12;
const PREFIX_BYTES = 28;

const encoder = new TextEncoder();
const MAGIC_BYTES = encoder.encode(MAGIC);
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A state file failed validation; the store turns this into a StoreCorruptError. */
export class StateFileError extends Error {}

const pad8 = (n: number): number => (n + 7) & ~7;
/** Bytes per entry outside the header, paths and imports: five f64, five u32, a hash, flags. */
const ENTRY_BYTES = 5 * 8 + 5 * 4 + 32 + 1;

export function encodeStateTable(table: StateTable): Uint8Array {
  const paths = table.paths();
  const count = paths.length;
  const size = new Float64Array(count);
  const mtimeMs = new Float64Array(count);
  const ctimeMs = new Float64Array(count);
  const ino = new Float64Array(count);
  const dev = new Float64Array(count);
  const flags = new Uint8Array(count);
  const ints = new Uint32Array(5 * count);
  const hashes = new Uint8Array(32 * count);
  const languages = new Map<string, number>();
  const segments = new Map<string, number>();
  const importParts: string[] = [];
  let importEnd = 0;
  const idOf = (ids: Map<string, number>, key: string): number => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  paths.forEach((p, i) => {
    const f = table.get(p) as FileState;
    size[i] = f.size;
    mtimeMs[i] = f.mtimeMs;
    ctimeMs[i] = f.ctimeMs;
    ino[i] = f.ino;
    dev[i] = f.dev;
    if (f.racy) flags[i] = RACY;
    ints[i] = f.firstDoc;
    ints[count + i] = f.docCount;
    ints[2 * count + i] = idOf(languages, f.language);
    ints[3 * count + i] = idOf(segments, f.segment);
    if (f.imports?.length) {
      const json = JSON.stringify(f.imports);
      importParts.push(json);
      importEnd += Buffer.byteLength(json);
    }
    ints[4 * count + i] = importEnd;
    if (!/^[0-9a-f]{64}$/.test(f.hash)) throw new Error(`state entry ${p} has no SHA-256 hash`);
    hashes.set(Buffer.from(f.hash, 'hex'), 32 * i);
  });
  const header = encoder.encode(JSON.stringify({ languages: [...languages.keys()], segments: [...segments.keys()], skipped: table.skipped }));
  const pathBytes = encoder.encode(paths.join('\0'));
  const importBytes = encoder.encode(importParts.join(''));
  const headerEnd = pad8(PREFIX_BYTES + header.length);
  const out = new Uint8Array(headerEnd + ENTRY_BYTES * count + pathBytes.length + importBytes.length);
  out.set(MAGIC_BYTES, 0);
  const prefix = new DataView(out.buffer, CHECKED_FROM, 16);
  prefix.setUint32(0, count, true);
  prefix.setUint32(4, header.length, true);
  prefix.setUint32(8, pathBytes.length, true);
  prefix.setUint32(12, importBytes.length, true);
  out.set(header, PREFIX_BYTES);
  let at = headerEnd;
  for (const part of [size, mtimeMs, ctimeMs, ino, dev, ints, hashes, flags, pathBytes, importBytes]) {
    out.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at);
    at += part.byteLength;
  }
  new DataView(out.buffer).setUint32(CRC_AT, crc32(out.subarray(CHECKED_FROM)), true);
  return out;
}

export interface DecodedState {
  columns: StateColumns;
  skipped: SkippedFile[];
}

export function decodeStateTable(file: Uint8Array): DecodedState {
  // Typed-array views need aligned offsets; a Buffer from the pool may start anywhere.
  const bytes = file.byteOffset % 8 === 0 ? file : file.slice();
  const fail = (why: string): never => {
    throw new StateFileError(why);
  };
  // Compared as bytes: decoding garbage with the fatal decoder would throw a TypeError instead.
  if (bytes.length < PREFIX_BYTES || !MAGIC_BYTES.every((b, i) => bytes[i] === b)) {
    const older = bytes.length >= MAGIC_BYTES.length && MAGIC_BYTES.subarray(0, 6).every((b, i) => bytes[i] === b);
    fail(older ? `layout ${Buffer.from(bytes.subarray(6, 8)).toString('latin1')} where this version reads ${MAGIC.slice(6)}` : 'not a state file');
  }
  const prefix = new DataView(bytes.buffer, bytes.byteOffset + CHECKED_FROM, 16);
  const count = prefix.getUint32(0, true);
  const headerBytes = prefix.getUint32(4, true);
  const pathBytes = prefix.getUint32(8, true);
  const importBytes = prefix.getUint32(12, true);
  const headerEnd = pad8(PREFIX_BYTES + headerBytes);
  const expected = headerEnd + ENTRY_BYTES * count + pathBytes + importBytes;
  if (bytes.length !== expected) fail(`${bytes.length} bytes where the layout needs ${expected}`);
  const stored = new DataView(bytes.buffer, bytes.byteOffset + CRC_AT, 4).getUint32(0, true);
  if (crc32(bytes.subarray(CHECKED_FROM)) !== stored) fail('checksum mismatch');

  let header: { languages?: unknown; segments?: unknown; skipped?: unknown };
  try {
    header = JSON.parse(decoder.decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerBytes))) as typeof header;
  } catch {
    return fail('the header is not valid JSON');
  }
  const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
  if (!header || !isStrings(header.languages) || !isStrings(header.segments) || !Array.isArray(header.skipped)) fail('the header is malformed');

  let at = bytes.byteOffset + headerEnd;
  const take = <T>(make: (buffer: ArrayBufferLike, offset: number, length: number) => T, length: number, width: number): T => {
    const view = make(bytes.buffer, at, length);
    at += length * width;
    return view;
  };
  const f64 = (b: ArrayBufferLike, o: number, n: number) => new Float64Array(b, o, n);
  const u32 = (b: ArrayBufferLike, o: number, n: number) => new Uint32Array(b, o, n);
  const u8 = (b: ArrayBufferLike, o: number, n: number) => new Uint8Array(b, o, n);
  const size = take(f64, count, 8);
  const mtimeMs = take(f64, count, 8);
  const ctimeMs = take(f64, count, 8);
  const ino = take(f64, count, 8);
  const dev = take(f64, count, 8);
  const firstDoc = take(u32, count, 4);
  const docCount = take(u32, count, 4);
  const language = take(u32, count, 4);
  const segment = take(u32, count, 4);
  const importEnd = take(u32, count, 4);
  const hashes = take(u8, 32 * count, 1);
  const flags = take(u8, count, 1);
  let pathText: string;
  try {
    pathText = decoder.decode(take(u8, pathBytes, 1));
  } catch {
    return fail('the paths are not valid UTF-8');
  }
  const importText = take(u8, importBytes, 1);

  const paths = count === 0 ? [] : pathText.split('\0');
  if (paths.length !== count) fail(`${paths.length} paths for ${count} entries`);
  const { languages, segments } = header as { languages: string[]; segments: string[] };
  let previousEnd = 0;
  for (let i = 0; i < count; i++) {
    // Sorted and distinct: a path is found by lookup and the table merges in order.
    if (i > 0 && !((paths[i - 1] as string) < (paths[i] as string))) fail('the paths are not sorted');
    if ((language[i] as number) >= languages.length || (segment[i] as number) >= segments.length) fail(`entry ${i} names a language or segment the header lacks`);
    const end = importEnd[i] as number;
    if (end < previousEnd || end > importBytes) fail(`entry ${i} has an import list outside the file`);
    if ((flags[i] as number) & ~RACY) fail(`entry ${i} has unknown flags`);
    previousEnd = end;
  }
  const columns = new StateColumns({ paths, size, mtimeMs, ctimeMs, ino, dev, flags, firstDoc, docCount, language, segment, languages, segments, hashes, importEnd, importText });
  return { columns, skipped: header.skipped as SkippedFile[] };
}
