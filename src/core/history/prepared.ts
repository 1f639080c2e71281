// What a file search reads of a log, built ahead: a long-lived host does it while idle, so
// the first file search after a new HEAD does not pay for it.
import type { CommitLog } from './commitLog';
import { wordFilesOf } from './messageWordFiles';
import { vectorsOf } from './similarCommits';

export function prepared(log: CommitLog | undefined): CommitLog | undefined {
  if (log) {
    vectorsOf(log);
    wordFilesOf(log);
  }
  return log;
}
