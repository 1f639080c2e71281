// `cairn eval`: replays a repository's history as retrieval tasks and scores Cairn's providers
// and two baselines on the very trees the tasks were asked against.
//
// One scratch tree is moved from parent to parent (oldest case first) and every index store
// beside it is refreshed with only the files that changed, so a run costs one cold index plus
// small increments, not one cold index per case.

import { rankByQueryWords } from './baselines';
import { DEFAULT_MAX_FILES, mineCases } from './cases';
import { TreeCorpus } from './corpus';
import { git, locateRepository } from './git';
import { objectsDir, pinHistory } from './history';
import { meanMetrics, outcomeOf, scoreAnswer, type CaseScores, type Span, type SystemAnswer } from './metrics';
import { ScratchTree } from './scratch';
import { SYSTEM_KINDS, type CaseReport, type EvalCase, type EvalReport, type RefreshSummaryLine, type SystemKind, type SystemReport } from './types';
import { rowName, variantSettings, variantsToRun, type EvalVariant } from './variants';
import { closeAll, EVAL_DISCOVERY, refreshGroups, variantEngines, type EvalEngineOptions, type StoreGroup } from './variantEngines';
import type { RefreshReport } from '../core/api';

export interface EvalOptions {
  /** A folder inside the repository's work tree. */
  repoDir: string;
  /** Where the engine finds its run-time files. */
  engine: EvalEngineOptions;
  /** Most cases to mine (the newest usable commits; default 50). */
  maxCases?: number;
  /** Commits changing more source files than this are skipped (default 5). */
  maxFiles?: number;
  since?: string;
  /** The commit to mine back from (default HEAD): pins a run to a fixed history. */
  rev?: string;
  /** Context pack budget in estimated tokens (default 6000). */
  budgetTokens?: number;
  /** Engine settings to compare; the defaults when absent. */
  variants?: EvalVariant[];
  systems?: SystemKind[];
  /** Parent folder of the scratch folder (default: the system temp folder). */
  scratchParent?: string;
  /** Leave the scratch tree and index stores on disk (their folder is in the report). */
  keepScratch?: boolean;
  /** How many results each system returns per query (default 100). */
  resultLimit?: number;
  onProgress?: (p: EvalProgress) => void;
  signal?: AbortSignal;
}

export interface EvalProgress {
  phase: 'mining' | 'evaluating';
  done: number;
  total: number;
  message: string;
}

export const DEFAULT_MAX_CASES = 50;
export const DEFAULT_EVAL_BUDGET = 6000;

const CAIRN_SYSTEMS: readonly SystemKind[] = ['index', 'files', 'hybrid', 'pack'];
/** Systems that answer with whole files, not spans (no Hit@10). */
const WHOLE_FILE_SYSTEMS: ReadonlySet<SystemKind> = new Set(['files', 'bm25', 'rg-words']);

export function systemName(system: SystemKind, variant?: string): string {
  if (system === 'bm25') return 'bm25 whole-file';
  if (system === 'rg-words') return 'rg query-words';
  return rowName(`cairn ${system}`, variant);
}

function summarise(report: RefreshReport, requestedPaths: number | undefined): RefreshSummaryLine {
  return {
    full: requestedPaths === undefined,
    requestedPaths: requestedPaths ?? report.filesScanned,
    filesScanned: report.filesScanned,
    added: report.added,
    changed: report.changed,
    removed: report.removed,
    unchanged: report.unchanged,
    durationMs: report.durationMs,
  };
}

const packSpans = (items: ReadonlyArray<Span & { truncatedTo?: Omit<Span, 'path'> }>): Span[] =>
  items.map((i) => ({ path: i.path, startLine: i.truncatedTo?.startLine ?? i.startLine, endLine: i.truncatedTo?.endLine ?? i.endLine }));

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

