// What the evaluation's progress notification says: how far it is (the bar) and, once a few
// cases are done, about how long is left at the rate measured so far. Plain data, no `vscode`.
import type { EvalProgress } from '../../eval/runner';

/**
 * Share of the bar (in percent) for reading the history: it is usually the short part of a run,
 * and its total is a guess (the most commits asked for), so it must not fill the bar.
 */
const MINING_SHARE = 10;

export interface ProgressStep {
  /** Percent to add to the bar (VS Code's `increment`). */
  increment: number;
  message: string;
}

/** "under a minute left", "about 3 min left". */
export function timeLeft(ms: number): string {
  return ms < 60_000 ? 'under a minute left' : `about ${Math.round(ms / 60_000)} min left`;
}

export class EvalProgressTracker {
  private shown = 0;
  /** When the first case started, and the time per case measured since. */
  private evaluating?: { at: number; done: number };

  constructor(private readonly now: () => number = Date.now) {}

  step(p: EvalProgress): ProgressStep {
    const share = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
    const percent = p.phase === 'mining' ? MINING_SHARE * share : MINING_SHARE + (100 - MINING_SHARE) * share;
    const increment = Math.max(0, percent - this.shown);
    this.shown += increment;
    return { increment, message: this.message(p) };
  }

  private message(p: EvalProgress): string {
    if (p.phase === 'mining') return `reading the history: ${p.message}`;
    const now = this.now();
    if (!this.evaluating) this.evaluating = { at: now, done: p.done };
    if (p.done >= p.total) return `${p.total} of ${p.total} past changes replayed, finishing`;
    const replaying = `replaying past change ${p.done + 1} of ${p.total}`;
    const measured = p.done - this.evaluating.done;
    if (measured < 1) return replaying;
    const perCase = (now - this.evaluating.at) / measured;
    return `${replaying}, ${timeLeft(perCase * (p.total - p.done))}`;
  }
}
