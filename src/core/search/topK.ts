// A bounded heap: the k best of a stream, without sorting the stream (the scorer's top-k).

/** Keeps the k best items seen; `better(a, b)` is true when a ranks above b. */
export class TopK<T> {
  private readonly heap: T[] = [];
  constructor(
    private readonly k: number,
    private readonly better: (a: T, b: T) => boolean,
  ) {}

  /** True once k items are kept: a newcomer must then beat `worst`. */
  get isFull(): boolean {
    return this.heap.length >= this.k;
  }

  /** The worst item kept (the next to be dropped), if any. */
  get worst(): T | undefined {
    return this.heap[0];
  }

  push(item: T): void {
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      this.up(h.length - 1);
    } else if (h.length > 0 && this.better(item, h[0] as T)) {
      h[0] = item;
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : this.better(b, a) ? 1 : 0));
  }

  // Min-heap on "better": the root is the worst kept item.
  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.better(h[p] as T, h[i] as T)) break;
      [h[p], h[i]] = [h[i] as T, h[p] as T];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.better(h[worst] as T, h[l] as T)) worst = l;
      if (r < h.length && this.better(h[worst] as T, h[r] as T)) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i] as T, h[worst] as T];
      i = worst;
    }
  }
}
