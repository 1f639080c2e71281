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
 */
export function makeChunkId(path: string, kind: ChunkKind, symbol: string, startLine: number, text: string): string {
  // One string, one native call (a cold index makes 600k+ ids): the same bytes as hashing each part in turn.
  const data = `${path}\0${kind}\0${symbol}\0${startLine}\0${text}`;
  const crypto = nodeCrypto() as { hash?: (algorithm: string, data: string) => string } & ReturnType<typeof nodeCrypto>;
  // `crypto.hash` (Node ≥ 20.12) hashes a string without a Hash object.
  return (crypto.hash ? crypto.hash('sha256', data) : crypto.createHash('sha256').update(data).digest('hex')).slice(0, 16);
}

/** Parses `path:start-end` (the path may itself contain colons). Returns undefined when malformed. */
export function parseDocid(docid: string): { path: string; startLine: number; endLine: number } | undefined {
  const m = /^(.*):(\d+)-(\d+)$/.exec(docid);
  if (!m || !m[1]) return undefined;
  const startLine = Number(m[2]);
  const endLine = Number(m[3]);
  if (startLine < 1 || endLine < startLine) return undefined;
  return { path: m[1], startLine, endLine };
}
