// Damaging store files on purpose: seeded flips of random bytes anywhere in a file, and patches
// of a segment by its layout (src/core/index/segment.ts, format 12): a 40-byte header (u32
// checksumsAt at byte 32), the section table of (u32 offset, u32 length) pairs, the sections,
// then a CRC-32 per 4 KB page of everything before the checksums.
import { crc32 } from '../../../src/core/index/crc32';

const HEADER_BYTES = 40;
const PAGE = 4096;

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Where section `i` starts and how long it is. */
export function sectionBounds(bytes: Uint8Array, i: number): { offset: number; length: number } {
  const view = viewOf(bytes);
  return { offset: view.getUint32(HEADER_BYTES + i * 8, true), length: view.getUint32(HEADER_BYTES + i * 8 + 4, true) };
}

/** Byte offset of the page checksums (the end of the checksummed bytes). */
export function checksumsAt(bytes: Uint8Array): number {
  return viewOf(bytes).getUint32(32, true);
}

/**
 * Recomputes the page checksums of damaged bytes in place, as a writer with a bug would have
 * written them: what is left to catch the damage is the reader's structural validation.
 */
export function resealed(bytes: Uint8Array): Uint8Array {
  const end = checksumsAt(bytes);
  const view = viewOf(bytes);
  for (let p = 0; p * PAGE < end; p++) view.setUint32(end + 4 * p, crc32(bytes.subarray(p * PAGE, Math.min((p + 1) * PAGE, end))), true);
  return bytes;
}

/** A copy (a Buffer's `slice` would be a view of the same bytes). */
const copyOf = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);

/** A copy of `bytes` with section `i` overwritten by `fill`. */
export function withSectionFilled(bytes: Uint8Array, i: number, fill: number): Uint8Array {
  const c = copyOf(bytes);
  const { offset, length } = sectionBounds(c, i);
  c.fill(fill, offset, offset + length);
  return c;
}

/** Bytes changed by one flip. */
export const FLIP_BYTES = 16;

/** One flip: 16 consecutive bytes, each XORed with its (non-zero) mask, somewhere in slice `slice` of `slices`. */
export interface FlipTrial {
  slice: number;
  slices: number;
  /** Where in its slice, from 0 to 1. */
  within: number;
  masks: number[];
}

/** `count` flips drawn from `random`, one in each of `count` equal slices of a file, so every part of it is hit. */
export function flipTrials(random: () => number, count: number): FlipTrial[] {
  return Array.from({ length: count }, (_, slice) => ({ slice, slices: count, within: random(), masks: Array.from({ length: FLIP_BYTES }, () => 1 + Math.floor(random() * 255)) }));
}

/** Where a flip starts in a file of `length` bytes. */
export function flipAt(trial: FlipTrial, length: number): number {
  return Math.max(0, Math.min(length - FLIP_BYTES, Math.floor(((trial.slice + trial.within) * length) / trial.slices)));
}

/** A copy of `bytes` with the trial's 16 bytes flipped. */
export function flipped(bytes: Uint8Array, trial: FlipTrial, at = flipAt(trial, bytes.length)): Uint8Array {
  const c = copyOf(bytes);
  trial.masks.forEach((m, i) => {
    if (at + i < c.length) c[at + i] = (c[at + i] as number) ^ m;
  });
  return c;
}
