// The check a query makes on a file the index holds before serving text read from it now
// (ripgrep's matching lines): kept apart from eligibility.ts so a query loads no listing code.
import * as fs from 'node:fs';
import { toAbsolute } from './paths';

/**
 * A cheap working-tree check for a file the index holds, as a query meets it (ripgrep's
 * matches): still a regular file with one name and under the size cap. One lstat; the name
 * rules and the index's own listing have decided the rest.
 */
export function stillServable(root: string, relPath: string, maxFileBytes: number): boolean {
  try {
    const stats = fs.lstatSync(toAbsolute(root, relPath), { throwIfNoEntry: false });
    return stats !== undefined && stats.isFile() && stats.nlink <= 1 && stats.size <= maxFileBytes;
  } catch {
    return false;
  }
}
