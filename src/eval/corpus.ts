// The searchable files of the scratch tree — the same discovery and read rules the index uses —
// kept in step with the tree incrementally, with the whole-file BM25 baseline fed alongside.
import { discoverFiles, loadDocuments, type DiscoveryOptions } from '../core/discovery';
import { WholeFileBm25 } from './baselines';

const READ_BATCH = 500;

export class TreeCorpus {
  readonly bm25 = new WholeFileBm25();
  private readonly files = new Set<string>();

  constructor(private readonly root: string, private readonly discovery: Partial<DiscoveryOptions>, private readonly feedBm25: boolean) {}

  /** Paths every system can find. */
  get searchable(): ReadonlySet<string> {
    return this.files;
  }

  /** Re-reads `changedPaths` (or everything when undefined) after the tree moved. */
  async sync(changedPaths?: readonly string[], signal?: AbortSignal): Promise<void> {
    if (changedPaths?.length === 0) return;
    const listing = await discoverFiles(this.root, { ...this.discovery, ...(changedPaths ? { only: [...changedPaths] } : {}), signal });
    const stale = changedPaths ? changedPaths.filter((p) => this.files.has(p)) : [...this.files];
    for (const p of stale) {
      this.files.delete(p);
      this.bm25.delete(p);
    }
    // In batches, so a large first tree is never held in memory whole.
    for (let i = 0; i < listing.files.length; i += READ_BATCH) {
      const { docs } = await loadDocuments(this.root, listing.files.slice(i, i + READ_BATCH), { signal, maxFileBytes: this.discovery.maxFileBytes });
      for (const doc of docs) {
        this.files.add(doc.path);
        if (this.feedBm25) this.bm25.set(doc.path, doc.text);
      }
    }
  }
}
