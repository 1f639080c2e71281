// References: where a name occurs as code, read from each segment's occurrence table (the
// chunker's identifier nodes, so comments and strings never match), with the definitions
// go-to-symbol finds for it. Each occurrence is `certain` when it resolves to those
// definitions — in a defining file, in a file that imports one (directly, through a file that
// re-exports it, or as a package Go and Java share by folder) — and a `name-match` otherwise: a
// same-named member of something else, a name defined in several places, a name the index does
// not define. Certain ones rank first. Only the references returned are read from the working
// tree (their line, and whether the file changed since it was indexed).
//
// This module asks and answers: the name a query or a place means, the references ranked, read
// and grouped. Gathering is in refOccurrences.ts, judging in refCertainty.ts and import
// resolution in refImports.ts.
import type { Segment } from '../index/segment';
import type { SegmentFile } from '../index/segmentFormat';
import type { Snapshot } from '../store/store';
import type { FileReader } from './hydrate';
import { Resolver } from './refCertainty';
import { ContextOf, definitionsOf, occurrencesOf, type JudgedLookup, type Occurrence, type ReferenceSources } from './refOccurrences';
import { lookupKey } from './judgedLookups';
import type { ReferenceCallerGroup, ReferenceDefinition, ReferenceFileGroup, ReferenceHit, ReferenceOptions, ReferencePlace, ReferencesResponse } from './types';

export type ReferencesAnswer = Omit<ReferencesResponse, 'tookMs' | 'index'>;

export const DEFAULT_REFERENCE_LIMIT = 100;
/** Characters of a reference's line shown, around the name when the line is longer. */
const MAX_TEXT = 240;
const TEXT_BEFORE_NAME = 80;
/** Lines listed per caller group. */
const CALLER_LINES = 20;

