// The local registry as of now, answered from a cache of parsed manifests and file hashes keyed by
// file stamps. A file whose stamp is unchanged is not re-read; anything else is re-read and
// re-hashed. Status: `rebuilt` without a usable cache, `refreshed` when some content changed,
// `hit` when nothing did.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { hashBytes } from '../discovery/read';
import { readCacheFile, writeCacheFile } from './cacheFiles';
import { codeForFsError, diagnostic, errorText, REGISTRY_DIAGNOSTIC_CODES, type RegistryDiagnostic, type RegistryDiagnosticCode } from './diagnostics';
import { readRegularFile, sameStamp, stampOf, type FileStamp } from './files';
import { MANIFEST_FILE, packManifestSchema, parseManifest, type ManifestProblem, type PackManifest } from './manifest';
import { resolveInside } from './paths';
import { locatePacks } from './scan';
import type { CacheStatus } from './types';

/** One cache file per registry folder, so callers sharing a cache folder never evict each other. */
function cacheFileFor(cacheDir: string, registryReal: string): string {
  return path.join(cacheDir, `local-${createHash('sha256').update(registryReal).digest('hex').slice(0, 16)}.json`);
}
const MAX_MANIFEST_BYTES = 256 * 1024;
/**
 * A file modified this close to (or after) the moment the cache was written may have changed
 * again within the same timestamp tick: its stamp is not trusted, its bytes are re-hashed.
 */
const RACY_WINDOW_MS = 1000;

export interface CachedFile {
  path: string;
  real: string | null;
  stamp: FileStamp | null;
  /** SHA-256 of the bytes last read; null when they could not be read. */
  sha256: string | null;
  problem: { code: RegistryDiagnosticCode; message: string } | null;
}

export interface CachedPack {
  /** POSIX path of the pack folder relative to the registry folder. */
  dir: string;
  real: string;
  manifestStamp: FileStamp | null;
  manifestHash: string | null;
  manifest: PackManifest | null;
  /** Why the manifest was refused (empty when it is valid). */
  problems: ManifestProblem[];
  /** The id an invalid manifest claims, for diagnostics. */
  claimedId: string | null;
  files: CachedFile[];
}

export interface LocalSnapshot {
  /** Null when the registry folder does not exist or cannot be opened. */
  registryReal: string | null;
  status: CacheStatus;
  packs: CachedPack[];
  /** Files added, removed or changed since the cache was written (absolute paths). */
  changed: string[];
  diagnostics: RegistryDiagnostic[];
}

const stampSchema = z.object({ size: z.number(), mtimeMs: z.number(), ctimeMs: z.number(), ino: z.number() });
const problemSchema = z.object({ code: z.enum(REGISTRY_DIAGNOSTIC_CODES), message: z.string() });
const cacheSchema = z.object({
  schemaVersion: z.literal(1),
  registryReal: z.string(),
  writtenAtMs: z.number(),
  packs: z.array(
    z.object({
      dir: z.string(),
      real: z.string(),
      manifestStamp: stampSchema.nullable(),
      manifestHash: z.string().nullable(),
      manifest: packManifestSchema.nullable(),
      problems: z.array(problemSchema),
      claimedId: z.string().nullable(),
      files: z.array(z.object({ path: z.string(), real: z.string().nullable(), stamp: stampSchema.nullable(), sha256: z.string().nullable(), problem: problemSchema.nullable() })),
    }),
  ),
});
type LocalCache = z.infer<typeof cacheSchema>;

export interface LocalOptions {
  registryDir: string;
  cacheDir: string;
  maxFileBytes: number;
  /** Formats absolute paths for diagnostics. */
  show: (absolute: string) => string;
}

/** Tracks, during one refresh, whether anything changed and whether the cache needs rewriting. */
class RefreshState {
  readonly changed: string[] = [];
  rewrite = false;
  constructor(readonly previousWrittenAtMs: number) {}

  /** Whether a stamp taken now can vouch for bytes hashed when the cache was written. */
  trusts(previous: FileStamp | null | undefined, now: FileStamp): boolean {
    if (!sameStamp(previous, now)) return false;
    if (now.mtimeMs < this.previousWrittenAtMs - RACY_WINDOW_MS) return true;
    this.rewrite = true; // a fresh writtenAtMs makes the stamp trustworthy next time
    return false;
  }
}

