// The goal table of issue #40, measured side by side in one run: a cold `cairn index` as a user
// runs it (a fresh process, --rebuild) beside `ctags -R` over the same tree, round after round,
// and the served `cairn search` / `cairn symbol` times beside `rg -w` (measured by serve.ts).
// Each figure is the median of its rounds with its spread (min-max): on a shared machine a
// neighbour's busy minute widens the spread instead of silently moving one number.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BenchGoal, ServedRounds } from './serve';

export type { ServedRounds };
import { fmt, median, table } from './stats';

/** The goal: a cold index at most this many times `ctags -R` in the same run. */
const COLD_RATIO_GOAL = 4;

/** One measure over the rounds: the median and the spread. */
export interface Spread {
  values: number[];
}

export function spreadText(s: Spread, digits = 0, unit = ''): string {
  const lo = Math.min(...s.values);
  const hi = Math.max(...s.values);
  return `${fmt(median(s.values), digits)}${unit} (${fmt(lo, digits)}-${fmt(hi, digits)})`;
}

export interface ColdRounds {
  cairnMs: Spread;
  ctagsMs: Spread;
  /** cairn / ctags, round by round (both measured back to back). */
  ratio: Spread;
  files: number;
}

/**
 * Cold `cairn index --rebuild` and `ctags -R` over `root`, alternately, `rounds` times. Throws
 * with the tool's message when either fails (no ctags: the table cannot be made).
 */
export function coldRounds(o: { cli: string; root: string; storeDir: string; rounds: number; log: (line?: string) => void }): ColdRounds {
  const tags = path.join(path.dirname(o.storeDir), 'goal.tags');
  // ctags does not create the folder of its tag file; with --root nothing else has made it yet.
  fs.mkdirSync(path.dirname(tags), { recursive: true });
  const out: ColdRounds = { cairnMs: { values: [] }, ctagsMs: { values: [] }, ratio: { values: [] }, files: 0 };
  const run = (command: string, args: string[]): { ms: number; stdout: string } => {
    const t = performance.now();
    const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CAIRN_SERVER: '0' } });
    const ms = performance.now() - t;
    if (r.error || r.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
    return { ms, stdout: r.stdout };
  };
  for (let round = 0; round < o.rounds; round++) {
    const ctags = run('ctags', ['-R', '-f', tags, '--exclude=.git', o.root]).ms;
    const cairn = run(process.execPath, [o.cli, 'index', o.root, '--store', o.storeDir, '--rebuild', '--json']);
    out.files = (JSON.parse(cairn.stdout) as { files: number }).files;
    out.ctagsMs.values.push(ctags);
    out.cairnMs.values.push(cairn.ms);
    out.ratio.values.push(cairn.ms / ctags);
    o.log(`cold round ${round + 1}/${o.rounds}: cairn index ${fmt(cairn.ms, 0)} ms, ctags -R ${fmt(ctags, 0)} ms (${fmt(cairn.ms / ctags, 2)}x)`);
  }
  fs.rmSync(tags, { force: true });
  return out;
}

/** Prints the goal table (one row: this tree) and adds the cold-index goal. */
export function printGoalTable(o: { tree: string; cold: ColdRounds; served?: ServedRounds; log: (line?: string) => void; goals: BenchGoal[] }): void {
  const { cold, served } = o;
  const pair = (p: { p50s: number[]; p95s: number[] }) => `${spreadText({ values: p.p50s })} / ${spreadText({ values: p.p95s })}`;
  o.log(`\n## Goal table (issue #40): medians over ${cold.ratio.values.length} rounds, spread (min-max) in brackets, ms`);
  o.log(
    table(
      ['tree', 'cold cairn index', 'ctags -R', 'ratio', 'search p50 / p95', 'symbol p50 / p95', 'rg -w p50'],
      [[
        `${o.tree}, ${cold.files} files`,
        spreadText(cold.cairnMs),
        spreadText(cold.ctagsMs),
        spreadText(cold.ratio, 2, 'x'),
        served ? pair(served.search) : '-',
        served ? pair(served.symbol) : '-',
        served ? spreadText({ values: served.rg.p50s }) : '-',
      ]],
    ),
  );
  const ratio = median(cold.ratio.values);
  o.goals.push({ goal: 'cold cairn index / ctags -R, same run (median of rounds)', target: `<= ${COLD_RATIO_GOAL}x`, measured: spreadText(cold.ratio, 2, 'x'), ok: ratio <= COLD_RATIO_GOAL });
}
