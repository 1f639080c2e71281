// The names Cairn writes into a store, and only those: the index's files (which a rebuild
// removes), the files servers and counters keep beside it, and the temporaries of both. A
// store shares no pattern with names people give their own files: `state-2024.json`,
// `state-machine.json` or `build.tmp` are never Cairn's.

export const MANIFEST_FILE = 'manifest.json';

/** Segments: `seg-<time base 36>-<random>.cseg`. */
export const SEGMENT_FILE = /^seg-[0-9a-z]+-[0-9a-f]{8}\.cseg$/;
/** Whole state tables: `state-<generation>-<random>.cstate` (before format 5: `.json`). */
export const STATE_FILE = /^state-\d+-[0-9a-f]{6}\.cstate$/;
export const LEGACY_STATE_FILE = /^state-\d+-[0-9a-f]{6}\.json$/;
/** State deltas: `state-delta-<generation>-<random>.json`. */
export const DELTA_FILE = /^state-delta-\d+-[0-9a-f]{6}\.json$/;

/** The repository's past commits kept for one HEAD (history/commitLog.ts): `history-<commit>.json`. */
export const HISTORY_FILE = /^history-[0-9a-f]{40,64}\.json$/;

/** Files beside the index that Cairn writes and the index's rebuild leaves alone. */
const COMPANION_FILES = new Set(['cairn-store.json', 'write.lock', 'serve.log', 'serve.pid', 'serve.sock', 'usage.json', 'registry-cache']);
/** A lock file being broken (lock.ts): `write.lock.stale-<random>`. */
const BROKEN_LOCK = /^write\.lock\.stale-[0-9a-f]+$/;
/** A crash-safe write's temporary (atomic.ts, lock.ts): `.<name>.<pid>.<random>.tmp`. */
const TEMPORARY = /^\.(.+)\.\d+\.[0-9a-f]{8,16}\.tmp$/;

/** A file of the index itself: what a rebuild or a garbage collection may remove. */
export function isIndexFile(name: string): boolean {
  return name === MANIFEST_FILE || SEGMENT_FILE.test(name) || STATE_FILE.test(name) || LEGACY_STATE_FILE.test(name) || DELTA_FILE.test(name);
}

/** The temporary of a crash-safe write of one of Cairn's files. */
export function isCairnTemporary(name: string): boolean {
  const m = TEMPORARY.exec(name);
  return !!m && isNamedByCairn(m[1] as string);
}

function isNamedByCairn(name: string): boolean {
  return isIndexFile(name) || COMPANION_FILES.has(name) || BROKEN_LOCK.test(name) || HISTORY_FILE.test(name);
}

/** Any name Cairn writes into a store. */
export function isCairnStoreFile(name: string): boolean {
  return isNamedByCairn(name) || isCairnTemporary(name);
}
