// The paths a listing (git or walk) proposes, sorted into what needs a stat, what may be a
// link to a directory, and what is skipped by name alone.
import type { SkippedFile } from '../types';
import type { IgnoreLayer } from './ignoreRules';
import type { PathRules } from './rules';

export class CandidateSet {
  /** Eligible by name: still to be stat'ed for type, size and mtime. */
  readonly files = new Set<string>();
  /** Not allowed by name but possibly a symlink to a directory, which is reported as `symlink`. */
  readonly linkProbes = new Set<string>();
  readonly skipped: SkippedFile[] = [];
  private readonly seenSkips = new Set<string>();

  constructor(private readonly rules: PathRules) {}

  /**
   * Sorts one non-directory entry whose directories are already known to be neither pruned
   * nor ignored. `mayBeLink` is false when the listing already knows it is not a symlink.
   */
  consider(relPath: string, mayBeLink: boolean): void {
    const reason = this.rules.checkName(relPath);
    if (reason === undefined) this.files.add(relPath);
    else if (reason === 'secret-name') this.skip({ path: relPath, reason: 'secret-name' });
    else if (reason === 'not-allowed' && mayBeLink) this.linkProbes.add(relPath);
  }

  /** A layer's refused ignore files are skipped entries once the listing is done (read lazily). */
  reportRefusals(layer: IgnoreLayer): void {
    this.layers.push(layer);
  }

  /** Skipped entries, with the refused ignore files of the layers reported. */
  allSkipped(): SkippedFile[] {
    for (const layer of this.layers) for (const entry of layer.refused) this.skip(entry);
    return this.skipped;
  }

  private readonly layers: IgnoreLayer[] = [];

  skip(entry: SkippedFile): void {
    // `only` entries may overlap (`src` and `src/a.ts`), so the same path can be met twice.
    const key = `${entry.reason}\0${entry.path}`;
    if (this.seenSkips.has(key)) return;
    this.seenSkips.add(key);
    this.skipped.push(entry);
  }
}
