// Which folders are Cairn's to write and delete in. A store carries a marker, `cairn-store.json`,
// written when Cairn creates it and naming the root it indexes (its real path). Without the
// marker a folder is someone else's: Cairn takes it only when it is empty, or when it holds
// nothing but a store an earlier Cairn wrote (no marker yet) for the same root. Anything else is
// refused before a single file is written or removed, because "rebuilding" a folder Cairn
// mistook for its store used to delete the user's `manifest.json` and `state-*.json`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeCrypto } from '../nodeCrypto';
import { readRegularSync } from '../fsRead';
import { createExclusive, fsyncDir } from './atomic';
import { ensureStoreDirectory, StoreLocationError } from './lock';
import { isCairnStoreFile, MANIFEST_FILE } from './storeFiles';

export const STORE_MARKER = 'cairn-store.json';
const MARKER_FORMAT = 'cairn-store';

interface StoreMarker {
  format: typeof MARKER_FORMAT;
  version: 1;
  /** The real path of the indexed root. */
  root: string;
  createdAt: string;
}

/** A store folder Cairn must not use: someone else's folder, or another root's store. */
export class StoreOwnershipError extends Error {
  override readonly name = 'StoreOwnershipError';
  constructor(
    message: string,
    readonly code: 'store-not-cairn' | 'store-other-root',
  ) {
    super(message);
  }
}

/**
 * What `claimStore` found: `absent` (no folder, and not asked to create one), `owned` (marked
 * for this root), `created` (made, or an empty folder taken), `adopted` (an unmarked store of
 * an earlier Cairn for this root, now marked).
 */
export type StoreClaim = 'absent' | 'owned' | 'created' | 'adopted';

/** The real path of a folder, or its absolute path when it cannot be resolved (gone, unreadable). */
export function realRoot(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/**
 * Checks that `dir` may hold `root`'s index, and marks it when Cairn takes it. With `create`,
 * a missing folder is made; without, it is reported `absent` and nothing is written.
 * Throws StoreOwnershipError (naming the folder and what to do) when it may not.
 */
export function claimStore(dir: string, root: string, options: { create: boolean }): StoreClaim {
  const store = path.resolve(dir);
  const owner = realRoot(root);
  let stats: fs.Stats;
  try {
    stats = fs.statSync(store);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new StoreLocationError(`the store ${store} cannot be read (${code ?? String(e)})`);
    if (!options.create) return 'absent';
    ensureStoreDirectory(store);
    return markOrJoin(store, owner, 'created');
  }
  if (!stats.isDirectory()) throw new StoreLocationError(`the store ${store} exists and is not a directory`);

  const marker = readMarker(store);
  if (marker) {
    if (marker.root !== owner) throw otherRoot(store, marker.root, owner);
    return 'owned';
  }
  const names = listNames(store);
  const foreign = names.filter((n) => !isCairnStoreFile(n));
  if (foreign.length > 0) {
    // A manifest.json that is not a Cairn index is the user's too: named with the rest.
    if (names.includes(MANIFEST_FILE) && legacyManifestRoot(store) === undefined) foreign.unshift(MANIFEST_FILE);
    const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, … (${foreign.length} entries)` : '');
    throw new StoreOwnershipError(
      `${shownStore(store)} is not a Cairn store: it has no ${STORE_MARKER} and holds other files (${shown}); Cairn writes and deletes only in a folder it created. Pass an empty or new folder to --store`,
      'store-not-cairn',
    );
  }
  if (!names.includes(MANIFEST_FILE)) return markOrJoin(store, owner, 'created');
  const indexed = legacyManifestRoot(store);
  if (indexed === undefined) {
    throw new StoreOwnershipError(
      `${shownStore(store)} is not a Cairn store: its ${MANIFEST_FILE} is not a Cairn index and it has no ${STORE_MARKER}; Cairn leaves it alone. Pass an empty or new folder to --store`,
      'store-not-cairn',
    );
  }
  if (realRoot(indexed) !== owner) throw otherRoot(store, realRoot(indexed), owner);
  return markOrJoin(store, owner, 'adopted');
}

/** The folder as given, and where it leads when that is elsewhere (a symbolic link). */
function shownStore(store: string): string {
  const real = realRoot(store);
  return real === store ? store : `${store} (a link to ${real})`;
}

function otherRoot(store: string, theirs: string, ours: string): StoreOwnershipError {
  return new StoreOwnershipError(
    `the store ${store} holds the index of ${theirs}, not of ${ours}; a store serves one root. Pass another --store for ${ours} (or remove ${store} to give it up)`,
    'store-other-root',
  );
}

/** The marker's root, or undefined when there is no marker or it is not Cairn's (a link, damage). */
function readMarker(store: string): StoreMarker | undefined {
  const text = readRegularFile(path.join(store, STORE_MARKER));
  if (text === undefined) return undefined;
  try {
    const m = JSON.parse(text) as Partial<StoreMarker> | null;
    if (m && m.format === MARKER_FORMAT && typeof m.root === 'string' && m.root !== '') return m as StoreMarker;
  } catch {
    // not Cairn's marker
  }
  return undefined;
}

/**
 * A regular file's text; undefined when missing or not a plain file (a symbolic link is not
 * followed, and a FIFO is neither waited on nor read: the open is non-blocking).
 */
function readRegularFile(file: string): string | undefined {
  try {
    return readRegularSync(file).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The root an unmarked index of an earlier Cairn names, or undefined when the manifest is not one. */
function legacyManifestRoot(store: string): string | undefined {
  const text = readRegularFile(path.join(store, MANIFEST_FILE));
  if (text === undefined) return undefined;
  try {
    const m = JSON.parse(text) as { format?: unknown; version?: unknown; root?: unknown; segments?: unknown } | null;
    if (m && m.format === 'cairn-index' && typeof m.version === 'number' && typeof m.root === 'string' && m.root !== '' && Array.isArray(m.segments)) return m.root;
  } catch {
    // not a Cairn index
  }
  return undefined;
}

function listNames(store: string): string[] {
  try {
    return fs.readdirSync(store);
  } catch (e) {
    throw new StoreLocationError(`the store ${store} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/**
 * Writes the marker unless one appeared meanwhile (linked into place, so two processes taking
 * one empty folder cannot both win); then the marker's root decides.
 */
function markOrJoin(store: string, owner: string, claim: StoreClaim): StoreClaim {
  const marker: StoreMarker = { format: MARKER_FORMAT, version: 1, root: owner, createdAt: new Date().toISOString() };
  const file = path.join(store, STORE_MARKER);
  const temp = path.join(store, `.${STORE_MARKER}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`);
  try {
    createExclusive(file, temp, `${JSON.stringify(marker, null, 1)}\n`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new StoreLocationError(`the store ${store} cannot be written (${code ?? String(e)})`);
    const theirs = readMarker(store);
    if (!theirs) throw new StoreOwnershipError(`${store} has a ${STORE_MARKER} Cairn cannot read; remove ${store} to let Cairn rebuild it`, 'store-not-cairn');
    if (theirs.root !== owner) throw otherRoot(store, theirs.root, owner);
    return 'owned';
  }
  fsyncDir(store);
  return claim;
}

