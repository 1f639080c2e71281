// The on-disk index store: one directory per indexed root.
//
//   manifest.json        the commit point: format version, generation, live segments with their
//                        tombstones, the state table's file name. Replaced atomically.
//   seg-<id>.cseg        immutable segments (src/core/index/segment.ts)
//   state-<gen>.cstate   per-file state: size, mtime, SHA-256, language, and the chunks it produced
//                        (columns: stateFile.ts)
//   state-delta-<gen>.json  the entries changed since that state file, so that a commit touching a
//                        few files writes a few entries instead of the whole table
//   write.lock           the writer lock (lock.ts)
//   cairn-store.json     the marker that makes the folder Cairn's, naming its root (owner.ts)
//
// Cairn writes and deletes only in a folder it marked, and only the names of storeFiles.ts.
//
// A commit writes new segment and state files first, then the manifest. Readers read the
// manifest, then the files it names; a file removed by a later commit makes them re-read the
// manifest. Anything that fails validation is reported as a Diagnostic and rebuilt by the caller.
import type { RefreshSummary } from '../api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeCrypto } from '../nodeCrypto';
import { readRegularSync } from '../fsRead';
import type { Diagnostic, SkippedFile } from '../types';
import { Segment } from '../index/segment';
import { SEGMENT_FORMAT_VERSION } from '../index/segmentFormat';
import { CorruptDataError } from '../index/varint';
import { FileSource } from '../index/byteSource';
import { removeStaleTemporaries, writeFileAtomic } from './atomic';
import { claimStore, realRoot, StoreOwnershipError, type StoreClaim } from './owner';
import { DELTA_FILE, isCairnTemporary, isIndexFile, MANIFEST_FILE, STATE_FILE } from './storeFiles';
import { decodeStateTable, encodeStateTable, StateFileError } from './stateFile';
import { StateTable, type FileState } from './stateTable';

export { StateTable, type FileState } from './stateTable';

/** Bump whenever anything written to the store changes shape. Older or newer stores are rebuilt. */
export const STORE_FORMAT_VERSION = 6 * 1000 + SEGMENT_FORMAT_VERSION;
const MANIFEST = MANIFEST_FILE;

export interface SegmentRef {
  name: string;
  docCount: number;
  bytes: number;
  /** Tombstoned document ranges `[first, count]`. */
  deleted: Array<[number, number]>;
}

export interface Manifest {
  format: 'cairn-index';
  version: number;
  generation: number;
  root: string;
  /** Hash of everything that changes how a file is chunked or analysed; a change re-chunks every file. */
  configHash: string;
  segments: SegmentRef[];
  /** The state table file: every file as of some earlier generation. */
  state: string;
  /** Entries changed since `state` (a `StateDelta` file), when a commit rewrote only those. */
  stateDelta?: string;
  createdAt: string;
  updatedAt: string;
  files: number;
  chunks: number;
  lastRefresh?: RefreshSummary;
}

/**
 * The entries of a state table that changed since its base file: `null` for a removed file.
 * `skipped` is the whole current list (it is short and replaced as a unit).
 */
interface StateDelta {
  base: string;
  files: Record<string, FileState | null>;
  skipped: SkippedFile[];
}

/** A delta grows with each small commit; past this many entries (or 1/8 of the table) the table is rewritten whole. */
const MAX_DELTA_ENTRIES = 4096;

/** A consistent read view: one manifest generation and its loaded segments. */
export interface Snapshot {
  manifest: Manifest;
  segments: Segment[];
  /** Per segment, deleted[doc] === 1 for tombstoned documents. */
  deleted: Uint8Array[];
}

export class StoreCorruptError extends Error {
  constructor(
    message: string,
    readonly code: 'store-corrupt' | 'store-version' = 'store-corrupt',
  ) {
    super(message);
    this.name = 'StoreCorruptError';
  }
}

function isManifest(m: unknown): m is Manifest {
  if (!m || typeof m !== 'object') return false;
  const o = m as Record<string, unknown>;
  return (
    o.format === 'cairn-index' &&
    typeof o.version === 'number' &&
    typeof o.generation === 'number' &&
    typeof o.state === 'string' &&
    (o.stateDelta === undefined || typeof o.stateDelta === 'string') &&
    typeof o.configHash === 'string' &&
    Array.isArray(o.segments) &&
    o.segments.every((s) => s && typeof s.name === 'string' && typeof s.docCount === 'number' && Array.isArray(s.deleted))
  );
}

