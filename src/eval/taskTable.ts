// The task evaluation as text: one row per ranker, in the history eval's table layout.
import { alignTable, fixed } from './table';
import type { TaskEvalReport } from './taskRunner';

const HEADERS = ['ranker', 'tasks', 'file Acc@1', 'Acc@3', 'Acc@5', 'Acc@10', 'MRR', 'fn tasks', 'fn Acc@5', 'fn Acc@10', 'ms/task'] as const;

export function formatTaskTable(report: TaskEvalReport): string[] {
  return alignTable(
    HEADERS,
    report.systems.map((s) => {
      const m = s.metrics;
      return [s.name, String(m.tasks), fixed(m.fileAccAt1), fixed(m.fileAccAt3), fixed(m.fileAccAt5), fixed(m.fileAccAt10), fixed(m.mrr), String(m.functionTasks), fixed(m.functionAccAt5), fixed(m.functionAccAt10), s.meanMs.toFixed(1)];
    }),
  );
}

/** The lines under the table: what was run, what was skipped and what the columns mean. */
export function formatTaskSummary(report: TaskEvalReport): string[] {
  const skipped = [
    report.skipped.otherRepo > 0 ? `${report.skipped.otherRepo} of another repository` : '',
    report.skipped.missingCommit.length > 0 ? `${report.skipped.missingCommit.length} with a base commit not in this repository` : '',
    report.skipped.noSearchableGold.length > 0 ? `${report.skipped.noSearchableGold.length} with no searchable gold file` : '',
  ].filter(Boolean);
  return [
    `${report.evaluated} of ${report.tasksRead} tasks evaluated on ${report.repository}${report.repo ? ` (${report.repo})` : ''}${skipped.length ? `; skipped: ${skipped.join(', ')}` : ''}`,
    `Acc@k: share of tasks whose gold files (functions) are all among the first k distinct files (functions); MRR: 1/rank of the first gold file; fn: tasks with a patch, spans mapped to the definitions they fall in (n/a: none, or whole files); pack budget ${report.budgetTokens} tokens`,
  ];
}
