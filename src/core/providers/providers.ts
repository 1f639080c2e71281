// Retrieval providers. Every provider answers with ranked, explained SearchHits over the same
// chunk spans:
//   index    Cairn's BM25F index (chunks, symbols, breadcrumbs)
//   ripgrep  exact text / regex matches, mapped onto the chunks that contain them
//   hybrid   both, fused with reciprocal rank fusion; exact definitions of a queried name are
//            guaranteed the top places, so an exact name never loses to fuzzy matches
import { languageForPath } from '../languages';
import { makeDocid } from '../chunking/ids';
import type { Segment } from '../index/segment';
import { analyzeQueryTerm, looksLikeIdentifier, proseForm } from '../index/tokenizer';
import { isEligiblePath } from '../discovery/rules';
import { DEFAULT_MAX_FILE_BYTES, type DiscoveryOptions } from '../discovery/options';
import { stillServable } from '../discovery/servable';
import { compilePathFilter } from '../search/filters';
import { resolveLanguageFilter } from '../languages';
import type { FileReader } from '../search/hydrate';
import { MAX_MATCH_LINES } from '../search/preview';
import type { ChunkLocator } from '../search/locate';
import type { SymbolIndex } from '../search/symbols';
import type { Snapshot } from '../store/store';
import type { Diagnostic } from '../types';
import type { ScoreComponent, SearchHit, SearchOptions } from '../search/types';
import { compareHits, round } from '../search/search';
import { ripgrep, type RipgrepMatch } from './ripgrep';

export type ProviderName = 'index' | 'ripgrep' | 'hybrid';
export const PROVIDERS: readonly ProviderName[] = ['index', 'ripgrep', 'hybrid'];

/** Reciprocal rank fusion constant (Cormack et al.): damps the influence of any single list's top ranks. */
export const RRF_K = 60;

export interface ProviderContext {
  root: string;
  snapshot: Snapshot;
  locator: ChunkLocator;
  symbols: SymbolIndex;
  reader: FileReader;
  rgPath?: string;
  /** The index's discovery rules (resolved): ripgrep's answers are held to them. */
  discovery?: DiscoveryOptions;
}

/**
 * True when a file ripgrep matched is one discovery would index: it passes the path rules
 * (allow-list, pruned folders, secret names, globs) and the index holds it, which also
 * leaves out what ignore files (`.cairnignore`) and the size cap refused. ripgrep honours
 * `.gitignore` only, so without this it answers from files the index never shows.
 */
export function searchableByIndex(ctx: Pick<ProviderContext, 'locator' | 'discovery'>, path: string): boolean {
  if (ctx.discovery && !isEligiblePath(path, ctx.discovery).eligible) return false;
  return ctx.locator.has(path);
}

/**
 * `searchableByIndex`, and the file as it is now still one the indexer would read: a regular
 * file with one name under the size cap. ripgrep's lines come from the working tree, and an
 * indexed name may since have become a hard link to a refused file. One lstat per file per query.
 */
function servableMatches(ctx: ProviderContext): (path: string) => boolean {
  const verdicts = new Map<string, boolean>();
  const maxFileBytes = ctx.discovery?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  return (path) => {
    let verdict = verdicts.get(path);
    if (verdict === undefined) {
      verdict = searchableByIndex(ctx, path) && stillServable(ctx.root, path, maxFileBytes);
      verdicts.set(path, verdict);
    }
    return verdict;
  };
}

/** At most this many words of a sentence are searched for by ripgrep. */
export const MAX_RG_WORDS = 24;

/**
 * What ripgrep looks for in a query written as a sentence: its identifiers as typed
 * (`parseArgs`, `load_user`, `Server.start`) and its content words (three letters or more,
 * English stop words dropped), distinct, in query order. Query syntax (`+`, `-`, `field:`,
 * `^2`, `~1`, `*`) is removed; excluded words are not searched for.
 */