/** Parses and validates manifest text; throws StoreCorruptError for garbage or another format version. */
function parseManifest(text: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StoreCorruptError(`${MANIFEST} is not valid JSON`);
  }
  if (parsed && typeof parsed === 'object' && (parsed as Manifest).format === 'cairn-index' && (parsed as Manifest).version !== STORE_FORMAT_VERSION) {
    throw new StoreCorruptError(`index format version ${(parsed as Manifest).version} differs from ${STORE_FORMAT_VERSION}`, 'store-version');
  }
  if (!isManifest(parsed)) throw new StoreCorruptError(`${MANIFEST} does not describe a Cairn index`);
  return parsed;
}

export class IndexStore {
  private readonly segmentCache = new Map<string, Segment>();
  /** The last state table read or written, by file names: a long-lived process parses it once. */
  private stateCache?: { key: string; table: StateTable };
  /** The last state file read or written whole: deltas over it are applied without re-reading it. */
  private baseCache?: { name: string; table: StateTable };
  /** The last delta read or written, by file name: the next small commit extends it. */
  private deltaCache?: { name: string; delta: StateDelta };
  /** The last snapshot, by the exact manifest text it came from: an unchanged index costs one small read. */
  private snapshotCache?: { text: string; snapshot: Snapshot };
  /** Segments written by the refresh in progress and not yet named by a committed manifest. */
  private readonly uncommitted = new Set<string>();

  /** Set once the folder was found to be this root's store (or made one). */
  private claimed = false;
  /** The real path of the root, by the root a manifest names: a manifest of another root is refused. */
  private readonly manifestRoots = new Map<string, boolean>();

  /**
   * `root`: the indexed folder. With it, the store is used only when it is `root`'s (owner.ts):
   * every read and write first checks the folder's marker, and every new manifest its root.
   */
  constructor(
    readonly dir: string,
    readonly root?: string,
  ) {}

  /**
   * Checks (once) that the folder is this root's store, making and marking it when `create`.
   * Throws StoreOwnershipError for someone else's folder or another root's store, and
   * StoreLocationError for a path that cannot be a folder.
   */
  claim(create: boolean): StoreClaim {
    if (this.root === undefined || this.claimed) return 'owned';
    const claim = claimStore(this.dir, this.root, { create });
    if (claim !== 'absent') this.claimed = true;
    return claim;
  }

  /** Refuses a manifest written for another root (a store removed and rebuilt by another root's Cairn meanwhile). */
  private checkManifestRoot(manifest: Manifest): Manifest {
    if (this.root === undefined) return manifest;
    let ours = this.manifestRoots.get(manifest.root);
    if (ours === undefined) {
      ours = realRoot(manifest.root) === realRoot(this.root);
      this.manifestRoots.set(manifest.root, ours);
    }
    if (!ours) {
      throw new StoreOwnershipError(`the store ${this.dir} holds the index of ${manifest.root}, not of ${this.root}; a store serves one root. Pass another --store for ${this.root}`, 'store-other-root');
    }
    return manifest;
  }

  manifestPath(): string {
    return path.join(this.dir, MANIFEST);
  }

  exists(): boolean {
    return fs.existsSync(this.manifestPath());
  }

  /**
   * Reads the manifest. `undefined` when there is no index yet. Throws StoreCorruptError when
   * the manifest is unreadable or from another format version.
   */
  readManifest(): Manifest | undefined {
    const text = this.readManifestText();
    return text === undefined ? undefined : this.checkManifestRoot(parseManifest(text));
  }

