// The percentage a refresh shows (status bar, Index view, first-index notification) moves with
// the work actually done: every file chunked and added moves it, a big file moves it more than a
// small one, it never goes back, and it reaches 99 % only when everything but the commit is done.
import type { RefreshProgress } from '../../src/core/api';
import { ProgressMeter } from '../../src/core/engine/progressMeter';
import { progressPercent } from '../../src/vscode/format';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

type Step = ['listed', number] | ['chunked' | 'added' | 'passed' | 'built', number] | ['building', number, number] | ['commit'];

/** The percentage after each step of a refresh, as the meter computes it. */
function percents(steps: Step[]): number[] {
  const meter = new ProgressMeter(() => undefined);
  return steps.map((s) => {
    if (s[0] === 'listed') meter.listed(s[1]);
    else if (s[0] === 'building') meter.building(s[1], s[2]);
    else if (s[0] === 'commit') meter.commit();
    else meter[s[0]](s[1]);
    return meter.percent;
  });
}

describe('refresh progress', () => {
  describe('the meter weighs each stage by its work', () => {
    checkAll<Step[], number[]>(
      [
        {
          name: 'two equal files: discovery, each chunked and added, the segment built in steps, then the commit',
          input: [['listed', 100], ['chunked', 50], ['added', 50], ['chunked', 50], ['added', 50], ['building', 100, 0.5], ['built', 100], ['commit']],
          expected: [2, 30, 44, 72, 86, 92, 98, 99],
        },
        {
          name: 'a big file moves it more than a small one',
          input: [['listed', 100], ['chunked', 90], ['chunked', 10], ['added', 90], ['added', 10]],
          expected: [2, 52, 58, 83, 86],
        },
        {
          name: 'unchanged files count as done at once',
          input: [['listed', 100], ['passed', 50], ['chunked', 50], ['added', 50], ['built', 50]],
          expected: [2, 50, 78, 92, 98],
        },
        { name: 'nothing to read: only the build of nothing and the commit remain', input: [['listed', 0], ['commit']], expected: [98, 99] },
        {
          name: 'never backwards, never 100 before the report',
          input: [['listed', 10], ['chunked', 10], ['added', 10], ['building', 10, 1], ['built', 0], ['commit']],
          expected: [2, 58, 86, 98, 98, 99],
        },
      ],
      percents,
    );
  });

  describe('a first index reports a percentage that moves with every file', function () {
    this.timeout(30000);
    const file = (name: string, lines: number) => `// ${name}\n${Array.from({ length: lines }, (_, i) => `export function ${name}${i}() { return ${i}; }`).join('\n')}\n`;
    checkAll<{ small: number; big?: number }, { backwards: number; first99: string; everyFileMovesIt: boolean; afterBigFile?: string }>(
      [
        { name: '12 files of one size', input: { small: 12 }, expected: { backwards: 0, first99: 'write: committing the index', everyFileMovesIt: true } },
        {
          name: 'a big file first, then 8 small ones',
          input: { big: 400, small: 8 },
          expected: { backwards: 0, first99: 'write: committing the index', everyFileMovesIt: true, afterBigFile: 'moved by its size' },
        },
      ],
      async ({ small, big }) => {
        const files: Record<string, string> = {};
        if (big) files['a/big.ts'] = file('big', big);
        for (let i = 0; i < small; i++) files[`b/small${String(i).padStart(2, '0')}.ts`] = file(`small${i}`, 10);
        const ws = new TempWorkspace(files);
        try {
          const events: RefreshProgress[] = [];
          await ws.engine({ strategy: 'lines' }).refresh({ onProgress: (p) => events.push(p) });
          const shown = events.map((p) => progressPercent(p) ?? 0);
          const backwards = shown.filter((p, i) => i > 0 && p < (shown[i - 1] as number)).length;
          const at99 = events[shown.findIndex((p) => p >= 99)];
          // Percentages seen before 99: at least one per file (each is chunked, then added).
          const distinct = new Set(shown.filter((p) => p < 99)).size;
          const total = small + (big ? 1 : 0);
          const firstFile = events.find((p) => p.phase === 'chunk' && p.done === 1);
          return {
            backwards,
            first99: at99 ? `${at99.phase}: ${at99.message ?? ''}` : 'never',
            everyFileMovesIt: distinct >= total,
            ...(big ? { afterBigFile: (progressPercent(firstFile) ?? 0) > 2 + 56 / 2 ? 'moved by its size' : `only ${progressPercent(firstFile)}%` } : {}),
          };
        } finally {
          await ws.dispose();
        }
      },
    );
  });
});
