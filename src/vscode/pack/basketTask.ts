// How the basket reaches the pack: its spans are *named in the task* (`path:start-end`). The
// pack builder treats a span the task names as must-inspect with the highest priority, so the
// user's picks are in the pack, with their code, ranked first and explained ("the task names
// …"), and they count against the budget like everything else. Spans of another workspace
// folder cannot be in this folder's pack; they are reported as left out.
import type { BasketSpan } from '../../webview/pack/protocol';

export interface BasketTask {
  /** The task the engine gets. */
  task: string;
  /** Docids named for the basket. */
  included: string[];
  leftOut: Array<{ docid: string; reason: string }>;
}

export function taskWithBasket(task: string, items: readonly BasketSpan[], inFolder: (label: string) => boolean, folderName: string): BasketTask {
  const included: string[] = [];
  const leftOut: BasketTask['leftOut'] = [];
  for (const item of items) {
    if (!inFolder(item.folder)) leftOut.push({ docid: item.docid, reason: `in folder ${item.folder}; this pack is for ${folderName}` });
    else if (/\s/.test(item.docid)) leftOut.push({ docid: item.docid, reason: 'its path contains spaces, which a task cannot name' });
    else if (!included.includes(item.docid)) included.push(item.docid);
  }
  const missing = included.filter((d) => !task.includes(d));
  // No line break and no `word:` (the query language would read it as a field): plain words, then the spans.
  return { task: missing.length ? `${task} (pinned spans ${missing.join(', ')})` : task, included, leftOut };
}
