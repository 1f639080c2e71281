// The words of a commit message or a task text that say what a change is about, compared
// between the two: lower case, three letters or more, without the words every message has.

const STOP = new Set(
  ('the and for with from that this into when are was not but can all its has have been will more only also any via ' +
    'you your our its they them then than there these those what which who why how use used uses using add adds added ' +
    'update fix fixes fixed make makes made get gets set sets new now out off one two per some such should would could may might ' +
    'merge pull request branch commit signed off co authored by http https www com github issue issues closes close').split(' '),
);

/** A word's rarity among `commits` messages when `using` of them use it (both history signals weigh words by it). */
export function messageIdf(commits: number, using: number): number {
  return Math.log((commits + 1) / (using + 1));
}

/** Distinct order kept; repeats count (a message saying a word twice is about it). */
export function messageWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z][a-z0-9]{2,}/g)) {
    const w = m[0];
    if (!STOP.has(w)) out.push(w);
  }
  return out;
}
