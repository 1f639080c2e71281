// Shared helpers of the line chunker tests: documents from text, a compact view of chunks for
// table-driven expectations, and the invariants every line chunk must satisfy.
import * as assert from 'node:assert/strict';
import { seededRandom } from '../../src/eval/symbolCheck';
import { languageInfo } from '../../src/core/languages';
import { makeChunkId, makeDocid } from '../../src/core/chunking/ids';
import { REFERENCE_POLICY, lineTargetFor, type ChunkingPolicy } from '../../src/core/chunking/policy';
import type { Chunk, SourceDocument } from '../../src/core/types';

export function docOf(path: string, text: string, language = languageInfo(path).id): SourceDocument {
  return { path, text, language, size: Buffer.byteLength(text), mtimeMs: 0, hash: '' };
}

/** A flat policy: every bucket cut at `chars`. */
export function flatPolicy(chars: number): ChunkingPolicy {
  return { ...REFERENCE_POLICY, lineChunkChars: { code: chars, prose: chars, config: chars } };
}

export interface ChunkView {
  kind: string;
  symbol: string;
  context: string;
  lines: string;
  parent?: string;
}

/** What the tables compare: naming and line range (`3-7`). */
export function view(chunks: readonly Chunk[]): ChunkView[] {
  return chunks.map((c) => {
    const v: ChunkView = { kind: c.kind, symbol: c.symbol, context: c.context, lines: `${c.startLine}-${c.endLine}` };
    if (c.parent !== undefined) v.parent = c.parent;
    return v;
  });
}

/** Joins lines with `\n`, so table inputs read like the file. */
export const text = (...lines: string[]): string => lines.join('\n');

/**
 * Invariants of any line chunking: chunks in order and disjoint, every non-blank line in a
 * chunk, no chunk starting or ending on a blank line, text exactly the lines it claims, ids
 * derived from content, and no chunk over budget unless it is a single line.
 */
export function assertLineChunkInvariants(doc: SourceDocument, chunks: readonly Chunk[], policy: ChunkingPolicy): void {
  const lines = doc.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const target = lineTargetFor(doc.path, policy);
  const owner = new Array<number>(lines.length).fill(-1);
  chunks.forEach((c, k) => {
    const where = `${doc.path} chunk ${k} (${c.docid})`;
    assert.ok(c.startLine >= 1 && c.endLine >= c.startLine && c.endLine <= lines.length, `${where}: bad range`);
    assert.equal(c.text, lines.slice(c.startLine - 1, c.endLine).join('\n'), `${where}: text is not its lines`);
    assert.notEqual(c.text.split('\n')[0]?.trim(), '', `${where}: starts on a blank line`);
    assert.notEqual(c.text.split('\n').at(-1)?.trim(), '', `${where}: ends on a blank line`);
    assert.equal(c.docid, makeDocid(doc.path, c.startLine, c.endLine));
    assert.equal(c.id, makeChunkId(doc.path, c.kind, c.symbol, c.startLine, c.text));
    assert.equal(c.path, doc.path);
    assert.equal(c.language, doc.language);
    const cost = c.text.length + 1;
    assert.ok(cost <= target || c.startLine === c.endLine, `${where}: ${cost} chars over the ${target} budget`);
    for (let i = c.startLine - 1; i < c.endLine; i++) {
      assert.equal(owner[i], -1, `${where}: line ${i + 1} already in chunk ${owner[i]}`);
      owner[i] = k;
    }
    if (k > 0) assert.ok(c.startLine > (chunks[k - 1] as Chunk).endLine, `${where}: out of order`);
  });
  lines.forEach((line, i) => {
    if (line.trim() !== '') assert.notEqual(owner[i], -1, `${doc.path}: line ${i + 1} (${JSON.stringify(line)}) is in no chunk`);
  });
}

/** A small deterministic PRNG (mulberry32), so generated documents are the same on every run. */
export const prng = seededRandom;
