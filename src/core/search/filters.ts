// Search filters compiled once per query into per-file and per-document predicates.
import picomatch from 'picomatch';
import { resolveLanguageFilter } from '../languages';
import { bucketOfFlags, KIND_INDEX } from '../index/fields';
import type { Segment } from '../index/segment';
import type { SearchFilters } from './types';

const GLOB_CHARS = /[*?[\]{}!]/;

/** A path filter: globs match the whole relative path; plain text matches as a substring (case-insensitive). */
export function compilePathFilter(patterns: readonly string[] | undefined): ((path: string) => boolean) | undefined {
  const list = (patterns ?? []).map((p) => p.trim()).filter(Boolean);
  if (list.length === 0) return undefined;
  const tests = list.map((p) => {
    const negated = p.startsWith('!');
    const pat = (negated ? p.slice(1) : p).replace(/^\.\//, '');
    let test: (path: string) => boolean;
    if (GLOB_CHARS.test(pat)) {
      const m = picomatch(pat, { dot: true, nocase: true });
      // `src` style globs also match everything below a directory.
      test = (path) => m(path) || (!pat.includes('*') && path.startsWith(`${pat.replace(/\/$/, '')}/`));
    } else {
      const needle = pat.toLowerCase();
      test = (path) => path.toLowerCase().includes(needle);
    }
    return { negated, test };
  });
  const positives = tests.filter((t) => !t.negated);
  const negatives = tests.filter((t) => t.negated);
  return (path) => (positives.length === 0 || positives.some((t) => t.test(path))) && !negatives.some((t) => t.test(path));
}

export interface CompiledFilters {
  /** Per segment, per file: 1 when the file passes language/path filters. */
  fileAllowed(segIndex: number, seg: Segment): Uint8Array;
  docAllowed(seg: Segment, doc: number): boolean;
}

export function compileFilters(filters: SearchFilters): CompiledFilters {
  const langs = filters.languages?.length ? new Set(filters.languages.flatMap(resolveLanguageFilter)) : undefined;
  const kinds = filters.kinds?.length ? new Set(filters.kinds.map((k) => KIND_INDEX.get(k.trim().toLowerCase()) ?? -1)) : undefined;
  const pathOk = compilePathFilter(filters.paths);
  const docsOnly = filters.scope === 'docs';
  const cache = new Map<number, Uint8Array>();
  return {
    fileAllowed(segIndex, seg) {
      let allowed = cache.get(segIndex);
      if (!allowed) {
        allowed = new Uint8Array(seg.fileCount);
        // Without filters no path is decoded: a plain search reads no file table.
        for (let i = 0; i < seg.fileCount; i++) {
          allowed[i] = (!langs || langs.has(seg.fileLanguage(i))) && (!pathOk || pathOk(seg.filePath(i))) ? 1 : 0;
        }
        cache.set(segIndex, allowed);
      }
      return allowed;
    },
    docAllowed(seg, doc) {
      if (kinds && !kinds.has(seg.docKind.at(doc))) return false;
      if (docsOnly && bucketOfFlags(seg.docFlags.at(doc)) !== 'prose') return false;
      return true;
    },
  };
}

/** Validates user-supplied kind names; returns the unknown ones. */
export function unknownKinds(kinds: readonly string[] | undefined): string[] {
  return (kinds ?? []).filter((k) => !KIND_INDEX.has(k.trim().toLowerCase()));
}
