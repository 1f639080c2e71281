// What every view says about the index, derived once from the folders' states: the status bar,
// the Index view, the status pick and the Results view all render one snapshot, so they cannot
// disagree (one saying "up to date" while another shows a percentage). Plain functions without
// `vscode`, tested in plain Node.
import { count, progressPercent, progressText, relativeTime } from './format';
import type { FolderState } from './services';

export interface StatusSummary {
  kind: FolderState['kind'];
  text: string;
  tooltip: string;
}

export interface FolderView {
  state: FolderState;
  /** The folder's state in a few words: "indexing 63%", "refreshing 12 files 40%", "up to date". */
  headline: string;
  /** Shown while indexing: the engine's weighted percentage. */
  percent?: number;
}

export interface IndexSnapshot {
  folders: FolderView[];
  paused: boolean;
  /** The status bar's text and tooltip. */
  summary: StatusSummary;
  /**
   * What changes the views' rows (not only a percentage or a progress count): a snapshot whose
   * key differs is shown at once; one that only moves a percentage may wait for the next redraw.
   */
  key: string;
}

/** A refresh limited to some paths (a save, a checkout's changed files), not a whole-folder one. */
function refreshingFiles(state: FolderState): number | undefined {
  return state.kind === 'indexing' && !state.fromScratch ? state.refreshingFiles : undefined;
}

export function folderHeadline(state: FolderState): string {
  const s = state.status;
  const pct = progressPercent(state.progress) ?? 0;
  switch (state.kind) {
    case 'starting':
      return 'starting…';
    case 'indexing': {
      const files = refreshingFiles(state);
      return files !== undefined ? `refreshing ${count(files, 'file')} ${pct}%` : `indexing ${pct}%`;
    }
    case 'paused':
      return state.queued ? 'paused, changes queued' : 'paused';
    case 'error':
      return 'error';
    case 'ready':
      if (state.queued) return 'changes queued';
      return s?.exists ? 'up to date' : 'not indexed yet';
  }
}

function tooltipLine(s: FolderState): string {
  const st = s.status;
  const what =
    s.kind === 'error' ? `error: ${s.error ?? 'unknown'}`
    : s.kind === 'indexing' ? `${folderHeadline(s)} (${progressText(s.progress)})`
    : st?.exists ? `${count(st.files, 'file')}, ${count(st.chunks, 'chunk')}, ${s.kind === 'paused' ? 'as of' : 'updated'} ${relativeTime(st.updatedAt)}${s.queued ? '; changes queued' : ''}`
    : s.kind;
  return `${s.folder.name}: ${what}${s.kind === 'paused' ? ' (indexing paused)' : ''}`;
}

/** The workspace's overall state: an error wins, then indexing, starting, paused, ready. */
export function summarize(states: readonly FolderState[], paused: boolean): StatusSummary {
  const tooltip = states.length ? `Cairn index\n${states.map(tooltipLine).join('\n')}` : 'Cairn: no folder open';
  const files = states.reduce((n, s) => n + (s.status?.files ?? 0), 0);
  if (states.some((s) => s.kind === 'error')) return { kind: 'error', text: '$(error) Cairn', tooltip };
  const indexing = states.filter((s) => s.kind === 'indexing');
  if (indexing.length) {
    const pct = Math.min(...indexing.map((s) => progressPercent(s.progress) ?? 0));
    const limited = indexing.map(refreshingFiles);
    // Only refreshes of some files under way: say how many, as the Index view does.
    const refreshing = limited.every((n) => n !== undefined) ? limited.reduce((a: number, n) => a + (n ?? 0), 0) : undefined;
    const what = refreshing !== undefined ? `refreshing ${count(refreshing, 'file')} ${pct}%` : `${pct}%`;
    return { kind: 'indexing', text: `$(sync~spin) Cairn ${what}`, tooltip };
  }
  if (states.some((s) => s.kind === 'starting')) return { kind: 'starting', text: '$(loading~spin) Cairn', tooltip };
  if (paused) return { kind: 'paused', text: '$(debug-pause) Cairn paused', tooltip };
  return { kind: 'ready', text: `$(database) Cairn ${count(files, 'file')}`, tooltip };
}

export function snapshotOf(states: readonly FolderState[], paused: boolean): IndexSnapshot {
  const folders = states.map((state): FolderView => {
    const percent = state.kind === 'indexing' ? progressPercent(state.progress) ?? 0 : undefined;
    return { state, headline: folderHeadline(state), ...(percent !== undefined ? { percent } : {}) };
  });
  const key = JSON.stringify([
    paused,
    ...states.map((s) => [
      s.folder.uri.toString(),
      s.kind,
      s.error ?? '',
      refreshingFiles(s) ?? -1,
      !!s.queued,
      !!s.watching,
      s.status?.generation ?? -1,
      s.status?.skipped.length ?? -1,
      s.status?.updatedAt ?? '',
    ]),
  ]);
  return { folders, paused, summary: summarize(states, paused), key };
}
