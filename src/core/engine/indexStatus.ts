// `Engine.status`: what is indexed, when, how fresh and how big, read from the store alone.
import { StateTable, StoreCorruptError, type IndexStore, type Manifest } from '../store/store';
import type { IndexStatus } from '../api';

/**
 * Never builds anything. `manifestOnly` leaves out what needs the state table (languages,
 * skipped files): a long-lived host keeps those from its last whole-root refresh.
 */
export function indexStatus(root: string, store: IndexStore, options: { manifestOnly?: boolean }): IndexStatus {
  const base: IndexStatus = {
    root,
    storeDir: store.dir,
    exists: false,
    generation: 0,
    files: 0,
    chunks: 0,
    segments: 0,
    deletedChunks: 0,
    storeBytes: 0,
    skippedByReason: {},
    skipped: [],
    languages: {},
    diagnostics: [],
  };
  let manifest: Manifest | undefined;
  try {
    manifest = store.readManifest();
  } catch (e) {
    if (e instanceof StoreCorruptError) {
      base.diagnostics.push({ code: e.code, severity: 'warning', message: `${e.message}; the next refresh rebuilds it` });
      return base;
    }
    throw e;
  }
  if (!manifest) return base;
  let state = StateTable.empty();
  try {
    if (!options.manifestOnly) state = store.readState(manifest);
  } catch (e) {
    if (!(e instanceof StoreCorruptError)) throw e;
    base.diagnostics.push({ code: e.code, severity: 'warning', message: e.message });
  }
  const languages: Record<string, number> = {};
  for (const [, language] of state.languages()) languages[language] = (languages[language] ?? 0) + 1;
  const skippedByReason: Record<string, number> = {};
  for (const s of state.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  return {
    ...base,
    exists: true,
    generation: manifest.generation,
    files: manifest.files,
    chunks: manifest.chunks,
    segments: manifest.segments.length,
    deletedChunks: manifest.segments.reduce((n, s) => n + s.deleted.reduce((m, [, c]) => m + c, 0), 0),
    storeBytes: store.sizeOnDisk(manifest),
    createdAt: manifest.createdAt,
    updatedAt: manifest.updatedAt,
    lastRefresh: manifest.lastRefresh,
    skippedByReason,
    skipped: state.skipped,
    languages,
  };
}
