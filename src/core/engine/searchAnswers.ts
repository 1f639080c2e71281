// Search answers over a view: chunks from a provider (the index, ripgrep, or both fused) and
// files ranked as files, with a task text's evidence reordering them.
import type { Diagnostic } from '../types';
import type { DiscoveryOptions } from '../discovery';
import type { IndexStore, Snapshot } from '../store/store';
import { groupHitsByFile, searchFilesSnapshot, searchSnapshot, type RankingParams } from '../search/search';
import type { FileReader } from '../search/hydrate';
import type { FileHit, SearchHit, SearchOptions } from '../search/types';
import type { ProviderAnswer, ProviderContext } from '../providers/providers';
import { DEFINITION_KINDS, isTestPath } from '../index/fields';
import { bucketOf, languageInfo } from '../languages';
import type { CommitLog } from '../history/commitLog';
import { hasMessageWords, pastCommitEvidence } from '../history/similarCommits';
import { hasSubjectWords, pastWordEvidence } from '../history/messageWordFiles';
import { withPastCommits, type PastSignal } from '../search/pastCommitFiles';
import { isTaskText } from '../search/taskEvidence';
import { liftInlineFilters, withLiftedFilters } from '../search/inlineFilters';
import { localizeFiles, type LocalizeContext } from '../search/localize';
import { importGraph, indexByBaseName, viewReader, type View } from './view';

/** What search answers read besides the view: the engine's root, store and settings. */
export interface SearchSetting {
  root: string;
  store: IndexStore;
  ranking: RankingParams;
  ripgrepPath?: string;
  /** Discovery's rules as the index applies them (loaded for ripgrep answers only). */
  discoveryRules: () => Promise<DiscoveryOptions>;
  /** The repository's past commits, when the root is in one (history/commitLog.ts). */
  commitLog?: () => Promise<CommitLog | undefined>;
}

export type SearchAsked = SearchOptions & { signal?: AbortSignal };

export interface FileAnswer {
  files: FileHit[];
  total: number;
  totalIsLowerBound?: boolean;
  /** Set when no matching file holds every word of the query (listed): every file is partial. */
  partialOnly?: { words: string[] };
  warnings: string[];
  diagnostics: Diagnostic[];
}

/**
 * `lang:`, `kind:` and `scope:` typed in a short query are filters, for every front end; a
 * task text keeps its words (`kind:` in a pasted log is text).
 */
export function liftFilters<O extends SearchOptions>(typed: string, options: O): { query: string; options: O } {
  if (isTaskText(typed)) return { query: typed, options };
  const lifted = liftInlineFilters(typed);
  if (lifted.labels.length === 0) return { query: typed, options };
  return { query: lifted.text, options: withLiftedFilters(options, lifted.filters) };
}

/** Ranked chunks from the provider the options name. */
export async function chunkAnswer(setting: SearchSetting, view: View, query: string, options: SearchAsked): Promise<ProviderAnswer> {
  const reader = viewReader(setting.root, setting.store, view);
  const indexAnswer = (o: SearchOptions): ProviderAnswer => {
    const r = searchSnapshot(view.scorer, view.symbols, reader, query, o, setting.ranking);
    return { hits: r.hits, total: r.total, totalIsLowerBound: r.totalIsLowerBound, ...(r.partialOnly ? { partialOnly: r.partialOnly } : {}), warnings: r.warnings, diagnostics: [] };
  };
  const context = async (): Promise<ProviderContext> => ({
    root: setting.root,
    snapshot: view.snapshot,
    locator: view.locator,
    symbols: view.symbols,
    reader,
    rgPath: setting.ripgrepPath,
    discovery: await setting.discoveryRules(),
  });
  switch (options.provider ?? 'index') {
    case 'index':
      return indexAnswer(options);
    case 'ripgrep': {
      const { ripgrepProvider } = await import('../providers/providers');
      return ripgrepProvider(await context(), query, options);
    }
    case 'hybrid': {
      const { fuseHybrid, ripgrepWordsProvider } = await import('../providers/providers');
      const ctx = await context();
      const depth = Math.max(30, ((options.limit ?? 20) + (options.offset ?? 0)) * 3);
      const idx = indexAnswer({ ...options, limit: depth, offset: 0 });
      const rg = await ripgrepWordsProvider(ctx, query, { ...options, limit: depth, offset: 0 });
      const fused = fuseHybrid(ctx, query, [{ name: 'index', hits: idx.hits }, { name: 'ripgrep', hits: rg.hits, weight: setting.ranking.hybridRipgrep }], options);
      return { hits: fused.hits, total: fused.total, warnings: [...idx.warnings, ...rg.warnings], diagnostics: rg.diagnostics };
    }
    default:
      throw new Error(`unknown provider ${String(options.provider)}`);
  }
}

