// Building a context pack for a task:
//   1. candidates: spans/files/symbols the task names exactly, then the retrieval provider's hits
//   2. expansion along the code's structure from the top hits: definitions they call, files they
//      import and that import them, tests that exercise them, docs that mention them
//   3. one score per candidate with a breakdown (lexical, exact names, dependency distance,
//      source authority, the caller's negative examples), stable order
//   4. must-inspect spans with their text under a hard token budget (cut to fit, never silently
//      dropped), related files (first the tests and the certain callers of the must-inspect
//      definitions), and the rejected candidates with reasons
import { DEFINITION_KINDS, isTestPath, isVendoredPath } from '../index/fields';
import { bucketOf } from '../languages';
import { compilePathFilter } from '../search/filters';
import { round } from '../search/search';
import type { FileHit, IndexFreshness, ScoreComponent, SearchHit, SearchOptions } from '../search/types';
import type { Diagnostic } from '../types';
import { exactNames } from '../providers/providers';
import type { ImportGraph } from './graph';
import type { CertainCaller } from './callers';
import {
  estimateTokens,
  renderCut,
  renderGuidance,
  renderHeader,
  renderItem,
  renderMustInspectHeading,
  renderRejected,
  renderRejectedHeading,
  renderRelated,
  renderRelatedHeading,
  renderPackMarkdown,
} from './markdown';
import type { ContextPack, CutItem, GuidanceEntry, PackItem, PackOptions, PackRelation, RejectedFile, RelatedFile } from './types';

/** What the pack builder needs from an engine (kept narrow so it is testable on its own). */
export interface PackContext {
  search(query: string, options: SearchOptions): Promise<{ results: SearchHit[]; warnings: string[]; diagnostics: Diagnostic[]; index: IndexFreshness }>;
  /** Files ranked for the task as `search --group file` ranks them (keywords plus the text's frames, paths and names). */
  searchFiles?(query: string, options: SearchOptions): Promise<{ files: FileHit[] }>;
  /** Exact (or qualified) definitions named `name`. */
  definitions(name: string, limit: number): SearchHit[];
  /** The chunk with exactly these lines, or the smallest containing `startLine`. */
  spanAt(path: string, startLine: number, endLine?: number): SearchHit | undefined;
  /** All chunks of an indexed file, in order. */
  chunksOf(path: string): SearchHit[];
  isIndexed(path: string): boolean;
  /** A span's text as the working tree has it: its chunk's own characters (or its lines). */
  text(hit: SearchHit): string | undefined;
  graph: ImportGraph;
  /** Chunks that certainly refer to `def` (index references that resolve to it), at most `limit`, with what each does with it. */
  certainCallers?(def: SearchHit, limit: number): CertainCaller[];
  guidance?(task: string): Promise<GuidanceEntry[]>;
}

export const DEFAULT_BUDGET = 6000;
const MIN_ITEM_TOKENS = 60;
/** The best lexical hit scores this much; everything else is relative to it. */
const LEXICAL_WEIGHT = 2;
/**
 * The best file of the file ranking gives its best span this much (relative to the file's score),
 * more than any lexical chunk: the pack's must-inspect spans are the best functions of the best
 * files, so its files come in the order file search gives them.
 */
const FILE_RANK_WEIGHT = 3;
/** Files of the file ranking whose spans become candidates, and spans taken from each. */
const RANKED_FILES = 8;
const FILE_RANK_PART = 'file rank for the task';
const SPANS_PER_RANKED_FILE = 2;
const MAX_REJECTED_LISTED = 15;
const WEAK_SHARE = 0.1;
/** At most this many tests of the must-inspect spans are moved to the head of the related files. */
const MAX_PREFERRED_TESTS = 3;
/** Certain callers of each must-inspect definition listed with the related files, and in all. */
const CALLERS_PER_DEFINITION = 3;
const MAX_CALLERS = 6;

/** Weight of each relation relative to its seed's lexical strength. */
const RELATION_WEIGHT: Record<PackRelation, number> = {
  'named-span': 0,
  'named-file': 0,
  'named-symbol': 0,
  lexical: 0,
  'called-definition': 0.45,
  caller: 0.3,
  imported: 0.3,
  importer: 0.25,
  test: 0.3,
  doc: 0.2,
};

interface Candidate {
  hit: SearchHit;
  relation: PackRelation;
  reasons: string[];
  parts: ScoreComponent[];
}

