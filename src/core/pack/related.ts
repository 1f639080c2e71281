// A pack's related files: first the tests that exercise the must-inspect spans, then the code
// that certainly calls a must-inspect definition, then the other kept candidates, within the
// related-files limit and the token budget.
import { DEFINITION_KINDS, isTestPath } from '../index/fields';
import { bucketOf } from '../languages';
import type { SearchHit } from '../search/types';
import { estimateTokens, renderRelated, renderRelatedHeading } from './markdown';
import { byScore, dependency, LEXICAL_WEIGHT, shortReason, toRelated, type Candidate, type CandidatePool } from './candidates';
import { bestChunk, testsFor, type PackContext } from './context';
import type { PackItem, RejectedFile, RelatedFile } from './types';

/** At most this many tests of the must-inspect spans are moved to the head of the related files. */
const MAX_PREFERRED_TESTS = 3;
/** Certain callers of each must-inspect definition listed with the related files, and in all. */
const CALLERS_PER_DEFINITION = 3;
const MAX_CALLERS = 6;

export interface RelatedInput {
  mustInspect: readonly PackItem[];
  pool: CandidatePool;
  /** Must-inspect spans with no room for their text: listed first, whatever the limit. */
  movedToRelated: readonly RelatedFile[];
  /** Kept candidates beyond the must-inspect count, best first. */
  rest: readonly Candidate[];
  negative: (path: string, docid: string) => boolean;
  maxRelated: number;
  rejected: readonly RejectedFile[];
  remaining: number;
}

export interface RelatedChoice {
  related: RelatedFile[];
  /** The rejected list updated: tests and callers taken in leave it, files over a limit join it. */
  rejected: RejectedFile[];
  remaining: number;
}

export function chooseRelated(ctx: PackContext, input: RelatedInput): RelatedChoice {
  const { mustInspect, pool, movedToRelated, negative } = input;
  const rejected = [...input.rejected];
  let remaining = input.remaining;
  const related: RelatedFile[] = [];
  const relatedPaths = new Set(mustInspect.map((m) => m.path));
  // The tests that exercise the must-inspect spans come first among the related files: they show
  // how the code is meant to behave, and they are where a change to it gets checked.
  const preferredTests: RelatedFile[] = [];
  for (const t of testsExercising(ctx, mustInspect)) {
    if (relatedPaths.has(t.path) || preferredTests.some((r) => r.path === t.path) || preferredTests.length >= MAX_PREFERRED_TESTS) continue;
    const known = pool.all().filter((c) => c.hit.path === t.path).sort(byScore)[0];
    const hit = known?.hit ?? bestChunk(ctx, t.path);
    if (!hit || negative(hit.path, hit.docid)) continue;
    const c: Candidate = known ?? { hit, relation: 'test', reasons: [], parts: [dependency('test', t.strength)] };
    preferredTests.push({ ...toRelated(c), relation: 'test', reason: shortReason([t.reason, ...c.reasons.filter((r) => r !== t.reason)]) });
    // A test that was left out as a weak match is not left out any more.
    for (let i = rejected.length - 1; i >= 0; i--) if (rejected[i]?.path === t.path) rejected.splice(i, 1);
  }
  // Then the code that certainly calls a must-inspect definition: where a change to it lands.
  const callers: RelatedFile[] = [];
  for (const item of mustInspect) {
    if (!ctx.certainCallers || callers.length >= MAX_CALLERS || !DEFINITION_KINDS.has(item.kind as SearchHit['kind'])) continue;
    const def = pool.get(item.docid)?.hit;
    if (!def) continue;
    const strength = Math.min(1, item.score / LEXICAL_WEIGHT);
    for (const { chunk: hit, use } of ctx.certainCallers(def, CALLERS_PER_DEFINITION)) {
      if (callers.length >= MAX_CALLERS) break;
      if (relatedPaths.has(hit.path) || preferredTests.some((t) => t.path === hit.path) || callers.some((c) => c.path === hit.path) || negative(hit.path, hit.docid)) continue;
      const known = pool.get(hit.docid);
      const reason = `${use} \`${def.symbol}\` (${item.docid})`;
      const c: Candidate = known ?? { hit, relation: 'caller', reasons: [], parts: [dependency('caller', strength)] };
      callers.push({ ...toRelated(c), relation: 'caller', reason: shortReason([reason, ...c.reasons.filter((r) => r !== reason)]) });
      for (let i = rejected.length - 1; i >= 0; i--) if (rejected[i]?.docid === hit.docid) rejected.splice(i, 1);
    }
  }
  const relatedPool = [...movedToRelated, ...preferredTests, ...callers, ...input.rest.map(toRelated)];
  for (const r of relatedPool) {
    if (relatedPaths.has(r.path) && !movedToRelated.includes(r)) continue;
    if (related.length >= input.maxRelated + movedToRelated.length) {
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
  return { related, rejected, remaining };
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
