// Cairn: Evaluate Retrieval Quality, as the extension words it: the progress notification (how
// far, and about how long is left at the measured rate) and the plain summary above the table.
import { checkAll } from './check';
import { EvalProgressTracker } from '../../src/vscode/pack/evalProgress';
import { progressOf } from '../../src/vscode/pack/evalRun';
import { plainSummary } from '../../src/vscode/pack/evalSummary';
import type { EvalProgress } from '../../src/eval/runner';
import type { EvalReport } from '../../src/eval/types';

/** Progress reports at the given milliseconds → what the notification shows after each. */
function notification(events: Array<[ms: number, p: EvalProgress]>): string[] {
  let now = 0;
  const tracker = new EvalProgressTracker(() => now);
  let bar = 0;
  return events.map(([ms, p]) => {
    now = ms;
    const step = tracker.step(p);
    bar += step.increment;
    return `${Math.round(bar)}% ${step.message}`;
  });
}

const mining = (done: number, message: string): EvalProgress => ({ phase: 'mining', done, total: 50, message });
const evaluating = (done: number, total = 10): EvalProgress => ({ phase: 'evaluating', done, total, message: `abc1234 case ${done}` });

/** A report whose cases gave each system these ranks of the first changed file. */
function report(ranks: Record<string, Array<number | null>>): EvalReport {
  const systems = Object.keys(ranks).map((name) => ({ name, system: name.split(' ')[0] === 'cairn' ? 'index' : (name.split(' ')[0] as 'bm25' | 'rg-words'), spans: true, cases: 0, metrics: null, meanMs: 1 }));
  const count = Math.max(...Object.values(ranks).map((r) => r.length));
  const cases = Array.from({ length: count }, (_, i) => ({
    outcomes: Object.fromEntries(Object.entries(ranks).flatMap(([name, r]) => (r[i] === undefined ? [] : [[name, { firstRelevantRank: r[i] }]]))),
  }));
  return { systems, cases } as unknown as EvalReport;
}

describe('evaluating retrieval quality, in words', () => {
  describe('the progress notification', () => {
    checkAll(
      [
        {
          name: 'history, then each case with the time left at the rate so far',
          input: [[0, mining(0, 'reading the history')], [500, mining(25, '80 commits read, 25 usable')], [900, evaluating(0)], [20_900, evaluating(1)], [40_900, evaluating(2)], [200_900, evaluating(10)]] as Array<[number, EvalProgress]>,
          expected: ['0% reading the history: reading the history', '5% reading the history: 80 commits read, 25 usable', '10% replaying past change 1 of 10', '19% replaying past change 2 of 10, about 3 min left', '28% replaying past change 3 of 10, about 3 min left', '100% 10 of 10 past changes replayed, finishing'],
        },
        {
          name: 'a short run: under a minute',
          input: [[0, evaluating(0, 4)], [5_000, evaluating(1, 4)]] as Array<[number, EvalProgress]>,
          expected: ['10% replaying past change 1 of 4', '33% replaying past change 2 of 4, under a minute left'],
        },
        {
          name: 'the bar never goes back when mining found fewer commits than asked',
          input: [[0, mining(40, '900 commits read, 40 usable')], [100, evaluating(0, 6)], [200, evaluating(3, 6)]] as Array<[number, EvalProgress]>,
          expected: ['8% reading the history: 900 commits read, 40 usable', '10% replaying past change 1 of 6', '55% replaying past change 4 of 6, under a minute left'],
        },
      ],
      notification,
    );
    checkAll(
      [
        { name: 'a progress line', input: '{"progress":{"phase":"evaluating","done":2,"total":9,"message":"x"}}', expected: { phase: 'evaluating', done: 2, total: 9, message: 'x' } },
        { name: 'a warning is not one', input: 'warning: 3 commits skipped', expected: undefined },
        { name: 'an error line is not one', input: '{"error":{"code":"git-failed","message":"no"}}', expected: undefined },
      ],
      progressOf,
    );
  });

  describe('the plain summary above the table', () => {
    checkAll(
      [
        {
          name: 'Cairn beside both baselines',
          input: report({ 'cairn index': [1, 1, 2, 1, 7, 1, 1, null, 1, 3], 'bm25 whole-file': [1, 2, 2, 1, 9, 1, null, null, 4, 3], 'rg-words query-words': [3, 1, null, 1, 1, null, null, null, 2, 5] }),
          expected: [
            'For 6 of 10 past changes in this repository\'s history, a file the change touched was Cairn\'s first result; for 8 of 10, one was among its first five.',
            'On the same changes, a changed file came first for 3 of 10 with a text search for the same words (grep), and for 3 of 10 when whole files are ranked by those words (BM25).',
            'Each past change is a test: its commit message is the query, and the files it changed are the answer.',
          ],
        },
        {
          name: 'one change, no baselines',
          input: report({ 'cairn index': [2] }),
          expected: ['For 0 of 1 past change in this repository\'s history, a file the change touched was Cairn\'s first result; for 1 of 1, one was among its first five.', 'Each past change is a test: its commit message is the query, and the files it changed are the answer.'],
        },
        { name: 'nothing scored', input: report({ 'cairn index': [] }), expected: [] },
      ],
      plainSummary,
    );
  });
});
