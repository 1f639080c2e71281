// Where a root's index lives when no --store is given: a per-root folder in the user's cache
// directory, so running `cairn` never writes into the indexed tree. Shared by the CLI (which
// opens the store) and the launcher's client path (which finds the server listening there), so
// it loads no engine code.
import { nodeCrypto } from '../core/nodeCrypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from './cacheDir';

/** `--store DIR`, else `$CAIRN_STORE`, else `<cache>/cairn/stores/<name>-<hash of the real root path>`. */
export function resolveStoreDir(root: string, explicit?: string): string {
  if (explicit) return path.resolve(explicit);
  if (process.env.CAIRN_STORE) return path.resolve(process.env.CAIRN_STORE);
  let real = root;
  try {
    real = fs.realpathSync(root);
  } catch {
    // root is validated by the engine; keep the resolved path for the name
  }
  const id = nodeCrypto().createHash('sha256').update(real).digest('hex').slice(0, 12);
  const name = path.basename(real).replace(/[^\w.-]+/g, '_').slice(0, 40) || 'root';
  return path.join(userCacheDir(), 'cairn', 'stores', `${name}-${id}`);
}