/** Files of a task text's keyword pool at least, and per file asked for (limit + offset). */
export const TASK_POOL_MIN_FILES = 30;
export const TASK_POOL_PER_FILE = 3;

/**
 * The files a task text's keyword ranking passes to localization, which reorders them and adds
 * any file the evidence names outside them. Each file costs the scoring of its chunks
 * (FILE_POOL_PER_FILE a file, search.ts), the largest part of a long text's answer: the pool
 * is as deep as reordering needs, three times the files shown.
 */
export function taskPoolFiles(limit: number, offset: number): number {
  return Math.max(TASK_POOL_MIN_FILES, TASK_POOL_PER_FILE * (limit + offset));
}

/**
 * Files ranked as files. `text` is the text as given, before the query bound: a task text's
 * evidence is read from all of it.
 */
export async function fileAnswer(setting: SearchSetting, view: View, query: string, options: SearchAsked, text: string = query): Promise<FileAnswer> {
  if ((options.provider ?? 'index') === 'index') {
    const reader = viewReader(setting.root, setting.store, view);
    const past = await historySignals(setting, view, text);
    const limit = Math.max(1, options.limit ?? 20);
    const offset = Math.max(0, options.offset ?? 0);
    const task = isTaskText(text);
    if (task || past.some((s) => s.evidence.length > 0)) {
      // Rank from the first file on (a task text: a deeper pool) and let the evidence reorder
      // it. Only the files shown need spans: the pool is there to be reordered, so none are
      // read before the evidence says which files are shown.
      const pool = task ? taskPoolFiles(limit, offset) : offset + limit;
      const r = searchFilesSnapshot(view.scorer, reader, query, { ...options, limit: pool, offset: 0 }, setting.ranking, view.symbols, 0);
      const localize = localizeContext(setting, view, reader, options.previewLines ?? 3);
      const ranked = withPastCommits(task ? localizeFiles(localize, text, r.files, pool) : r.files, past, localize.firstChunk);
      const shown = localize.withPreviews(r.withPreviews(ranked.slice(offset, offset + limit)));
      // A task text is not a list of words every match must hold: no file or span is "partial".
      const files = task ? shown.map(wholeMatch) : shown;
      return { files, total: Math.max(r.total, offset + files.length), totalIsLowerBound: r.totalIsLowerBound, ...(!task && r.partialOnly ? { partialOnly: r.partialOnly } : {}), warnings: r.warnings, diagnostics: [] };
    }
    const r = searchFilesSnapshot(view.scorer, reader, query, options, setting.ranking, view.symbols);
    return { files: r.files, total: r.total, totalIsLowerBound: r.totalIsLowerBound, ...(r.partialOnly ? { partialOnly: r.partialOnly } : {}), warnings: r.warnings, diagnostics: [] };
  }
  // Other providers answer with chunks: rank enough of them, then group them by file.
  const limit = Math.max(1, options.limit ?? 20);
  const offset = Math.max(0, options.offset ?? 0);
  const chunks = await chunkAnswer(setting, view, query, { ...options, limit: Math.min(10 * (limit + offset), 1000), offset: 0, maxPerFile: 0, crossReferences: false });
  const files = groupHitsByFile(chunks.hits, query, setting.ranking);
  return { files: files.slice(offset, offset + limit), total: files.length, totalIsLowerBound: chunks.total > chunks.hits.length, warnings: chunks.warnings, diagnostics: chunks.diagnostics };
}

