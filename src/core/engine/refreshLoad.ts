// The first step of a refresh: the generation it builds on, or a start from nothing (asked
// for, no index yet, or a store found corrupt).
import type { Diagnostic } from '../types';
import { corruptionDiagnostic, type IndexStore, type Manifest, StateTable, StoreCorruptError } from '../store/store';

/** The committed generation a refresh builds on; each part it commits moves it forward. */
export interface Generation {
  /** The generation whose files are kept and whose state is diffed against; none: build from nothing. */
  previous: Manifest | undefined;
  /** The generation the next commit replaces: `previous`, or on a rebuild the index readers still use. */
  replacing: Manifest | undefined;
  /** The per-file state of `previous` (empty without one). */
  state: StateTable;
}

export interface LoadedGeneration extends Generation {
  /** True when the refresh builds from nothing. */
  rebuilt: boolean;
  /** The previous generation was chunked with other settings: every file is re-chunked. */
  rechunkAll: boolean;
}

/**
 * Reads the store's current generation, validating every live segment, for a refresh with the
 * chunking settings `wantedConfig`. With `rebuild` it keeps only the generation to replace. A
 * corrupt store is cleared, reported in `diagnostics`, and the refresh starts from nothing.
 */
export function loadGeneration(store: IndexStore, wantedConfig: string, rebuild: boolean | undefined, diagnostics: Diagnostic[]): LoadedGeneration {
  let previous: Manifest | undefined;
  let replacing: Manifest | undefined;
  let state = StateTable.empty();
  let rebuilt = false;
  if (rebuild) {
    // Left in place: the commit's manifest switch retires it, and its files go after that.
    try {
      replacing = store.readManifest();
    } catch (e) {
      if (!(e instanceof StoreCorruptError)) throw e;
      store.clear();
    }
    rebuilt = true;
  } else {
    try {
      previous = store.readManifest();
      if (previous) {
        state = store.readState(previous);
        // Validate every live segment now: a corrupt one must not survive into the next generation.
        store.snapshot();
      }
    } catch (e) {
      if (!(e instanceof StoreCorruptError)) throw e;
      diagnostics.push(corruptionDiagnostic(e));
      // Nothing readable to keep for readers: discard it (a damaged file can block a rewrite).
      store.clear();
      previous = undefined;
      state = StateTable.empty();
      rebuilt = true;
    }
  }
  if (!previous) rebuilt = true;
  replacing ??= previous;
  const rechunkAll = previous !== undefined && previous.configHash !== wantedConfig;
  if (rechunkAll) diagnostics.push({ code: 'config-changed', severity: 'info', message: 'chunking settings changed: every file is re-chunked' });
  return { previous, replacing, state, rebuilt, rechunkAll };
}
