// The evaluation's result in plain words, above the expert table: how often a file the change
// touched was Cairn's first result (and among its first five), beside what the baselines did on
// the same changes. Plain data, no `vscode`.
import type { EvalReport } from '../../eval/types';

const changes = (n: number) => `${n} past change${n === 1 ? '' : 's'}`;

/** The system people meet in Cairn: Search (chunk search, its first variant); else the first Cairn system. */
function cairnSystem(report: EvalReport): string | undefined {
  return (report.systems.find((s) => s.system === 'index') ?? report.systems.find((s) => s.system !== 'bm25' && s.system !== 'rg-words'))?.name;
}

/** How many of the cases `system` answered put a changed file first, and among the first five. */
function ranks(report: EvalReport, system: string): { cases: number; first: number; topFive: number } {
  let cases = 0;
  let first = 0;
  let topFive = 0;
  for (const c of report.cases) {
    const outcome = c.outcomes[system];
    if (!outcome) continue;
    cases++;
    const rank = outcome.firstRelevantRank;
    if (rank === 1) first++;
    if (rank !== null && rank <= 5) topFive++;
  }
  return { cases, first, topFive };
}

const BASELINE_WORDS: ReadonlyArray<[kind: string, words: string]> = [
  ['rg-words', 'with a text search for the same words (grep)'],
  ['bm25', 'when whole files are ranked by those words (BM25)'],
];

/** Sentences for the top of the result, empty when no case was scored. */
export function plainSummary(report: EvalReport): string[] {
  const cairn = cairnSystem(report);
  if (!cairn) return [];
  const own = ranks(report, cairn);
  if (own.cases === 0) return [];
  const out = [
    `For ${own.first} of ${changes(own.cases)} in this repository's history, a file the change touched was Cairn's first result; for ${own.topFive} of ${own.cases}, one was among its first five.`,
  ];
  const others = BASELINE_WORDS.flatMap(([kind, words]) => {
    const row = report.systems.find((s) => s.system === kind);
    if (!row) return [];
    const r = ranks(report, row.name);
    return r.cases ? [`for ${r.first} of ${r.cases} ${words}`] : [];
  });
  if (others.length) out.push(`On the same changes, a changed file came first ${others.join(', and ')}.`);
  out.push('Each past change is a test: its commit message is the query, and the files it changed are the answer.');
  return out;
}