const SPAN_IN_TASK = /([\w@./-]+\.[A-Za-z0-9]{1,8}):(\d+)(?:-(\d+))?/g;
const PATH_IN_TASK = /(?:^|[\s(`'"])((?:[\w@.-]+\/)+[\w@.-]+\.[A-Za-z0-9]{1,8})(?=$|[\s)`'",:;!?])/g;
const CALLED = /\b([A-Za-z_$][\w$]*)\s*(?:\(|<[\w\s,]*>\s*\()|\bnew\s+([A-Z][\w$]*)|\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\b/g;
const COMMON_CALLS = new Set(['if', 'for', 'while', 'switch', 'return', 'function', 'catch', 'print', 'len', 'require', 'import', 'super', 'constructor', 'String', 'Number', 'Boolean', 'Object', 'Array', 'Promise', 'Error', 'Map', 'Set', 'JSON', 'Math', 'Date', 'console', 'log', 'push', 'get', 'set', 'map', 'filter', 'then']);

export async function buildPack(ctx: PackContext, task: string, options: PackOptions = {}): Promise<ContextPack> {
  const started = performance.now();
  const budget = Math.max(200, Math.floor(options.budgetTokens ?? DEFAULT_BUDGET));
  const maxMust = Math.max(1, options.maxMustInspect ?? 8);
  const maxRelated = Math.max(0, options.maxRelated ?? 12);
  const aboutTests = /\b(tests?|specs?|testing|unit ?tests?|e2e|fixtures?)\b/i.test(task);
  const aboutDocs = /\b(docs?|documentation|readme|guide|tutorial)\b/i.test(task);
  const negative = compileNegatives(options.negatives);
  const diagnostics: Diagnostic[] = [];
  const warnings: string[] = [];
  const candidates = new Map<string, Candidate>();
  const rejected: RejectedFile[] = [];

  const add = (hit: SearchHit, relation: PackRelation, reason: string, parts: ScoreComponent[]) => {
    const existing = candidates.get(hit.docid);
    if (existing) {
      // Keep the strongest relation; every reason and every score part adds up.
      if (priority(relation) > priority(existing.relation)) existing.relation = relation;
      if (!existing.reasons.includes(reason)) existing.reasons.push(reason);
      for (const p of parts) {
        const same = existing.parts.find((q) => q.kind === p.kind && 'name' in q && 'name' in p && q.name === p.name);
        if (same) same.value = Math.max(same.value, p.value);
        else existing.parts.push({ ...p });
      }
      return;
    }
    candidates.set(hit.docid, { hit, relation, reasons: [reason], parts: parts.map((p) => ({ ...p })) });
  };

  // --- 1a. exact spans, files and names in the task --------------------------------------
  for (const m of task.matchAll(SPAN_IN_TASK)) {
    const p = (m[1] as string).replace(/^\.\//, '');
    if (!ctx.isIndexed(p)) continue;
    const hit = ctx.spanAt(p, Number(m[2]), m[3] ? Number(m[3]) : undefined);
    if (hit) add(hit, 'named-span', `the task names ${m[0]}`, [{ kind: 'match', name: 'exact id in task', value: 10 }]);
  }
  for (const m of task.matchAll(PATH_IN_TASK)) {
    const p = (m[1] as string).replace(/^\.\//, '');
    if (!ctx.isIndexed(p) || [...candidates.values()].some((c) => c.hit.path === p)) continue;
    const first = ctx.chunksOf(p).find((h) => h.kind !== 'code') ?? ctx.chunksOf(p)[0];
    if (first) add(first, 'named-file', `the task names the file ${p}`, [{ kind: 'match', name: 'exact path in task', value: 8 }]);
  }
  const names = exactNames(task);
  for (const name of names) {
    for (const def of ctx.definitions(name, 3)) add(def, 'named-symbol', `defines \`${name}\`, named in the task`, [{ kind: 'match', name: `exact symbol ${name} in task`, value: 6 }]);
  }

  // --- 1b. lexical candidates --------------------------------------------------------------
  const searched = await ctx.search(plainWords(task), { provider: options.provider ?? 'hybrid', limit: 30, languages: options.languages, paths: options.paths, crossReferences: false, previewLines: 0 });
  warnings.push(...searched.warnings);
  diagnostics.push(...searched.diagnostics);
  const top = searched.results[0]?.score ?? 1;
  searched.results.forEach((hit) => {
    const lexical = round((hit.score / top) * LEXICAL_WEIGHT);
    // No search rank in the reason: the pack reorders its items, and "rank 8" on item 1 reads as a contradiction.
    add(hit, 'lexical', "matches the task's words", [{ kind: 'match', name: 'lexical match with the task', value: lexical }]);
  });

  // --- 1c. the best spans of the best files --------------------------------------------------
  if (ctx.searchFiles) {
    // The task as written: its frames, diff headers and quoted messages are read from its lines
    // and quotes, which plainWords would flatten away.
    const ranked = await ctx.searchFiles(task, { limit: RANKED_FILES, languages: options.languages, paths: options.paths, previewLines: 0 });
    const topFile = ranked.files[0]?.score || 1;
    ranked.files.forEach((file) => {
      // Tests and vendored copies come in through their own relations, as they always have.
      if (isVendoredPath(file.path) || (isTestPath(file.path) && !aboutTests)) return;
      file.spans.slice(0, SPANS_PER_RANKED_FILE).forEach((span, i) => {
        const value = round(((FILE_RANK_WEIGHT * file.score) / topFile) * (i === 0 ? 1 : 0.5));
        add(span, 'lexical', fileReason(file), [{ kind: 'match', name: FILE_RANK_PART, value }]);
      });
    });
  }

  // --- 2. expansion from the seeds -------------------------------------------------------
  // Seeds are chosen on their own matches, as before the file rank: it orders the pack, while
  // what the seeds call, import and document is found from the spans that match best.
  const ownMatch = (c: Candidate): Candidate => ({ ...c, parts: c.parts.filter((p) => !(p.kind === 'match' && p.name === FILE_RANK_PART)) });
  const seeds = [...candidates.values()].map((c) => ({ c, own: ownMatch(c) })).sort((a, b) => byScore(a.own, b.own)).slice(0, 6).map((x) => x.c);
  const seedPaths = [...new Set(seeds.map((s) => s.hit.path))];
  const sharedNameOnly: RejectedFile[] = [];
  // Only code calls: a name in prose (`res.json()` in a changelog) says nothing about what calls what.
  for (const seed of seeds.filter((s) => bucketOf(s.hit.language) === 'code')) {
    const strength = Math.min(1, total(seed.parts) / LEXICAL_WEIGHT);
    const text = ctx.text(seed.hit) ?? '';
    for (const name of calledNames(text).slice(0, 12)) {
      if (name === seed.hit.symbol) continue;
      const callee = calledDefinition(ctx, seed.hit, name);
      if (!callee) continue;
      if ('sharedName' in callee) {
        if (!sharedNameOnly.some((r) => r.docid === callee.sharedName.docid)) {
          sharedNameOnly.push({ path: callee.sharedName.path, docid: callee.sharedName.docid, reason: `only shares the common name \`${name}\` with a call in ${seed.hit.docid} (${callee.why})` });
        }
        continue;
      }
      if (callee.def.docid === seed.hit.docid) continue;
      add(callee.def, 'called-definition', `defines \`${name}\`, used by ${seed.hit.docid}`, [dependency('called-definition', strength)]);
    }
  }
  for (const p of seedPaths.slice(0, 4)) {
    const strength = Math.min(1, total(seeds.find((s) => s.hit.path === p)?.parts ?? []) / LEXICAL_WEIGHT);
    for (const imported of ctx.graph.importsOf(p).slice(0, 6)) {
      const best = bestChunk(ctx, imported);
      if (best) add(best, 'imported', `imported by ${p}`, [dependency('imported', strength)]);
    }
    for (const importer of ctx.graph.importersOf(p).slice(0, 8)) {
      const best = bestChunk(ctx, importer);
      if (!best) continue;
      const rel: PackRelation = isTestPath(importer) ? 'test' : 'importer';
      add(best, rel, rel === 'test' ? `test importing ${p}` : `imports ${p}`, [dependency(rel, strength)]);
    }
    for (const t of testsFor(ctx, p)) {
      const best = bestChunk(ctx, t);
      if (best) add(best, 'test', `test for ${p} (by name)`, [dependency('test', strength)]);
    }
  }
  const seedSymbols = [...new Set(seeds.map((s) => s.hit.symbol).filter((s) => s.length > 2))].slice(0, 4);
  if (seedSymbols.length) {
    const docs = await ctx.search(seedSymbols.join(' '), { scope: 'docs', limit: 4, crossReferences: false, previewLines: 0 });
    for (const d of docs.results) add(d, 'doc', `documentation mentioning ${seedSymbols.join(', ')}`, [dependency('doc', 0.8)]);
  }

  // --- 3. authority, negatives, final scores -------------------------------------------
  const scored: Candidate[] = [];
  for (const c of candidates.values()) {
    if (negative(c.hit.path, c.hit.docid)) {
      rejected.push({ path: c.hit.path, docid: c.hit.docid, reason: 'marked irrelevant by the caller' });
      continue;
    }
    const base = total(c.parts);
    const exact = c.parts.some((p) => p.kind === 'match' && /exact/.test(p.name));
    if (!exact) {
      if (isVendoredPath(c.hit.path)) c.parts.push({ kind: 'boost', name: 'vendored or generated', factor: 0.4, value: round(base * -0.6) });
      else if (isTestPath(c.hit.path) && !aboutTests) c.parts.push({ kind: 'boost', name: 'test code (task is not about tests)', factor: 0.6, value: round(base * -0.4) });
      else if (bucketOf(c.hit.language) === 'prose' && !aboutDocs) c.parts.push({ kind: 'boost', name: 'documentation (task is about code)', factor: 0.8, value: round(base * -0.2) });
    }
    scored.push(c);
  }
  scored.sort(byScore);
  // "Weak" is judged against the best match on its merits: exact-name bonuses would make every expansion look weak.
  const isExactPart = (p: ScoreComponent) => p.kind === 'match' && /^exact /.test(p.name);
  // The file rank orders what is kept; the weak-match bar is set by the spans' own matches.
  const isFileRank = (p: ScoreComponent) => p.kind === 'match' && p.name === FILE_RANK_PART;
  const merit = (c: Candidate) => c.parts.filter((p) => !isExactPart(p) && !isFileRank(p)).reduce((s, p) => s + p.value, 0);
  const best = Math.max(0, ...scored.map(merit));

  // Drop spans covered by a better-ranked span of the same file, and weak matches.
  const kept: Candidate[] = [];
  for (const c of scored) {
    const cover = kept.find((k) => k.hit.path === c.hit.path && k.hit.startLine <= c.hit.startLine && k.hit.endLine >= c.hit.endLine);
    if (cover) {
      rejected.push({ path: c.hit.path, docid: c.hit.docid, reason: `inside ${cover.hit.docid}, already included`, score: round(total(c.parts)) });
      continue;
    }
    // A span of a file that file search ranks for the task is never a weak match.
    if (!c.parts.some(isExactPart) && !c.parts.some(isFileRank) && merit(c) < best * WEAK_SHARE) {
      rejected.push({ path: c.hit.path, docid: c.hit.docid, reason: `weak match (score ${round(total(c.parts))} vs ${round(best)} for the best match)`, score: round(total(c.parts)) });
      continue;
    }
    kept.push(c);
  }

  for (const r of sharedNameOnly) if (!candidates.has(r.docid as string)) rejected.push(r);

  // --- 4. budget --------------------------------------------------------------------------
  // Spend in order of usefulness: must-inspect spans (up to 3/4 of the budget when there is
  // more to list), then guidance, related files, and the rejected list, each as room allows.
  const guidance = ctx.guidance ? await ctx.guidance(task).catch(() => []) : [];
  const mustCandidates: Candidate[] = [];
  const relatedCandidates: Candidate[] = [];
  for (const c of kept) {
    if (mustCandidates.length < maxMust) mustCandidates.push(c);
    else relatedCandidates.push(c);
  }
  const cut: CutItem[] = [];
  const related: RelatedFile[] = [];
  const cutCost = () => estimateTokens(renderCut(cut));
  let remaining = budget - estimateTokens(renderHeader(task, budget)) - estimateTokens(renderMustInspectHeading());
  const mustLimit = relatedCandidates.length || rejected.length || guidance.length ? Math.floor(remaining * 0.75) : remaining;
  let mustSpent = 0;
  const finalMust: PackItem[] = [];
  const movedToRelated: RelatedFile[] = [];
  for (const c of mustCandidates) {
    const item = toItem(c);
    const withText: PackItem = { ...item, text: ctx.text(c.hit) ?? '' };
    const cost = estimateTokens(renderItem(withText, finalMust.length));
    const room = () => Math.min(mustLimit - mustSpent, remaining) - cutCost();
    if (cost <= room()) {
      withText.tokens = cost;
      finalMust.push(withText);
      mustSpent += cost;
      remaining -= cost;
      continue;
    }
    const entry: CutItem = { docid: item.docid, originalTokens: cost, keptTokens: cost, action: 'truncated' };
    cut.push(entry);
    // The first span is always shown, cut down if need be, as long as the whole budget allows.
    const truncRoom = finalMust.length === 0 ? remaining - cutCost() : room();
    const truncated = truncRoom >= MIN_ITEM_TOKENS ? truncateToFit(withText, finalMust.length, truncRoom) : undefined;
    if (truncated) {
      entry.keptTokens = truncated.tokens;
      finalMust.push(truncated);
      mustSpent += truncated.tokens;
      remaining -= truncated.tokens;
      continue;
    }
    // No room for its text: it is listed with the related files (saying why), not in the cut line.
    cut.pop();
    movedToRelated.push({ ...toRelated(c), reason: `${shortReason(c.reasons)} No room for its text in the budget.` });
  }
  remaining -= cutCost();

  let guidanceShown: GuidanceEntry[] = [];
  for (const g of guidance.slice(0, 5)) {
    const next = [...guidanceShown, g];
    const delta = estimateTokens(renderGuidance(next)) - estimateTokens(renderGuidance(guidanceShown));
    if (delta > remaining) break;
    guidanceShown = next;
    remaining -= delta;
  }

  const relatedPaths = new Set(finalMust.map((m) => m.path));
  // The tests that exercise the must-inspect spans come first among the related files: they show
  // how the code is meant to behave, and they are where a change to it gets checked.
  const preferredTests: RelatedFile[] = [];
  for (const t of testsExercising(ctx, finalMust)) {
    if (relatedPaths.has(t.path) || preferredTests.some((r) => r.path === t.path) || preferredTests.length >= MAX_PREFERRED_TESTS) continue;
    const known = [...candidates.values()].filter((c) => c.hit.path === t.path).sort(byScore)[0];
    const hit = known?.hit ?? bestChunk(ctx, t.path);
    if (!hit || negative(hit.path, hit.docid)) continue;
    const c: Candidate = known ?? { hit, relation: 'test', reasons: [], parts: [dependency('test', t.strength)] };
    preferredTests.push({ ...toRelated(c), relation: 'test', reason: shortReason([t.reason, ...c.reasons.filter((r) => r !== t.reason)]) });
    // A test that was left out as a weak match is not left out any more.
    for (let i = rejected.length - 1; i >= 0; i--) if (rejected[i]?.path === t.path) rejected.splice(i, 1);
  }
  // Then the code that certainly calls a must-inspect definition: where a change to it lands.
  const callers: RelatedFile[] = [];
  for (const item of finalMust) {
    if (!ctx.certainCallers || callers.length >= MAX_CALLERS || !DEFINITION_KINDS.has(item.kind as SearchHit['kind'])) continue;
    const def = candidates.get(item.docid)?.hit;
    if (!def) continue;
    const strength = Math.min(1, item.score / LEXICAL_WEIGHT);
    for (const { chunk: hit, use } of ctx.certainCallers(def, CALLERS_PER_DEFINITION)) {
      if (callers.length >= MAX_CALLERS) break;
      if (relatedPaths.has(hit.path) || preferredTests.some((t) => t.path === hit.path) || callers.some((c) => c.path === hit.path) || negative(hit.path, hit.docid)) continue;
      const known = candidates.get(hit.docid);
      const reason = `${use} \`${def.symbol}\` (${item.docid})`;
      const c: Candidate = known ?? { hit, relation: 'caller', reasons: [], parts: [dependency('caller', strength)] };
      callers.push({ ...toRelated(c), relation: 'caller', reason: shortReason([reason, ...c.reasons.filter((r) => r !== reason)]) });
      for (let i = rejected.length - 1; i >= 0; i--) if (rejected[i]?.docid === hit.docid) rejected.splice(i, 1);
    }
  }
  const relatedPool = [...movedToRelated, ...preferredTests, ...callers, ...relatedCandidates.map(toRelated)];
  for (const r of relatedPool) {
    if (relatedPaths.has(r.path) && !movedToRelated.includes(r)) continue;
    if (related.length >= maxRelated + movedToRelated.length) {
      rejected.push({ path: r.path, docid: r.docid, reason: 'beyond the related-files limit', score: r.score });
      continue;
    }
    const cost = estimateTokens(renderRelated(r)) + (related.length ? 0 : estimateTokens(renderRelatedHeading()));
    if (cost > remaining) {
      rejected.push({ path: r.path, docid: r.docid, reason: 'no room in the token budget', score: r.score });
      continue;
    }
    related.push(r);
    relatedPaths.add(r.path);
    remaining -= cost;
  }

  const rejectedListed: RejectedFile[] = [];
  const allRejected = summariseRejected(rejected);
  for (const r of allRejected) {
    const cost = estimateTokens(renderRejected(r)) + (rejectedListed.length ? 0 : estimateTokens(renderRejectedHeading()));
    if (cost > remaining) break;
    rejectedListed.push(r);
    remaining -= cost;
  }
  const unlisted = allRejected.length - rejectedListed.length;
  if (unlisted > 0) warnings.push(`${unlisted} rejected candidates are not listed (no room in the budget)`);

  const pack: ContextPack = {
    task,
    budgetTokens: budget,
    usedTokens: 0,
    mustInspect: finalMust,
    relatedFiles: related,
    rejectedFiles: rejectedListed,
    cut,
    guidance: guidanceShown,
    index: searched.index,
    tookMs: 0,
    warnings,
    diagnostics,
  };
  // The budget is a hard limit on the rendered pack: verify, and trim from the least useful end if needed.
  while (estimateTokens(renderPackMarkdown(pack)) > budget) {
    if (pack.rejectedFiles.length) pack.rejectedFiles.pop();
    else if (pack.relatedFiles.length) pack.relatedFiles.pop();
    else if (pack.guidance.length) pack.guidance.pop();
    else if (pack.mustInspect.length) {
      const last = pack.mustInspect.pop() as PackItem;
      pack.cut.push({ docid: last.docid, originalTokens: last.tokens, keptTokens: 0, action: 'moved-to-related' });
    } else break;
  }
  pack.usedTokens = estimateTokens(renderPackMarkdown(pack));
  pack.tookMs = round(performance.now() - started);
  return pack;

  function toItem(c: Candidate): PackItem {
    const h = c.hit;
    return {
      docid: h.docid, path: h.path, startLine: h.startLine, endLine: h.endLine, symbol: h.symbol, kind: h.kind, language: h.language, context: h.context,
      relation: c.relation, reason: shortReason(c.reasons), score: round(total(c.parts)), scoreBreakdown: c.parts, tokens: 0, ...(h.stale ? { stale: true } : {}),
    };
  }

  function toRelated(c: Candidate): RelatedFile {
    return { path: c.hit.path, docid: c.hit.docid, relation: c.relation, reason: shortReason(c.reasons), score: round(total(c.parts)), scoreBreakdown: c.parts };
  }

  function truncateToFit(item: PackItem, index: number, room: number): PackItem | undefined {
    const lines = (item.text ?? '').split('\n');
    let lo = 1;
    let hi = lines.length - 1;
    let bestItem: PackItem | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const candidate: PackItem = { ...item, text: `${lines.slice(0, mid).join('\n')}\n… (${lines.length - mid} more lines)`, truncatedTo: { startLine: item.startLine, endLine: item.startLine + mid - 1 } };
      const cost = estimateTokens(renderItem(candidate, index));
      if (cost <= room) {
        bestItem = { ...candidate, tokens: cost };
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return bestItem;
  }
}

function dependency(relation: PackRelation, strength: number): ScoreComponent {
  return { kind: 'match', name: `dependency: ${relation} (distance 1)`, value: round(RELATION_WEIGHT[relation] * LEXICAL_WEIGHT * (0.25 + 0.75 * strength)) };
}

function priority(r: PackRelation): number {
  return ['doc', 'test', 'importer', 'caller', 'imported', 'called-definition', 'lexical', 'named-symbol', 'named-file', 'named-span'].indexOf(r);
}

function total(parts: readonly ScoreComponent[]): number {
  return parts.reduce((s, p) => s + p.value, 0);
}

function byScore(a: Candidate, b: Candidate): number {
  return total(b.parts) - total(a.parts) || (a.hit.path < b.hit.path ? -1 : a.hit.path > b.hit.path ? 1 : 0) || a.hit.startLine - b.hit.startLine;
}

/** The first reasons as one sentence; the rest are counted, so a reason never crowds out code. */
/** Why file search ranks a file for the task, in words: the structure the task points at, else its words. */
function fileReason(file: FileHit): string {
  const said: string[] = [];
  for (const part of file.scoreBreakdown) {
    if (part.kind !== 'match') continue;
    const colon = part.name.indexOf(': ');
    const what = colon > 0 ? part.name.slice(colon + 2) : '';
    switch (colon > 0 ? part.name.slice(0, colon) : '') {
      case 'traceback-frame':
        said.push(`a frame of the task's traceback is in it (${what})`);
        break;
      case 'diff-header':
        said.push("the task's diff changes it");
        break;
      case 'path-named-in-text':
        said.push(`the task names it (${what})`);
        break;
      case 'definition-named-in-text':
        said.push(`it defines \`${what}\`, named in the task`);
        break;
    }
  }
  return said.length ? said.join('; ') : "matches the task's words";
}

function shortReason(reasons: readonly string[]): string {
  const shown = reasons.slice(0, 2).join('; ');
  const more = reasons.length > 2 ? ` (and ${reasons.length - 2} more reasons)` : '';
  return `${shown.charAt(0).toUpperCase()}${shown.slice(1)}${more}.`;
}

/**
 * A task is prose, not a query: `src/a.ts:10-20`, `-v` or `C++` must not read as lunr fields,
 * exclusions or operators. Spans and paths in it were already taken as exact candidates.
 */
export function plainWords(task: string): string {
  return task
    .replace(/[:+~^*\\]/g, ' ')
    .replace(/(^|\s)-+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Names a chunk calls or instantiates: most frequent first, then in order of appearance; `obj.method()` calls count half. */
export function calledNames(text: string): string[] {
  const weight = new Map<string, number>();
  const first = new Map<string, number>();
  for (const m of text.matchAll(CALLED)) {
    const name = (m[1] ?? m[2] ?? m[3]) as string;
    if (!name || COMMON_CALLS.has(name) || name.length < 3) continue;
    const member = m.index !== undefined && m.index > 0 && text[m.index - 1] === '.';
    weight.set(name, (weight.get(name) ?? 0) + (member ? 0.5 : 1));
    if (!first.has(name)) first.set(name, m.index ?? 0);
  }
  return [...weight.keys()].sort((a, b) => (weight.get(b) as number) - (weight.get(a) as number) || (first.get(a) as number) - (first.get(b) as number));
}

/**
 * Methods of the languages' own objects and collections (JS Object/Array/Map/Set/String,
 * Python dict/list/str, Java Object/Collection): `items.add(x)`, `Object.keys(o)`,
 * `d.update(...)` reach these, not the one `add` some file of the repository defines. (Across
 * the development corpus, `keys`, `pop`, `update`, `toString` have one or two definitions per
 * repository and hundreds of calls that are the builtin; names like `use` or `send` do reach
 * the repository's own definition, so they are not listed.)
 */
export const BUILTIN_MEMBER_NAMES: ReadonlySet<string> = new Set([
  'add', 'append', 'apply', 'bind', 'call', 'clear', 'concat', 'contains', 'copy', 'count', 'delete', 'endswith', 'entries', 'equals', 'every', 'extend',
  'find', 'forEach', 'has', 'hashCode', 'includes', 'index', 'indexOf', 'insert', 'isEmpty', 'items', 'join', 'keys', 'length', 'lower', 'pop', 'push',
  'put', 'reduce', 'remove', 'replace', 'reverse', 'setdefault', 'shift', 'size', 'slice', 'some', 'sort', 'splice', 'split', 'startswith', 'strip',
  'toJSON', 'toString', 'trim', 'unshift', 'update', 'upper', 'valueOf', 'values',
]);

/** A name defined in this many files or more cannot be resolved by its name alone. */
export const AMBIGUOUS_NAME_FILES = 3;

/**
 * The definition a call to `name` in `seed` reaches, when the code says so: one in the seed's
 * own file, in a file it imports (or one those import: packages re-export), or (Go) in its
 * package. Without that backing a name tells only when it is distinctive: not a builtin member
 * name and defined in fewer than AMBIGUOUS_NAME_FILES files. Otherwise the shared name is all
 * there is, and it is reported as that.
 */
function calledDefinition(ctx: PackContext, seed: SearchHit, name: string): { def: SearchHit } | { sharedName: SearchHit; why: string } | undefined {
  const defs = ctx.definitions(name, 8);
  if (defs.length === 0) return undefined;
  const direct = new Set(ctx.graph.importsOf(seed.path));
  const indirect = new Set([...direct].flatMap((p) => ctx.graph.importsOf(p)));
  const dirOf = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);
  const samePackage = (d: SearchHit) => d.language === 'go' && seed.language === 'go' && dirOf(d.path) === dirOf(seed.path);
  const backed = defs.find((d) => d.path === seed.path || direct.has(d.path) || samePackage(d)) ?? defs.find((d) => indirect.has(d.path));
  if (backed) return { def: backed };
  const files = new Set(defs.map((d) => d.path)).size;
  if (!BUILTIN_MEMBER_NAMES.has(name) && files < AMBIGUOUS_NAME_FILES) return { def: defs[0] as SearchHit };
  const what = files >= AMBIGUOUS_NAME_FILES ? `defined in ${files >= 8 ? 'at least 8' : files} files` : 'also a builtin method';
  return { sharedName: defs[0] as SearchHit, why: `${what}; no import of ${seed.path} leads to it` };
}

/** The most useful chunk of a file when it is pulled in as a whole: its first definition. */
function bestChunk(ctx: PackContext, path: string): SearchHit | undefined {
  const chunks = ctx.chunksOf(path);
  return chunks.find((h) => h.kind !== 'code' && h.kind !== 'text') ?? chunks[0];
}

/**
 * Test files that exercise the must-inspect spans, in the order of the spans: for each code
 * span, the tests named after its file (`foo.test.ts`, `test_foo.py`, `foo_test.go`), then the
 * tests that import its file and name its symbol (a utility module is imported by many tests
 * that never touch the span).
 */
function testsExercising(ctx: PackContext, items: readonly PackItem[]): Array<{ path: string; reason: string; strength: number }> {
  const out: Array<{ path: string; reason: string; strength: number }> = [];
  for (const item of items) {
    if (isTestPath(item.path) || bucketOf(item.language) !== 'code') continue;
    const strength = Math.min(1, item.score / LEXICAL_WEIGHT);
    for (const t of testsFor(ctx, item.path)) out.push({ path: t, reason: `test for ${item.path} (by name)`, strength });
    const name = item.symbol.split(/[.:#]/).pop() ?? '';
    if (name.length < 3) continue;
    const mentions = new RegExp(`\\b${name.replace(/[$]/g, '\\$')}\\b`);
    for (const t of ctx.graph.importersOf(item.path).filter(isTestPath).slice(0, 8)) {
      if (ctx.chunksOf(t).some((chunk) => mentions.test(ctx.text(chunk) ?? ''))) out.push({ path: t, reason: `test importing ${item.path} and using \`${name}\``, strength });
    }
  }
  return out;
}

/** Test files named after a source file: foo.test.ts, foo.spec.js, test_foo.py, foo_test.go, FooTest.java. */
function testsFor(ctx: PackContext, path: string): string[] {
  const name = path.split('/').pop() as string;
  const stem = name.replace(/\.[^.]+$/, '');
  const ext = name.slice(stem.length);
  const candidates = new Set<string>();
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const dirs = [dir, dir.replace(/(^|\/)src(\/|$)/, '$1test$2'), dir.replace(/(^|\/)src(\/|$)/, '$1tests$2'), 'test', 'tests', `${dir}/__tests__`];
  const names = [`${stem}.test${ext}`, `${stem}.spec${ext}`, `test_${stem}${ext}`, `${stem}_test${ext}`, `${stem}Test${ext}`, `${stem}Tests${ext}`];
  for (const d of dirs) for (const n of names) candidates.add(d ? `${d}/${n}` : n);
  return [...candidates].filter((p) => p !== path && ctx.isIndexed(p));
}

function compileNegatives(negatives: readonly string[] | undefined): (path: string, docid: string) => boolean {
  const list = (negatives ?? []).map((n) => n.trim()).filter(Boolean);
  if (list.length === 0) return () => false;
  const docids = new Set(list.filter((n) => /:\d+-\d+$/.test(n)));
  const pathOk = compilePathFilter(list.filter((n) => !docids.has(n)));
  return (path, docid) => docids.has(docid) || (pathOk?.(path) ?? false);
}

function summariseRejected(rejected: RejectedFile[]): RejectedFile[] {
  const seen = new Set<string>();
  const unique = rejected.filter((r) => {
    const key = r.docid ?? r.path;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length <= MAX_REJECTED_LISTED) return unique;
  const listed = unique.slice(0, MAX_REJECTED_LISTED - 1);
  listed.push({ path: '…', reason: `${unique.length - listed.length} more candidates left out (weaker matches, duplicates or over limits)` });
  return listed;
}
