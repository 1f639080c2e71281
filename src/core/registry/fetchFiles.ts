// Reading the files a fetch returns. Each one is re-read and checked against the hash the
// manifest declares right before it is handed out; whatever fails is omitted with its reason.
import { hashBytes } from '../discovery/read';
import { diagnostic, type RegistryDiagnostic } from './diagnostics';
import { decodeUtf8, readRegularFile } from './files';
import { resolveInside } from './paths';
import type { FetchedFile, OmitReason, PackFileRef } from './types';

export interface FileBatch {
  files: FetchedFile[];
  omitted: Array<{ path: string; reason: OmitReason }>;
  diagnostics: RegistryDiagnostic[];
}

interface Context {
  entryId: string;
  /** Formats a pack path for diagnostics; undefined for remote entries (the URL says where). */
  show: (rel: string) => string | undefined;
  url?: string;
}

function where(ref: PackFileRef, context: Context): { path?: string; entryId: string; url?: string } {
  const shown = context.show(ref.path);
  return { entryId: context.entryId, ...(shown === undefined ? {} : { path: shown }), ...(context.url === undefined ? {} : { url: context.url }) };
}

function verify(ref: PackFileRef, bytes: Uint8Array, context: Context, batch: FileBatch): void {
  const omit = (reason: 'hash-mismatch' | 'invalid-utf8', message: string): void => {
    batch.omitted.push({ path: ref.path, reason });
    batch.diagnostics.push(diagnostic(reason, 'error', message, where(ref, context)));
  };
  const actual = hashBytes(bytes);
  if (actual !== ref.sha256) return omit('hash-mismatch', `${ref.path} has SHA-256 ${actual}, the manifest declares ${ref.sha256}`);
  const content = decodeUtf8(bytes);
  if (content === undefined) return omit('invalid-utf8', `${ref.path} is not UTF-8 text`);
  batch.files.push({ path: ref.path, role: ref.role, sha256: actual, size: bytes.byteLength, content });
}

/** Reads files of a local pack (`packReal` is the pack folder's real path). */
export async function readLocalFiles(packReal: string, refs: readonly PackFileRef[], maxFileBytes: number, context: Context): Promise<FileBatch> {
  const batch: FileBatch = { files: [], omitted: [], diagnostics: [] };
  for (const ref of refs) {
    const resolved = await resolveInside(packReal, ref.path);
    const read = resolved.ok ? await readRegularFile(resolved.real, maxFileBytes) : resolved;
    if (!read.ok) {
      batch.omitted.push({ path: ref.path, reason: read.code });
      batch.diagnostics.push(diagnostic(read.code, 'error', read.message, where(ref, context)));
      continue;
    }
    verify(ref, read.bytes, context, batch);
  }
  return batch;
}

/** Files of a remote entry, from the accepted (cached) document: verified again, since the cache is a file anyone could edit. */
export function readRemoteFiles(contents: Readonly<Record<string, string>>, refs: readonly PackFileRef[], context: Context): FileBatch {
  const batch: FileBatch = { files: [], omitted: [], diagnostics: [] };
  for (const ref of refs) {
    const text = contents[ref.path];
    if (text === undefined) {
      batch.omitted.push({ path: ref.path, reason: 'missing-file' });
      batch.diagnostics.push(diagnostic('missing-file', 'error', `${ref.path} is missing from the cached copy`, where(ref, context)));
      continue;
    }
    verify(ref, Buffer.from(text, 'utf8'), context, batch);
  }
  return batch;
}
