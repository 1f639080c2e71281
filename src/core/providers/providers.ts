// Retrieval providers. Every provider answers with ranked, explained SearchHits over the same
// chunk spans:
//   index    Cairn's BM25F index (chunks, symbols, breadcrumbs)
//   ripgrep  exact text / regex matches, mapped onto the chunks that contain them
//   hybrid   both, fused with reciprocal rank fusion; exact definitions of a queried name are
//            guaranteed the top places, so an exact name never loses to fuzzy matches
import { languageForPath } from '../languages';
import { makeDocid } from '../chunking/ids';
import type { Segment } from '../index/segment';
import { analyzeQueryTerm, looksLikeIdentifier } from '../index/tokenizer';
import { compilePathFilter } from '../search/filters';
import { resolveLanguageFilter } from '../languages';
import { MAX_MATCH_LINES, type FileReader } from '../search/hydrate';
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
}

export interface ProviderAnswer {
  hits: SearchHit[];
  total: number;
  /** See SearchResponse.totalIsLowerBound. */
  totalIsLowerBound?: boolean;
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
  const langs = options.languages?.length ? new Set(options.languages.flatMap(resolveLanguageFilter)) : undefined;
  const kinds = options.kinds?.length ? new Set(options.kinds.map((k) => k.toLowerCase())) : undefined;

  const groups = new Map<string, { hit: SearchHit; lines: RipgrepMatch[] }>();
  for (const m of result.matches) {
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
      // A match in a file the index does not hold (ignored, too large): the line itself is the span.
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
  lists: Array<{ name: string; hits: SearchHit[] }>,
  options: SearchOptions,
): { hits: SearchHit[]; total: number } {
  const limit = Math.max(1, options.limit ?? 20);
  const offset = Math.max(0, options.offset ?? 0);
  const fused = new Map<string, { hit: SearchHit; parts: ScoreComponent[] }>();
  for (const list of lists) {
    list.hits.forEach((h, rank) => {
      const value = 1 / (RRF_K + rank + 1);
      const entry = fused.get(h.docid) ?? { hit: { ...h }, parts: [] };
      entry.parts.push({ kind: 'match', name: `rrf: ${list.name} rank ${rank + 1}`, value: round(value) });
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
