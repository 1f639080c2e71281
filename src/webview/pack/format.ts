// Words and numbers as the pack view shows them.
import type { PackRelation, ScoreComponent, RegistryScoreComponent } from '../../core/api';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count or an amount with thousands separators: `12,345`. (Line numbers stay as in `path:start-end`.) */
export const count = (n: number): string => integer.format(n);

export const tokens = count;

/** `3 lines`, `1 line`, `1,204 files`. */
export const counted = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

export const score = (n: number): string => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));

/** `src/a.ts:10-24` — the span as every Cairn front end writes it. */
export const spanLabel = (s: { path: string; startLine: number; endLine: number }): string => `${s.path}:${s.startLine}-${s.endLine}`;

export const RELATION_LABEL: Record<PackRelation, string> = {
  'named-span': 'named span',
  'named-file': 'named file',
  'named-symbol': 'named symbol',
  lexical: 'matches task',
  'called-definition': 'called',
  caller: 'caller',
  imported: 'imported',
  importer: 'importer',
  test: 'test',
  doc: 'doc',
};

/** One addend of a score, in words: `symbol “greet”`, `exact definition ×2`, `lexical match with the task`. */
export function componentLabel(c: ScoreComponent | RegistryScoreComponent): string {
  switch (c.kind) {
    case 'field':
      return `${c.field} “${c.term}”`;
    case 'boost':
      return `${c.name} ×${c.factor}`;
    case 'match':
      return c.name;
  }
}

/** "just now", "12 s ago", "3 min ago" for a time in the past. */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 5) return 'just now';
  if (s < 90) return `${s} s ago`;
  const m = Math.round(s / 60);
  return m < 90 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
}
