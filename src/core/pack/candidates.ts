// A pack's candidates: each span with its strongest relation to the task, every reason it was
// found for, and its score parts; and how candidates are scored, ordered and turned into items.
import { round } from '../search/search';
import type { ScoreComponent, SearchHit } from '../search/types';
import type { PackItem, PackRelation, RelatedFile } from './types';

/** The best lexical hit scores this much; everything else is relative to it. */
export const LEXICAL_WEIGHT = 2;
/** The score part the file ranking gives a span (it orders the pack; it sets no weak-match bar). */
export const FILE_RANK_PART = 'file rank for the task';

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

export interface Candidate {
  hit: SearchHit;
  relation: PackRelation;
  reasons: string[];
  parts: ScoreComponent[];
}

/** Candidates by docid: a span found again keeps its strongest relation and gains the new reason and parts. */
export class CandidatePool {
  private readonly byDocid = new Map<string, Candidate>();

  add(hit: SearchHit, relation: PackRelation, reason: string, parts: ScoreComponent[]): void {
    const existing = this.byDocid.get(hit.docid);
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
    this.byDocid.set(hit.docid, { hit, relation, reasons: [reason], parts: parts.map((p) => ({ ...p })) });
  }

  get(docid: string): Candidate | undefined {
    return this.byDocid.get(docid);
  }

  has(docid: string): boolean {
    return this.byDocid.has(docid);
  }

  /** In the order found. */
  all(): Candidate[] {
    return [...this.byDocid.values()];
  }
}

/** The score part of a span found along `relation` from a seed of this strength (0..1). */
export function dependency(relation: PackRelation, strength: number): ScoreComponent {
  return { kind: 'match', name: `dependency: ${relation} (distance 1)`, value: round(RELATION_WEIGHT[relation] * LEXICAL_WEIGHT * (0.25 + 0.75 * strength)) };
}

function priority(r: PackRelation): number {
  return ['doc', 'test', 'importer', 'caller', 'imported', 'called-definition', 'lexical', 'named-symbol', 'named-file', 'named-span'].indexOf(r);
}

export function total(parts: readonly ScoreComponent[]): number {
  return parts.reduce((s, p) => s + p.value, 0);
}

/** Best score first; ties by path, then line: the same candidates always come in the same order. */
export function byScore(a: Candidate, b: Candidate): number {
  return total(b.parts) - total(a.parts) || (a.hit.path < b.hit.path ? -1 : a.hit.path > b.hit.path ? 1 : 0) || a.hit.startLine - b.hit.startLine;
}

/** The first reasons as one sentence; the rest are counted, so a reason never crowds out code. */
export function shortReason(reasons: readonly string[]): string {
  const shown = reasons.slice(0, 2).join('; ');
  const more = reasons.length > 2 ? ` (and ${reasons.length - 2} more reasons)` : '';
  return `${shown.charAt(0).toUpperCase()}${shown.slice(1)}${more}.`;
}

/** A candidate as a must-inspect item (its text is added when it is placed). */
export function toItem(c: Candidate): PackItem {
  const h = c.hit;
  return {
    docid: h.docid, path: h.path, startLine: h.startLine, endLine: h.endLine, symbol: h.symbol, kind: h.kind, language: h.language, context: h.context,
    relation: c.relation, reason: shortReason(c.reasons), score: round(total(c.parts)), scoreBreakdown: c.parts, tokens: 0, ...(h.stale ? { stale: true } : {}),
  };
}

export function toRelated(c: Candidate): RelatedFile {
  return { path: c.hit.path, docid: c.hit.docid, relation: c.relation, reason: shortReason(c.reasons), score: round(total(c.parts)), scoreBreakdown: c.parts };
}
