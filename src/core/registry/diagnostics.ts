// The registry's stable diagnostic codes. Every failure becomes one of these, returned beside
// the (possibly partial) result; none is thrown at a caller and none is silently dropped.
import type { Diagnostic } from '../types';

export const REGISTRY_DIAGNOSTIC_CODES = [
  'invalid-manifest', // pack.json is not JSON, fails the schema, or contradicts itself
  'invalid-index', // registry.json is not JSON or fails the schema
  'invalid-config', // .agent-context/config.json is not JSON or fails the schema
  'config-ignored', // a repository's config asks for what only the user may switch on (a remote, a folder outside the root)
  'duplicate-id', // two packs of one source declare the same id: neither is served
  'shadowed-entry', // a later source defines an id an earlier one already has
  'path-traversal', // `..`, an absolute path, or a symlink leading out of the pack
  'missing-file', // a declared file does not exist
  'hash-mismatch', // bytes differ from the declared SHA-256
  'permission-denied', // EACCES / EPERM
  'too-large', // a file over maxFileBytes
  'invalid-utf8', // a file that is not UTF-8 text
  'unreadable', // any other I/O failure, or not a regular file
  'stale-revision', // content or notes belong to another revision than expected
  'not-found', // unknown entry id, or a file the manifest does not list
  'invalid-request', // a call's arguments make no sense (empty query, file mode without a file)
  'invalid-note', // an annotation that is empty or too long
  'invalid-annotation', // a stored note that cannot be parsed
  'no-registry', // the registry folder does not exist
  'symlink-skipped', // a symlinked folder met while looking for packs
  'cache-unwritable', // the cache could not be written; answers still come from disk
  'remote-timeout', // the server did not answer within timeoutMs
  'remote-unreachable', // connection refused, DNS failure, reset
  'remote-http-error', // a non-2xx status
  'remote-too-large', // more bytes than maxBytes
  'remote-bad-schema', // not JSON, or not a registry document
  'remote-fallback', // the remote failed; its cached copy answered
] as const;

export type RegistryDiagnosticCode = (typeof REGISTRY_DIAGNOSTIC_CODES)[number];

export interface RegistryDiagnostic extends Diagnostic {
  code: RegistryDiagnosticCode;
  /** The entry concerned, when there is one. */
  entryId?: string;
  /** The remote URL concerned, when there is one. */
  url?: string;
}

export function diagnostic(
  code: RegistryDiagnosticCode,
  severity: Diagnostic['severity'],
  message: string,
  where: { path?: string; entryId?: string; url?: string } = {},
): RegistryDiagnostic {
  const d: RegistryDiagnostic = { code, message, severity };
  if (where.path !== undefined) d.path = where.path;
  if (where.entryId !== undefined) d.entryId = where.entryId;
  if (where.url !== undefined) d.url = where.url;
  return d;
}

export type FileProblemCode = 'missing-file' | 'permission-denied' | 'path-traversal' | 'unreadable';

/** The diagnostic code for a failed filesystem call. */
export function codeForFsError(error: unknown): FileProblemCode {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'missing-file';
    case 'EACCES':
    case 'EPERM':
      return 'permission-denied';
    case 'ELOOP': // O_NOFOLLOW met a symlink swapped in after the realpath check
    case 'EMLINK':
      return 'path-traversal';
    default:
      return 'unreadable';
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