function wholeMatch(file: FileHit): FileHit {
  const { partial: _file, ...rest } = file;
  return { ...rest, spans: file.spans.map(({ partial: _span, ...span }) => span) };
}

/**
 * What the history says of `text`: the files past commits like it changed, and the files its
 * subject's words go with, among the indexed files that are not tests or prose (a test and a
 * changelog change with everything); nothing outside a repository.
 */
async function historySignals(setting: SearchSetting, view: View, text: string): Promise<PastSignal[]> {
  const { pastCommit, pastCommitWords } = setting.ranking;
  const similar = pastCommit > 0 && hasMessageWords(text);
  const words = pastCommitWords > 0 && hasSubjectWords(text);
  if (!similar && !words) return [];
  const log = await setting.commitLog?.();
  if (!log || log.commits.length === 0) return [];
  const counts = (path: string) => view.locator.has(path) && !isTestPath(path) && bucketOf(languageInfo(path).id) !== 'prose';
  return [
    { signal: 'similar-past-commit', weight: pastCommit, evidence: similar ? pastCommitEvidence(log, text, counts) : [] },
    { signal: 'past-commit-words', weight: pastCommitWords, evidence: words ? pastWordEvidence(log, text, counts) : [] },
  ];
}

/**
 * What localization reads of a view: base names, definitions and chunks by line. The chunks
 * evidence points at are read without previews: only the files shown get them (`withPreviews`).
 */
function localizeContext(setting: SearchSetting, view: View, reader: FileReader, previewLines: number): LocalizeContext & { withPreviews(files: readonly FileHit[]): FileHit[] } {
  const segmentOf = (seg: number) => view.snapshot.segments[seg] as Snapshot['segments'][number];
  // By docid: localization hands back copies of these hits, scored by their evidence.
  const unpreviewed = new Map<string, { seg: number; doc: number }>();
  const hitOf = (seg: number, doc: number) => {
    const hit = reader.hit(segmentOf(seg), doc, 0, undefined);
    if (previewLines > 0) unpreviewed.set(hit.docid, { seg, doc });
    return hit;
  };
  const baseNames = () => (view.baseNames ??= indexByBaseName(view.locator.paths()));
  return {
    withPreviews: (files) =>
      files.map((f) => {
        const bare = (h: SearchHit) => h.preview === '' && unpreviewed.has(h.docid);
        if (!f.spans.some(bare)) return f;
        const spans = f.spans.map((h) => {
          const at = bare(h) ? unpreviewed.get(h.docid) : undefined;
          return at ? { ...reader.hit(segmentOf(at.seg), at.doc, previewLines, undefined), score: h.score, scoreBreakdown: h.scoreBreakdown } : h;
        });
        return { ...f, spans };
      }),
    filesNamed: (name) => baseNames().get(name) ?? [],
    definitions: (name, limit) => {
      const { exact, candidates } = view.symbols.find(name, { limit: (limit + 1) * 3, exactOnly: true });
      if (!exact) return [];
      return candidates
        .filter((c) => c.match === 'exact' || c.match === 'qualified')
        .filter((c) => DEFINITION_KINDS.has(view.snapshot.segments[c.seg]!.kindOf(c.doc)))
        .slice(0, limit + 1)
        .map((c) => hitOf(c.seg, c.doc));
    },
    chunkAt: (path, line) => {
      const ref = view.locator.locate(path, line);
      return ref ? hitOf(ref.seg, ref.doc) : undefined;
    },
    firstChunk: (path) => {
      const ref = view.locator.chunksOf(path)[0];
      return ref ? hitOf(ref.seg, ref.doc) : undefined;
    },
    chunksMatching: (words, limit) => searchSnapshot(view.scorer, view.symbols, reader, words, { limit, previewLines: 0, crossReferences: false }, setting.ranking).hits,
    text: (hit) => reader.text(hit.path, hit.startLine, hit.endLine),
    importsOf: (path) => (view.graph ??= importGraph(setting.store, view)).importsOf(path),
    importersOf: (path) => (view.graph ??= importGraph(setting.store, view)).importersOf(path),
  };
}
