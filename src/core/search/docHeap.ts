// A min-heap of term cursors keyed by the document each one is on, for the MaxScore loop: a long
// text keeps a hundred terms essential while a document holds two or three of them, so finding
// the next document by a scan of every cursor cost the loop far more than the documents did.
// Plain functions over typed arrays, no objects: the loop runs once per candidate document.

/** Fills `heap` with the slots `from..docs.length-1` whose document is not `end`; returns the heap's size. */
export function buildDocHeap(heap: Int32Array, docs: Float64Array, from: number, end: number): number {
  let size = 0;
  for (let k = from; k < docs.length; k++) if ((docs[k] as number) !== end) heap[size++] = k;
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(heap, size, docs, i);
  return size;
}

/** Adds `slot`; returns the heap's new size. */
export function pushDoc(heap: Int32Array, size: number, docs: Float64Array, slot: number): number {
  const d = docs[slot] as number;
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = heap[parent] as number;
    if ((docs[p] as number) <= d) break;
    heap[i] = p;
    i = parent;
  }
  heap[i] = slot;
  return size + 1;
}

/** Removes the slot on top (the least document); returns the heap's new size. */
export function popDoc(heap: Int32Array, size: number, docs: Float64Array): number {
  const last = size - 1;
  if (last > 0) {
    heap[0] = heap[last] as number;
    siftDown(heap, last, docs, 0);
  }
  return last;
}

function siftDown(heap: Int32Array, size: number, docs: Float64Array, at: number): void {
  const slot = heap[at] as number;
  const d = docs[slot] as number;
  let i = at;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= size) break;
    const right = child + 1;
    if (right < size && (docs[heap[right] as number] as number) < (docs[heap[child] as number] as number)) child = right;
    const c = heap[child] as number;
    if ((docs[c] as number) >= d) break;
    heap[i] = c;
    i = child;
  }
  heap[i] = slot;
}
