// `cairn eval --tasks FILE.jsonl`: localization tasks (an issue's text, the files and functions
// its fix changed) asked of Cairn at each task's base commit, beside whole-file BM25 on the
// same tree.
//
// Tasks are taken oldest base commit first and one scratch tree is moved between them (see
// scratch.ts), so the index store is refreshed with the files that differ, not rebuilt. The tree
// carries a history ending at its commit (history.ts): nothing after the base commit is visible.
import { createAstChunker } from '../core/chunking/astLoader';
import type { AstChunkerLike } from '../core/chunking/contract';
import type { Span } from '../core/api';
import { TreeCorpus } from './corpus';
import { definitionsTouched, rankedDefinitions, readDefinitions, type Definition } from './definitions';
import { git, locateRepository } from './git';
import { objectsDir, pinHistory } from './history';
import { DEFAULT_EVAL_BUDGET } from './runner';
import { ScratchTree } from './scratch';
import { meanTaskMetrics, scoreTask, type TaskMetrics, type TaskScores } from './taskMetrics';
import type { LocalizationTask } from './tasks';
import { closeAll, EVAL_DISCOVERY, refreshGroups, variantEngines, type EvalEngineOptions } from './variantEngines';
import { rowName, variantSettings, variantsToRun, type EvalVariant } from './variants';

/** The rankers compared, in table order (Cairn's once per variant, then the baseline). */
export const TASK_SYSTEMS = ['cairn search', 'cairn search --group file', 'cairn pack mustInspect', 'bm25 whole-file'] as const;
export type TaskSystem = (typeof TASK_SYSTEMS)[number];
const CAIRN_TASK_SYSTEMS = TASK_SYSTEMS.filter((s) => s !== 'bm25 whole-file');

/** A row's name: the system, and the variant unless it is the default (`cairn search --group file [w7]`). */
export function taskRowName(system: TaskSystem, variant?: string): string {
  return rowName(system, variant);
}

export interface TaskEvalOptions {
  /** A folder inside the repository's work tree. */
  repoDir: string;
  tasks: readonly LocalizationTask[];
  /** Only tasks of this repository (`owner/name`); all tasks when absent. */
  repo?: string;
  engine: EvalEngineOptions;
  /** Engine settings to compare; the defaults when absent. */
  variants?: EvalVariant[];
  budgetTokens?: number;
  /** How many results each system returns per task (default 100). */
  resultLimit?: number;
  scratchParent?: string;
  keepScratch?: boolean;
  onProgress?: (p: TaskProgress) => void;
  signal?: AbortSignal;
}

export interface TaskProgress {
  done: number;
  total: number;
  elapsedMs: number;
  /** Estimated time left, once a task has been done. */
  remainingMs?: number;
  message: string;
}

export interface TaskOutcome extends TaskScores {
  ms: number;
  /** Why the system gave no answer (it threw); the task counts as a miss for it. */
  error?: string;
}

export interface TaskCaseReport {
  instanceId: string;
  baseCommit: string;
  goldFiles: string[];
  /** Gold files the base tree holds no searchable file for (no system can find them). */
  unsearchableGold: string[];
  /** `path#name@line` of each gold function; absent when the task gives no patch. */
  goldFunctions?: string[];
  /** What the search said about the problem statement as a query (e.g. that it was cut to its first characters). */
  queryWarnings?: string[];
  /** By row name (taskRowName). */
  outcomes: Partial<Record<string, TaskOutcome>>;
}

export interface TaskSystemReport {
  name: string;
  system: TaskSystem;
  variant?: string;
  metrics: TaskMetrics;
  meanMs: number;
}

export interface TaskEvalReport {
  repository: string;
  repo?: string;
  tasksRead: number;
  skipped: { otherRepo: number; missingCommit: string[]; noSearchableGold: string[] };
  evaluated: number;
  budgetTokens: number;
  variants: Array<{ name: string; settings: Record<string, unknown> }>;
  systems: TaskSystemReport[];
  cases: TaskCaseReport[];
  warnings: string[];
  scratch?: string;
  tookMs: number;
}

const spansOf = (hits: ReadonlyArray<Span & { truncatedTo?: Omit<Span, 'path'> }>): Span[] =>
  hits.map((h) => ({ path: h.path, startLine: h.truncatedTo?.startLine ?? h.startLine, endLine: h.truncatedTo?.endLine ?? h.endLine }));

/** Full commit ids and committer times of the commits the object store holds; the others are missing. */
async function resolveCommits(topLevel: string, commits: readonly string[], signal?: AbortSignal): Promise<Map<string, { oid: string; time: number }>> {
  const found = new Map<string, { oid: string; time: number }>();
  const unique = [...new Set(commits)];
  const out = await git(topLevel, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: unique.map((c) => `${c}\n`).join(''), signal });
  const lines = out.split('\n');
  const oids: string[] = [];
  for (const [i, c] of unique.entries()) {
    const [oid, type] = (lines[i] ?? '').split(' ');
    if (oid && type === 'commit') {
      found.set(c, { oid, time: 0 });
      oids.push(oid);
    }
  }
  if (oids.length > 0) {
    const times = (await git(topLevel, ['show', '-s', '--no-walk=unsorted', '--format=%H %ct', ...oids], { signal })).trim().split('\n');
    const timeOf = new Map(times.map((l) => [l.split(' ')[0], Number(l.split(' ')[1])]));
    for (const v of found.values()) v.time = timeOf.get(v.oid) ?? 0;
  }
  return found;
}

