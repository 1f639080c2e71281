// Confinement of caller-supplied paths to the root. Tool arguments come from a model, which may
// have read instructions planted in a file; nothing it passes may name a file outside the root
// (`..`, absolute paths). Whether a path inside it is served at all (links, ignored files,
// secrets, …) is discovery's decision: `readEligibleFile` in core/discovery.
import * as path from 'node:path';
import { ToolError } from './errors';

/**
 * The POSIX relative form of a path given by a caller (`./src//a.ts`, `src\a.ts`), or a
 * ToolError saying why it is refused. Purely lexical: symbolic links are refused by discovery's
 * eligibility check. `root`, when given, lets the error for an absolute path inside the root
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
