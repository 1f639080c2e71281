// After Resume, the changes queued while indexing was paused are indexed; the results shown
// were searched in the index as it was. This decides when to search again: once every folder is
// idle after the resume, and only if the index changed meanwhile. Plain code without `vscode`.
import type { IndexSnapshot } from './indexSnapshot';

export class ResumeRerun {
  private wasPaused: boolean;
  /** Each folder's index generation when indexing was resumed, until the queued work is done. */
  private resumedAt: Map<string, number> | undefined;

  constructor(initial: IndexSnapshot) {
    this.wasPaused = initial.paused;
  }

  /** A new snapshot: true when the results shown should be searched again now. */
  observe(snapshot: IndexSnapshot): boolean {
    const generations = new Map(snapshot.folders.map((f) => [f.state.folder.uri.toString(), f.state.status?.generation ?? -1]));
    if (this.wasPaused && !snapshot.paused) this.resumedAt = generations;
    this.wasPaused = snapshot.paused;
    if (!this.resumedAt || snapshot.paused) return false;
    const busy = snapshot.folders.some((f) => f.state.kind === 'indexing' || f.state.kind === 'starting' || f.state.queued);
    if (busy) return false;
    const before = this.resumedAt;
    this.resumedAt = undefined;
    return [...generations].some(([uri, generation]) => before.get(uri) !== generation);
  }
}
