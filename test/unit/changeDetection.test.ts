// When a refresh may trust a file's stat instead of reading it: git's rule (size, mtime, ctime,
// inode and device all as recorded, and not recorded racily), first as a decision table, then
// through real refreshes of real files, checked by what a search then finds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TempWorkspace } from './helpers/workspace';
import { StateTable, type FileState } from '../../src/core/store/stateTable';
import { decodeStateTable, encodeStateTable } from '../../src/core/store/stateFile';
import { isRacy, RACY_WINDOW_MS } from '../../src/core/store/fileStat';
import type { Engine } from '../../src/core/engine/engine';
import type { FileStat } from '../../src/core/types';

const recorded: FileState = {
  size: 120, mtimeMs: 1_700_000_000_000.25, ctimeMs: 1_700_000_050_000.5, ino: 4242, dev: 2049,
  hash: 'ab'.repeat(32), language: 'typescript', segment: 'seg-a.cseg', firstDoc: 0, docCount: 1,
};

describe('change detection', () => {
  describe('a stat vouches for a file only when all of it is as recorded, and not racily', () => {
    const cases: Array<[string, Partial<FileStat>, boolean?, boolean?]> = [
      // [what changed, the stat now, recorded racily?, trusted?]
      ['nothing', {}, false, true],
      ['the content, same size, mtime put back: only ctime tells', { ctimeMs: recorded.ctimeMs + 3 }],
      ['ctime by a fraction of a millisecond', { ctimeMs: recorded.ctimeMs + 0.001 }],
      ['the inode: another file of the same size and times renamed over it', { ino: 4243 }],
      ['the device: the tree is another mount', { dev: 2050 }],
      ['the size', { size: 121 }],
      ['the mtime', { mtimeMs: recorded.mtimeMs + 1 }],
      ['nothing, but the entry was recorded racily', {}, true],
    ];
    for (const [name, now, racy = false, trusted = false] of cases) {
      it(name, () => {
        const entry: FileState = racy ? { ...recorded, racy: true } : recorded;
        const stat = { ...recorded, ...now };
        // The same answer from an entry in memory (a refresh's changes) and from the columns on disk.
        const inMemory = StateTable.of([['a.ts', entry]]);
        const { columns } = decodeStateTable(encodeStateTable(inMemory));
        assert.deepEqual([inMemory.sameStat('a.ts', stat), StateTable.ofColumns(columns, []).sameStat('a.ts', stat)], [trusted, trusted]);
      });
    }
  });

  describe('a stat taken near the read is racy', () => {
    const readAt = 1_700_000_100_000;
    const at = (mtimeMs: number, ctimeMs: number): FileStat => ({ size: 1, mtimeMs, ctimeMs, ino: 1, dev: 1 });
    const cases: Array<[string, FileStat, boolean]> = [
      ['changed long before the read', at(readAt - 60_000, readAt - 60_000), false],
      ['changed just outside the window', at(readAt - RACY_WINDOW_MS - 1, readAt - RACY_WINDOW_MS - 1), false],
      ['changed within the window', at(readAt - RACY_WINDOW_MS + 1, readAt - RACY_WINDOW_MS + 1), true],
      ['mtime set back, ctime within the window', at(readAt - 86_400_000, readAt - 10), true],
      ['mtime in the future', at(readAt + 3_600_000, readAt - 60_000), true],
    ];
    for (const [name, stat, racy] of cases) it(name, () => assert.equal(isRacy(stat, readAt), racy));
  });

  describe('after a change: is a hit from the file stale before the refresh, is the file read, what does a search find', function () {
    this.timeout(30000);
    const OLD = 'export function alphaOld() { return 1; }\n';
    const NEW = 'export function omegaNew() { return 1; }\n';
    const FILE = 'src/a.ts';
    /** An hour ago: an mtime clearly before any refresh. */
    const longAgo = new Date(Date.now() - 3_600_000);

    const writeKeepingMtime = (ws: TempWorkspace, rel: string, text: string): void => {
      const abs = path.join(ws.root, rel);
      const before = fs.statSync(abs);
      fs.writeFileSync(abs, text);
      fs.utimesSync(abs, before.atime, before.mtime);
    };
    // [what changed, the change, a hit from it before the refresh (stale reason), read by the next refresh?, which word a search finds]
    const cases: Array<[string, (ws: TempWorkspace) => void, 'modified' | undefined, boolean, 'old' | 'new']> = [
      ['nothing', () => {}, undefined, false, 'old'],
      ['the content, same size, mtime put back', (ws) => writeKeepingMtime(ws, FILE, NEW), 'modified', true, 'new'],
      ['ctime only (chmod)', (ws) => fs.chmodSync(path.join(ws.root, FILE), 0o600), undefined, true, 'old'],
      ['the inode: a file of the same size and mtime renamed over it', (ws) => {
        const other = path.join(ws.root, 'src/a.ts.tmp');
        fs.writeFileSync(other, NEW);
        fs.utimesSync(other, longAgo, longAgo);
        fs.renameSync(other, path.join(ws.root, FILE));
      }, 'modified', true, 'new'],
    ];

    const workspaces: TempWorkspace[] = [];
    const engines: Engine[] = [];
    before(async () => {
      for (let i = 0; i < cases.length; i++) {
        const ws = new TempWorkspace();
        fs.mkdirSync(path.join(ws.root, 'src'));
        for (const [rel, text] of [[FILE, OLD], ['src/b.ts', 'export const other = 2;\n']] as const) {
          fs.writeFileSync(path.join(ws.root, rel), text);
          fs.utimesSync(path.join(ws.root, rel), longAgo, longAgo);
        }
        workspaces.push(ws);
      }
      // Past the racy window of the files' creation (ctime cannot be set back): the first index
      // then records stats that vouch for the content.
      await new Promise((r) => setTimeout(r, RACY_WINDOW_MS + 100));
      for (const ws of workspaces) {
        const engine = ws.engine({ strategy: 'lines' });
        await engine.refresh();
        engines.push(engine);
      }
    });
    after(async () => {
      await Promise.all(workspaces.map((ws) => ws.dispose()));
    });

    cases.forEach(([name, change, expectStale, expectRead, expectWord], i) => {
      it(name, async () => {
        const ws = workspaces[i] as TempWorkspace;
        const engine = engines[i] as Engine;
        change(ws);
        // Before the refresh, a hit says it is stale by the refresh's own test, with and without a preview.
        const staleness = async (previewLines: number): Promise<Array<string | undefined>> =>
          (await engine.search('alphaOld', { refresh: 'never', crossReferences: false, previewLines })).results.map((h) => h.staleReason);
        assert.deepEqual({ preview: await staleness(2), bare: await staleness(0) }, { preview: [expectStale], bare: [expectStale] });
        let read = 0;
        await engine.refresh({ onProgress: (p) => { if (p.phase === 'read') read = Math.max(read, p.total); } });
        const found = async (q: string): Promise<string[]> => (await engine.search(q, { refresh: 'never', crossReferences: false })).results.map((h) => h.path);
        const words = { old: await found('alphaOld'), new: await found('omegaNew') };
        assert.deepEqual(
          { read: read > 0, old: words.old, new: words.new },
          { read: expectRead, old: expectWord === 'old' ? [FILE] : [], new: expectWord === 'new' ? [FILE] : [] },
        );
      });
    });
  });

  it('a file indexed right after it changed is hashed again by the next refresh, until the change is old enough', async function () {
    this.timeout(30000);
    const ws = new TempWorkspace();
    try {
      fs.writeFileSync(path.join(ws.root, 'a.ts'), 'export const fresh = 1;\n');
      const engine = ws.engine({ strategy: 'lines' });
      const readCount = async (): Promise<number> => {
        let read = 0;
        await engine.refresh({ onProgress: (p) => { if (p.phase === 'read') read = Math.max(read, p.total); } });
        return read;
      };
      assert.equal(await readCount(), 1, 'the first index reads it');
      const generation = engine.status().generation;
      assert.equal(await readCount(), 1, 'still racy: read again');
      assert.equal(engine.status().generation, generation, 'the same content and stat: nothing committed');
      await new Promise((r) => setTimeout(r, RACY_WINDOW_MS + 100));
      assert.equal(await readCount(), 1, 'read once more, now with a stat that can vouch for it');
      assert.equal(engine.status().generation, generation + 1, 'the entry stopped being racy');
      assert.equal(await readCount(), 0, 'then trusted');
    } finally {
      await ws.dispose();
    }
  });
});
