// node:crypto is slow to load in a fresh process, and a
// one-shot query on an up-to-date index never hashes or draws a random name: modules that do
// load it on first use through here.
import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

export function nodeCrypto(): typeof NodeCrypto {
  return (loaded ??= require('node:crypto') as typeof NodeCrypto);
}
