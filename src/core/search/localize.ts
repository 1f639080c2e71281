// Localization: files ranked for a task text by the keyword ranking plus the structure the text
// points at. A stack frame, a diff header or a path names a file outright; a code name the
// symbol table defines in one or a few files names those files. Such evidence is rare in a
// repository's words but decisive, which is why it is added on top of the keyword scores rather
// than left to them. An error message found verbatim leads to the line saying it, a named test
// to the code it calls; the files a strong candidate imports, and those importing it, share a
// little of its score. Each signal is a named part of the file's score breakdown.
import { isTestPath } from '../index/fields';
import { extractTaskEvidence, type PathMention, type TaskEvidence } from './taskEvidence';
import { lineOfRun, messageRun } from './taskMessages';
import type { EvidenceKind, NeighbourSignal } from './evidenceParts';
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
  /** The chunks the keyword index ranks first for these plain words, at most `limit`. */
  chunksMatching?(words: string, limit: number): readonly SearchHit[];
  /** A chunk's text as the working tree has it. */
  text?(hit: SearchHit): string | undefined;
  /** Indexed files that `path` imports. */
  importsOf?(path: string): readonly string[];
  /** Indexed files that import `path`. */
  importersOf?(path: string): readonly string[];
}

/** How much each kind of evidence adds, as a share of the best keyword score. */
export const EVIDENCE_WEIGHT = 0.5;
/** A name defined in more files than this says little about which one a task means. */
export const MAX_DEFINING_FILES = 5;
/** Names looked up in the symbol table, most telling first. */
export const MAX_NAMES = 40;
const SPANS_PER_FILE = 3;
/** Chunks read for each quoted message: the raise site shares the message's rare words, so it ranks high. */
const MESSAGE_CANDIDATES = 10;
/** Names a named test calls that are looked up in the symbol table. */
const TEST_CALLS = 12;
/** Files with evidence whose imports and importers get a share of their score. */
const STRONG_CANDIDATES = 3;
/** A neighbour's share of a strong candidate's score: a hint, a fifth of the candidate's score at most. */
export const NEIGHBOUR_SHARE = 0.2;


/** Calls a test makes that say nothing about the code under test. */
const NOT_UNDER_TEST = new Set(['assert', 'print', 'len', 'str', 'int', 'float', 'bool', 'list', 'dict', 'set', 'tuple', 'range', 'open', 'super', 'type', 'isinstance', 'getattr', 'setattr', 'hasattr', 'repr', 'sorted', 'enumerate', 'zip', 'map', 'filter', 'raises', 'warns', 'approx', 'expect', 'assertEqual', 'assertTrue', 'assertFalse', 'assertRaises', 'assertIn', 'assertIsNone', 'assertIs', 'describe', 'it', 'if', 'for', 'while', 'return', 'def', 'class', 'lambda', 'with', 'not', 'and', 'or', 'in']);
const CALL = /\b([A-Za-z_$][\w$]*)\s*\(/g;

/** Names a chunk of code calls, each once, in order; the language's own and testing's own left out. */
export function calledNames(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(CALL)) {
    const name = m[1] as string;
    if (name.length < 3 || NOT_UNDER_TEST.has(name) || /^(?:test|assert)/i.test(name) || out.includes(name)) continue;
    out.push(name);
  }
  return out;
}

interface FileEvidence {
  /** Per kind, its strongest instance (0..1) and what it was. */
  kinds: Map<EvidenceKind, { strength: number; what: string }>;
  spans: SearchHit[];
  /** Per span (by docid), the evidence pointing at it: per kind, its strongest instance. */
  spanKinds: Map<string, Map<EvidenceKind, { strength: number; what: string }>>;
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
    if (!f) files.set(path, (f = { kinds: new Map(), spans: [], spanKinds: new Map() }));
    strongest(f.kinds, kind, strength, what);
    if (!span) return;
    if (!f.spans.some((s) => s.docid === span.docid)) f.spans.push(span);
    let kinds = f.spanKinds.get(span.docid);
    if (!kinds) f.spanKinds.set(span.docid, (kinds = new Map()));
    strongest(kinds, kind, strength, what);
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
  messagesFound(ctx, evidence.messages, note);
  testedCode(ctx, evidence.tests, note);
  return files;
}

type Note = (path: string, kind: EvidenceKind, strength: number, what: string, span?: SearchHit) => void;

function strongest(kinds: Map<EvidenceKind, { strength: number; what: string }>, kind: EvidenceKind, strength: number, what: string): void {
  const had = kinds.get(kind);
  if (!had || strength > had.strength) kinds.set(kind, { strength, what });
}

/**
 * Each quoted message's longest run of plain words, looked for verbatim in the chunks the
 * keyword index ranks first for it. A message said in a few files points at the lines saying
 * it; a test asserting the message is not where it is raised, so tests count only when no
 * other file says it.
 */
function messagesFound(ctx: LocalizeContext, messages: readonly string[], note: Note): void {
  if (!ctx.chunksMatching || !ctx.text) return;
  const searched = new Set<string>();
  for (const message of messages) {
    const run = messageRun(message);
    // A message quoted twice (a title and its traceback) is looked for once.
    if (!run || searched.has(run)) continue;
    searched.add(run);
    const sites: Array<{ path: string; line: number }> = [];
    for (const hit of ctx.chunksMatching(run, MESSAGE_CANDIDATES)) {
      if (sites.some((s) => s.path === hit.path)) continue;
      const code = ctx.text(hit);
      const line = code === undefined ? undefined : lineOfRun(code, run, hit.startLine);
      if (line !== undefined) sites.push({ path: hit.path, line });
    }
    const said = sites.some((s) => !isTestPath(s.path)) ? sites.filter((s) => !isTestPath(s.path)) : sites;
    if (said.length === 0 || said.length > MAX_DEFINING_FILES) continue;
    for (const s of said) note(s.path, 'message-found', 1 / said.length, `"${run}"`, ctx.chunkAt(s.path, s.line));
  }
}

