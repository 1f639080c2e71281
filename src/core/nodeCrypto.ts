// node:crypto costs a fresh process ~9 ms to load (measured on the benchmark machine), and a
// one-shot query on an up-to-date index never hashes or draws a random name: modules that do
// load it on first use through here.
import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

export function nodeCrypto(): typeof NodeCrypto {
  return (loaded ??= require('node:crypto') as typeof NodeCrypto);
}
