// Which parts of a score breakdown are evidence a front end should name: the localization and
// history signals, each a `match` part written `signal: what it was` (`traceback-frame:
// src/app.py:12 in load`, `past-commit-words: actions`). Keyword parts (fields, boosts, the
// best chunk, the damped others, a provider's own) are how much words matched, not why a file
// or a span was chosen.
import type { ScoreComponent } from './types';

/** What a task text's structure points at (localize.ts). */
export type EvidenceKind = 'traceback-frame' | 'diff-header' | 'path-named-in-text' | 'definition-named-in-text' | 'message-found' | 'named-test';
/** The shares a strong candidate lends the files it imports and those importing it (localize.ts). */
export type NeighbourSignal = 'imported-by-candidate' | 'imports-candidate';
/** What the repository's history points at (pastCommitFiles.ts). */
export type HistorySignal = 'similar-past-commit' | 'past-commit-words';

/** Every signal, keyed by the types above: a signal added to them and not here does not compile. */
const SIGNALS: Readonly<Record<EvidenceKind | NeighbourSignal | HistorySignal, true>> = {
  'traceback-frame': true,
  'diff-header': true,
  'path-named-in-text': true,
  'definition-named-in-text': true,
  'message-found': true,
  'named-test': true,
  'imported-by-candidate': true,
  'imports-candidate': true,
  'similar-past-commit': true,
  'past-commit-words': true,
};
const EVIDENCE_SIGNALS: ReadonlySet<string> = new Set(Object.keys(SIGNALS));

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
