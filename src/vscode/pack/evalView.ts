// The retrieval-quality view: the `cairn eval` table as static HTML (no script at all; the
// CSP forbids every script), built by the extension with every dynamic text escaped.
import { formatSummary, tableCells } from '../../eval/table';
import type { EvalReport, SystemMetrics, SystemReport } from '../../eval/types';
import { plainSummary } from './evalSummary';
import { escapeHtml as e } from './html';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const tenths = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * A table in a box of its own that scrolls sideways when the view is a little narrower than the
 * table; in a narrow view (pack-eval.css) each row stacks its cells, each named by its `data-label`.
 */
const scrolling = (table: string): string => `<div class="table-scroll" tabindex="0">${table}</div>`;

const COLUMNS: Array<{ label: string; title: string; metric?: keyof SystemMetrics; lowerIsBetter?: boolean }> = [
  { label: 'System', title: 'Cairn systems first, then the baselines' },
  { label: 'Cases', title: 'Cases scored' },
  { label: 'R@1', title: 'Share of changed files that are the first distinct file returned', metric: 'recallAt1' },
  { label: 'R@5', title: 'Share of changed files among the first 5 distinct files', metric: 'recallAt5' },
  { label: 'R@10', title: 'Share of changed files among the first 10 distinct files', metric: 'recallAt10' },
  { label: 'MRR', title: 'Mean of 1/rank of the first changed file', metric: 'mrr' },
  { label: 'Hit@10 span', title: 'A span among the first 10 results overlaps a changed line (n/a: whole-file systems)', metric: 'hitAt10' },
  { label: 'Pack cov', title: "Changed files among the pack's must-inspect spans", metric: 'packCoverage' },
  { label: 'ms/query', title: 'Mean time per query' },
];

const BASELINES = new Set(['bm25', 'rg-words']);

/** The best value of each metric column, to mark it in the table. */
function bestValues(systems: readonly SystemReport[]): Map<keyof SystemMetrics, number> {
  const best = new Map<keyof SystemMetrics, number>();
  for (const col of COLUMNS) {
    if (!col.metric) continue;
    const values = systems.map((s) => s.metrics?.[col.metric as keyof SystemMetrics]).filter((v): v is number => typeof v === 'number');
    if (values.length > 1) best.set(col.metric, Math.max(...values));
  }
  return best;
}

function systemsTable(report: EvalReport): string {
  const best = bestValues(report.systems);
  const head = COLUMNS.map((c, i) => `<th scope="col" title="${e(c.title)}"${i > 0 ? ' class="num"' : ''}>${e(c.label)}</th>`).join('');
  const rows = report.systems
    .map((s) => {
      const cells = tableCells(s)
        .map((cell, i) => {
          if (i === 0) return `<th scope="row">${e(cell)}${BASELINES.has(s.system) ? ' <span class="badge baseline">baseline</span>' : ''}</th>`;
          const metric = COLUMNS[i]?.metric;
          const value = metric ? s.metrics?.[metric] : undefined;
          const isBest = metric !== undefined && typeof value === 'number' && best.get(metric) === value && value > 0;
          return `<td class="num${isBest ? ' best' : ''}${cell === 'n/a' ? ' na' : ''}" data-label="${e(COLUMNS[i]?.label ?? '')}">${e(cell)}</td>`;
        })
        .join('');
      return `<tr class="${BASELINES.has(s.system) ? 'baseline-row' : 'cairn-row'}">${cells}</tr>`;
    })
    .join('\n');
  return scrolling(`<table class="metrics" id="eval-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`);
}

function casesTable(report: EvalReport): string {
  if (report.cases.length === 0) return '';
  const systems = report.systems.map((s) => s.name);
  const head = ['Commit', 'Query', 'Changed files', ...systems].map((h, i) => `<th scope="col"${i > 2 ? ' class="num"' : ''}>${e(h)}</th>`).join('');
  const rows = report.cases
    .map((c) => {
      const ranks = systems.map((name) => {
        const rank = c.outcomes[name]?.firstRelevantRank;
        return `<td class="num${rank === 1 ? ' best' : rank === null || rank === undefined ? ' na' : ''}" data-label="${e(name)}">${rank === null || rank === undefined ? '–' : rank}</td>`;
      });
      return `<tr><td data-label="Commit"><code>${e(c.commit.slice(0, 10))}</code></td><td class="query" data-label="Query">${e(c.query)}</td><td class="paths" data-label="Changed files">${c.truth.map((t) => `<code>${e(t.path)}</code>`).join('<br>')}</td>${ranks.join('')}</tr>`;
    })
    .join('\n');
  return `<details class="cases"><summary>Cases (${integer.format(report.cases.length)}): rank of the first changed file per system</summary>${scrolling(`<table class="metrics cases-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`)}</details>`;
}

export function evalResultBody(report: EvalReport, folderName: string): string {
  const [summary, legend] = formatSummary(report);
  const warnings = report.warnings.length ? `<ul class="problems">${report.warnings.map((w) => `<li class="note warn">${e(w)}</li>`).join('')}</ul>` : '';
  const empty =
    report.evaluated === 0
      ? `<div class="state state-engine"><h2>No case could be evaluated</h2><p>Cairn looked at ${integer.format(report.mining.scanned)} commits and found none it could score. The history needs commits that change a few source files with a descriptive message.</p></div>`
      : '';
  return `
    <main class="eval">
      <header class="eval-head">
        <h1>Retrieval quality: ${e(folderName)}</h1>
        <p class="meta">${e(summary ?? '')}</p>
        <p class="meta">Took ${tenths.format(report.tookMs / 1000)} s. Budget for packs: ${integer.format(report.settings.budgetTokens)} tokens.</p>
      </header>
      ${empty}
      ${plainSummaryBlock(report)}
      ${report.systems.length ? systemsTable(report) : ''}
      <p class="hint">${e(legend ?? '')}</p>
      ${warnings}
      ${casesTable(report)}
    </main>`;
}

/** The result in plain words, above the expert table. */
function plainSummaryBlock(report: EvalReport): string {
  const lines = plainSummary(report);
  return lines.length ? `<section class="plain-summary" id="eval-summary">${lines.map((l) => `<p>${e(l)}</p>`).join('')}</section>` : '';
}

export function evalRunningBody(folderName: string): string {
  return `
    <main class="eval">
      <div class="state state-indexing" role="status">
        <h2>Evaluating ${e(folderName)}…</h2>
        <p>Cairn replays recent commits: each commit message is a query, and the lines it changed are the answer. This runs in a separate process and takes a few minutes on a long history; the notification shows how far it is and about how long is left.</p>
        <div class="progress" aria-hidden="true"><span></span></div>
      </div>
    </main>`;
}

export function evalErrorBody(folderName: string, message: string, hint?: string): string {
  return `
    <main class="eval">
      <div class="state state-engine" role="alert" id="eval-error">
        <h2>Could not evaluate ${e(folderName)}</h2>
        <p>${e(message)}</p>
        ${hint ? `<p class="meta">${e(hint)}</p>` : ''}
      </div>
    </main>`;
}
