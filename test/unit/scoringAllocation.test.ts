// Scoring keeps nothing per document of a segment: term cursors are merged a document at a
// time and each match goes straight to the visitor, with no per-chunk accumulator and no list
// of every match. Checked by what a query allocates: the same query over ten times the
// matching chunks may allocate no more than a byte per extra chunk, counted twice, on the JS
// heap (V8's sampling heap profiler, which counts objects a collection has already freed too)
// and in typed arrays (their contents live outside the heap, where the profiler does not look).
// A per-chunk accumulator (8 bytes a chunk) or a list of matches (dozens of bytes a match) is
// far above that.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileQuery } from '../../src/core/search/compiled';
import { SnapshotScorer, type Pruning } from '../../src/core/search/scorer';
import type { Chunk } from '../../src/core/types';
import { checkAll } from './check';
import { c, snapshotOf } from './helpers/snapshot';

const SMALL = 2_000;
const LARGE = 20_000;
/** Bytes a query may allocate per extra matching chunk. */
const BYTES_PER_EXTRA_CHUNK = 1;

/** `chunks` functions, ten a file, each with `walrus`; every third with `otter`, every seventh with `seal`. */
function corpus(chunks: number): Chunk[] {
  const out: Chunk[] = [];
  for (let i = 0; i < chunks; i++) {
    const file = Math.floor(i / 10);
    const line = (i % 10) * 4 + 1;
    const words = ['walrus', i % 3 === 0 ? 'otter' : 'tern', i % 7 === 0 ? 'seal' : 'gull'].join(' ');
    out.push(c(`src/m${file}.ts:${line}-${line + 2} function fn${i}`, `function fn${i}() {\n  ${words};\n}`));
  }
  return out;
}

interface SamplingNode {
  selfSize: number;
  children: SamplingNode[];
}

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))));
}

function totalSize(node: SamplingNode): number {
  return node.children.reduce((sum, child) => sum + totalSize(child), node.selfSize);
}

/**
 * The least bytes `run` allocated per call over a few rounds, each after more calls: the claim
 * is about the loops as they run once optimised, and interpreted code (or code waiting to be
 * optimised again after a deoptimisation) boxes every number it passes around.
 */
async function allocatedPerCall(run: () => void, enough: number): Promise<number> {
  const session = new inspector.Session();
  session.connect();
  try {
    await post(session, 'HeapProfiler.enable');
    let least = Infinity;
    for (let round = 0; round < 8 && least > enough; round++) {
      for (let i = 0; i < 40; i++) run();
      await post(session, 'HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      for (let i = 0; i < 5; i++) run();
      const { profile } = await post<{ profile: { head: SamplingNode } }>(session, 'HeapProfiler.stopSampling');
      least = Math.min(least, totalSize(profile.head) / 5);
    }
    return least;
  } finally {
    session.disconnect();
  }
}

const TYPED_ARRAYS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'] as const;

/**
 * Bytes of the typed arrays `run` creates through the global constructors (`new`, `from`,
 * `of`), which code looks up when it runs: each is swapped for a subclass that counts.
 */
function typedArrayBytes(run: () => void): number {
  let bytes = 0;
  const g = globalThis as unknown as Record<string, new (...args: unknown[]) => ArrayBufferView>;
  const originals = TYPED_ARRAYS.map((name) => [name, g[name]] as const);
  for (const [name, Original] of originals) {
    g[name] = class extends Original {
      constructor(...args: unknown[]) {
        super(...args);
        bytes += this.byteLength;
      }
    };
  }
  try {
    run();
  } finally {
    for (const [name, Original] of originals) g[name] = Original;
  }
  return bytes;
}

describe('scoring allocates nothing per document of a segment', function () {
  this.timeout(60_000);
  const roots: string[] = [];
  const scorerOf = (chunks: number): SnapshotScorer => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-scoring-alloc-'));
    roots.push(root);
    return new SnapshotScorer(snapshotOf(corpus(chunks), root));
  };
  const small = scorerOf(SMALL);
  const large = scorerOf(LARGE);
  after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

  /** Heap and typed-array bytes per call, and the documents visited, for one query over one scorer. */
  const measure = async (scorer: SnapshotScorer, query: string, pruned: boolean, enough: number): Promise<{ bytes: number; typed: number; visited: number }> => {
    const compiled = compileQuery(query, {});
    let visited = 0;
    const visit = () => {
      visited++;
    };
    // A threshold no document reaches past its bound: every document is still visited.
    const pruning: Pruning = { threshold: new Float64Array([-Infinity]), maxBoost: 1, maxBoostUnnamed: 1 };
    const run = () => {
      visited = 0;
      scorer.score(compiled, visit, pruned ? pruning : undefined);
    };
    const bytes = await allocatedPerCall(run, enough);
    const typed = typedArrayBytes(run);
    return { bytes, typed, visited };
  };

  checkAll(
    [
      { name: 'one word in every chunk', input: { query: 'walrus', pruned: false }, expected: { visitedLarge: LARGE, withinBound: true } },
      { name: 'one word, scored with pruning', input: { query: 'walrus', pruned: true }, expected: { visitedLarge: LARGE, withinBound: true } },
      { name: 'two optional words', input: { query: 'walrus otter', pruned: true }, expected: { visitedLarge: LARGE, withinBound: true } },
      { name: 'a required word and an excluded one', input: { query: '+walrus -seal', pruned: false }, expected: { visitedLarge: LARGE - Math.ceil(LARGE / 7), withinBound: true } },
    ],
    async ({ query, pruned }) => {
      const allowed = (LARGE - SMALL) * BYTES_PER_EXTRA_CHUNK;
      const s = await measure(small, query, pruned, 0);
      const l = await measure(large, query, pruned, s.bytes + allowed);
      const grew = l.bytes - s.bytes;
      const typedGrew = l.typed - s.typed;
      assert.ok(grew <= allowed, `${query}: ${Math.round(l.bytes)} heap bytes per query over ${l.visited} matches, ${Math.round(s.bytes)} over ${s.visited}: ${Math.round(grew)} more, allowed ${allowed}`);
      assert.ok(typedGrew <= allowed, `${query}: ${l.typed} bytes of typed arrays per query over ${l.visited} matches, ${s.typed} over ${s.visited}: ${typedGrew} more, allowed ${allowed}`);
      return { visitedLarge: l.visited, withinBound: grew <= allowed && typedGrew <= allowed };
    },
  );
});
