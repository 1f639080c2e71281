// The store folder a command opens, checked before the engine opens it (where it is by default:
// command/storeLocation.ts).
import { claimStore, StoreOwnershipError, StoreLocationError } from '../core/engineApi';
import { CliError } from './output';

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
