// What a served answer says about its freshness (src/server/servedEngine.ts), as the in-process
// path says it: a store the server cannot write is never answered from silently, and another
// process's write lock makes the query answer at once instead of waiting behind it.
import * as os from 'node:os';
import { checkAll } from './check';
import { freshnessWarnings, otherWriter } from '../../src/server/servedEngine';
import type { FreshnessState } from '../../src/core/api';

const AT = '2026-01-02T03:04:05.000Z';

describe('served freshness: what an answer from a stale index says', () => {
  checkAll<{ state: FreshnessState; lastError?: string }, string[]>(
    [
      { name: 'checked recently, nothing failed: nothing to say', input: { state: { kind: 'recent', checkedAgoMs: 5 } }, expected: [] },
      {
        name: 'a watched root whose last refresh could not write the store',
        input: { state: { kind: 'recent', checkedAgoMs: 5 }, lastError: "EACCES: permission denied, open '/s/seg-3.tmp'" },
        expected: [`answered from the index as it is (last refreshed ${AT}): the store cannot be written (EACCES)`],
      },
      {
        name: 'a whole-root check that failed earlier (a full disk)',
        input: { state: { kind: 'recent', checkedAgoMs: 5, lastFailure: 'ENOSPC: no space left on device, write' } },
        expected: [`answered from the index as it is (last refreshed ${AT}): the disk is full (ENOSPC)`],
      },
      {
        name: 'the refresh this query ran failed',
        input: { state: { kind: 'failed', message: 'the store /s is not writable' } },
        expected: [`answered from the index as it is (last refreshed ${AT}): the store /s is not writable`],
      },
      { name: 'a long refresh still running, its files not known yet', input: { state: { kind: 'refreshing', startedAgoMs: 26_000, pending: [] } }, expected: ['answered from the index as it is: a refresh has been running for 26s'] },
      { name: 'a big change still being written, its refresh not started yet', input: { state: { kind: 'refreshing', startedAgoMs: 0, pending: [] } }, expected: ['answered from the index as it is: files changed and a refresh is under way'] },
      {
        name: 'a refresh with 1,500 files still to index: the count, and that their hits are stale',
        input: { state: { kind: 'refreshing', startedAgoMs: 2_000, pending: Array.from({ length: 1500 }, (_, i) => `src/f${i}.ts`) } },
        expected: ['refreshing 1,500 files: answered from the index as it is, hits from those files marked stale; the next query sees more'],
      },
    ],
    ({ state, lastError }) => freshnessWarnings(state, lastError, AT).map((d) => d.message),
  );
});

describe('served freshness: whose write lock makes a query answer at once', () => {
  const lock = (pid: number, host = os.hostname()) => ({ pid, host, token: 't', acquiredAt: AT, command: 'cairn index' });
  checkAll<{ lock?: ReturnType<typeof lock>; alive: boolean }, string | undefined>(
    [
      { name: 'no lock', input: { alive: true }, expected: undefined },
      { name: 'this server\'s own refresh: the query waits for it', input: { lock: lock(100), alive: true }, expected: undefined },
      { name: 'another live process', input: { lock: lock(200), alive: true }, expected: `pid 200 (cairn index) since ${AT}` },
      { name: 'a dead holder: the refresh breaks its lock and goes on', input: { lock: lock(200), alive: false }, expected: undefined },
      { name: 'a holder on another host', input: { lock: lock(200, 'elsewhere'), alive: false }, expected: `pid 200 (cairn index) on elsewhere since ${AT}` },
    ],
    ({ lock, alive }) => otherWriter(lock, 100, () => alive),
  );
});
