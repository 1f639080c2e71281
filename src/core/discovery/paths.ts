// Relative POSIX paths are the currency of discovery: every path leaving this module is one.
import * as path from 'node:path';

/** Plain UTF-16 code-unit order: the same on every machine and locale, unlike localeCompare. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The directory part of a relative POSIX path, '' for a top-level entry. */
export function parentOf(relPath: string): string {
  const i = relPath.lastIndexOf('/');
  return i < 0 ? '' : relPath.slice(0, i);
}

/** `dir` + `/` + `name`, where the root directory is ''. */
export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/**
 * Native absolute path of a relative POSIX path under an absolute, normalised root. Plain
 * concatenation: path.join's normalisation showed up in profiles of 20k-file walks.
 */
export function toAbsolute(root: string, relPath: string): string {
  if (relPath === '') return root;
  const native = path.sep === '/' ? relPath : relPath.replace(/\//g, path.sep);
  return root.endsWith(path.sep) ? root + native : root + path.sep + native;
}

/**
 * Normalises a caller-supplied relative path (`./src//a.ts`, `src\a.ts` on Windows) to the
 * POSIX form used everywhere; '' is the root itself. Returns undefined for paths that are
 * absolute or climb out of the root, which discovery never serves.
 */
export function normaliseRelPath(input: string): string | undefined {
  const slashed = path.sep === '\\' ? input.replace(/\\/g, '/') : input;
  if (slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed)) return undefined;
  const normal = path.posix.normalize(slashed);
  if (normal === '..' || normal.startsWith('../')) return undefined;
  const trimmed = normal.replace(/\/+$/, '');
  return trimmed === '.' ? '' : trimmed;
}

/** Relative POSIX path of an absolute native path under root, or undefined if it lies outside. */
export function relativeToRoot(root: string, absolute: string): string | undefined {
  const rel = path.relative(root, absolute);
  if (rel === '') return '';
  if (path.isAbsolute(rel)) return undefined;
  return normaliseRelPath(rel.split(path.sep).join('/'));
}