/** `Class.method`, `Class::method`, `Class#method` → the class and the method; a plain name → the name. */
export function parseReferenceName(query: string): { name: string; qualifier?: string } {
  const q = query.trim();
  const m = /^(.*?)(::|->|\.|#)([^.:#\s]+)$/.exec(q);
  if (!m) return { name: q };
  const [, qualifier, separator, name] = m as unknown as [string, string, string, string];
  // `#field` (a private field) is a name; `.foo` and `::foo` are `foo`.
  if (!qualifier) return { name: separator === '#' ? q : name };
  return { name, qualifier };
}

/** The references of `query` in a snapshot. */
export function findReferences(src: ReferenceSources, query: string, options: ReferenceOptions = {}): ReferencesAnswer {
  const place = options.definition ?? placeOf(query);
  const anchored = place ? nameAt(src, place, options.kinds) : undefined;
  const { name, qualifier }: { name: string; qualifier?: string } = anchored ?? (place ? { name: '' } : parseReferenceName(query));
  const limit = Math.max(0, options.limit ?? DEFAULT_REFERENCE_LIMIT);
  const contexts = new ContextOf(src.snapshot);
  const { found, occurrences: judged } = name ? judgedLookup(src, name, qualifier, options, contexts) : { found: [], occurrences: [] };
  const anchor = place ? definitionAtPlace(found, place) : undefined;
  // A copy: the lookup, with its definitions, stays with the view for the next ask.
  const definitions = anchor ? [anchor] : [...found];
  const base = { name, ...(qualifier ? { qualifier } : {}), definitions };
  if (place && !anchor) {
    const where = `${place.path}:${place.line}`;
    const message = name ? `no definition of ${name} at ${where}` : `no definition's name at ${where}`;
    return { ...base, definitions: [], references: [], byFile: [], total: 0, certain: 0, truncated: false, note: message, diagnostics: [{ code: 'no-definition-here', severity: 'error', message: `${message}: give the line of a definition's name (cairn refs PATH:LINE), or the name itself` }] };
  }
  if (!name) return { ...base, references: [], byFile: [], total: 0, certain: 0, truncated: false, note: 'no name to look up', diagnostics: [] };

  // From a definition: what resolves to it, and the name matches that may still be it.
  const occurrences = anchor ? judged.filter((o) => (o.certainty === 'certain' ? o.to === anchor : !o.could || o.could.includes(anchor))) : judged;

  const references: ReferenceHit[] = [];
  let dropped = 0;
  for (const o of occurrences) {
    if (references.length >= limit) break;
    const hit = hitOf(src.snapshot, src.reader, o, contexts, options.lineText !== false);
    if (hit) references.push(hit);
    else dropped++;
  }
  const total = occurrences.length;
  const certain = occurrences.reduce((n, o) => n + (o.certainty === 'certain' ? 1 : 0), 0);
  const answer: ReferencesAnswer = {
    ...base,
    references,
    byFile: byFile(occurrences),
    total,
    certain,
    truncated: total - dropped > references.length,
    diagnostics: [],
  };
  if (options.callers) answer.callers = callersOf(occurrences, contexts);
  if (dropped > 0) answer.diagnostics.push({ code: 'stale-references', severity: 'warning', message: `${dropped} reference${dropped === 1 ? '' : 's'} left out: ${dropped === 1 ? 'its file has' : 'their files have'} changed since indexing and the name is no longer there` });
  const shown = qualifier ? `${qualifier}.${name}` : name;
  if (total === 0) answer.note = definitions.length ? `${shown} is defined but occurs nowhere else as code` : `"${shown}" occurs nowhere as code in the index`;
  else if (definitions.length === 0) answer.note = `no definition of ${shown} in the index: every reference is a name match`;
  return answer;
}

/**
 * The name's definitions and its occurrences judged against every one of them (so a reference
 * of another definition is known to be that one's), in answer order; kept with the view.
 */
function judgedLookup(src: ReferenceSources, name: string, qualifier: string | undefined, options: ReferenceOptions, contexts: ContextOf): JudgedLookup {
  const key = lookupKey(name, qualifier, options);
  const known = src.judged?.get(key);
  if (known) return known;
  const selfScoped = new Set<ReferenceDefinition>();
  const found = definitionsOf(src, name, qualifier, options.kinds, selfScoped);
  const occurrences = occurrencesOf(src.snapshot, name, options, true);
  const resolver = new Resolver(src, name, found, qualifier !== undefined, occurrences, contexts, selfScoped);
  for (const o of occurrences) resolver.judge(o);
  occurrences.sort(compareOccurrences);
  const lookup = { found, occurrences };
  src.judged?.set(key, lookup);
  return lookup;
}

/** `PATH:LINE` or `PATH:LINE:COLUMN` (a path with a folder or an extension): a place to ask from. */
export function placeOf(query: string): ReferencePlace | undefined {
  const m = /^(.+?):(\d+)(?::(\d+))?$/.exec(query.trim());
  if (!m) return undefined;
  const path = (m[1] as string).replace(/\\/g, '/').replace(/^\.\//, '');
  if (!/[/.]/.test(path) || /\s/.test(path)) return undefined;
  return { path, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
}

const WORD = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** The name a definition at a place has: the word at its column, else the first word on its line that names a definition there. */
function nameAt(src: ReferenceSources, place: ReferencePlace, kinds: readonly string[] | undefined): { name: string } | undefined {
  const line = src.reader.text(place.path, place.line, place.line);
  if (line === undefined) return undefined;
  const words = [...line.matchAll(WORD)].map((m) => ({ word: m[0], start: (m.index ?? 0) + 1 }));
  const atColumn = place.column === undefined ? undefined : words.find((w) => place.column! >= w.start && place.column! <= w.start + w.word.length);
  const ordered = atColumn ? [atColumn, ...words.filter((w) => w !== atColumn)] : words;
  const tried = new Set<string>();
  for (const { word } of ordered) {
    if (tried.has(word)) continue;
    tried.add(word);
    if (definitionAtPlace(definitionsOf(src, word, undefined, kinds, new Set()), place)) return { name: word };
  }
  return undefined;
}

/** The definition whose name is at the place (its line; its column when given). */
function definitionAtPlace(definitions: readonly ReferenceDefinition[], place: ReferencePlace): ReferenceDefinition | undefined {
  const onLine = definitions.filter((d) => d.path === place.path && d.line === place.line);
  return onLine.find((d) => place.column !== undefined && place.column >= d.column && place.column < d.column + (d.qualifiedName.split(/::|\.|#/).pop() ?? '').length) ?? onLine[0];
}

/** Certain first, then source before tests and vendored code, then by place. */
function compareOccurrences(a: Occurrence, b: Occurrence): number {
  return (
    (a.certainty === 'certain' ? 0 : 1) - (b.certainty === 'certain' ? 0 : 1) ||
    (a.penalised ? 1 : 0) - (b.penalised ? 1 : 0) ||
    (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column
  );
}

const NAME_CHAR = /[\p{L}\p{N}_$]/u;

/** A reference as returned: its line read from the working tree. Undefined when its file changed and the name is not there any more. */
function hitOf(snapshot: Snapshot, reader: FileReader, o: Occurrence, contexts: ContextOf, lineText: boolean): ReferenceHit | undefined {
  const name = o.spelling;
  const { context, kind } = contexts.at(o.seg, o.doc, o.line);
  let text = '';
  let stale = false;
  if (lineText) {
    const file: SegmentFile = (snapshot.segments[o.file.seg] as Segment).file(o.file.index);
    const read = reader.lineOf(file, o.line, o.column + name.length + MAX_TEXT);
    if (read.stale) {
      // The file changed: keep the reference only where the name still is.
      const at = o.column - 1;
      const line = read.text;
      if (read.stale === 'deleted' || line === undefined || line.slice(at, at + name.length) !== name || NAME_CHAR.test(line[at + name.length] ?? '') || NAME_CHAR.test(line[at - 1] ?? '')) return undefined;
      stale = true;
    }
    text = shownText(read.text ?? '', o.column);
  }
  const hit: ReferenceHit = {
    path: o.file.path,
    line: o.line,
    column: o.column,
    endColumn: o.column + name.length,
    role: o.role,
    context,
    contextKind: kind,
    text,
    certainty: o.certainty,
    reason: o.reason,
    language: o.file.language,
  };
  if (o.to) hit.resolvesTo = { path: o.to.path, line: o.to.line };
  if (stale) hit.stale = true;
  return hit;
}

/** A line as shown: trimmed, and cut around the name when long. */
function shownText(line: string, column: number): string {
  const trimmed = line.trim();
  if (trimmed.length <= MAX_TEXT) return trimmed;
  const start = Math.max(0, column - 1 - TEXT_BEFORE_NAME);
  const piece = line.slice(start, start + MAX_TEXT).trim();
  return `${start > 0 ? '…' : ''}${piece}${start + MAX_TEXT < line.length ? '…' : ''}`;
}

function byFile(ranked: readonly Occurrence[]): ReferenceFileGroup[] {
  const groups = new Map<string, ReferenceFileGroup>();
  for (const o of ranked) {
    let g = groups.get(o.file.path);
    if (!g) groups.set(o.file.path, (g = { path: o.file.path, language: o.file.language, references: 0, certain: 0 }));
    g.references++;
    if (o.certainty === 'certain') g.certain++;
  }
  return [...groups.values()];
}

function callersOf(ranked: readonly Occurrence[], contexts: ContextOf): ReferenceCallerGroup[] {
  const groups = new Map<string, ReferenceCallerGroup>();
  for (const o of ranked) {
    if (o.role === 'definition' || o.role === 'import') continue;
    const { context, kind } = contexts.at(o.seg, o.doc, o.line);
    const key = `${o.file.path}\u0000${context}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { path: o.file.path, context, kind, references: 0, certain: 0, lines: [] }));
    g.references++;
    if (o.certainty === 'certain') g.certain++;
    if (!g.lines.includes(o.line)) g.lines.push(o.line);
  }
  for (const g of groups.values()) g.lines = g.lines.sort((a, b) => a - b).slice(0, CALLER_LINES);
  return [...groups.values()];
}
