// Merging per-folder answers into one multi-root answer. Pure functions (unit-testable without
// VS Code): every hit is labelled with its folder, order is by score and stable across folders.
import type { FileHit, FileSearchResponse, SearchHit, SearchResponse, SymbolHit, SymbolResponse } from '../core/api';

export interface FolderLabel {
  name: string;
  uri: string;
}

export type LabelledHit<T extends SearchHit> = T & { folder: string; folderUri: string };

export interface FolderAnswer<R> {
  folder: FolderLabel;
  response?: R;
  error?: string;
}

export interface Merged<T extends SearchHit> {
  results: Array<LabelledHit<T>>;
  total: number;
  /** Some folder stopped counting exactly: at least `total` match. */
  totalIsLowerBound?: boolean;
  warnings: string[];
}

function label<T extends SearchHit>(hit: T, folder: FolderLabel): LabelledHit<T> {
  return { ...hit, folder: folder.name, folderUri: folder.uri, root: folder.uri };
}

/** Warnings and errors, prefixed with the folder's name when there is more than one folder. */
function notesOf(answers: ReadonlyArray<FolderAnswer<{ warnings?: string[] }>>): string[] {
  const multi = answers.length > 1;
  const out: string[] = [];
  for (const a of answers) {
    const prefix = multi ? `${a.folder.name}: ` : '';
    if (a.error) out.push(`${prefix}${a.error}`);
    for (const w of a.response?.warnings ?? []) out.push(`${prefix}${w}`);
  }
  return [...new Set(out)];
}

/** Sorts by `key` descending, keeping folder order then per-folder rank for ties. */
function stableByScore<T extends SearchHit>(lists: Array<Array<LabelledHit<T>>>, key: (h: LabelledHit<T>) => number): Array<LabelledHit<T>> {
  const flat = lists.flatMap((list, f) => list.map((hit, rank) => ({ hit, f, rank })));
  flat.sort((a, b) => key(b.hit) - key(a.hit) || a.f - b.f || a.rank - b.rank);
  return flat.map((x) => x.hit);
}

export function mergeSearch(answers: ReadonlyArray<FolderAnswer<SearchResponse>>, limit: number): Merged<SearchHit> & { allTerms?: false; note?: string } {
  const lists = answers.map((a) => (a.response?.results ?? []).map((h) => label(h, a.folder)));
  const total = answers.reduce((n, a) => n + (a.response?.total ?? 0), 0);
  const lowerBound = answers.some((a) => a.response?.totalIsLowerBound);
  // Partial only when no folder has a full match: one folder's full matches are results.
  const answered = answers.filter((a) => a.response && a.response.results.length > 0);
  const partial = answered.length > 0 && answered.every((a) => a.response?.allTerms === false);
  const note = partial ? answered[0]?.response?.note?.replace(/; \d+\+? partial match(es)?$/, `; ${total}${lowerBound ? '+' : ''} partial match${total === 1 && !lowerBound ? '' : 'es'}`) : undefined;
  return {
    results: stableByScore(lists, (h) => h.score).slice(0, limit),
    total,
    ...(lowerBound ? { totalIsLowerBound: true } : {}),
    ...(partial && note ? { allTerms: false as const, note } : {}),
    warnings: notesOf(answers),
  };
}

export type LabelledFile = Omit<FileHit, 'spans'> & { spans: Array<LabelledHit<SearchHit>>; folder: string; folderUri: string };

/** Files ranked as files in every folder, merged by score (ties: folder order, then rank), spans labelled too. */
export function mergeFiles(answers: ReadonlyArray<FolderAnswer<FileSearchResponse>>, limit: number): { files: LabelledFile[]; total: number; totalIsLowerBound?: boolean; warnings: string[] } {
  const flat = answers.flatMap((a, f) =>
    (a.response?.files ?? []).map((file, rank) => ({
      file: { ...file, spans: file.spans.map((h) => label(h, a.folder)), folder: a.folder.name, folderUri: a.folder.uri, root: a.folder.uri },
      f,
      rank,
    })),
  );
  flat.sort((a, b) => b.file.score - a.file.score || a.f - b.f || a.rank - b.rank);
  return {
    files: flat.slice(0, limit).map((x) => x.file),
    total: answers.reduce((n, a) => n + (a.response?.total ?? 0), 0),
    ...(answers.some((a) => a.response?.totalIsLowerBound) ? { totalIsLowerBound: true } : {}),
    warnings: notesOf(answers),
  };
}

const EXACT = new Set(['exact', 'exact-ignore-case', 'qualified']);

export function mergeSymbols(answers: ReadonlyArray<FolderAnswer<SymbolResponse>>, limit: number): Merged<SymbolHit> & { exact: boolean; note?: string } {
  const lists = answers.map((a) => (a.response?.results ?? []).map((h) => label(h, a.folder)));
  // Exact matches first whatever folder they come from, then by score.
  const results = stableByScore(lists, (h) => (EXACT.has(h.match) ? 1e9 : 0) + h.score).slice(0, limit);
  const exact = answers.some((a) => a.response?.exact);
  const notes = answers.filter((a) => a.response?.note).map((a) => (answers.length > 1 ? `${a.folder.name}: ${a.response?.note}` : (a.response?.note as string)));
  return {
    results,
    total: results.length,
    warnings: notesOf(answers.map((a) => ({ folder: a.folder, ...(a.error ? { error: a.error } : {}) }))),
    exact,
    ...(!exact && notes.length ? { note: notes.join('; ') } : {}),
  };
}