export function ripgrepWords(query: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of query.split(/\s+/)) {
    if (!raw || raw.startsWith('-')) continue;
    const term = raw.replace(/^\+/, '').replace(/^[a-z]+:/, '').replace(/[~^]\d*$/, '').replace(/\*/g, '');
    const qualified = /^[A-Za-z_$][\w$]*((\.|::|#)[A-Za-z_$][\w$]*)+$/.test(term.replace(/[^\w$.:#]+$/, ''));
    const candidates = qualified ? [term.replace(/[^\w$.:#]+$/, '')] : analyzeQueryTerm(term).map((w) => w.original);
    for (const w of candidates) {
      const identifier = qualified || looksLikeIdentifier(w);
      if (!identifier && (w.length < 3 || proseForm(w.toLowerCase()) === '')) continue;
      const key = w.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(w);
      if (out.length >= MAX_RG_WORDS) return out;
    }
  }
  return out;
}

export interface ProviderAnswer {
  hits: SearchHit[];
  total: number;
  /** See SearchResponse.totalIsLowerBound. */
  totalIsLowerBound?: boolean;
  /** Set when no match holds every word of the query (the index provider tells). */
  partialOnly?: { words: string[] };
  warnings: string[];
  diagnostics: Diagnostic[];
}

/** ripgrep: matching lines grouped by the chunk that contains them, ranked by match count. */
export async function ripgrepProvider(ctx: ProviderContext, query: string, options: SearchOptions & { regex?: boolean; signal?: AbortSignal }): Promise<ProviderAnswer> {
  const limit = Math.max(1, options.limit ?? 20);
  const offset = Math.max(0, options.offset ?? 0);
  // A literal spans one line: ripgrep matches line by line, so whitespace runs become one space.
  const pattern = options.regex ? query : query.trim().replace(/\s+/g, ' ');
  if (!pattern) return { hits: [], total: 0, warnings: ['nothing to search for'], diagnostics: [] };
  const result = await ripgrep(ctx.root, pattern, { rgPath: ctx.rgPath, regex: options.regex, signal: options.signal });
  const pathOk = compilePathFilter(options.paths);
  const servable = servableMatches(ctx);
  const langs = options.languages?.length ? new Set(options.languages.flatMap(resolveLanguageFilter)) : undefined;
  const kinds = options.kinds?.length ? new Set(options.kinds.map((k) => k.toLowerCase())) : undefined;

  const groups = new Map<string, { hit: SearchHit; lines: RipgrepMatch[] }>();
  for (const m of result.matches) {
    if (!servable(m.path)) continue;
    if (pathOk && !pathOk(m.path)) continue;
    const language = languageForPath(m.path)?.id ?? 'text';
    if (langs && !langs.has(language)) continue;
    const ref = ctx.locator.locate(m.path, m.line);
    let hit: SearchHit;
    if (ref) {
      const seg = ctx.snapshot.segments[ref.seg] as Segment;
      if (kinds && !kinds.has(seg.kindOf(ref.doc))) continue;
      const key = `${ref.seg}:${ref.doc}`;
      const g = groups.get(key);
      if (g) {
        g.lines.push(m);
        continue;
      }
      hit = ctx.reader.hit(seg, ref.doc, 1, undefined);
      groups.set(key, { hit, lines: [m] });
    } else {
      // A line the index holds no chunk for (the file changed since indexing): the line itself is the span.
      if (kinds) continue;
      const key = `${m.path}:${m.line}`;
      hit = {
        docid: makeDocid(m.path, m.line, m.line), path: m.path, startLine: m.line, endLine: m.line, score: 0, scoreBreakdown: [],
        symbol: '', kind: 'text', language, context: '', preview: '', id: '',
      };
      groups.set(key, { hit, lines: [m] });
    }
  }
  const hits = [...groups.values()].map(({ hit, lines }) => {
    const value = round(lines.length);
    hit.scoreBreakdown = [{ kind: 'match', name: `ripgrep: ${lines.length} matching line${lines.length === 1 ? '' : 's'}`, value }];
    hit.score = value;
    hit.preview = lines.slice(0, 3).map((l) => `${l.line}: ${markSubmatches(l)}`).join('\n');
    const matchLines = [...new Set(lines.map((l) => l.line))].sort((a, b) => a - b);
    hit.previewLine = matchLines[0] as number;
    hit.matchLines = matchLines.slice(0, MAX_MATCH_LINES);
    return hit;
  });
  hits.sort(compareHits);
  const warnings = result.truncated ? ['ripgrep stopped early; results are partial'] : [];
  return { hits: hits.slice(offset, offset + limit), total: hits.length, warnings, diagnostics: result.diagnostics };
}

/**
 * ripgrep for a query written as a sentence: one run for all its identifiers and content words
 * (case-insensitive literals), matching lines mapped onto the chunks that hold them, chunks
 * ranked by how many distinct query words they contain, then by how many the whole file
 * contains, then by matching lines. A query of one word is searched for as a literal.
 */
export async function ripgrepWordsProvider(ctx: ProviderContext, query: string, options: SearchOptions & { signal?: AbortSignal }): Promise<ProviderAnswer> {
  const words = ripgrepWords(query);
  if (words.length <= 1 && !/\s/.test(query.trim())) return ripgrepProvider(ctx, query, { ...options, regex: false });
  if (words.length === 0) return { hits: [], total: 0, warnings: [], diagnostics: [] };
  const limit = Math.max(1, options.limit ?? 20);
  const offset = Math.max(0, options.offset ?? 0);
  const result = await ripgrep(ctx.root, words, { rgPath: ctx.rgPath, ignoreCase: true, maxMatches: 20_000, signal: options.signal });
  const pathOk = compilePathFilter(options.paths);
  const servable = servableMatches(ctx);
  const langs = options.languages?.length ? new Set(options.languages.flatMap(resolveLanguageFilter)) : undefined;
  const kinds = options.kinds?.length ? new Set(options.kinds.map((k) => k.toLowerCase())) : undefined;
  const lowerWords = words.map((w) => w.toLowerCase());
  const wordsOf = (m: RipgrepMatch): number[] => {
    const lower = m.text.toLowerCase();
    const found: number[] = [];
    lowerWords.forEach((w, i) => {
      if (lower.includes(w)) found.push(i);
    });
    return found;
  };
  const chunks = new Map<string, { seg: number; doc: number; words: Set<number>; lines: RipgrepMatch[] }>();
  const fileWords = new Map<string, Set<number>>();
  for (const m of result.matches) {
    if (!servable(m.path)) continue;
    if (pathOk && !pathOk(m.path)) continue;
    if (langs && !langs.has(languageForPath(m.path)?.id ?? 'text')) continue;
    const ref = ctx.locator.locate(m.path, m.line);
    if (!ref) continue;
    const seg = ctx.snapshot.segments[ref.seg] as Segment;
    if (kinds && !kinds.has(seg.kindOf(ref.doc))) continue;
    const found = wordsOf(m);
    const key = `${ref.seg}:${ref.doc}`;
    let c = chunks.get(key);
    if (!c) chunks.set(key, (c = { seg: ref.seg, doc: ref.doc, words: new Set(), lines: [] }));
    for (const w of found) c.words.add(w);
    c.lines.push(m);
    let f = fileWords.get(m.path);
    if (!f) fileWords.set(m.path, (f = new Set()));
    for (const w of found) f.add(w);
  }
  // A word found in few files says more than one found everywhere: each counts its idf over
  // the indexed files (its document frequency being the files ripgrep found it in).
  const n = Math.max(ctx.snapshot.manifest.files, fileWords.size, 1);
  const df = new Array<number>(words.length).fill(0);
  for (const f of fileWords.values()) for (const w of f) df[w] = (df[w] as number) + 1;
  const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const weigh = (set: ReadonlySet<number>) => [...set].reduce((t, w) => t + (idf[w] as number), 0);
  const ranked = [...chunks.values()].map((c) => {
    const seg = ctx.snapshot.segments[c.seg] as Segment;
    const path = seg.pathOf(c.doc);
    const inFile = fileWords.get(path) ?? new Set<number>();
    const parts: ScoreComponent[] = [
      { kind: 'match', name: `ripgrep: ${c.words.size} of ${words.length} query words in the chunk (by idf)`, value: round(weigh(c.words)) },
      { kind: 'match', name: `ripgrep: ${inFile.size} query words in the file (by idf, × 0.1)`, value: round(0.1 * weigh(inFile)) },
      { kind: 'match', name: `ripgrep: ${c.lines.length} matching line${c.lines.length === 1 ? '' : 's'}`, value: round(0.01 * Math.min(c.lines.length, 10)) },
    ];
    return { c, path, parts, score: round(parts.reduce((t, p) => t + p.value, 0)) };
  });
  ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.c.doc - b.c.doc);
  const hits = ranked.slice(offset, offset + limit).map((r) => {
    const hit = ctx.reader.hit(ctx.snapshot.segments[r.c.seg] as Segment, r.c.doc, 1, undefined);
    hit.scoreBreakdown = r.parts;
    hit.score = r.score;
    hit.preview = r.c.lines.slice(0, 3).map((l) => `${l.line}: ${markSubmatches(l)}`).join('\n');
    return hit;
  });
  const warnings = result.truncated ? ['ripgrep stopped early; results are partial'] : [];
  return { hits, total: ranked.length, warnings, diagnostics: result.diagnostics };
}

function markSubmatches(m: RipgrepMatch): string {
  const bytes = Buffer.from(m.text, 'utf8');
  let out = '';
  let pos = 0;
  for (const s of m.submatches) {
    if (s.start < pos || s.end > bytes.length) continue;
    out += bytes.subarray(pos, s.start).toString('utf8') + '«' + bytes.subarray(s.start, s.end).toString('utf8') + '»';
    pos = s.end;
  }
  out += bytes.subarray(pos).toString('utf8');
  return out.trim().slice(0, 240);
}

/**
 * Fuses ranked lists with reciprocal rank fusion. Exact definitions of identifiers in the
 * query come first, whatever the lists say.
 */
export function fuseHybrid(
  ctx: ProviderContext,
  query: string,
  /** Each list's RRF weight (default 1). */
  lists: Array<{ name: string; hits: SearchHit[]; weight?: number }>,
  options: SearchOptions,
): { hits: SearchHit[]; total: number } {
  const limit = Math.max(1, options.limit ?? 20);
  const offset = Math.max(0, options.offset ?? 0);
  const fused = new Map<string, { hit: SearchHit; parts: ScoreComponent[] }>();
  for (const list of lists) {
    list.hits.forEach((h, rank) => {
      const weight = list.weight ?? 1;
      const value = weight / (RRF_K + rank + 1);
      const entry = fused.get(h.docid) ?? { hit: { ...h }, parts: [] };
      entry.parts.push({ kind: 'match', name: `rrf: ${list.name} rank ${rank + 1}${weight !== 1 ? ` (× ${weight})` : ''}`, value: round(value) });
      fused.set(h.docid, entry);
    });
  }
  // The guaranteed places: exact definitions of the identifiers the query names.
  const pinned: string[] = [];
  for (const name of exactNames(query)) {
    const { exact, candidates } = ctx.symbols.find(name, { languages: options.languages, kinds: options.kinds, paths: options.paths, limit: 5 });
    if (!exact) continue;
    for (const c of candidates) {
      if (c.match !== 'exact' && c.match !== 'exact-ignore-case' && c.match !== 'qualified') continue;
      const seg = ctx.snapshot.segments[c.seg] as Segment;
      const docid = makeDocid(seg.fileOf(c.doc).path, seg.docStart.at(c.doc), seg.docEnd.at(c.doc));
      let entry = fused.get(docid);
      if (!entry) {
        entry = { hit: ctx.reader.hit(seg, c.doc, options.previewLines ?? 3, undefined), parts: [] };
        fused.set(docid, entry);
      }
      if (!pinned.includes(docid)) {
        entry.parts.unshift({ kind: 'match', name: `exact definition of ${name} (${c.match}, guaranteed place)`, value: 1 });
        pinned.push(docid);
      }
    }
  }
  const hits = [...fused.values()].map(({ hit, parts }) => ({ ...hit, scoreBreakdown: parts, score: round(parts.reduce((s, p) => s + p.value, 0)) }));
  hits.sort(compareHits);
  return { hits: hits.slice(offset, offset + limit), total: hits.length };
}

/** Identifiers in a query that deserve a guaranteed exact-definition place. */
export function exactNames(query: string): string[] {
  const words = query
    .split(/\s+/)
    .map((w) => w.replace(/^[+-]/, '').replace(/^[a-z]+:/, '').replace(/[~^]\d*$/, ''))
    .filter((w) => w && !w.includes('*'));
  const out = new Set<string>();
  for (const w of words) {
    // Qualified names stay whole (`Server.start`); otherwise identifier-looking words, or a single-word query.
    if (/^[A-Za-z_$][\w$]*((\.|::|#)[A-Za-z_$][\w$]*)+$/.test(w)) out.add(w);
    else for (const qw of analyzeQueryTerm(w)) if (looksLikeIdentifier(qw.original) || words.length === 1) out.add(qw.original);
  }
  return [...out];
}
