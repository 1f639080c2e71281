// One state for every view: the status bar's text and the Index view's folder line come from one
// snapshot, say the same thing (a percentage on both, "refreshing N files" on both, never "up to
// date" beside a percentage or while changes wait), and the Results view searches again once the
// changes queued while paused are indexed.
import type { IndexStatus, RefreshProgress } from '../../src/core/api';
import { snapshotOf } from '../../src/vscode/indexSnapshot';
import { ResumeRerun } from '../../src/vscode/resumeRerun';
import type { FolderState } from '../../src/vscode/services';
import { checkAll } from './check';

const folder = (name: string) => ({ name, index: 0, uri: { toString: () => `file:///${name}`, fsPath: `/${name}` } }) as unknown as FolderState['folder'];
const status = (generation: number): IndexStatus => ({
  root: '/w', storeDir: '/s', exists: true, generation, files: 2150, chunks: 9000, segments: 1, deletedChunks: 0, storeBytes: 1, updatedAt: new Date().toISOString(),
  skippedByReason: {}, skipped: [], languages: {}, diagnostics: [],
});
const chunking = (percent: number, done = 5, total = 12): RefreshProgress => ({ phase: 'chunk', done, total, percent });

type Shown = { statusBar: string; indexView: string[] };

describe('index state snapshot', () => {
  describe('the status bar and the Index view say the same', () => {
    checkAll<{ states: FolderState[]; paused?: boolean }, Shown>(
      [
        {
          name: 'a first index: one percentage on both',
          input: { states: [{ folder: folder('w'), kind: 'indexing', fromScratch: true, progress: chunking(63, 900, 2150) }] },
          expected: { statusBar: '$(sync~spin) Cairn 63%', indexView: ['indexing 63%'] },
        },
        {
          name: 'a checkout refreshing some files: both say how many',
          input: { states: [{ folder: folder('w'), kind: 'indexing', refreshingFiles: 12, progress: chunking(40), status: status(3) }] },
          expected: { statusBar: '$(sync~spin) Cairn refreshing 12 files 40%', indexView: ['refreshing 12 files 40%'] },
        },
        {
          name: 'changes waiting for quiet are not "up to date"',
          input: { states: [{ folder: folder('w'), kind: 'ready', queued: true, status: status(3) }] },
          expected: { statusBar: '$(database) Cairn 2,150 files', indexView: ['changes queued'] },
        },
        {
          name: 'paused with changes queued',
          input: { states: [{ folder: folder('w'), kind: 'paused', queued: true, status: status(3) }], paused: true },
          expected: { statusBar: '$(debug-pause) Cairn paused', indexView: ['paused, changes queued'] },
        },
        {
          name: 'two folders: one whole-folder index, one refreshing files; the lower percentage',
          input: {
            states: [
              { folder: folder('a'), kind: 'indexing', progress: chunking(80, 10, 20), status: status(1) },
              { folder: folder('b'), kind: 'indexing', refreshingFiles: 3, progress: chunking(20), status: status(1) },
            ],
          },
          expected: { statusBar: '$(sync~spin) Cairn 20%', indexView: ['indexing 80%', 'refreshing 3 files 20%'] },
        },
        {
          name: 'up to date',
          input: { states: [{ folder: folder('w'), kind: 'ready', status: status(3) }] },
          expected: { statusBar: '$(database) Cairn 2,150 files', indexView: ['up to date'] },
        },
      ],
      ({ states, paused }) => {
        const s = snapshotOf(states, paused ?? false);
        return { statusBar: s.summary.text, indexView: s.folders.map((f) => f.headline) };
      },
    );
  });

  describe('after Resume, the results are searched again once the queued changes are indexed', () => {
    type Step = { paused: boolean; kind: FolderState['kind']; queued?: boolean; generation: number };
    const snap = (s: Step) => snapshotOf([{ folder: folder('w'), kind: s.kind, ...(s.queued ? { queued: true } : {}), status: status(s.generation) }], s.paused);
    checkAll<Step[], boolean[]>(
      [
        {
          name: 'resumed: the queued refresh runs, then the search runs again',
          input: [
            { paused: true, kind: 'paused', queued: true, generation: 4 },
            { paused: false, kind: 'ready', queued: true, generation: 4 },
            { paused: false, kind: 'indexing', generation: 4 },
            { paused: false, kind: 'ready', generation: 5 },
            { paused: false, kind: 'ready', generation: 6 },
          ],
          expected: [false, false, false, true, false],
        },
        {
          name: 'resumed with nothing queued: the results are current already',
          input: [
            { paused: true, kind: 'paused', generation: 4 },
            { paused: false, kind: 'ready', generation: 4 },
          ],
          expected: [false, false],
        },
        {
          name: 'a refresh without a pause does not search again',
          input: [
            { paused: false, kind: 'indexing', generation: 4 },
            { paused: false, kind: 'ready', generation: 5 },
          ],
          expected: [false, false],
        },
      ],
      (steps) => {
        const rerun = new ResumeRerun(snap(steps[0] as Step));
        return steps.map((s) => rerun.observe(snap(s)));
      },
    );
  });
});
