// Which parts of a score breakdown are evidence a front end should name: the localization and
// history signals, each a `match` part written `signal: what it was` (`traceback-frame:
// src/app.py:12 in load`, `past-commit-words: actions`). Keyword parts (fields, boosts, the
// best chunk, the damped others, a provider's own) are how much words matched, not why a file
// or a span was chosen.
import type { ScoreComponent } from './types';

/** The signals localization (localize.ts) and the history (pastCommitFiles.ts) name their parts by. */
export const EVIDENCE_SIGNALS: ReadonlySet<string> = new Set([
  'traceback-frame',
  'diff-header',
  'path-named-in-text',
  'definition-named-in-text',
  'message-found',
  'named-test',
  'imported-by-candidate',
  'imports-candidate',
  'similar-past-commit',
  'past-commit-words',
]);

/** The evidence parts of a breakdown, as written (`signal: what`), each once, in order. */
export function evidenceParts(breakdown: readonly ScoreComponent[]): string[] {
  const out: string[] = [];
  for (const p of breakdown) if (p.kind === 'match' && EVIDENCE_SIGNALS.has(signalOf(p.name)) && !out.includes(p.name)) out.push(p.name);
  return out;
}

/** The signals of a breakdown's evidence (`traceback-frame`, `message-found`), each once. */
export function evidenceSignals(breakdown: readonly ScoreComponent[]): string[] {
  return [...new Set(evidenceParts(breakdown).map(signalOf))];
}

function signalOf(name: string): string {
  const colon = name.indexOf(': ');
  return colon < 0 ? '' : name.slice(0, colon);
}
