// A query during a big refresh, through real processes: `cairn serve` watches a root, 1,500
// files are rewritten at once, and a query asked meanwhile answers within the freshness
// policy's bound from the index as it is, saying how many files are pending and marking hits
// from them stale; later queries see the refresh land until the index has caught up.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCairn, runCairnAsync, type Run } from './cli';

const FILES = 1500;
const SERVED = /answered by the server \(pid (\d+)\)/;

interface Answer {
  results: Array<{ path: string; stale?: boolean }>;
  total: number;
  index: { pending?: number; fresh: boolean };
  diagnostics: Array<{ message: string }>;
}

const source = (i: number, word: string): string => `export function handler${i}(input: string): string {\n  return '${word}' + input.length;\n}\n`;

describe('cairn serve during a big refresh (bundled CLI, real processes)', function () {
  this.timeout(180_000);
  let base: string;
  let root: string;
  let store: string;
  let serverPid: number | undefined;
  const env = { CAIRN_SERVER: '1', CAIRN_DEBUG: '1', CAIRN_SERVER_IDLE_TIMEOUT: '1' };

  beforeEach(function () {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-serve-refresh-'));
    root = path.join(base, 'root');
    store = path.join(base, 's');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, 'src', `f${i}.ts`), source(i, 'walrusold'));
    const built = runCairn(['index', root, '--store', store]);
    assert.equal(built.code, 0, built.stderr);
  });

  afterEach(function () {
    if (serverPid) {
      try {
        process.kill(serverPid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** A search; `served` false when the client answered in-process (a server busy past the hello timeout). */
  const search = async (query: string): Promise<{ answer: Answer; run: Run; ms: number; served: boolean }> => {
    const started = Date.now();
    const run = await runCairnAsync(['search', query, '--json', '--limit', '20', '--store', store], { cwd: root, env });
    const ms = Date.now() - started;
    assert.equal(run.code, 0, run.stderr);
    const pid = SERVED.exec(run.stderr);
    if (pid) serverPid = Number(pid[1]);
    return { answer: JSON.parse(run.stdout) as Answer, run, ms, served: pid !== null };
  };

  /** What a failure message needs: the server's own log (its last lines) and the last answer seen. */
  const diagnosis = (last: { run: Run } | undefined): string => {
    let log = '(no serve.log)';
    try {
      log = fs.readFileSync(path.join(store, 'serve.log'), 'utf8').split('\n').slice(-40).join('\n');
    } catch {
      // no server wrote one
    }
    return `\n--- last client stderr ---\n${last?.run.stderr ?? '(none)'}\n--- last answer ---\n${last?.run.stdout.slice(0, 600) ?? '(none)'}\n--- serve.log ---\n${log}`;
  };

  // Each wait below has its own deadline, well inside the test's, so a stuck step fails by name
  // with what the server logged rather than as the test's timeout.
  const until = async <T>(what: string, ms: number, step: () => Promise<T | undefined>, last: () => { run: Run } | undefined): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const got = await step();
      if (got !== undefined) return got;
      assert.ok(Date.now() < deadline, `${what}: not within ${ms / 1000} s${diagnosis(last())}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /** Starts the server, waits until it watches the root, and gives a served query's answer. */
  const startWatched = async (): Promise<Awaited<ReturnType<typeof search>>> => {
    runCairn(['search', 'walrusold', '--store', store], { cwd: root, env }); // starts the server
    // Served and watching: status says so once the watcher has verified the tree.
    let status: Run | undefined;
    await until(
      'the server watches the root',
      40_000,
      async () => {
        status = await runCairnAsync(['status', '--json', '--store', store], { cwd: root, env });
        const s = JSON.parse(status.stdout) as { freshness?: { watching?: boolean } };
        return s.freshness?.watching ? true : undefined;
      },
      () => (status ? { run: status } : undefined),
    );
    return search('walrusold');
  };

  it('answers within the bound with the pending files counted and their hits stale, then catches up', async function () {
    const baseline = await startWatched();
    assert.ok(baseline.served, baseline.run.stderr);

    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, 'src', `f${i}.ts`), source(i, 'zebraquux'));
    await new Promise((r) => setTimeout(r, 300)); // the watcher's first deliveries

    // The first answer the server gives: before, it waited for the whole refresh.
    let during: Awaited<ReturnType<typeof search>> | undefined;
    during = await until('a served answer during the refresh', 30_000, async () => ((during = await search('walrusold')).served ? during : undefined), () => during);
    // The query's own wait is bounded at 0.5 s; the rest is starting a `cairn` process on a busy machine.
    assert.ok(during.ms < baseline.ms + 6000, `answered in ${during.ms} ms (an idle query took ${baseline.ms} ms)`);
    assert.ok((during.answer.index.pending ?? 0) > 0, `the answer counts pending files: ${JSON.stringify(during.answer.index)}`);
    assert.equal(during.answer.index.fresh, false);
    assert.ok(during.answer.results.length > 0, 'answered from the index as it is');
    assert.ok(during.answer.results.every((h) => h.stale), 'every hit of the old word is from a rewritten, pending file');
    assert.match(during.answer.diagnostics.map((d) => d.message).join('\n'), /refreshing [\d,]+ files?: answered from the index as it is/);

    // Later queries see more, until the index has caught up.
    let later: Awaited<ReturnType<typeof search>> | undefined;
    const caughtUp = await until(
      'the index caught up',
      60_000,
      async () => {
        later = await search('zebraquux');
        return later.served && later.answer.index.pending === undefined && later.answer.total >= FILES ? later.answer : undefined;
      },
      () => later,
    );
    assert.ok(caughtUp.results.every((h) => !h.stale));
    const old = await search('walrusold');
    assert.equal(old.answer.total, 0, `no old content is left: ${old.run.stderr}`);
  });

  it('a checkout that also changes .gitignore (a whole-root check, run on the index thread): every query is served and the index catches up', async function () {
    fs.mkdirSync(path.join(root, 'gen'));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(root, 'gen', `g${i}.ts`), source(i, 'walrusold'));
    runCairn(['index', root, '--store', store]);
    const baseline = await startWatched();
    assert.ok(baseline.served, baseline.run.stderr);

    fs.writeFileSync(path.join(root, '.gitignore'), 'gen/\n');
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, 'src', `f${i}.ts`), source(i, 'zebraquux'));

    let last: Awaited<ReturnType<typeof search>> | undefined;
    let sawPending = false;
    let sawStale = false;
    const caughtUp = await until(
      'the index caught up',
      60_000,
      async () => {
        last = await search('walrusold');
        // A server that blocked its own thread past the hello's timeout is answered for in-process.
        assert.ok(last.served, `answered by the server: ${last.run.stderr}${diagnosis(last)}`);
        const pending = last.answer.index.pending ?? 0;
        sawPending ||= pending > 0;
        sawStale ||= pending > 0 && last.answer.results.length > 0 && last.answer.results.every((h) => h.stale);
        return sawPending && last.answer.index.fresh && last.answer.total === 0 ? last.answer : undefined;
      },
      () => last,
    );
    assert.ok(sawStale, 'while pending, hits of the old word were from rewritten files, marked stale');
    assert.equal(caughtUp.index.pending, undefined);
    const now = await search('zebraquux');
    assert.equal(now.answer.total, FILES, 'every rewritten file is found');
  });

  it('without a server: each run answers within the bound, counts what it left, and the runs catch up', async function () {
    const local = { CAIRN_SERVER: '0' };
    const ask = async (query: string, ...extra: string[]): Promise<{ answer: Answer; ms: number; stderr: string }> => {
      const started = Date.now();
      const run = await runCairnAsync(['search', query, '--json', '--limit', '20', '--store', store, ...extra], { cwd: root, env: local });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, SERVED, 'answered in its own process');
      return { answer: JSON.parse(run.stdout) as Answer, ms: Date.now() - started, stderr: run.stderr };
    };
    const idle = await ask('walrusold', '--no-refresh');

    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, 'src', `f${i}.ts`), source(i, 'zebraquux'));
    const during = await ask('walrusold');
    // Its refresh stops at 0.5 s once a part is committed; the rest is the process itself on a busy machine.
    assert.ok(during.ms < idle.ms + 6000, `answered in ${during.ms} ms (without refreshing: ${idle.ms} ms)`);
    const left = during.answer.index.pending ?? 0;
    assert.ok(left > 0 && left < FILES, `the answer counts the files left: ${JSON.stringify(during.answer.index)}`);
    assert.equal(during.answer.index.fresh, false);
    assert.ok(during.answer.results.length > 0 && during.answer.results.every((h) => h.stale), 'old hits, each from a rewritten file, marked stale');
    assert.match(during.answer.diagnostics.map((d) => d.message).join('\n'), new RegExp(`refreshing ${left.toLocaleString('en-US')} files: answered from the index as it is`));

    // Every run goes on where the last stopped, until nothing is left.
    let previous = left;
    let caughtUp: Answer | undefined;
    for (let run = 0; run < 100 && !caughtUp; run++) {
      const later = await ask('zebraquux');
      const pending = later.answer.index.pending;
      if (pending === undefined) caughtUp = later.answer;
      else assert.ok(pending < previous, `each run leaves fewer: ${pending} after ${previous}`);
      previous = pending ?? 0;
    }
    assert.ok(caughtUp, 'the runs caught up');
    assert.equal(caughtUp.total, FILES);
    assert.equal(caughtUp.index.fresh, true);
    assert.equal((await ask('walrusold')).answer.total, 0, 'no old content is left');
  });
});
