// Ranking registry entries for a query. Each query token that occurs in a field of an entry adds
// fieldWeight x idf; trust and quality then scale the sum (recorded as boosts, like the engine);
// an exact id adds a fixed bonus last and, whatever the other scores, sorts first.
import { resolveLanguageFilter } from '../languages';
import { tokenize } from '../index/tokenizer';
import type { EntryMetadata, RegistryHit, RegistryScoreComponent, SearchField, TrustLevel } from './types';

const FIELD_WEIGHTS: Readonly<Record<SearchField, number>> = { id: 3, title: 2.5, tags: 2, language: 1.5, description: 1, source: 1 };
const TRUST_FACTORS: Readonly<Record<TrustLevel, number>> = { verified: 1.25, community: 1, unreviewed: 0.8 };
/** Large enough to dominate any field score of a short query; the sort order guarantees the rest. */
export const EXACT_ID_BONUS = 100;
/** The query is the id's last segment (`fetch-user` for `http/fetch-user`). */
const ID_NAME_BONUS = 5;

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

function fieldTokens(entry: EntryMetadata): Record<SearchField, Set<string>> {
  return {
    id: new Set(tokenize(entry.id)),
    title: new Set(tokenize(entry.title)),
    description: new Set(tokenize(entry.description)),
    tags: new Set(entry.tags.flatMap((t) => tokenize(t))),
    language: new Set(tokenize(entry.language)),
    source: new Set(tokenize(entry.sourceId)),
  };
}

function matchesLanguage(entry: EntryMetadata, wanted: ReadonlySet<string> | undefined): boolean {
  return !wanted || resolveLanguageFilter(entry.language).some((id) => wanted.has(id));
}

/** Ranked hits (best first) and how many entries matched before the limit. */
export function rankEntries(entries: readonly EntryMetadata[], query: string, limit: number, language?: string): { hits: RegistryHit[]; total: number } {
  const wanted = language ? new Set(resolveLanguageFilter(language)) : undefined;
  const candidates = entries.filter((e) => matchesLanguage(e, wanted));
  const terms = [...new Set(tokenize(query))];
  const normalisedQuery = query.trim().toLowerCase();
  const indexed = candidates.map((entry) => ({ entry, tokens: fieldTokens(entry) }));
  const documentFrequency = new Map<string, number>();
  for (const term of terms) {
    documentFrequency.set(term, indexed.filter((d) => Object.values(d.tokens).some((set) => set.has(term))).length);
  }
  const idf = (term: string): number => Math.log(1 + indexed.length / Math.max(1, documentFrequency.get(term) ?? 0));

  const scored: Array<{ hit: RegistryHit; exact: boolean }> = [];
  for (const { entry, tokens } of indexed) {
    const components: RegistryScoreComponent[] = [];
    for (const term of terms) {
      for (const field of Object.keys(FIELD_WEIGHTS) as SearchField[]) {
        if (tokens[field].has(term)) components.push({ kind: 'field', field, term, value: round(FIELD_WEIGHTS[field] * idf(term)) });
      }
    }
    const exact = normalisedQuery === entry.id.toLowerCase();
    const idName = !exact && normalisedQuery === entry.id.split('/').pop()?.toLowerCase();
    if (components.length === 0 && !exact && !idName) continue;
    let running = components.reduce((sum, c) => sum + c.value, 0);
    for (const boost of boostsFor(entry)) {
      const value = round(running * (boost.factor - 1));
      components.push({ kind: 'boost', name: boost.name, factor: boost.factor, value });
      running += value;
    }
    if (idName) components.push({ kind: 'match', name: 'id-name', value: ID_NAME_BONUS });
    if (exact) components.push({ kind: 'match', name: 'exact-id', value: EXACT_ID_BONUS });
    const score = round(components.reduce((sum, c) => sum + c.value, 0));
    scored.push({ hit: { ...entry, score, scoreBreakdown: components }, exact });
  }
  scored.sort((a, b) => Number(b.exact) - Number(a.exact) || b.hit.score - a.hit.score || (a.hit.id < b.hit.id ? -1 : a.hit.id > b.hit.id ? 1 : 0));
  return { hits: scored.slice(0, limit).map((s) => s.hit), total: scored.length };
}

function boostsFor(entry: EntryMetadata): Array<{ name: string; factor: number }> {
  const out: Array<{ name: string; factor: number }> = [];
  const trust = TRUST_FACTORS[entry.trust];
  if (trust !== 1) out.push({ name: `trust:${entry.trust}`, factor: trust });
  const quality = round(0.75 + 0.5 * entry.quality);
  if (quality !== 1) out.push({ name: 'quality', factor: quality });
  return out;
}