  private readManifestText(): string | undefined {
    if (this.claim(false) === 'absent') return undefined;
    try {
      return readRegularSync(this.manifestPath()).toString('utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreCorruptError(`cannot read ${MANIFEST}: ${(e as Error).message}`);
    }
  }

  loadSegment(name: string): Segment {
    let seg = this.segmentCache.get(name);
    if (!seg) {
      if (!/^seg-[\w-]+\.cseg$/.test(name)) throw new StoreCorruptError(`manifest names an invalid segment file ${JSON.stringify(name)}`);
      // Opened, not slurped: queries read the dictionary and the postings they need.
      let source: FileSource;
      try {
        source = new FileSource(path.join(this.dir, name));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw e; // caller retries with a newer manifest
        throw new StoreCorruptError(`cannot read segment ${name}: ${(e as Error).message}`);
      }
      try {
        seg = new Segment(name, source);
      } catch (e) {
        source.close();
        if (e instanceof CorruptDataError) throw new StoreCorruptError(e.message);
        if ((e as NodeJS.ErrnoException).code) throw new StoreCorruptError(`cannot read segment ${name}: ${(e as Error).message}`);
        throw e;
      }
      this.segmentCache.set(name, seg);
    }
    return seg;
  }

  /**
   * Forgets the open segments and the last snapshot, with everything they decoded (postings,
   * sections read whole, dictionary pages), and the state tables read: the next snapshot opens
   * the segment files again, the next commit reads the state again. A reader still holding a
   * snapshot keeps reading it. For long-lived hosts gone idle.
   */
  releaseCaches(): void {
    this.segmentCache.clear();
    this.snapshotCache = undefined;
    this.stateCache = undefined;
    this.baseCache = undefined;
    this.deltaCache = undefined;
  }

  /** Loads a snapshot of the current generation, retrying when a concurrent commit removed files. */
  snapshot(): Snapshot | undefined {
    for (let attempt = 0; ; attempt++) {
      const text = this.readManifestText();
      if (text === undefined) return undefined;
      // Manifests are replaced by rename, never edited: the same text is the same generation.
      if (this.snapshotCache?.text === text) return this.snapshotCache.snapshot;
      const manifest = this.checkManifestRoot(parseManifest(text));
      try {
        const segments = manifest.segments.map((s) => this.loadSegment(s.name));
        segments.forEach((seg, i) => {
          const ref = manifest.segments[i] as SegmentRef;
          if (seg.docCount !== ref.docCount) throw new StoreCorruptError(`segment ${ref.name} has ${seg.docCount} documents, manifest says ${ref.docCount}`);
        });
        const deleted = manifest.segments.map((ref, i) => tombstoneBitmap(ref, (segments[i] as Segment).docCount));
        // Drop cached segments this generation no longer uses.
        const live = new Set(manifest.segments.map((s) => s.name));
        for (const name of this.segmentCache.keys()) if (!live.has(name)) this.segmentCache.delete(name);
        const snapshot = { manifest, segments, deleted };
        this.snapshotCache = { text, snapshot };
        return snapshot;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 5) continue;
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new StoreCorruptError(`a segment named by the manifest is missing`);
        throw e;
      }
    }
  }

  /** The state table of a generation. Treat it as immutable: it may be shared with later calls. */
  readState(manifest: Manifest): StateTable {
    const key = stateKey(manifest);
    if (this.stateCache?.key === key) return this.stateCache.table;
    let base = this.baseCache?.name === manifest.state ? this.baseCache.table : undefined;
    if (!base) {
      base = this.readStateFile(manifest.state);
      this.baseCache = { name: manifest.state, table: base };
    }
    let table = base;
    if (manifest.stateDelta) {
      const delta = this.readDelta(manifest.stateDelta, manifest.state);
      table = base.withChanges(new Map(Object.entries(delta.files)), delta.skipped);
    }
    this.stateCache = { key, table };
    return table;
  }

  private readStateFile(name: string): StateTable {
    if (!STATE_FILE.test(name)) throw new StoreCorruptError(`manifest names an invalid state table file ${JSON.stringify(name)}`);
    let bytes: Buffer;
    try {
      bytes = readRegularSync(path.join(this.dir, name));
    } catch (e) {
      throw new StoreCorruptError(`state table ${name} unreadable: ${(e as Error).message}`);
    }
    try {
      return tableOfBytes(bytes);
    } catch (e) {
      if (e instanceof StateFileError) throw new StoreCorruptError(`state table ${name} is malformed: ${e.message}`);
      throw e;
    }
  }

