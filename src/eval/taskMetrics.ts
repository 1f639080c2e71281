// Localization metrics for tasks, in the form papers on SWE-bench localization report them:
//
//   Acc@k   the task counts when *all* its gold items are among the first k (distinct files,
//           or distinct functions); a mean over tasks
//   MRR     1 / rank of the first gold file (0 when absent), from the history eval's metrics
//
// Function figures are over the tasks whose gold functions are known (from a patch), and only
// for systems that answer with spans; elsewhere they are null (n/a).
import { rankedFiles, reciprocalRank, firstRelevantRank } from './metrics';

export const FILE_KS = [1, 3, 5, 10] as const;
export const FUNCTION_KS = [5, 10] as const;

/** True when every gold item is among the first k ranked items. */
export function allAt(ranked: readonly string[], gold: ReadonlySet<string>, k: number): boolean {
  if (gold.size === 0) return false;
  const top = new Set(ranked.slice(0, k));
  for (const g of gold) if (!top.has(g)) return false;
  return true;
}

/** One system's scores on one task. */
export interface TaskScores {
  /** Acc@1, @3, @5, @10 over files (1 or 0). */
  fileAcc: number[];
  reciprocalRank: number;
  firstRelevantRank: number | null;
  /** Acc@5, @10 over functions; null when the task's gold functions are unknown or the system answers with whole files. */
  functionAcc: number[] | null;
  topFiles: string[];
  topFunctions?: string[];
}

export function scoreTask(results: ReadonlyArray<{ path: string }>, goldFiles: ReadonlySet<string>, functions?: { ranked: readonly string[]; gold: ReadonlySet<string> }): TaskScores {
  const files = rankedFiles(results);
  return {
    fileAcc: FILE_KS.map((k) => (allAt(files, goldFiles, k) ? 1 : 0)),
    reciprocalRank: reciprocalRank(files, goldFiles),
    firstRelevantRank: firstRelevantRank(files, goldFiles),
    functionAcc: functions && functions.gold.size > 0 ? FUNCTION_KS.map((k) => (allAt(functions.ranked, functions.gold, k) ? 1 : 0)) : null,
    topFiles: files.slice(0, 10),
    ...(functions && functions.gold.size > 0 ? { topFunctions: functions.ranked.slice(0, 10) } : {}),
  };
}

/** Means over tasks: file figures over all, function figures over the tasks that have them (null when none). */
export interface TaskMetrics {
  tasks: number;
  fileAccAt1: number;
  fileAccAt3: number;
  fileAccAt5: number;
  fileAccAt10: number;
  mrr: number;
  functionTasks: number;
  functionAccAt5: number | null;
  functionAccAt10: number | null;
}

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length);

export function meanTaskMetrics(scores: readonly TaskScores[]): TaskMetrics {
  const fileAt = (i: number): number => mean(scores.map((s) => s.fileAcc[i] ?? 0));
  const withFunctions = scores.flatMap((s) => (s.functionAcc ? [s.functionAcc] : []));
  const functionAt = (i: number): number | null => (withFunctions.length === 0 ? null : mean(withFunctions.map((f) => f[i] ?? 0)));
  return {
    tasks: scores.length,
    fileAccAt1: fileAt(0),
    fileAccAt3: fileAt(1),
    fileAccAt5: fileAt(2),
    fileAccAt10: fileAt(3),
    mrr: mean(scores.map((s) => s.reciprocalRank)),
    functionTasks: withFunctions.length,
    functionAccAt5: functionAt(0),
    functionAccAt10: functionAt(1),
  };
}
