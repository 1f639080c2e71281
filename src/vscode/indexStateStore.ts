// The one place the views read the index's state from. Every engine state event recomputes one
// snapshot (indexSnapshot.ts); the status bar, the Index view, the status pick and the Results
// view all render `current`, and all redraw on the same `onDidChange`. A snapshot that changes
// what a view says (a folder starts or stops indexing, is paused, gets new skipped files) is
// published at once; one that only moves a percentage waits up to REDRAW_MS, for every view alike.
import * as vscode from 'vscode';
import { snapshotOf, type IndexSnapshot } from './indexSnapshot';
import type { EngineClient } from './services';

/** Progress events are frequent: views redraw for them at most this often. */
const REDRAW_MS = 250;

export class IndexStateStore implements vscode.Disposable {
  private snapshot: IndexSnapshot;
  private pending: NodeJS.Timeout | undefined;
  private readonly emitter = new vscode.EventEmitter<IndexSnapshot>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly engine: EngineClient) {
    this.snapshot = snapshotOf(engine.states(), engine.paused);
    this.subscription = engine.onDidChangeState(() => this.update());
  }

  get current(): IndexSnapshot {
    return this.snapshot;
  }

  /** Recomputes now and tells every view (a tick that redraws relative times, or a new state). */
  publish(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    this.snapshot = snapshotOf(this.engine.states(), this.engine.paused);
    this.emitter.fire(this.snapshot);
  }

  private update(): void {
    const next = snapshotOf(this.engine.states(), this.engine.paused);
    if (next.key !== this.snapshot.key) return this.publish();
    this.pending ??= setTimeout(() => this.publish(), REDRAW_MS);
  }

  dispose(): void {
    clearTimeout(this.pending);
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
