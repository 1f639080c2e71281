// Confinement of caller-supplied paths to the root. Tool arguments come from a model, which may
// have read instructions planted in a file; nothing it passes may name a file outside the root
// (`..`, absolute paths, symbolic links leading out) or a file that looks like it holds secrets.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_DISCOVERY_OPTIONS } from '../core/discovery';
import { rulesFor } from '../core/discovery/rules';
import { ToolError } from './errors';

/** Directories whose contents are never served, wherever they appear in a path. */
const REFUSED_DIRS = new Set(['.git', '.hg', '.svn']);

/**
 * The POSIX relative form of a path given by a caller (`./src//a.ts`, `src\a.ts`), or a
 * ToolError saying why it is refused. Purely lexical: symbolic links are checked by
 * `resolveInsideRoot`. `root`, when given, lets the error for an absolute path inside the root
 * suggest the relative path to use instead.
 */
export function normaliseRequestedPath(input: string, root?: string): string {
  if (input.includes('\0')) throw new ToolError('the path contains a NUL byte');
  const given = input.trim();
  if (given === '') throw new ToolError('the path is empty');
  const slashed = given.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    const inside = root ? relativeInside(root, given) : undefined;
    throw new ToolError(`absolute paths are not accepted: give a path relative to the root${inside ? ` (here: ${inside})` : ''}`);
  }
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new ToolError(`'..' is not accepted in paths: every path stays inside the root (got ${JSON.stringify(given)})`);
  if (segments.length === 0) throw new ToolError('the path names the root folder itself, not a file');
  return segments.join('/');
}

function relativeInside(root: string, absolute: string): string | undefined {
  if (!path.isAbsolute(absolute)) return undefined;
  const rel = path.relative(root, absolute);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : undefined;
}

/** True when `child` (absolute, real) is `parent` or lies below it. */
function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

const isSecretName = rulesFor(DEFAULT_DISCOVERY_OPTIONS).isSecretName;

function refuseSensitive(relPath: string, shown: string): void {
  const segments = relPath.split('/');
  if (segments.slice(0, -1).some((s) => REFUSED_DIRS.has(s))) throw new ToolError(`${shown} lies inside version-control metadata; it is not served`);
  if (isSecretName(segments[segments.length - 1] ?? '')) throw new ToolError(`${shown} looks like a file holding secrets (its name is on the secret deny-list); it is not served`);
}

export interface ConfinedFile {
  /** The path as the caller should cite it: POSIX, relative to the root. */
  relPath: string;
  /** Real absolute path of the file (symbolic links resolved, still inside the root). */
  realPath: string;
}

/**
 * Resolves a caller-supplied path to a regular file inside the root. Symbolic links are
 * followed only while they stay inside the root's real path.
 */
export function resolveInsideRoot(root: string, input: string): ConfinedFile {
  const relPath = normaliseRequestedPath(input, root);
  refuseSensitive(relPath, relPath);
  const realRoot = fs.realpathSync(root);
  let realPath: string;
  try {
    realPath = fs.realpathSync(path.join(realRoot, ...relPath.split('/')));
  } catch (e) {
    throw new ToolError(describeFsError(e, relPath));
  }
  if (!isWithin(realRoot, realPath)) throw new ToolError(`${relPath} resolves to a location outside the root (through a symbolic link); it is not served`);
  const realRel = path.relative(realRoot, realPath).split(path.sep).join('/');
  if (realRel === '') throw new ToolError(`${relPath} is the root folder itself, not a file`);
  // The link's target must pass the same checks as a path given directly.
  if (realRel !== relPath) refuseSensitive(realRel, `${relPath} (a link to ${realRel})`);
  return { relPath, realPath };
}

export function describeFsError(e: unknown, relPath: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `no such file: ${relPath}`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied: ${relPath}`;
    case 'ELOOP':
      return `${relPath}: too many levels of symbolic links`;
    default:
      return `${relPath}: ${e instanceof Error ? e.message : String(e)}`;
  }
}
