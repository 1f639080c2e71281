// A store folder inside the root is never a candidate of its own root.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DiscoveryOptions } from './options';

/**
 * Discovery options that leave out the store when it lies inside the root: a store indexing
 * its own segments changes with every refresh and never settles.
 */
export function discoveryWithoutStore(discovery: Partial<DiscoveryOptions>, root: string, storeDir: string): Partial<DiscoveryOptions> {
  const real = (p: string): string => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const rel = path.relative(real(root), real(storeDir));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return discovery;
  const glob = `${rel.split(path.sep).join('/').replace(/[*?[\]{}()!]/g, '\\$&')}/**`;
  return { ...discovery, exclude: [...(discovery.exclude ?? []), glob] };
}
