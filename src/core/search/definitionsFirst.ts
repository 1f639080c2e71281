// A query that names a definition (`parseConfig`) gets that definition first, lifted above
// every chunk the words merely match.
import type { Segment } from '../index/segment';
import { boostedScore, type BoostContext } from './boosts';
import { isKeyOnly, type NamedDefinition } from './namedDefinitions';
import type { Ranked } from './rankedChunk';
import type { SnapshotScorer } from './scorer';

/**
 * `ranked` with the chunks of `definitions` moved (or, when pruning passed them over, added)
 * to the top, in their own score order, each lifted by the best other chunk's score (at least
 * 1) so the scores still descend. `unmatched` counts the definitions the query's words did not
 * match (a name too long to be indexed as a word), which the caller adds to the total.
 */
export function definitionsFirst(
  ranked: Ranked[],
  definitions: readonly NamedDefinition[],
  scorer: SnapshotScorer,
  scoring: ReturnType<SnapshotScorer['score']>,
  ctx: BoostContext,
  k: number,
): { ranked: Ranked[]; unmatched: number } {
  if (definitions.length === 0) return { ranked, unmatched: 0 };
  const key = (seg: number, doc: number) => `${seg}:${doc}`;
  const wanted = new Set(definitions.map((d) => key(d.seg, d.doc)));
  const pinned: Ranked[] = [];
  const rest: Ranked[] = [];
  for (const x of ranked) (wanted.has(key(x.c.seg, x.c.doc)) ? pinned : rest).push(x);
  const present = new Set(pinned.map((x) => key(x.c.seg, x.c.doc)));
  let unmatched = 0;
  for (const d of definitions) {
    if (present.has(key(d.seg, d.doc))) continue;
    const parts = scorer.breakdown(scoring, d.seg, d.doc);
    const base = parts.reduce((t, p) => t + p.value, 0);
    // A definition the words did not match (a name too long to index) still holds the name.
    if (!(base > 0)) unmatched++;
    let bits = base > 0 ? 0 : ~0;
    for (const t of scoring.terms) if (t.presenceBit >= 0 && parts.some((p) => p.kind === 'field' && p.term === t.label)) bits |= 1 << t.presenceBit;
    const seg = scorer.snapshot.segments[d.seg] as Segment;
    pinned.push({ c: { seg: d.seg, doc: d.doc, base, bits, namedByQuery: true }, score: boostedScore(seg, d.doc, true, base, ctx) });
  }
  const at = new Map(definitions.filter((d) => d.nameLine !== undefined).map((d) => [key(d.seg, d.doc), { line: d.nameLine as number, column: d.nameColumn ?? 1 }]));
  for (const x of pinned) {
    const named = at.get(key(x.c.seg, x.c.doc));
    if (named) x.namedAt = named;
  }
  // A key of an anonymous object literal (`res.format({ html: function () {…} })`) defines the
  // name for that call only: a function, class or method with an owner comes first.
  const nestedKeys = new Set(definitions.filter((d) => d.nameLine !== undefined).map((d) => `${key(d.seg, d.doc)}:${d.keyOnly === true}`));
  const keyOnly = (x: Ranked) => {
    const k = key(x.c.seg, x.c.doc);
    if (at.has(k)) return nestedKeys.has(`${k}:true`) && !nestedKeys.has(`${k}:false`);
    const seg = scorer.snapshot.segments[x.c.seg] as Segment;
    return isKeyOnly(seg.kindOf(x.c.doc), seg.contextOf(x.c.doc));
  };
  const keys = pinned.filter(keyOnly).sort((a, b) => b.score - a.score);
  const owned = pinned.filter((x) => !keys.includes(x)).sort((a, b) => b.score - a.score);
  // Each tier is lifted past the one below, so the scores still descend.
  const lowLift = Math.max(1, rest[0]?.score ?? 0);
  const highLift = keys.length ? lowLift + Math.max(1, keys[0]?.score ?? 0) : lowLift;
  for (const x of keys) {
    x.lift = lowLift;
    x.score += lowLift;
  }
  for (const x of owned) {
    x.lift = highLift;
    x.score += highLift;
  }
  pinned.splice(0, pinned.length, ...owned, ...keys);
  return { ranked: [...pinned, ...rest].slice(0, Math.max(k, pinned.length)), unmatched };
}