export async function runEvaluation(options: EvalOptions): Promise<EvalReport> {
  const started = performance.now();
  const { signal } = options;
  const warnings: string[] = [];
  const progress = options.onProgress ?? (() => {});
  const maxCases = options.maxCases ?? DEFAULT_MAX_CASES;
  const budgetTokens = options.budgetTokens ?? DEFAULT_EVAL_BUDGET;
  const resultLimit = options.resultLimit ?? 100;
  const variants = variantsToRun(options.variants);
  let systems = [...(options.systems ?? SYSTEM_KINDS)];
  if (systems.includes('rg-words') && !options.engine.ripgrepPath) {
    systems = systems.filter((s) => s !== 'rg-words');
    warnings.push('ripgrep was not found: the rg-words baseline was not run and the hybrid provider answers from the index alone');
  }

  const { gitDir, topLevel } = await locateRepository(options.repoDir);
  const head = (await git(topLevel, ['rev-parse', '--verify', '--end-of-options', `${options.rev ?? 'HEAD'}^{commit}`])).trim();
  progress({ phase: 'mining', done: 0, total: maxCases, message: 'reading the history' });
  const mined = await mineCases(topLevel, {
    maxCases,
    maxFiles: options.maxFiles,
    since: options.since,
    head,
    discovery: EVAL_DISCOVERY,
    signal,
    onCommit: (scanned, accepted) => progress({ phase: 'mining', done: accepted, total: maxCases, message: `${scanned} commits read, ${accepted} usable` }),
  });
  if (mined.cases.length === 0) warnings.push(`no usable commits among the ${mined.scanned} looked at (see mining.skipped)`);
  if ((await git(topLevel, ['rev-parse', '--is-shallow-repository'])).trim() === 'true') {
    warnings.push('this is a shallow clone: commits at its boundary look like root commits and older history is missing (git fetch --unshallow gives eval more to work with)');
  }

  const scratch = ScratchTree.create(gitDir, options.scratchParent);
  const objects = await objectsDir(gitDir);
  const groups = variantEngines(variants, scratch, options.engine);
  const corpus = new TreeCorpus(scratch.tree, EVAL_DISCOVERY, systems.includes('bm25'));
  const rows = new Map<string, { system: SystemKind; variant?: string; scores: CaseScores[]; ms: number[] }>();
  // Rows in table order: each variant's Cairn systems, then the baselines.
  for (const variant of variants) {
    for (const system of CAIRN_SYSTEMS.filter((s) => systems.includes(s))) rows.set(systemName(system, variant.name), { system, variant: variant.name, scores: [], ms: [] });
  }
  for (const system of (['bm25', 'rg-words'] as const).filter((s) => systems.includes(s))) rows.set(systemName(system), { system, scores: [], ms: [] });
  const caseReports: CaseReport[] = [];
  let skippedAtEvaluation = 0;
  const missingBlobPaths = new Set<string>();

  try {
    for (const [i, c] of mined.cases.entries()) {
      signal?.throwIfAborted();
      progress({ phase: 'evaluating', done: i, total: mined.cases.length, message: `${c.commit.slice(0, 8)} ${c.subject}` });
      const move = await scratch.moveTo(c.parent, signal);
      // The tree's history ends at the parent: what the engine reads from git (past commits)
      // is what a user at that commit would have.
      await pinHistory(scratch.tree, objects, c.parent, signal);
      for (const p of move.missingPaths) missingBlobPaths.add(p);
      await corpus.sync(move.changedPaths, signal);
      const refresh: Record<string, RefreshSummaryLine> = {};
      if (move.changedPaths?.length !== 0) {
        for (const [name, report] of await refreshGroups(groups, move.changedPaths ? { only: move.changedPaths, signal } : { signal })) refresh[name] = summarise(report, move.changedPaths?.length);
      }
      const truth = c.truth.filter((t) => corpus.searchable.has(t.path));
      const unsearchableTruth = c.truth.filter((t) => !corpus.searchable.has(t.path)).map((t) => t.path);
      const caseReport: CaseReport = {
        commit: c.commit,
        parent: c.parent,
        date: c.date,
        query: c.query,
        truth,
        unsearchableTruth,
        treeChanges: move.changedPaths?.length ?? 'all',
        refresh,
        outcomes: {},
      };
      caseReports.push(caseReport);
      if (truth.length === 0) {
        skippedAtEvaluation++;
        continue;
      }
      for (const [name, answer] of await answerCase(c, groups, systems, corpus, scratch.tree, { budgetTokens, resultLimit, rgPath: options.engine.ripgrepPath, signal })) {
        const r = rows.get(name);
        if (!r) continue;
        const scores = scoreAnswer(answer.answer, truth);
        r.scores.push(scores);
        r.ms.push(answer.answer.ms);
        caseReport.outcomes[name] = outcomeOf(scores, Math.round(answer.answer.ms * 10) / 10);
      }
    }
    progress({ phase: 'evaluating', done: mined.cases.length, total: mined.cases.length, message: 'done' });
  } finally {
    await closeAll(groups);
    if (!options.keepScratch) scratch.dispose();
  }

  const missing = [...missingBlobPaths].sort();
  if (missing.length > 0) {
    const examples = missing.slice(0, 3).join(', ');
    warnings.push(`${missing.length} path(s) left out of the scratch trees: the repository lacks their blobs (${examples}${missing.length > 3 ? ', …' : ''}); a partial clone or a snapshot without large files`);
  }
  if (skippedAtEvaluation > 0) warnings.push(`${skippedAtEvaluation} case(s) left out: none of their changed files is searchable in the parent tree`);
  const systemReports: SystemReport[] = [];
  for (const [name, r] of rows) {
    systemReports.push({
      name,
      system: r.system,
      ...(r.variant !== undefined ? { variant: r.variant } : {}),
      spans: !WHOLE_FILE_SYSTEMS.has(r.system),
      cases: r.scores.length,
      metrics: r.scores.length > 0 ? meanMetrics(r.scores) : null,
      meanMs: Math.round((r.ms.reduce((s, v) => s + v, 0) / Math.max(1, r.ms.length)) * 10) / 10,
    });
  }
  return {
    repository: topLevel,
    head,
    settings: {
      maxCases,
      maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
      ...(options.since ? { since: options.since } : {}),
      budgetTokens,
      systems,
      variants: variants.map((v) => ({ name: v.name, settings: variantSettings(v) })),
    },
    mining: { scanned: mined.scanned, accepted: mined.cases.length, skipped: mined.skipped },
    evaluated: mined.cases.length - skippedAtEvaluation,
    systems: systemReports,
    cases: caseReports,
    missingBlobPaths: missing,
    ...(options.keepScratch ? { scratch: scratch.base } : {}),
    warnings,
    tookMs: Math.round(performance.now() - started),
  };
}