/**
 * A test the text names leads to the code it tests: the definitions its body calls (outside
 * tests, in a few files), and, more weakly, the files its file imports.
 */
function testedCode(ctx: LocalizeContext, tests: readonly string[], note: Note): void {
  if (!ctx.text) return;
  for (const test of tests) {
    const defs = ctx.definitions(test, MAX_DEFINING_FILES);
    if (defs.length === 0 || new Set(defs.map((d) => d.path)).size > MAX_DEFINING_FILES) continue;
    for (const def of defs.slice(0, 2)) {
      for (const name of calledNames(ctx.text(def) ?? '').slice(0, TEST_CALLS)) {
        const called = ctx.definitions(name, MAX_DEFINING_FILES).filter((d) => !isTestPath(d.path));
        const paths = new Set(called.map((d) => d.path));
        if (paths.size === 0 || paths.size > MAX_DEFINING_FILES) continue;
        for (const d of called) note(d.path, 'named-test', 1 / paths.size, `${test} calls ${name}`, d);
      }
      const imported = (ctx.importsOf?.(def.path) ?? []).filter((p) => !isTestPath(p));
      for (const p of imported) note(p, 'named-test', 0.5 / imported.length, `${test}'s file imports it`);
    }
  }
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
    const spans = mergeSpans(ev.spans.map((h) => withEvidence(h, ev.spanKinds.get(h.docid), unit)), had ? had.spans : []);
    out.set(path, { ...base, score: round(breakdown.reduce((t, p) => t + p.value, 0)), scoreBreakdown: breakdown, spans });
  }
  shareWithNeighbours(ctx, out, evidence);
  return [...out.values()].sort(byScore).slice(0, limit);
}

/** Files best first; ties by path, so one query always gives one order. */
export const byScore = (a: FileHit, b: FileHit) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The best files the evidence points at lend a share of their score to the ranked files they
 * import and that import them: a fix often lands one call away from where the text points.
 * Shares are computed from the scores before any is added, and a file takes its largest share.
 */
function shareWithNeighbours(ctx: LocalizeContext, out: Map<string, FileHit>, evidence: ReadonlyMap<string, FileEvidence>): void {
  if (!ctx.importsOf || !ctx.importersOf) return;
  const strong = [...out.values()].filter((f) => evidence.has(f.path)).sort(byScore).slice(0, STRONG_CANDIDATES);
  const shares = new Map<string, ScoreComponent>();
  for (const s of strong) {
    const offer = (path: string, signal: NeighbourSignal) => {
      if (path === s.path || isTestPath(path) || !out.has(path)) return;
      const value = round(NEIGHBOUR_SHARE * s.score);
      if (value > (shares.get(path)?.value ?? 0)) shares.set(path, { kind: 'match', name: `${signal}: ${s.path}`, value });
    };
    for (const p of ctx.importsOf(s.path)) offer(p, 'imported-by-candidate');
    for (const p of ctx.importersOf(s.path)) offer(p, 'imports-candidate');
  }
  for (const [path, part] of shares) {
    const f = out.get(path) as FileHit;
    out.set(path, { ...f, score: round(f.score + part.value), scoreBreakdown: [...f.scoreBreakdown, part] });
  }
}

function fileFromEvidence(ctx: LocalizeContext, path: string, ev: FileEvidence): FileHit | undefined {
  const first = ev.spans[0] ?? ctx.firstChunk(path);
  return first ? unrankedFile(first, []) : undefined;
}

/** The file of `chunk`, which the keyword ranking did not list: no score yet, these spans. */
export function unrankedFile(chunk: SearchHit, spans: SearchHit[]): FileHit {
  return { path: chunk.path, score: 0, scoreBreakdown: [], spans, matchedChunks: 0, language: chunk.language, ...(chunk.stale ? { stale: true } : {}) };
}

/**
 * A span the evidence points at, scored by it: what each kind of evidence adds to its file is
 * what it adds to the span, named the same way, so a reader sees why the span is shown.
 */
function withEvidence(hit: SearchHit, kinds: ReadonlyMap<EvidenceKind, { strength: number; what: string }> | undefined, unit: number): SearchHit {
  if (!kinds || kinds.size === 0) return hit;
  const parts: ScoreComponent[] = [...kinds].map(([kind, e]) => ({ kind: 'match', name: `${kind}: ${e.what}`, value: round(unit * e.strength) }));
  return { ...hit, score: round(parts.reduce((t, p) => t + p.value, 0)), scoreBreakdown: parts };
}

/** The evidence's spans first, then the keyword matches; a chunk that is both keeps both scores. */
function mergeSpans(evidence: readonly SearchHit[], lexical: readonly SearchHit[]): SearchHit[] {
  const spans: SearchHit[] = [];
  for (const s of evidence) {
    const same = lexical.find((x) => x.docid === s.docid);
    const merged = same ? { ...same, score: round(same.score + s.score), scoreBreakdown: [...same.scoreBreakdown, ...s.scoreBreakdown] } : s;
    if (spans.length < SPANS_PER_FILE && !spans.some((x) => x.docid === s.docid)) spans.push(merged);
  }
  for (const s of lexical) {
    if (spans.length >= SPANS_PER_FILE) break;
    if (!spans.some((x) => x.docid === s.docid)) spans.push(s);
  }
  return spans;
}
