// The MaxScore loop's heap of term cursors: slots come out by their current document, least
// first, whatever order they went in and however the documents move between pops.
import * as assert from 'node:assert/strict';
import { buildDocHeap, popDoc, pushDoc } from '../../src/core/search/docHeap';
import { checkAll } from './check';

const END = 0xffffffff;

/** Pops every slot, recording each slot's document in the order they come out. */
function drain(heap: Int32Array, size: number, docs: Float64Array): number[] {
  const out: number[] = [];
  while (size > 0) {
    out.push(docs[heap[0] as number] as number);
    size = popDoc(heap, size, docs);
  }
  return out;
}

describe('docHeap: the essential cursors by document', () => {
  checkAll<{ docs: number[]; from: number }, number[]>(
    [
      { name: 'documents come out least first', input: { docs: [9, 3, 7, 1, 5], from: 0 }, expected: [1, 3, 5, 7, 9] },
      { name: 'slots before `from` are left out', input: { docs: [0, 1, 8, 2, 6], from: 2 }, expected: [2, 6, 8] },
      { name: 'exhausted cursors are left out', input: { docs: [4, END, 2, END], from: 0 }, expected: [2, 4] },
      { name: 'cursors on one document all come out', input: { docs: [5, 5, 1, 5, 1], from: 0 }, expected: [1, 1, 5, 5, 5] },
      { name: 'nothing left', input: { docs: [END, END], from: 0 }, expected: [] },
    ],
    ({ docs, from }) => {
      const d = Float64Array.from(docs);
      const heap = new Int32Array(docs.length);
      return drain(heap, buildDocHeap(heap, d, from, END), d);
    },
  );

  it('a slot moved on and pushed back comes out in its new place', () => {
    const docs = Float64Array.from([10, 20, 30, 40]);
    const heap = new Int32Array(4);
    let size = buildDocHeap(heap, docs, 0, END);
    const first = heap[0] as number;
    size = popDoc(heap, size, docs);
    docs[first] = 35;
    size = pushDoc(heap, size, docs, first);
    assert.deepEqual(drain(heap, size, docs), [20, 30, 35, 40]);
  });
});
