// All configured sources as of now: the local registry folder, then each remote in configuration
// order. An id defined by an earlier source shadows later ones; two packs of the local registry
// claiming the same id are both refused (picking one would be a guess).
import * as path from 'node:path';
import { diagnostic, type RegistryDiagnostic } from './diagnostics';
import { refreshLocal, type CachedPack, type LocalSnapshot } from './local';
import { MANIFEST_FILE, type PackManifest } from './manifest';
import { refreshRemote, type RemoteEntry, type RemoteSnapshot } from './remote';
import type { CacheReport, CacheStatus, EntryMetadata, RemoteSourceConfig, SourceReport } from './types';

export type Origin = { kind: 'local'; pack: CachedPack } | { kind: 'remote'; entry: RemoteEntry; snapshot: RemoteSnapshot };

export interface LoadedEntry {
  meta: EntryMetadata;
  origin: Origin;
  /** Index of the source in `Loaded.cache.sources`. */
  source: number;
}

export interface Loaded {
  /** Every valid entry of every source, shadowed ones included. */
  all: LoadedEntry[];
  /** The entry answering for each id. */
  visible: LoadedEntry[];
  local: LocalSnapshot;
  cache: CacheReport;
  diagnostics: RegistryDiagnostic[];
}

export interface SourceOptions {
  registryDir: string;
  cacheDir: string;
  remotes: readonly RemoteSourceConfig[];
  maxFileBytes: number;
  show: (absolute: string) => string;
}

const STATUS_RANK: Readonly<Record<CacheStatus, number>> = { hit: 0, refreshed: 1, rebuilt: 2 };

export function worstStatus(statuses: ReadonlyArray<SourceReport['status']>): CacheStatus {
  const usable = statuses.filter((s): s is CacheStatus => s !== 'unavailable');
  if (usable.length === 0) return 'rebuilt';
  return usable.reduce((a, b) => (STATUS_RANK[b] > STATUS_RANK[a] ? b : a));
}

export async function loadSources(options: SourceOptions): Promise<Loaded> {
  const [local, ...remotes] = await Promise.all([
    refreshLocal({ registryDir: options.registryDir, cacheDir: options.cacheDir, maxFileBytes: options.maxFileBytes, show: options.show }),
    ...options.remotes.map((r) => refreshRemote(r, options.cacheDir)),
  ]) as [LocalSnapshot, ...RemoteSnapshot[]];
  const diagnostics: RegistryDiagnostic[] = [...local.diagnostics];
  const all: LoadedEntry[] = localEntries(local, options.show, diagnostics);
  remotes.forEach((snapshot, i) => {
    diagnostics.push(...snapshot.diagnostics);
    for (const entry of snapshot.entries) all.push({ meta: remoteMetadata(entry.manifest, snapshot), origin: { kind: 'remote', entry, snapshot }, source: i + 1 });
  });

  const visible: LoadedEntry[] = [];
  const owner = new Map<string, LoadedEntry>();
  for (const entry of all) {
    const first = owner.get(entry.meta.id);
    if (!first) {
      owner.set(entry.meta.id, entry);
      visible.push(entry);
    } else {
      diagnostics.push(diagnostic('shadowed-entry', 'info', `${entry.meta.id} from ${entry.meta.sourceId} is shadowed by the one from ${first.meta.sourceId}`, { entryId: entry.meta.id }));
    }
  }
  const sources: SourceReport[] = [
    { kind: 'local', location: options.show(options.registryDir), status: local.registryReal ? local.status : 'unavailable', entries: all.filter((e) => e.source === 0).length },
    ...remotes.map((r, i): SourceReport => ({ kind: 'remote', location: r.url, status: r.status, servedFromCache: r.servedFromCache, entries: all.filter((e) => e.source === i + 1).length })),
  ];
  return { all, visible, local, cache: { status: worstStatus(sources.map((s) => s.status)), sources }, diagnostics };
}

function localEntries(local: LocalSnapshot, show: (absolute: string) => string, diagnostics: RegistryDiagnostic[]): LoadedEntry[] {
  const packsById = new Map<string, CachedPack[]>();
  for (const pack of local.packs) {
    const manifestShown = show(path.join(pack.real, MANIFEST_FILE));
    for (const p of pack.problems) diagnostics.push(diagnostic(p.code, 'error', p.message, { path: manifestShown, ...(pack.claimedId ? { entryId: pack.claimedId } : {}) }));
    if (!pack.manifest) continue;
    packsById.set(pack.manifest.id, [...(packsById.get(pack.manifest.id) ?? []), pack]);
  }
  const entries: LoadedEntry[] = [];
  for (const [id, packs] of packsById) {
    if (packs.length > 1) {
      const where = packs.map((p) => show(p.real)).join(', ');
      for (const p of packs) diagnostics.push(diagnostic('duplicate-id', 'error', `${id} is declared by ${packs.length} packs (${where}); none is served`, { path: show(path.join(p.real, MANIFEST_FILE)), entryId: id }));
      continue;
    }
    const pack = packs[0] as CachedPack;
    const manifest = pack.manifest as PackManifest;
    let problems = 0;
    for (const [i, file] of pack.files.entries()) {
      const ref = manifest.files[i];
      if (!ref) continue;
      const shown = show(path.join(pack.real, ...ref.path.split('/')));
      if (file.problem) {
        problems++;
        diagnostics.push(diagnostic(file.problem.code, 'error', file.problem.message, { path: shown, entryId: id }));
      } else if (file.sha256 !== ref.sha256) {
        problems++;
        diagnostics.push(diagnostic('hash-mismatch', 'error', `${ref.path} has SHA-256 ${file.sha256}, the manifest declares ${ref.sha256}`, { path: shown, entryId: id }));
      }
    }
    entries.push({
      meta: {
        ...manifest,
        provenance: { kind: 'local', sourceId: manifest.sourceId, path: show(pack.real), manifest: show(path.join(pack.real, MANIFEST_FILE)) },
        integrity: problems ? 'problems' : 'verified',
      },
      origin: { kind: 'local', pack },
      source: 0,
    });
  }
  return entries;
}

function remoteMetadata(manifest: PackManifest, snapshot: RemoteSnapshot): EntryMetadata {
  return {
    ...manifest,
    provenance: { kind: 'remote', sourceId: manifest.sourceId, url: snapshot.url, fetchedAtMs: snapshot.fetchedAtMs ?? 0, servedFromCache: snapshot.servedFromCache },
    integrity: 'verified',
  };
}
