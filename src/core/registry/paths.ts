// Paths inside a pack. A manifest's paths must already be canonical; a caller's requested path
// is normalised first (percent-decoding, backslashes, `./`). Either way `..` and absolute paths
// are refused, and resolveInside refuses symlinks whose target leaves the pack.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { codeForFsError, errorText, type FileProblemCode } from './diagnostics';

export type PathCheck =
  | { ok: true; path: string }
  | { ok: false; code: 'path-traversal' | 'invalid-manifest' | 'invalid-request'; message: string };

const DRIVE_OR_UNC = /^(?:[A-Za-z]:|\/\/|\\\\)/;

function traversal(input: string, why: string): PathCheck {
  return { ok: false, code: 'path-traversal', message: `'${input}' ${why}` };
}

/** A path as written in a manifest: relative, `/`-separated, no `.`/`..`/empty segments. */
export function checkManifestPath(input: string): PathCheck {
  if (input.startsWith('/') || DRIVE_OR_UNC.test(input)) return traversal(input, 'is absolute');
  const segments = input.split('/');
  if (segments.includes('..')) return traversal(input, 'climbs out of the pack');
  if (input === '' || input.includes('\0') || input.includes('\\') || segments.some((s) => s === '' || s === '.')) {
    return { ok: false, code: 'invalid-manifest', message: `'${input}' is not a canonical relative path (use a/b.md)` };
  }
  return { ok: true, path: input };
}

/**
 * A path a caller asked for (`references\api.md`, `./examples/x.md`, `..%2fsecret`), as the
 * manifest would spell it. Decoding happens once, before the checks, so an encoded `..` is
 * caught like a plain one.
 */
export function normaliseRequestedPath(input: string): PathCheck {
  let decoded = input;
  if (/%[0-9A-Fa-f]{2}/.test(input)) {
    try {
      decoded = decodeURIComponent(input);
    } catch {
      return { ok: false, code: 'invalid-request', message: `'${input}' has malformed percent-encoding` };
    }
  }
  if (decoded.includes('\0')) return { ok: false, code: 'invalid-request', message: 'the path contains a NUL byte' };
  if (DRIVE_OR_UNC.test(decoded) || decoded.startsWith('/') || decoded.startsWith('\\')) return traversal(input, 'is absolute');
  const segments = decoded.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return traversal(input, 'climbs out of the pack');
  if (segments.length === 0) return { ok: false, code: 'invalid-request', message: 'no file named' };
  return { ok: true, path: segments.join('/') };
}

export type Resolved = { ok: true; real: string } | { ok: false; code: FileProblemCode; message: string };

/** `..` or `../x`, but not a name that merely starts with dots (`..notes`). */
function climbsOut(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`);
}

/** True when `real` is `baseReal` or lies below it. Both must be real (symlink-free) paths. */
export function isInside(baseReal: string, real: string): boolean {
  const rel = path.relative(baseReal, real);
  return rel === '' || (!climbsOut(rel) && !path.isAbsolute(rel));
}

/**
 * The real path of `rel` under the real folder `baseReal`, refused when any symlink on the way
 * leads outside it. Symlinks that stay inside the pack are followed.
 */
export async function resolveInside(baseReal: string, rel: string): Promise<Resolved> {
  const joined = path.join(baseReal, ...rel.split('/'));
  let real: string;
  try {
    real = await fsp.realpath(joined);
  } catch (error) {
    return { ok: false, code: codeForFsError(error), message: `${rel}: ${errorText(error)}` };
  }
  if (!isInside(baseReal, real) || real === baseReal) {
    return { ok: false, code: 'path-traversal', message: `${rel} resolves outside its folder (a symlink to ${real})` };
  }
  return { ok: true, real };
}

/** How paths are shown: POSIX and root-relative when under the root, else absolute. */
export function displayPath(root: string, absolute: string): string {
  const rel = path.relative(root, absolute);
  if (rel === '') return '.';
  if (climbsOut(rel) || path.isAbsolute(rel)) return absolute.split(path.sep).join('/');
  return rel.split(path.sep).join('/');
}