  private readDelta(name: string, base: string): StateDelta {
    if (this.deltaCache?.name === name) return this.deltaCache.delta;
    const d = this.readDeltaFile(name) as StateDelta;
    if (!hasDeltaShape(d) || d.base !== base) {
      throw new StoreCorruptError(`state delta ${name} is malformed or belongs to another state table`);
    }
    // Paths are keys: a file named `__proto__` or `constructor` must stay an ordinary entry.
    const delta: StateDelta = { base, files: Object.assign(Object.create(null) as Record<string, FileState | null>, d.files), skipped: d.skipped };
    this.deltaCache = { name, delta };
    return delta;
  }

  private readDeltaFile(name: string): unknown {
    if (!DELTA_FILE.test(name)) throw new StoreCorruptError(`manifest names an invalid state delta file ${JSON.stringify(name)}`);
    try {
      return JSON.parse(readRegularSync(path.join(this.dir, name)).toString('utf8'));
    } catch (e) {
      throw new StoreCorruptError(`state delta ${name} unreadable: ${(e as Error).message}`);
    }
  }

  /** The stable ids of a file's chunks, in document order. */
  chunkIdsOf(file: FileState): string[] {
    const seg = this.segmentCache.get(file.segment) ?? this.loadSegment(file.segment);
    return Array.from({ length: file.docCount }, (_, i) => seg.id(file.firstDoc + i));
  }

  newSegmentName(): string {
    return `seg-${Date.now().toString(36)}-${nodeCrypto().randomBytes(4).toString('hex')}.cseg`;
  }

  writeSegment(name: string, bytes: Uint8Array | readonly Uint8Array[]): void {
    this.makeDir();
    this.uncommitted.add(name);
    writeFileAtomic(path.join(this.dir, name), bytes);
  }

  /** Removes the segments written since the last commit (a refresh that failed before committing). */
  discardUncommitted(): void {
    for (const name of this.uncommitted) {
      this.segmentCache.delete(name);
      try {
        fs.rmSync(path.join(this.dir, name), { force: true });
      } catch {
        // the next garbage collection removes it
      }
    }
    this.uncommitted.clear();
  }

  /**
   * Commits a new generation: writes the state table, then the manifest (the commit point),
   * then removes files no longer referenced. Call with the writer lock held, after writing
   * any new segments. With `changedPaths` (the files whose entries differ from `previous`'s
   * table), a small change is written as a delta over the previous state file.
   */
  commit(
    manifest: Omit<Manifest, 'state' | 'stateDelta' | 'generation' | 'version' | 'format'>,
    state: StateTable,
    previous?: Manifest,
    changedPaths?: Iterable<string>,
  ): Manifest {
    this.makeDir();
    const generation = (previous?.generation ?? 0) + 1;
    const suffix = `${generation}-${nodeCrypto().randomBytes(3).toString('hex')}`;
    const delta = previous && changedPaths ? this.extendDelta(previous, state, changedPaths) : undefined;
    let files: Pick<Manifest, 'state' | 'stateDelta'>;
    let table = state;
    if (delta) {
      const deltaName = `state-delta-${suffix}.json`;
      writeFileAtomic(path.join(this.dir, deltaName), JSON.stringify(delta));
      this.deltaCache = { name: deltaName, delta };
      files = { state: delta.base, stateDelta: deltaName };
    } else {
      const stateName = `state-${suffix}.cstate`;
      const bytes = encodeStateTable(state);
      writeFileAtomic(path.join(this.dir, stateName), bytes);
      // Kept as the columns just written, not as the table it came from: a long-lived writer's
      // table would otherwise carry every change since it last read a file, on every commit.
      table = tableOfBytes(bytes);
      this.baseCache = { name: stateName, table };
      files = { state: stateName };
    }
    const next: Manifest = { format: 'cairn-index', version: STORE_FORMAT_VERSION, generation, ...manifest, ...files };
    this.stateCache = { key: stateKey(next), table };
    writeFileAtomic(this.manifestPath(), JSON.stringify(next, null, 1));
    this.uncommitted.clear();
    this.collectGarbage(next);
    return next;
  }

  /** Makes the folder when missing: claimed and marked when the store knows its root. */
  private makeDir(): void {
    if (this.root === undefined) fs.mkdirSync(this.dir, { recursive: true });
    else this.claim(true);
  }

