// `cairn serve` end to end through real processes: the launcher starts a server on demand,
// later calls are answered by it (same output as in-process), it sees edits, survives being
// killed, refuses other versions and other users' sockets, and exits when idle.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCairn, runCairnAsync, type Run } from './cli';
import { HELLO_TIMEOUT_MS } from '../../src/server/client';

const SERVED = /answered by the server \(pid (\d+)\)/;

function pidOf(run: Run): number | undefined {
  const m = SERVED.exec(run.stderr);
  return m ? Number(m[1]) : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A server that exited stays a zombie until whoever adopted it (init) reaps it.
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('cairn serve (bundled CLI, real processes)', function () {
  this.timeout(120_000);
  let root: string;
  let store: string;
  let socket: string;
  const started = new Set<number>();
  /** Served calls: debug lines on, a server allowed, short idle timeout so none outlives the suite. */
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({ CAIRN_SERVER: '1', CAIRN_DEBUG: '1', CAIRN_SERVER_IDLE_TIMEOUT: '1', ...extra });
  const cairn = (args: string[], extra?: Record<string, string>): Run => {
    const r = runCairn([...args, '--store', store], { cwd: root, env: env(extra) });
    const pid = pidOf(r);
    if (pid) started.add(pid);
    return r;
  };
  /**
   * Waits until a server answers `status` and watches, and returns its pid. Probes only once the
   * socket is there: a probe that found none would start a server of its own.
   */
  const served = async (): Promise<number> => {
    await until('the server socket', () => (fs.existsSync(socket) ? true : undefined));
    return until('a server to answer', () => {
      const r = cairn(['status', '--json']);
      const s = JSON.parse(r.stdout) as { server?: { pid: number }; freshness?: { watching?: boolean } };
      return s.server && s.freshness?.watching ? s.server.pid : undefined;
    });
  };
  /** Stops the servers the test started and waits (at most 10 s) until they are gone. */
  const stopAll = async (): Promise<void> => {
    const stopping = [...started].filter(alive);
    for (const pid of stopping) process.kill(pid, 'SIGTERM');
    started.clear();
    const deadline = Date.now() + 10_000;
    while (stopping.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };

  beforeEach(function () {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-serve-'));
    root = path.join(base, 'root');
    store = path.join(base, 's');
    socket = path.join(store, 'serve.sock');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'alpha.ts'), 'export function parseAlphaConfig(text: string): number {\n  return text.length;\n}\n');
    fs.writeFileSync(path.join(root, 'src', 'beta.py'), 'def beta_handler(request):\n    return request\n');
    fs.writeFileSync(path.join(root, 'README.md'), '# Demo\n\nParse the alpha config.\n');
    const built = runCairn(['index', root, '--store', store]);
    assert.equal(built.code, 0, built.stderr);
  });

  afterEach(async function () {
    await stopAll();
    // A server the test did not track (started by a client in the background) may still write
    // its log as it exits: removal retries rather than failing on a folder that just gained a file.
    fs.rmSync(path.dirname(root), { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('starts on demand, then answers with the same output as in-process, and says so in status', async function () {
    const first = cairn(['search', 'alpha config']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /answering in this process: no server is running/);
    assert.match(first.stderr, /started a server/);
    const pid = await served();
    assert.ok(alive(pid));
    const viaServer = cairn(['search', 'alpha config']);
    assert.equal(pidOf(viaServer), pid, viaServer.stderr);
    const inProcess = cairn(['search', 'alpha config', '--no-server']);
    assert.equal(pidOf(inProcess), undefined, 'with --no-server the process answers itself');
    assert.equal(viaServer.stdout, inProcess.stdout);
    assert.match(viaServer.stdout, /src\/alpha\.ts:1-3/);
    for (const args of [['symbol', 'parseAlphaConfig'], ['refs', 'parseAlphaConfig'], ['pack', 'parse the alpha config', '--budget', '800'], ['symbol', 'beta_handler', '--json']]) {
      const a = cairn(args);
      const b = cairn([...args, '--no-server']);
      assert.equal(pidOf(a), pid, `${args[0]} is served`);
      assert.equal(a.code, b.code);
      assert.equal(args.includes('--json') ? JSON.parse(a.stdout).results.length : a.stdout, args.includes('--json') ? JSON.parse(b.stdout).results.length : b.stdout);
    }
    const status = cairn(['status']);
    assert.equal(pidOf(status), pid);
    assert.match(status.stdout, new RegExp(`^server    pid ${pid}, up \\d+s, [\\d.]+ MB resident; watcher live; tree verified \\d+s ago$`, 'm'));
    const json = JSON.parse(cairn(['status', '--json']).stdout) as { server: { pid: number; rssBytes: number } };
    assert.ok(json.server.rssBytes > 10 * 1024 * 1024, `the server's own memory: ${json.server.rssBytes}`);
    if (process.platform === 'linux') {
      // Started on demand with the server's flags (a small young generation, gc() after a
      // release: SERVER_NODE_FLAGS) and malloc settings that hand freed caches back (serverEnv).
      assert.match(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /--max-semi-space-size=1\0--expose-gc\0/);
      // (glibc splits the variable in place as it reads it: its `:` may read back as NUL.)
      assert.match(fs.readFileSync(`/proc/${pid}/environ`, 'utf8'), /(^|\0)GLIBC_TUNABLES=glibc\.malloc\.mmap_threshold=8192[:\0]/);
    }
    const mode = fs.lstatSync(socket).mode & 0o777;
    assert.equal(mode, 0o600, 'the socket is its owner\'s only');
  });

  it('reuses one server, answers two clients at once, and sees an edit written 200 ms before the query', async function () {
    cairn(['search', 'alpha']);
    const pid = await served();
    const [a, b] = await Promise.all([
      runCairnAsync(['search', 'beta handler', '--store', store], { cwd: root, env: env() }),
      runCairnAsync(['symbol', 'parseAlphaConfig', '--store', store], { cwd: root, env: env() }),
    ]);
    assert.equal(pidOf(a), pid, a.stderr);
    assert.equal(pidOf(b), pid, b.stderr);
    assert.match(a.stdout, /src\/beta\.py/);
    assert.match(b.stdout, /src\/alpha\.ts:1:\d+ +function parseAlphaConfig/);
    for (let round = 0; round < 3; round++) {
      const name = `freshGammaToken${round}`;
      fs.writeFileSync(path.join(root, 'src', `gamma${round}.ts`), `export const ${name} = ${round};\n`);
      await new Promise((r) => setTimeout(r, 200));
      const found = cairn(['symbol', name]);
      assert.equal(pidOf(found), pid, found.stderr);
      assert.match(found.stdout, new RegExp(`src/gamma${round}\\.ts:1`), `round ${round}: ${found.stdout}${found.stderr}`);
    }
    // What discovery refuses stays out, watched or not: a secret-named file, a pruned folder.
    fs.writeFileSync(path.join(root, '.env'), 'API_TOKEN=refusedDeltaToken\n');
    fs.mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules', 'dep', 'index.ts'), 'export const refusedDeltaToken = 1;\n');
    await new Promise((r) => setTimeout(r, 200));
    const refused = cairn(['search', 'refusedDeltaToken', '--json']);
    assert.equal(pidOf(refused), pid);
    assert.deepEqual((JSON.parse(refused.stdout) as { results: unknown[] }).results, []);
    fs.rmSync(path.join(root, 'src', 'gamma0.ts'));
    await new Promise((r) => setTimeout(r, 200));
    const gone = cairn(['search', 'freshGammaToken0']);
    assert.doesNotMatch(gone.stdout, /gamma0\.ts/);
  });

  it('sees a same-size rewrite whose mtime was put back with touch -d', async function () {
    if (process.platform === 'win32') this.skip(); // no touch -d
    const alpha = path.join(root, 'src', 'alpha.ts');
    const stamp = '2020-01-02T03:04:05';
    execFileSync('touch', ['-d', stamp, alpha]);
    cairn(['search', 'alpha']);
    const pid = await served();
    const symbols = (name: string): string[] => {
      const r = cairn(['symbol', name, '--json']);
      assert.equal(pidOf(r), pid, r.stderr);
      return (JSON.parse(r.stdout) as { results: Array<{ path: string; symbol: string }> }).results.filter((h) => h.symbol === name).map((h) => h.path);
    };
    assert.deepEqual(symbols('parseAlphaConfig'), ['src/alpha.ts']);
    // Same length, another name, the old mtime back: size and mtime say nothing happened.
    fs.writeFileSync(alpha, fs.readFileSync(alpha, 'utf8').replace('parseAlphaConfig', 'parseOmegaConfig'));
    execFileSync('touch', ['-d', stamp, alpha]);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual({ omega: symbols('parseOmegaConfig'), alpha: symbols('parseAlphaConfig') }, { omega: ['src/alpha.ts'], alpha: [] });
  });

  it('cleans up after a crashed server and after a deleted socket', async function () {
    cairn(['search', 'alpha']);
    const pid = await served();
    process.kill(pid, 'SIGKILL');
    await until('the server to die', () => (alive(pid) ? undefined : true));
    assert.ok(fs.existsSync(socket), 'a killed server leaves its socket behind');
    const next = cairn(['search', 'alpha config']);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /answering in this process: the server socket was stale/);
    assert.match(next.stdout, /src\/alpha\.ts/);
    const second = await served();
    assert.notEqual(second, pid);

    fs.rmSync(socket);
    const orphaned = cairn(['search', 'alpha config']);
    assert.match(orphaned.stderr, /answering in this process: no server is running/);
    const third = await served();
    assert.notEqual(third, second);
    await until('the server whose socket was removed to exit', () => (alive(second) ? undefined : true));
  });

  it('leaves no zombie child behind', async function () {
    if (process.platform !== 'linux') this.skip();
    cairn(['search', 'alpha']);
    const pid = await served();
    await new Promise((r) => setTimeout(r, 500));
    const children = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
    // /proc/PID/stat: "pid (comm) state ...": Z is a child that ended and was never reaped.
    const zombies = children.map((c) => fs.readFileSync(`/proc/${c}/stat`, 'utf8')).filter((stat) => /\) Z /.test(stat));
    assert.deepEqual(zombies, []);
  });

  it('a stopped server holds up no client: each answers in-process at once, with a note', async function () {
    if (process.platform === 'win32') this.skip();
    cairn(['search', 'alpha']);
    const pid = await served();
    process.kill(pid, 'SIGSTOP');
    try {
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const r = cairn(['search', 'alpha config']);
        const elapsed = Date.now() - started;
        assert.equal(r.code, 0, r.stderr);
        assert.equal(pidOf(r), undefined);
        assert.match(r.stdout, /src\/alpha\.ts/);
        assert.ok(r.stderr.includes(`cairn: the server for ${root} did not answer in ${HELLO_TIMEOUT_MS} ms; answered without it`), r.stderr);
        assert.doesNotMatch(r.stderr, /started a server/, 'no second server beside a live one');
        assert.ok(elapsed < 2000, `answered in ${elapsed} ms`);
      }
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const again = cairn(['search', 'alpha config']);
    assert.equal(pidOf(again), pid, 'once it runs again, the server answers');
  });

  it('a watcher that cannot start: the server polls, still sees a new file, and status warns', async function () {
    const failing = { CAIRN_TEST_WATCHER_FAILURE: 'inotify_init1: Too many open files' };
    cairn(['search', 'alpha'], failing);
    await until('the server socket', () => (fs.existsSync(socket) ? true : undefined));
    const status = await until('a server to answer', () => {
      const r = cairn(['status'], failing);
      return pidOf(r) ? r : undefined;
    });
    assert.match(status.stdout, /^server {4}pid \d+, .*; no watcher \(the tree is checked before each query\);/m);
    assert.match(status.stdout, /^warning {3}the file watcher could not start \(inotify_init1: Too many open files\); polling the tree for changes instead, and each query checks it$/m);
    const files = (): number => (JSON.parse(cairn(['status', '--json'], failing).stdout) as { files: number }).files;
    const before = files();
    fs.writeFileSync(path.join(root, 'src', 'polled.ts'), 'export const polledEpsilonToken = 1;\n');
    // Status reads the index without refreshing it: only the server's own polling adds the file.
    await until('the polling server to index the new file', () => (files() === before + 1 ? true : undefined), 15_000);
    const found = cairn(['symbol', 'polledEpsilonToken'], failing);
    assert.ok(pidOf(found), found.stderr);
    assert.match(found.stdout, /src\/polled\.ts:1/);
    assert.match(fs.readFileSync(path.join(store, 'serve.log'), 'utf8'), /warning: the file watcher could not start \(inotify_init1: Too many open files\)/);
  });

  it('SIGTERM ends the server within a second, even with a client connected', async function () {
    cairn(['search', 'alpha']);
    const pid = await served();
    // A client that said hello and then waits holds a connection open.
    const conn = net.connect(socket);
    await new Promise<void>((resolve) => conn.on('connect', resolve));
    conn.on('error', () => undefined);
    conn.write(`${JSON.stringify({ type: 'hello', version: '0', protocol: 0 })}\n`);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    process.kill(pid, 'SIGTERM');
    try {
      await until('the server to exit', () => (alive(pid) ? undefined : true), 5000);
    } finally {
      conn.destroy();
    }
    const took = Date.now() - started;
    assert.ok(took < 1000, `it took ${took} ms`);
    assert.ok(!fs.existsSync(socket), 'the socket is removed');
  });

  it('another process holding the write lock: a served query answers at once, saying so', async function () {
    cairn(['search', 'alpha']);
    const pid = await served();
    const lock = path.join(store, 'write.lock');
    // This test process stands for a live `cairn index` holding the lock.
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, thread: 0, host: os.hostname(), token: 'test', acquiredAt: new Date().toISOString(), command: 'cairn index' }));
    try {
      fs.writeFileSync(path.join(root, 'src', 'late.ts'), 'export const lateZetaToken = 1;\n');
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      const r = cairn(['search', 'alpha config']);
      const elapsed = Date.now() - started;
      assert.equal(pidOf(r), pid, r.stderr);
      assert.match(r.stdout, /src\/alpha\.ts/);
      assert.ok(r.stderr.includes(`: another refresh is running (pid ${process.pid} (cairn index) since `), r.stderr);
      assert.match(r.stderr, /answered from the index as it is \(last refreshed \S+\)/);
      assert.ok(elapsed < 2000, `answered in ${elapsed} ms`);
    } finally {
      fs.rmSync(lock, { force: true });
    }
    await until('the file written meanwhile to be indexed', () => (/src\/late\.ts:1/.test(cairn(['symbol', 'lateZetaToken']).stdout) ? true : undefined), 15_000);
  });

  it('serve --list shows a started server, and serve --stop stops it', async function () {
    // A cache folder of this test's own, where servers record themselves, so others' do not show.
    const cache = path.join(path.dirname(root), 'cache');
    const own = { XDG_CACHE_HOME: cache };
    cairn(['search', 'alpha'], own);
    const pid = await served();
    const list = runCairn(['serve', '--list'], { cwd: root, env: env(own) });
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trim().split('\n');
    assert.match(lines[0] ?? '', /^PID +UPTIME +MEMORY +ROOT +SOCKET$/);
    assert.equal(lines.length, 2, list.stdout);
    assert.match(lines[1] ?? '', new RegExp(`^${pid} +\\d+s +[\\d.]+ MB +${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +${socket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    const json = JSON.parse(runCairn(['serve', '--list', '--json'], { cwd: root, env: env(own) }).stdout) as { servers: Array<{ pid: number; root: string; answering: boolean; rssBytes: number }> };
    assert.deepEqual(json.servers.map((s) => [s.pid, s.root, s.answering]), [[pid, root, true]]);
    const elsewhere = runCairn(['serve', '--stop', '--root', path.join(root, 'src')], { cwd: root, env: env(own) });
    assert.equal(elsewhere.stdout, `no cairn server was running for ${path.join(root, 'src')}\n`);
    assert.ok(alive(pid), 'another root\'s --stop leaves it running');
    const stop = runCairn(['serve', '--stop'], { cwd: root, env: env(own) });
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.stdout, `stopped the server for ${root} (pid ${pid})\n`);
    assert.ok(!alive(pid));
    assert.ok(!fs.existsSync(socket), 'its socket is gone');
    assert.equal(runCairn(['serve', '--list'], { cwd: root, env: env(own) }).stdout, 'no cairn server is running\n');
    assert.equal(runCairn(['serve', '--stop', '--all'], { cwd: root, env: env(own) }).stdout, 'no cairn server was running\n');
  });

  it('lets go of its caches when unused, then answers the same', async function () {
    cairn(['search', 'alpha'], { CAIRN_SERVER_RELEASE_IDLE: '0.005' });
    const pid = await served();
    const before = cairn(['symbol', 'parseAlphaConfig']);
    assert.equal(pidOf(before), pid);
    const log = path.join(store, 'serve.log');
    await until('the server to release its caches', () => (/released the index's caches after \d+s unused/.test(fs.readFileSync(log, 'utf8')) ? true : undefined), 15_000);
    const after = cairn(['symbol', 'parseAlphaConfig']);
    assert.equal(pidOf(after), pid, 'the same server answers after the release');
    assert.equal(after.stdout, before.stdout);
    const lastQueryAt = Date.now();
    assert.equal(cairn(['refs', 'parseAlphaConfig']).stdout, cairn(['refs', 'parseAlphaConfig', '--no-server']).stdout);
    // A save after a release (the state table read again) is still refreshed and seen: a release
    // after the last served query (the queries above may each have been followed by one).
    const releasedSince = (ms: number): boolean => [...fs.readFileSync(log, 'utf8').matchAll(/^(\S+) released the index's caches/gm)].some((m) => Date.parse(m[1] ?? '') > ms);
    await until('another release', () => (releasedSince(lastQueryAt) ? true : undefined), 15_000);
    fs.writeFileSync(path.join(root, 'src', 'gamma.ts'), 'export function gammaAfterRelease(): number {\n  return 3;\n}\n');
    await new Promise((r) => setTimeout(r, 300));
    const saved = cairn(['symbol', 'gammaAfterRelease']);
    assert.equal(pidOf(saved), pid);
    assert.match(saved.stdout, /src\/gamma\.ts:1/);
  });

  it('exits when idle, removing its socket', async function () {
    cairn(['search', 'alpha'], { CAIRN_SERVER_IDLE_TIMEOUT: '0.02' });
    const pid = await served();
    await until('the idle server to exit', () => (alive(pid) ? undefined : true), 15_000);
    assert.ok(!fs.existsSync(socket), 'the socket is removed');
  });

  it('a client never talks to a server of another version, and a server refuses another version', async function () {
    // A fake server of another version: the client must not print its answer, and tells it to go.
    fs.mkdirSync(store, { recursive: true });
    let askedToExit = false;
    const fake = net.createServer((conn) => {
      conn.on('data', (d) => {
        for (const line of String(d).split('\n').filter(Boolean)) {
          const m = JSON.parse(line) as { type: string };
          if (m.type === 'hello') conn.write(`${JSON.stringify({ type: 'welcome', version: '0.0.0-other', protocol: 999, pid: 1, root, storeDir: store })}\n`);
          if (m.type === 'run') conn.write(`${JSON.stringify({ type: 'result', stdout: 'FAKE\n', stderr: '', exitCode: 0 })}\n`);
          if (m.type === 'exit') askedToExit = true;
        }
      });
    });
    await new Promise<void>((resolve) => fake.listen(socket, resolve));
    try {
      const r = await runCairnAsync(['search', 'alpha config', '--store', store], { cwd: root, env: env() });
      assert.doesNotMatch(r.stdout, /FAKE/);
      assert.match(r.stdout, /src\/alpha\.ts/);
      assert.match(r.stderr, /answering in this process: cairn 0\.0\.0-other \(protocol 999\) cannot talk to cairn/);
      await until('the exit request', () => (askedToExit ? true : undefined), 5000);
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
    // The real server, asked by a client of another version.
    fs.rmSync(socket, { force: true });
    cairn(['search', 'alpha']);
    const pid = await served();
    const reply = await new Promise<string>((resolve, reject) => {
      const conn = net.connect(socket);
      let text = '';
      conn.on('connect', () => conn.write(`${JSON.stringify({ type: 'hello', version: '9.9.9', protocol: 999 })}\n${JSON.stringify({ type: 'run', argv: ['status'], cwd: root, root, storeDir: store, stdoutIsTTY: false })}\n`));
      conn.on('data', (d) => {
        text += String(d);
        if (text.split('\n').filter(Boolean).length >= 2) {
          conn.destroy();
          resolve(text);
        }
      });
      conn.on('error', reject);
    });
    const [refusal, second] = reply.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; message?: string });
    assert.equal(refusal?.type, 'refused');
    assert.match(refusal?.message ?? '', /cairn 9\.9\.9 \(protocol 999\) cannot talk to cairn \S+ \(protocol \d+\)/);
    assert.equal(second?.type, 'error', 'no command runs for a refused client');
    assert.ok(alive(pid), 'refusing a client does not stop the server');
  });

  it('refuses a socket owned by another user', async function () {
    if (process.getuid?.() !== 0) this.skip(); // chown needs root; the check itself is unit-tested (serveProtocol.test.ts)
    cairn(['search', 'alpha']);
    await served();
    fs.chownSync(socket, 4242, 4242);
    const r = cairn(['search', 'alpha config']);
    assert.equal(r.code, 0);
    assert.equal(pidOf(r), undefined);
    assert.match(r.stderr, /cairn: not using the server socket: .*serve\.sock belongs to uid 4242, not to you \(uid 0\)/);
    assert.match(r.stdout, /src\/alpha\.ts/);
  });

  it('--no-server and CAIRN_SERVER=0 answer in-process and start nothing', function () {
    for (const [args, extra] of [
      [['search', 'alpha', '--no-server'], {}],
      [['symbol', 'parseAlphaConfig'], { CAIRN_SERVER: '0' }],
    ] as Array<[string[], Record<string, string>]>) {
      const r = cairn(args, extra);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /answering in this process: not a served command, or the server is turned off/);
      assert.doesNotMatch(r.stderr, /started a server/);
    }
    assert.ok(!fs.existsSync(socket));
    const help = spawnSync(process.execPath, [path.join(__dirname, '../../../dist/cli.js'), 'search', '--help'], { encoding: 'utf8' });
    assert.match(help.stdout, /--no-server/);
  });
});