export async function runTaskEvaluation(options: TaskEvalOptions): Promise<TaskEvalReport> {
  const started = performance.now();
  const { signal } = options;
  const progress = options.onProgress ?? (() => {});
  const budgetTokens = options.budgetTokens ?? DEFAULT_EVAL_BUDGET;
  const resultLimit = options.resultLimit ?? 100;
  const warnings: string[] = [];
  const { gitDir, topLevel } = await locateRepository(options.repoDir);

  const wanted = options.repo === undefined ? [...options.tasks] : options.tasks.filter((t) => t.repo.toLowerCase() === options.repo?.toLowerCase());
  const commits = await resolveCommits(topLevel, wanted.map((t) => t.baseCommit), signal);
  const missingCommit = wanted.filter((t) => !commits.has(t.baseCommit)).map((t) => t.instanceId);
  if (missingCommit.length > 0 && options.repo === undefined && new Set(wanted.map((t) => t.repo)).size > 1) {
    warnings.push(`the tasks name ${new Set(wanted.map((t) => t.repo)).size} repositories: --repo owner/name keeps the ones of this repository`);
  }
  // Oldest first, so the scratch tree moves forward through the history in small steps.
  const runnable = wanted
    .filter((t) => commits.has(t.baseCommit))
    .map((t) => ({ task: t, ...(commits.get(t.baseCommit) as { oid: string; time: number }) }))
    .sort((a, b) => a.time - b.time || (a.task.instanceId < b.task.instanceId ? -1 : 1));

  const scratch = ScratchTree.create(gitDir, options.scratchParent);
  const objects = await objectsDir(gitDir);
  const variants = variantsToRun(options.variants);
  const groups = variantEngines(variants, scratch, options.engine, 'tasks-');
  const corpus = new TreeCorpus(scratch.tree, EVAL_DISCOVERY, true);
  const rows = new Map<string, { system: TaskSystem; variant?: string; scores: TaskScores[]; ms: number[] }>();
  for (const v of variants) for (const system of CAIRN_TASK_SYSTEMS) rows.set(taskRowName(system, v.name), { system, variant: v.name, scores: [], ms: [] });
  rows.set(taskRowName('bm25 whole-file'), { system: 'bm25 whole-file', scores: [], ms: [] });
  const cases: TaskCaseReport[] = [];
  const noSearchableGold: string[] = [];
  let ast: AstChunkerLike | undefined;
  let first = true;

  try {
    for (const [i, { task, oid }] of runnable.entries()) {
      signal?.throwIfAborted();
      const elapsedMs = performance.now() - started;
      progress({ done: i, total: runnable.length, elapsedMs, ...(i > 0 ? { remainingMs: (elapsedMs / i) * (runnable.length - i) } : {}), message: task.instanceId });
      const move = await scratch.moveTo(oid, signal);
      await pinHistory(scratch.tree, objects, oid, signal);
      await corpus.sync(move.changedPaths, signal);
      if (first || (move.changedPaths?.length ?? 1) > 0) await refreshGroups(groups, first || !move.changedPaths ? { signal } : { only: move.changedPaths, signal });
      first = false;

      const gold = task.goldFiles.filter((g) => corpus.searchable.has(g.path));
      const caseReport: TaskCaseReport = {
        instanceId: task.instanceId,
        baseCommit: oid,
        goldFiles: gold.map((g) => g.path),
        unsearchableGold: task.goldFiles.filter((g) => !corpus.searchable.has(g.path)).map((g) => g.path),
        outcomes: {},
      };
      if (gold.length === 0) {
        noSearchableGold.push(task.instanceId);
        continue;
      }
      cases.push(caseReport);
      const goldPaths = new Set(gold.map((g) => g.path));

      // Definitions are read on demand, file by file, and only when the gold functions are known.
      let defsOf: ((path: string) => readonly Definition[]) | undefined;
      let goldFunctions: Set<string> | undefined;
      const defs = new Map<string, Definition[]>();
      const ensureDefs = async (paths: readonly string[]): Promise<void> => {
        const todo = [...new Set(paths)].filter((p) => !defs.has(p));
        if (todo.length === 0) return;
        ast ??= await createAstChunker(options.engine.grammarsDir);
        for (const [p, d] of await readDefinitions(scratch.tree, todo, ast)) defs.set(p, d);
      };
      if (task.fromPatch) {
        await ensureDefs(gold.map((g) => g.path));
        const touched = gold.flatMap((g) => definitionsTouched(g.ranges ?? [], defs.get(g.path) ?? []));
        goldFunctions = new Set(touched.map((d) => d.id));
        caseReport.goldFunctions = [...goldFunctions];
        defsOf = (p) => defs.get(p) ?? [];
      }
      const functionsOf = async (spans: readonly Span[]): Promise<{ ranked: string[]; gold: Set<string> } | undefined> => {
        if (!defsOf || !goldFunctions) return undefined;
        // Enough spans to name ten functions (each span names at least one when it names any).
        const head = spans.slice(0, 40);
        await ensureDefs(head.map((s) => s.path));
        return { ranked: rankedDefinitions(head, defsOf), gold: goldFunctions };
      };

      const query = task.problemStatement;
      const record = async (row: string, work: () => Promise<{ results: Array<{ path: string }>; spans?: Span[] }>): Promise<void> => {
        const t0 = performance.now();
        let answer: { results: Array<{ path: string }>; spans?: Span[] };
        let error: string | undefined;
        try {
          answer = await work();
        } catch (e) {
          // An issue's text is whatever its author wrote: a system that cannot take it has
          // failed that task (and says so), the run goes on.
          if (signal?.aborted) throw e;
          error = e instanceof Error ? e.message : String(e);
          warnings.push(`${row} failed on ${task.instanceId} (counted as a miss): ${error}`);
          answer = { results: [], spans: [] };
        }
        const ms = performance.now() - t0;
        const s = scoreTask(answer.results, goldPaths, answer.spans ? await functionsOf(answer.spans) : undefined);
        const kept = rows.get(row) as { scores: TaskScores[]; ms: number[] };
        kept.scores.push(s);
        kept.ms.push(ms);
        caseReport.outcomes[row] = { ...s, ms: Math.round(ms * 10) / 10, ...(error !== undefined ? { error } : {}) };
      };
      for (const { variant, engine } of [...groups.values()].flatMap((g) => g.engines)) {
        await record(taskRowName('cairn search', variant.name), async () => {
          const r = await engine.search(query, { provider: 'index', limit: resultLimit, previewLines: 0, refresh: 'never', signal });
          if (r.warnings.length > 0) caseReport.queryWarnings = r.warnings;
          const spans = spansOf(r.results);
          return { results: spans, spans };
        });
        await record(taskRowName('cairn search --group file', variant.name), async () => {
          const r = await engine.searchFiles(query, { provider: 'index', limit: resultLimit, previewLines: 0, refresh: 'never', signal });
          // A file's best spans stand for it, in file order, when functions are ranked.
          return { results: r.files.map((f) => ({ path: f.path })), spans: r.files.flatMap((f) => spansOf(f.spans)) };
        });
        await record(taskRowName('cairn pack mustInspect', variant.name), async () => {
          const pack = await engine.buildPack(query, { budgetTokens, refresh: 'never' });
          const spans = spansOf(pack.mustInspect);
          return { results: spans, spans };
        });
      }
      await record(taskRowName('bm25 whole-file'), async () => ({ results: corpus.bm25.search(query, resultLimit) }));
    }
    progress({ done: runnable.length, total: runnable.length, elapsedMs: performance.now() - started, message: 'done' });
  } finally {
    ast?.dispose();
    await closeAll(groups);
    if (!options.keepScratch) scratch.dispose();
  }

  if (missingCommit.length > 0) warnings.push(`${missingCommit.length} task(s) skipped: base commit not in this repository (${missingCommit.slice(0, 3).join(', ')}${missingCommit.length > 3 ? ', …' : ''})`);
  const warned = cases.filter((c) => c.queryWarnings);
  if (warned.length > 0) warnings.push(`${warned.length} task(s) searched with a warning about the problem statement as a query, e.g. ${warned[0]?.instanceId}: ${warned[0]?.queryWarnings?.[0]}`);
  if (noSearchableGold.length > 0) warnings.push(`${noSearchableGold.length} task(s) skipped: no gold file is searchable at the base commit (${noSearchableGold.slice(0, 3).join(', ')}${noSearchableGold.length > 3 ? ', …' : ''})`);
  return {
    repository: topLevel,
    ...(options.repo !== undefined ? { repo: options.repo } : {}),
    tasksRead: options.tasks.length,
    skipped: { otherRepo: options.tasks.length - wanted.length, missingCommit, noSearchableGold },
    evaluated: cases.length,
    budgetTokens,
    variants: variants.map((v) => ({ name: v.name, settings: variantSettings(v) })),
    systems: [...rows].map(([name, row]) => ({
      name,
      system: row.system,
      ...(row.variant !== undefined ? { variant: row.variant } : {}),
      metrics: meanTaskMetrics(row.scores),
      meanMs: Math.round((row.ms.reduce((s, v) => s + v, 0) / Math.max(1, row.ms.length)) * 10) / 10,
    })),
    cases,
    warnings,
    ...(options.keepScratch ? { scratch: scratch.base } : {}),
    tookMs: Math.round(performance.now() - started),
  };
}
