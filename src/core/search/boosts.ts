// The boosts a user would expect on top of a chunk's BM25F score: a definition of the name
// asked for first, tests and vendored code down unless asked for, prose down for a code query.
import { DEFINITION_KINDS, FLAG_TEST, FLAG_VENDORED, bucketOfFlags } from '../index/fields';
import type { Segment } from '../index/segment';
import type { RankingParams } from './types';

export interface Boost {
  name: string;
  factor: number;
}

export interface BoostContext {
  identifiers: ReadonlySet<string>;
  /** Identifiers spelt by adjacent query words (not typed as such). */
  joinedNames: ReadonlySet<string>;
  mentionsTests: boolean;
  /** Code before prose: asked for (`code`), or the query looks like code (`auto`). */
  codeFirst?: 'code' | 'auto';
  ranking: RankingParams;
}

/**
 * A candidate's base score times the boosts that apply to it, in a fixed order. With `out`,
 * the boosts are also listed (for a hit's breakdown); without, nothing is allocated.
 */
export function boostedScore(seg: Segment, doc: number, namedByQuery: boolean, base: number, ctx: BoostContext, out?: Boost[]): number {
  const { ranking } = ctx;
  let score = base;
  const isDefinition = DEFINITION_KINDS.has(seg.kindOf(doc));
  const name = isDefinition && namedByQuery ? normalisedName(seg.symbolOf(doc)) : '';
  if (name && ctx.identifiers.has(name)) score *= listed(out, 'exact-definition', ranking.exactDefinition);
  else if (name && ctx.joinedNames.has(name)) score *= listed(out, 'exact-definition:joined-words', ranking.joinedName);
  else if (isDefinition) score *= listed(out, 'definition', ranking.definition);
  const flags = seg.docFlags.at(doc);
  if (flags & FLAG_TEST && !ctx.mentionsTests) score *= listed(out, 'test-file', ranking.test);
  if (flags & FLAG_VENDORED) score *= listed(out, 'vendored-or-generated', ranking.vendored);
  if (ctx.codeFirst === 'code') {
    const bucket = bucketOfFlags(flags);
    if (bucket === 'prose') score *= listed(out, 'code-first:prose', ranking.codeFirstProse);
    if (bucket === 'config') score *= listed(out, 'code-first:config', ranking.codeFirstConfig);
  } else if (ctx.codeFirst === 'auto' && bucketOfFlags(flags) === 'prose') {
    score *= listed(out, 'code-like-query:prose', ranking.autoCodeFirstProse);
  }
  return score;
}

/**
 * The largest factor `boostedScore` can multiply a base score by: one factor per group at most.
 * Without `namedByQuery` the exact-definition boost cannot apply.
 */
export function maxBoostOf(r: RankingParams, namedByQuery = true): number {
  const definition = namedByQuery ? Math.max(1, r.exactDefinition, r.joinedName, r.definition) : Math.max(1, r.definition);
  return definition * Math.max(1, r.test) * Math.max(1, r.vendored) * Math.max(1, r.codeFirstProse, r.codeFirstConfig, r.autoCodeFirstProse);
}

/** Notes a boost in `out` (when listing them) and returns its factor. */
function listed(out: Boost[] | undefined, name: string, factor: number): number {
  out?.push({ name, factor });
  return factor;
}

/** A symbol as the tokenizer sees it whole: lower-cased, leading/trailing `_`/`$` dropped. */
function normalisedName(symbol: string): string {
  return symbol.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
}