  /** The previous delta plus this commit's changes, or undefined when the table should be rewritten whole. */
  private extendDelta(previous: Manifest, state: StateTable, changedPaths: Iterable<string>): StateDelta | undefined {
    let earlier: StateDelta | undefined;
    try {
      earlier = previous.stateDelta ? this.readDelta(previous.stateDelta, previous.state) : undefined;
    } catch {
      return undefined; // an unreadable delta is replaced by a whole table
    }
    const files = Object.assign(Object.create(null) as Record<string, FileState | null>, earlier?.files);
    let count = earlier ? Object.keys(files).length : 0;
    const limit = Math.min(MAX_DELTA_ENTRIES, Math.max(64, state.size >> 3));
    for (const p of changedPaths) {
      if (!(p in files)) count++;
      if (count > limit) return undefined;
      files[p] = state.get(p) ?? null;
    }
    return { base: previous.state, files, skipped: state.skipped };
  }

  /** Deletes segment and state files the manifest does not reference, and stale temporaries. */
  collectGarbage(manifest: Manifest): void {
    const keep = new Set(filesOf(manifest));
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (keep.has(name) || name === MANIFEST || !isIndexFile(name)) continue;
      try {
        removeEntry(path.join(this.dir, name));
      } catch {
        // in use where open files cannot be removed (Windows): the next collection tries again
      }
    }
    removeStaleTemporaries(this.dir);
  }

  /**
   * Removes the index (not the lock, nor anything but the index's own files and their
   * temporaries). Call with the writer lock held. Refuses (StoreOwnershipError) in a folder
   * that is not this root's store.
   */
  clear(): void {
    this.releaseCaches();
    if (this.claim(false) === 'absent') return;
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (isIndexFile(name) || (isCairnTemporary(name) && !name.startsWith('.write.lock.'))) removeEntry(path.join(this.dir, name));
    }
  }

  /** Bytes used by the files of the current generation. */
  sizeOnDisk(manifest: Manifest): number {
    let total = 0;
    for (const name of filesOf(manifest)) {
      try {
        total += fs.statSync(path.join(this.dir, name)).size;
      } catch {
        // raced with a commit
      }
    }
    return total;
  }
}

/** The store files a generation uses: the manifest, its state table and delta, its segments. */
function filesOf(manifest: Manifest): string[] {
  return [MANIFEST, manifest.state, ...(manifest.stateDelta ? [manifest.stateDelta] : []), ...manifest.segments.map((s) => s.name)];
}

function tableOfBytes(bytes: Uint8Array): StateTable {
  const { columns, skipped } = decodeStateTable(bytes);
  return StateTable.ofColumns(columns, skipped);
}

/**
 * Removes one of the store's entries. A symbolic link is removed itself, never what it points
 * to; a folder where a store file belongs (damage: a `manifest.json/`) goes with its contents.
 */
function removeEntry(file: string): void {
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(file);
  } catch {
    return;
  }
  if (stats.isDirectory()) fs.rmSync(file, { force: true, recursive: true });
  else fs.rmSync(file, { force: true });
}

/** A parsed state delta has an object of files and a list of skipped files. */
function hasDeltaShape(t: unknown): boolean {
  const o = t as { files?: unknown; skipped?: unknown } | null;
  return !!o && typeof o === 'object' && !!o.files && typeof o.files === 'object' && !Array.isArray(o.files) && Array.isArray(o.skipped);
}

function stateKey(manifest: Manifest): string {
  return manifest.stateDelta ? `${manifest.state}+${manifest.stateDelta}` : manifest.state;
}

export function tombstoneBitmap(ref: SegmentRef, docCount: number): Uint8Array {
  const bits = new Uint8Array(docCount);
  for (const [first, count] of ref.deleted) {
    if (first < 0 || count < 0 || first + count > docCount) throw new StoreCorruptError(`tombstones of ${ref.name} point past its documents`);
    bits.fill(1, first, first + count);
  }
  return bits;
}

export function corruptionDiagnostic(e: StoreCorruptError): Diagnostic {
  return {
    code: e.code,
    severity: 'warning',
    message: `${e.message}; the index was discarded and rebuilt`,
  };
}