export async function refreshLocal(options: LocalOptions): Promise<LocalSnapshot> {
  let registryReal: string;
  try {
    registryReal = await fsp.realpath(options.registryDir);
  } catch (error) {
    const code = codeForFsError(error);
    const shown = options.show(options.registryDir);
    const d = code === 'missing-file'
      ? diagnostic('no-registry', 'info', `no local registry at ${shown}`, { path: shown })
      : diagnostic(code, 'error', `cannot open the registry folder ${shown}: ${errorText(error)}`, { path: shown });
    return { registryReal: null, status: 'rebuilt', packs: [], changed: [], diagnostics: [d] };
  }
  const cacheFile = cacheFileFor(options.cacheDir, registryReal);
  const cached = readCacheFile(cacheFile, cacheSchema);
  const previous = cached?.registryReal === registryReal ? cached : undefined;
  const state = new RefreshState(previous?.writtenAtMs ?? 0);
  const writtenAtMs = Date.now();

  const located = await locatePacks(registryReal, options.show);
  const previousByDir = new Map<string, CachedPack>((previous?.packs ?? []).map((p) => [p.dir, p]));
  const packs: CachedPack[] = [];
  for (const location of located.packs) {
    const before = previousByDir.get(location.dir);
    previousByDir.delete(location.dir);
    if (previous && !before) state.changed.push(path.join(location.real, MANIFEST_FILE));
    packs.push(await refreshPack(location.dir, location.real, before, state, options.maxFileBytes));
  }
  for (const gone of previousByDir.values()) state.changed.push(path.join(gone.real, MANIFEST_FILE));

  const status: CacheStatus = !previous ? 'rebuilt' : state.changed.length ? 'refreshed' : 'hit';
  const diagnostics = [...located.diagnostics];
  if (status !== 'hit' || state.rewrite) {
    const cache: LocalCache = { schemaVersion: 1, registryReal, writtenAtMs, packs };
    const failed = writeCacheFile(cacheFile, cache);
    if (failed) diagnostics.push(failed);
  }
  return { registryReal, status, packs, changed: previous ? state.changed : [], diagnostics };
}

async function refreshPack(dir: string, real: string, before: CachedPack | undefined, state: RefreshState, maxFileBytes: number): Promise<CachedPack> {
  const manifestPath = path.join(real, MANIFEST_FILE);
  const pack: CachedPack = { dir, real, manifestStamp: null, manifestHash: null, manifest: null, problems: [], claimedId: null, files: [] };
  const fail = (code: RegistryDiagnosticCode, message: string): CachedPack => {
    pack.problems = [{ code, message: `${MANIFEST_FILE}: ${message}` }];
    if (before && (before.manifestHash !== null || before.problems[0]?.code !== code)) state.changed.push(manifestPath);
    return pack;
  };
  const resolved = await resolveInside(real, MANIFEST_FILE);
  if (!resolved.ok) return fail(resolved.code, resolved.message);
  const stats = await fsp.stat(resolved.real).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (stats instanceof Error) return fail(codeForFsError(stats), errorText(stats));
  const stamp = stampOf(stats);
  if (before && before.manifestHash !== null && state.trusts(before.manifestStamp, stamp)) {
    pack.manifestStamp = stamp;
    pack.manifestHash = before.manifestHash;
    pack.manifest = before.manifest;
    pack.problems = before.problems;
    pack.claimedId = before.claimedId;
  } else {
    const read = await readRegularFile(resolved.real, MAX_MANIFEST_BYTES);
    if (!read.ok) return fail(read.code, read.message);
    pack.manifestStamp = read.stamp;
    pack.manifestHash = hashBytes(read.bytes);
    if (before && before.manifestHash === pack.manifestHash) {
      pack.manifest = before.manifest;
      pack.problems = before.problems;
      pack.claimedId = before.claimedId;
      if (!sameStamp(before.manifestStamp, read.stamp)) state.rewrite = true;
    } else {
      if (before) state.changed.push(manifestPath);
      const outcome = parseManifest(read.bytes.toString('utf8'));
      if (outcome.ok) pack.manifest = outcome.manifest;
      else {
        pack.problems = outcome.problems;
        pack.claimedId = outcome.id ?? null;
      }
    }
  }
  if (!pack.manifest) return pack;
  const beforeFiles = new Map((before?.files ?? []).map((f) => [f.path, f]));
  for (const ref of pack.manifest.files) {
    const file = await refreshFile(real, ref.path, beforeFiles.get(ref.path), state, maxFileBytes);
    const previous = beforeFiles.get(ref.path);
    if (before && (previous?.sha256 !== file.sha256 || previous?.problem?.code !== file.problem?.code)) {
      state.changed.push(path.join(real, ...ref.path.split('/')));
    }
    pack.files.push(file);
  }
  return pack;
}

async function refreshFile(packReal: string, rel: string, before: CachedFile | undefined, state: RefreshState, maxFileBytes: number): Promise<CachedFile> {
  const file: CachedFile = { path: rel, real: null, stamp: null, sha256: null, problem: null };
  const resolved = await resolveInside(packReal, rel);
  if (!resolved.ok) {
    file.problem = { code: resolved.code, message: resolved.message };
    return file;
  }
  file.real = resolved.real;
  const stats = await fsp.stat(resolved.real).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (stats instanceof Error) {
    file.problem = { code: codeForFsError(stats), message: `${rel}: ${errorText(stats)}` };
    return file;
  }
  const stamp = stampOf(stats);
  if (before?.sha256 && before.real === resolved.real && state.trusts(before.stamp, stamp)) {
    file.stamp = stamp;
    file.sha256 = before.sha256;
    return file;
  }
  const read = await readRegularFile(resolved.real, maxFileBytes);
  if (!read.ok) {
    file.problem = { code: read.code, message: `${rel}: ${read.message}` };
    return file;
  }
  file.stamp = read.stamp;
  file.sha256 = hashBytes(read.bytes);
  if (before?.sha256 === file.sha256 && !sameStamp(before.stamp, read.stamp)) state.rewrite = true;
  return file;
}
