// The evaluation report as an aligned text table, one row per system.
import type { EvalReport, SystemReport } from './types';

const HEADERS = ['system', 'cases', 'R@1', 'R@5', 'R@10', 'MRR', 'Hit@10 span', 'pack cov', 'ms/query'] as const;

export const fixed = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : v.toFixed(3));

export function tableCells(s: SystemReport): string[] {
  const m = s.metrics;
  return [s.name, String(s.cases), fixed(m?.recallAt1), fixed(m?.recallAt5), fixed(m?.recallAt10), fixed(m?.mrr), fixed(m?.hitAt10), fixed(m?.packCoverage), s.meanMs.toFixed(1)];
}

/** Rows of text: the headers, a rule, then one line per row; the first column left-aligned, the others (numbers) right-aligned. */
export function alignTable(headers: readonly string[], body: ReadonlyArray<readonly string[]>): string[] {
  const rows = [headers, ...body];
  const widths = headers.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, col) => (col === 0 ? cell.padEnd(widths[col] as number) : cell.padStart(widths[col] as number))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
}

/** One line per system under a header and a rule. */
export function formatTable(systems: readonly SystemReport[]): string[] {
  return alignTable(HEADERS, systems.map(tableCells));
}

/** The human summary printed under the table: what was mined and what was skipped. */
export function formatSummary(report: EvalReport): string[] {
  const skipped = Object.entries(report.mining.skipped)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || (a[0] < b[0] ? -1 : 1))
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  return [
    `${report.evaluated} cases evaluated from ${report.mining.scanned} commits of ${report.repository} (HEAD ${report.head.slice(0, 10)})${skipped ? `; skipped: ${skipped}` : ''}${
      report.missingBlobPaths.length > 0 ? `; ${report.missingBlobPaths.length} path(s) without blobs left out of the trees` : ''
    }`,
    `R@k: share of changed files among the first k distinct files; MRR: 1/rank of the first changed file; Hit@10: a span among the first 10 results overlaps a changed line (n/a: whole files); pack cov: changed files among the pack's must-inspect spans (budget ${report.settings.budgetTokens} tokens)`,
  ];
}
