// The percentage a refresh shows (status bar, Index view, first-index notification) moves with
// the work actually done: every file chunked and added moves it, a big file moves it more than a
// small one, it never goes back, and it reaches 99 % only when everything but the commit is done.
import * as path from 'node:path';
import type { RefreshProgress } from '../../src/core/api';
import { ProgressMeter } from '../../src/core/engine/progressMeter';
import { progressPercent } from '../../src/vscode/format';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

type Step =
  | ['listed', number]
  | ['chunked' | 'added' | 'passed' | 'built', number]
  | ['chunked', number, string]
  | ['building', number, number]
  | ['starting', number, number]
  | ['chunking', string, number, number]
  | ['commit'];

/** The percentage after each step of a refresh, as the meter computes it. */
function percents(steps: Step[]): number[] {
  const meter = new ProgressMeter(() => undefined);
  return steps.map((s) => {
    if (s[0] === 'listed') meter.listed(s[1]);
    else if (s[0] === 'building') meter.building(s[1], s[2]);
    else if (s[0] === 'starting') meter.starting(s[1], s[2]);
    else if (s[0] === 'chunking') meter.chunking(s[1], s[2], s[3]);
    else if (s[0] === 'chunked') meter.chunked(s[1], s[2]);
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
          expected: [2, 32, 46, 72, 86, 92, 98, 99],
        },
        {
          name: 'a big file moves it more than a small one',
          input: [['listed', 100], ['chunked', 90], ['chunked', 10], ['added', 90], ['added', 10]],
          expected: [2, 52, 58, 83, 86],
        },
        {
          name: 'unchanged files count as done at once',
          input: [['listed', 100], ['passed', 50], ['chunked', 50], ['added', 50], ['built', 50]],
          expected: [2, 48, 78, 92, 98],
        },
        {
          name: 'starting the chunk workers moves it step by step before any file is back',
          input: [['listed', 100], ['starting', 0, 4], ['starting', 1, 4], ['starting', 2, 4], ['starting', 4, 4], ['chunked', 100]],
          expected: [2, 2, 3, 4, 6, 58],
        },
        {
          name: 'workers already running: the first file back completes the start-up share',
          input: [['listed', 100], ['chunked', 10]],
          expected: [2, 11],
        },
        {
          name: 'a big file a worker is still on moves it as its parse and later stages go by',
          input: [['listed', 100], ['starting', 1, 1], ['chunking', 'big.js', 80, 0.25], ['chunking', 'big.js', 80, 0.5], ['chunking', 'big.js', 80, 1], ['chunked', 80, 'big.js'], ['chunked', 20, 'small.js']],
          expected: [2, 6, 16, 26, 47, 47, 58],
        },
        {
          name: 'a file chunked again (its worker died) counts once, and the number never goes back',
          input: [['listed', 100], ['starting', 1, 1], ['chunking', 'a.js', 50, 0.8], ['chunking', 'a.js', 50, 0.2], ['chunked', 50, 'a.js'], ['chunked', 50, 'b.js']],
          expected: [2, 6, 26, 26, 32, 58],
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

describe('refresh progress through chunk worker threads', function () {
  this.timeout(60000);
  // tsc compiles this file to out/test/unit/; the worker entry to out/src/core/chunking/.
  const workerScript = path.resolve(__dirname, '../../src/core/chunking/worker.js');
  const STARTING = 'starting the parsers';
  checkAll<{ bigLines: number; small: number }, { backwards: number; whileStarting: number[]; movesWhileBigFileChunked: string }>(
    [
      {
        name: 'a first index of a big file and small ones: start-up, then the big file, move the percentage before any file is back',
        input: { bigLines: 7000, small: 6 },
        // One thread, one language: the thread started, then its grammar loaded.
        expected: { backwards: 0, whileStarting: [2, 4, 6], movesWhileBigFileChunked: 'at least 10 times' },
      },
      {
        name: 'two read batches: the second, sent while the threads still start, does not count start-up as done',
        input: { bigLines: 7000, small: 400 },
        expected: { backwards: 0, whileStarting: [2, 4, 6], movesWhileBigFileChunked: 'at least 10 times' },
      },
    ],
    async ({ bigLines, small }) => {
      const files: Record<string, string> = { 'a/big.ts': bigFile(bigLines) };
      for (let i = 0; i < small; i++) files[`b/small${i}.ts`] = bigFile(20);
      const ws = new TempWorkspace(files);
      try {
        const events: RefreshProgress[] = [];
        await ws.engine({ workers: 1, workerScript, strategy: 'ast' }).refresh({ onProgress: (p) => events.push(p) });
        const shown = events.map((p) => progressPercent(p) ?? 0);
        // The percentages shown after start-up and before the big file (the first) came back.
        const started = events.findIndex((p) => p.phase === 'chunk' && p.message !== STARTING);
        const bigBack = events.findIndex((p) => p.phase === 'chunk' && p.done >= 1);
        const moves = new Set(shown.slice(started, bigBack)).size;
        return {
          backwards: shown.filter((p, i) => i > 0 && p < (shown[i - 1] as number)).length,
          whileStarting: events.filter((p) => p.message === STARTING).map((p) => progressPercent(p) ?? 0),
          movesWhileBigFileChunked: moves >= 10 ? 'at least 10 times' : `${moves} times`,
        };
      } finally {
        await ws.dispose();
      }
    },
  );
});

function bigFile(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export function f${i}(a: number): number { return a * ${i} + 1; }`).join('\n') + '\n';
}
