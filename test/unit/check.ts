// Data-driven test helper in the spirit of rust-analyzer's `check(input, expected)`:
// a table of cases, one `it` per case, the case's name taken from its input.
import * as assert from 'node:assert/strict';

export interface Case<I, E> {
  name?: string;
  input: I;
  expected: E;
}

/** Registers one mocha test per case, asserting `fn(input)` deep-equals `expected`. */
export function checkAll<I, E>(cases: ReadonlyArray<Case<I, E>>, fn: (input: I) => E | Promise<E>): void {
  for (const c of cases) {
    const name = c.name ?? (typeof c.input === 'string' ? JSON.stringify(c.input) : JSON.stringify(c.input).slice(0, 80));
    it(name, async () => {
      assert.deepEqual(await fn(c.input), c.expected);
    });
  }
}
