// The user's cache directory, where the CLI keeps what it can always rebuild: index stores
// (storeLocation.ts) and compiled code (launch.ts).
import * as os from 'node:os';
import * as path from 'node:path';

export function userCacheDir(): string {
  if (process.env.XDG_CACHE_HOME) return process.env.XDG_CACHE_HOME;
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches');
  if (process.platform === 'win32') return process.env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local');
  return path.join(os.homedir(), '.cache');
}
