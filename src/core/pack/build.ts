// Building a context pack for a task, in named steps:
//   1. candidates: spans/files/symbols the task names exactly, then the retrieval provider's hits
//      and the best spans of the files ranked for the task (gather.ts)
//   2. expansion along the code's structure from the top hits: definitions they call, files they
//      import and that import them, tests that exercise them, docs that mention them (gather.ts)
//   3. one score per candidate with a breakdown (lexical, exact names, dependency distance,
//      source authority, the caller's negative examples), stable order (rank.ts)
//   4. must-inspect spans: the best span of each file in file search's order, then the rest by
//      score (order.ts), with their text under a hard token budget, one span of each top file
//      before any file gets a second (cut to fit, never silently dropped), related files (first the tests and the certain callers of the must-inspect
//      definitions), and the rejected candidates with reasons (budget.ts, related.ts)
import { compilePathFilter } from '../search/filters';
import { round } from '../search/search';
import { estimateTokens, renderHeader, renderMustInspectHeading, renderPackMarkdown } from './markdown';
import type { PackContext } from './context';
import { gatherCandidates, RANKED_FILES } from './gather';
import { orderMustInspect } from './order';
import { rankCandidates } from './rank';
import { fitGuidance, fitMustInspect, listRejected, trimToBudget } from './budget';
import { chooseRelated } from './related';
import type { ContextPack, PackOptions } from './types';

export type { PackContext } from './context';

export const DEFAULT_BUDGET = 6000;
/** Room for a span of each file a result page of file search shows, and a few more spans. */
const DEFAULT_MAX_MUST_INSPECT = RANKED_FILES + 4;

export async function buildPack(ctx: PackContext, task: string, options: PackOptions = {}): Promise<ContextPack> {
  const started = performance.now();
  const budget = Math.max(200, Math.floor(options.budgetTokens ?? DEFAULT_BUDGET));
  const maxMust = Math.max(1, options.maxMustInspect ?? DEFAULT_MAX_MUST_INSPECT);
  const maxRelated = Math.max(0, options.maxRelated ?? 12);
  const aboutTests = /\b(tests?|specs?|testing|unit ?tests?|e2e|fixtures?)\b/i.test(task);
  const aboutDocs = /\b(docs?|documentation|readme|guide|tutorial)\b/i.test(task);
  const negative = compileNegatives(options.negatives);

  const { pool, searched, sharedNameOnly, fileOrder } = await gatherCandidates(ctx, task, options);
  const ranked = rankCandidates(pool, { negative, aboutTests, aboutDocs }, sharedNameOnly);

  // Spend in order of usefulness: must-inspect spans (up to 3/4 of the budget when there is
  // more to list), then guidance, related files, and the rejected list, each as room allows.
  const guidance = ctx.guidance ? await ctx.guidance(task).catch(() => []) : [];
  const { must, firstRound, rest } = orderMustInspect(ranked.kept, fileOrder, maxMust);
  const start = budget - estimateTokens(renderHeader(task, budget)) - estimateTokens(renderMustInspectHeading());
  const mustLimit = rest.length || ranked.rejected.length || guidance.length ? Math.floor(start * 0.75) : start;
  const fitted = fitMustInspect(ctx, must, mustLimit, start, firstRound);
  const shown = fitGuidance(guidance, fitted.remaining);
  const related = chooseRelated(ctx, { mustInspect: fitted.items, pool, movedToRelated: fitted.movedToRelated, rest, negative, maxRelated, rejected: ranked.rejected, remaining: shown.remaining });
  const listed = listRejected(related.rejected, related.remaining);
  const warnings = [...searched.warnings];
  if (listed.unlisted > 0) warnings.push(`${listed.unlisted} rejected candidates are not listed (no room in the budget)`);

  const pack: ContextPack = {
    task,
    budgetTokens: budget,
    usedTokens: 0,
    mustInspect: fitted.items,
    relatedFiles: related.related,
    rejectedFiles: listed.listed,
    cut: fitted.cut,
    guidance: shown.shown,
    index: searched.index,
    tookMs: 0,
    warnings,
    diagnostics: [...searched.diagnostics],
  };
  trimToBudget(pack, budget);
  pack.usedTokens = estimateTokens(renderPackMarkdown(pack));
  pack.tookMs = round(performance.now() - started);
  return pack;
}

/** The caller's negative examples as one test: a docid (`path:start-end`) or a path glob. */
function compileNegatives(negatives: readonly string[] | undefined): (path: string, docid: string) => boolean {
  const list = (negatives ?? []).map((n) => n.trim()).filter(Boolean);
  if (list.length === 0) return () => false;
  const docids = new Set(list.filter((n) => /:\d+-\d+$/.test(n)));
  const pathOk = compilePathFilter(list.filter((n) => !docids.has(n)));
  return (path, docid) => docids.has(docid) || (pathOk?.(path) ?? false);
}
