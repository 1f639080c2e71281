// Where the CLI keeps a root's index when no --store is given: a per-root folder in the user's
// cache directory, so running `cairn` never writes into the indexed tree.
import { nodeCrypto } from '../core/nodeCrypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { claimStore, StoreOwnershipError } from '../core/store/owner';
import { StoreLocationError } from '../core/store/lock';
import { userCacheDir } from './cacheDir';
import { CliError } from './output';

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

/**
 * `dir`, once it is known to be `root`'s store or free to become it (core/store/owner.ts);
 * else a CliError saying whose folder it is and what to do. Checked before the engine opens,
 * so a refused folder is a plain message and exit code rather than a failure mid-command.
 */
export function checkedStoreDir(root: string, dir: string): string {
  try {
    claimStore(dir, root, { create: false });
  } catch (e) {
    if (e instanceof StoreOwnershipError) throw new CliError(e.code, e.message);
    if (e instanceof StoreLocationError) throw new CliError(e.code, e.message);
    throw e;
  }
  return dir;
}
