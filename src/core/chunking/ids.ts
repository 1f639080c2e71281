import type { Span } from '../types';
import { nodeCrypto } from '../nodeCrypto';
import type { ChunkKind } from '../types';

/** The id users see and paste: `path:startLine-endLine` (1-based, inclusive). */
export function makeDocid(path: string, startLine: number, endLine: number): string {
  return `${path}:${startLine}-${endLine}`;
}

/**
 * A chunk's stable id. It depends on where the chunk starts, what it is and what it contains,
 * so re-indexing an unchanged file reproduces it, and any edit to the chunk changes it.
 * 16 hex characters (64 bits): collisions are irrelevant at workspace scale.
 * The bytes hashed are fixed (see the pinned test): SHA-256 over the parts joined by NUL, as UTF-8.
 */
export function makeChunkId(path: string, kind: ChunkKind, symbol: string, startLine: number, text: string): string {
  const crypto = nodeCrypto();
  const prefix = `${path}\0${kind}\0${symbol}\0${startLine}\0`;
  // One call on the joined string: a cold index makes an id per chunk, and a Hash object per
  // id, fed two strings, costs more than the one-shot hash of the joined string, which is no
  // slower than encoding the same UTF-8 into a reused buffer. The ids are the same.
  if (typeof crypto.hash !== 'function') return crypto.createHash('sha256').update(prefix).update(text).digest('hex').slice(0, 16);
  return crypto.hash('sha256', prefix + text, 'hex').slice(0, 16);
}

/** Parses `path:start-end` (the path may itself contain colons). Returns undefined when malformed. */
export function parseDocid(docid: string): Span | undefined {
  const m = /^(.*):(\d+)-(\d+)$/.exec(docid);
  if (!m || !m[1]) return undefined;
  const startLine = Number(m[2]);
  const endLine = Number(m[3]);
  if (startLine < 1 || endLine < startLine) return undefined;
  return { path: m[1], startLine, endLine };
}