interface NamedAnswer {
  system: SystemKind;
  variant?: string;
  answer: SystemAnswer;
}

/** Every requested system's answer to one case, keyed by row name, in a stable order. */
async function answerCase(
  c: EvalCase,
  groups: ReadonlyMap<string, StoreGroup>,
  systems: readonly SystemKind[],
  corpus: TreeCorpus,
  root: string,
  o: { budgetTokens: number; resultLimit: number; rgPath?: string; signal?: AbortSignal },
): Promise<Map<string, NamedAnswer>> {
  const out = new Map<string, NamedAnswer>();
  for (const group of groups.values()) {
    for (const { variant, engine } of group.engines) {
      for (const system of CAIRN_SYSTEMS.filter((s) => systems.includes(s))) {
        if (system === 'files') {
          const { value, ms } = await timed(async () => {
            const response = await engine.searchFiles(c.query, { limit: o.resultLimit, previewLines: 0, refresh: 'never', signal: o.signal });
            return { results: response.files.map((f) => ({ path: f.path })) };
          });
          out.set(systemName(system, variant.name), { system, variant: variant.name, answer: { ...value, spans: false, ms } });
          continue;
        }
        const { value, ms } =
          system === 'pack'
            ? await timed(async () => {
                const pack = await engine.buildPack(c.query, { budgetTokens: o.budgetTokens, refresh: 'never' });
                const spans = packSpans(pack.mustInspect);
                return { results: spans, pack: spans };
              })
            : await timed(async () => {
                const response = await engine.search(c.query, { provider: system as 'index' | 'hybrid', limit: o.resultLimit, previewLines: 0, refresh: 'never', signal: o.signal });
                return { results: response.results.map((h) => ({ path: h.path, startLine: h.startLine, endLine: h.endLine })) };
              });
        out.set(systemName(system, variant.name), { system, variant: variant.name, answer: { ...value, spans: true, ms } });
      }
    }
  }
  if (systems.includes('bm25')) {
    const { value, ms } = await timed(async () => corpus.bm25.search(c.query, o.resultLimit));
    out.set(systemName('bm25'), { system: 'bm25', answer: { results: value, spans: false, ms } });
  }
  if (systems.includes('rg-words') && o.rgPath) {
    const rgPath = o.rgPath;
    const { value, ms } = await timed(() => rankByQueryWords(rgPath, root, c.query, corpus.searchable, o.resultLimit, o.signal));
    out.set(systemName('rg-words'), { system: 'rg-words', answer: { results: value, spans: false, ms } });
  }
  return out;
}
