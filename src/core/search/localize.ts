// Localization: files ranked for a task text by the keyword ranking plus the structure the text
// points at. A stack frame, a diff header or a path names a file outright; a code name the
// symbol table defines in one or a few files names those files. Such evidence is rare in a
// repository's words but decisive, which is why it is added on top of the keyword scores rather
// than left to them. Each signal is a named part of the file's score breakdown.
import { extractTaskEvidence, type PathMention, type TaskEvidence } from './taskEvidence';
import type { FileHit, ScoreComponent, SearchHit } from './types';
import { round } from './search';

/** What localization reads of an index (narrow, so it is testable without one). */
export interface LocalizeContext {
  /** Indexed files whose base name is `name` (case as indexed). */
  filesNamed(name: string): readonly string[];
  /** Files defining `name` exactly (or `A.b` qualified), with the defining chunk, at most `limit` + 1. */
  definitions(name: string, limit: number): readonly SearchHit[];
  /** The chunk of `path` holding `line`. */
  chunkAt(path: string, line: number): SearchHit | undefined;
  /** A file's first chunk, for a file found by evidence alone. */
  firstChunk(path: string): SearchHit | undefined;
}

/** How much each kind of evidence adds, as a share of the best keyword score. */
export const EVIDENCE_WEIGHT = 0.5;
/** A name defined in more files than this says little about which one a task means. */
export const MAX_DEFINING_FILES = 5;
/** Names looked up in the symbol table, most telling first. */
export const MAX_NAMES = 40;
const SPANS_PER_FILE = 3;

type EvidenceKind = 'traceback-frame' | 'diff-header' | 'path-named-in-text' | 'definition-named-in-text';

interface FileEvidence {
  /** Per kind, its strongest instance (0..1) and what it was. */
  kinds: Map<EvidenceKind, { strength: number; what: string }>;
  spans: SearchHit[];
}

/**
 * The indexed file a written path means: the candidates sharing its base name, kept when they
 * share the longest run of trailing path segments with it; a bare base name must be unique.
 * `/home/me/proj/src/pkg/helpers.py` finds `src/pkg/helpers.py`.
 */
export function resolveMentionedPath(written: string, filesNamed: (name: string) => readonly string[], minShared = 1): string[] {
  const parts = written.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  const base = parts[parts.length - 1];
  if (!base) return [];
  let best: string[] = [];
  let bestShared = 0;
  for (const candidate of filesNamed(base)) {
    const cp = candidate.split('/');
    let shared = 0;
    while (shared < cp.length && shared < parts.length && cp[cp.length - 1 - shared] === parts[parts.length - 1 - shared]) shared++;
    if (shared > bestShared) {
      best = [candidate];
      bestShared = shared;
    } else if (shared === bestShared && shared > 0) best.push(candidate);
  }
  if (bestShared < Math.max(1, minShared)) return [];
  // One shared segment (the base name) identifies a file only when no other file has that name.
  return bestShared >= 2 || best.length === 1 ? best : [];
}

/** Per file, the evidence the text holds for it. */
export function gatherEvidence(ctx: LocalizeContext, evidence: TaskEvidence): Map<string, FileEvidence> {
  const files = new Map<string, FileEvidence>();
  const note = (path: string, kind: EvidenceKind, strength: number, what: string, span?: SearchHit) => {
    let f = files.get(path);
    if (!f) files.set(path, (f = { kinds: new Map(), spans: [] }));
    const had = f.kinds.get(kind);
    if (!had || strength > had.strength) f.kinds.set(kind, { strength, what });
    if (span && !f.spans.some((s) => s.docid === span.docid)) f.spans.push(span);
  };
  const byMention = (list: readonly PathMention[], kind: EvidenceKind, strengthOf: (m: PathMention) => number, label: (m: PathMention) => string) => {
    for (const m of list) {
      for (const path of resolveMentionedPath(m.path, ctx.filesNamed, m.foreign ? 2 : 1)) {
        note(path, kind, strengthOf(m), label(m), m.line !== undefined ? ctx.chunkAt(path, m.line) : undefined);
      }
    }
  };
  // The frame nearest the error is where a fix most often goes; each frame above it is one call
  // further from the error, and says that much less.
  byMention(evidence.frames, 'traceback-frame', (m) => 1 / (1 + (m.depth ?? 0)), (m) => `${m.path}${m.line ? `:${m.line}` : ''}${m.function ? ` in ${m.function}` : ''}`);
  byMention(evidence.diffPaths, 'diff-header', () => 1, (m) => m.path);
  byMention(evidence.paths, 'path-named-in-text', () => 0.5, (m) => m.path);
  for (const name of evidence.names.slice(0, MAX_NAMES)) {
    let defs = ctx.definitions(name, MAX_DEFINING_FILES);
    if (defs.length === 0 && name.includes('.')) defs = ctx.definitions(name.slice(name.lastIndexOf('.') + 1), MAX_DEFINING_FILES);
    const paths = [...new Set(defs.map((d) => d.path))];
    if (paths.length === 0 || paths.length > MAX_DEFINING_FILES) continue;
    // A name defined once points at its file; one defined in several files shares the pointing.
    for (const d of defs) note(d.path, 'definition-named-in-text', 1 / paths.length, name, d);
  }
  return files;
}

/**
 * Files for a task text: the keyword ranking's files with each file's evidence added (a share
 * of the best keyword score per kind of evidence, the strongest instance of each kind), plus
 * files that only the evidence names. The breakdown names each signal; spans put the chunks the
 * evidence points at (the frame's function, the named definition) before the keyword matches.
 */
export function localizeFiles(ctx: LocalizeContext, text: string, ranked: readonly FileHit[], limit: number): FileHit[] {
  const evidence = gatherEvidence(ctx, extractTaskEvidence(text));
  if (evidence.size === 0) return ranked.slice(0, limit);
  const top = ranked[0]?.score ?? 0;
  const unit = (top > 0 ? top : 1) * EVIDENCE_WEIGHT;
  const out = new Map<string, FileHit>(ranked.map((f) => [f.path, f]));
  for (const [path, ev] of evidence) {
    const parts: ScoreComponent[] = [...ev.kinds].map(([kind, e]) => ({ kind: 'match', name: `${kind}: ${e.what}`, value: round(unit * e.strength) }));
    const had = out.get(path);
    const base = had ?? fileFromEvidence(ctx, path, ev);
    if (!base) continue;
    const breakdown = [...base.scoreBreakdown, ...parts];
    const spans = mergeSpans(ev.spans, had ? had.spans : []);
    out.set(path, { ...base, score: round(breakdown.reduce((t, p) => t + p.value, 0)), scoreBreakdown: breakdown, spans });
  }
  return [...out.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, limit);
}

function fileFromEvidence(ctx: LocalizeContext, path: string, ev: FileEvidence): FileHit | undefined {
  const first = ev.spans[0] ?? ctx.firstChunk(path);
  if (!first) return undefined;
  return { path, score: 0, scoreBreakdown: [], spans: [], matchedChunks: 0, language: first.language, ...(first.stale ? { stale: true } : {}) };
}

function mergeSpans(evidence: readonly SearchHit[], lexical: readonly SearchHit[]): SearchHit[] {
  const spans: SearchHit[] = [];
  for (const s of [...evidence, ...lexical]) {
    if (spans.length >= SPANS_PER_FILE) break;
    if (!spans.some((x) => x.docid === s.docid)) spans.push(s);
  }
  return spans;
}
