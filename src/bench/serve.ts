// `npm run bench -- --section serve`: `cairn serve` as users meet it. Fresh `cairn search`,
// `cairn symbol` and `cairn refs` processes answered by a running server (each answer guaranteed fresh), beside
// `rg -w` for the same identifier and the in-process default (`--no-server`: it checks the tree
// first), in interleaved rounds; then, over the socket itself, the server's own latency, how
// soon a saved file is searchable, whether an edit made 200 ms before a query is always seen,
// and what an idle server costs.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { encodeMessage, LineDecoder, OUR_IDENTITY, SERVER_NODE_FLAGS, socketPathFor } from '../server/protocol';
import { fmt, median, percentile, table } from './stats';

export interface BenchGoal {
  goal: string;
  target: string;
  measured: string;
  ok: boolean | undefined;
}

export interface ServeBenchOptions {
  root: string;
  storeDir: string;
  cli: string;
  rg: string;
  /** Identifiers per round. */
  runs: number;
  rounds: number;
  /** Identifiers defined in the tree (symbols of its index). */
  identifiers: (storeDir: string) => Promise<string[]>;
  /** Runs a task in a small child process (forking the bench process itself is slow). */
  child: (args: string[]) => Record<string, unknown>;
  log: (line?: string) => void;
  goals: BenchGoal[];
  report: Record<string, unknown>;
}

/** Tree size from which the goals against `rg -w` apply (smaller: no slower than today). */
const LARGE_TREE_FILES = 15_000;

const SERVER_ENV = (): NodeJS.ProcessEnv => {
  const { CAIRN_SERVER: _off, CAIRN_DEBUG: _debug, ...env } = process.env;
  return env;
};

export async function serveSection(o: ServeBenchOptions): Promise<void> {
  o.log('\n## cairn serve: fresh processes answered by a watching server');
  const built = spawnSync(process.execPath, [o.cli, 'index', o.root, '--store', o.storeDir], { encoding: 'utf8', env: { ...process.env, CAIRN_SERVER: '0' } });
  if (built.status !== 0) throw new Error(`cairn index failed: ${built.stderr}`);
  const files = (JSON.parse(spawnSync(process.execPath, [o.cli, 'status', o.root, '--store', o.storeDir, '--json', '--no-server'], { encoding: 'utf8' }).stdout) as { files: number }).files;
  const idents = (await o.identifiers(o.storeDir)).slice(0, Math.max(3, o.runs));
  const socket = socketPathFor(o.storeDir);
  if (!socket) throw new Error('the store path is too long for a socket');
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, o.cli, 'serve', '--root', o.root, '--store', o.storeDir, '--idle-timeout', '30'], { stdio: 'ignore', env: SERVER_ENV() });
  try {
    await waitForWatching(socket, o.root, o.storeDir);
    const debug = spawnSync(process.execPath, [o.cli, 'search', idents[0] as string, '--root', o.root, '--store', o.storeDir], { encoding: 'utf8', env: { ...SERVER_ENV(), CAIRN_DEBUG: '1' } });
    if (!/answered by the server/.test(debug.stderr)) throw new Error(`the server did not answer: ${debug.stderr}`);

    const fresh = o.child(['serve-fresh', o.root, o.storeDir, JSON.stringify({ idents, rounds: o.rounds })]) as unknown as ServeFreshTimes;
    const rows: string[][] = [];
    const summary = (name: string, perRound: number[][]): { p50: number; p95: number; spread: string } => {
      const p50s = perRound.map((r) => percentile(r, 50));
      const p95s = perRound.map((r) => percentile(r, 95));
      const spread = `${fmt(Math.min(...p50s), 0)}-${fmt(Math.max(...p50s), 0)}`;
      rows.push([name, fmt(median(p50s), 0), spread, fmt(median(p95s), 0), `${fmt(Math.min(...p95s), 0)}-${fmt(Math.max(...p95s), 0)}`]);
      return { p50: median(p50s), p95: median(p95s), spread };
    };
    const search = summary('cairn search, served', fresh.served.search);
    const symbol = summary('cairn symbol, served', fresh.served.symbol);
    const refs = summary('cairn refs, served', fresh.served.refs);
    const rg = summary('rg -w', fresh.rg);
    const todaySearch = summary('cairn search --no-server (checks the tree first)', fresh.inProcess.search);
    const todaySymbol = summary('cairn symbol --no-server (checks the tree first)', fresh.inProcess.symbol);
    const todayRefs = summary('cairn refs --no-server (checks the tree first)', fresh.inProcess.refs);
    summary('node -e 0', fresh.node);
    o.log(`${files} files; ${o.rounds} interleaved rounds of ${idents.length} identifiers; the median of the rounds' p50 and p95, and their spread (min-max over rounds)`);
    o.log(table(['fresh process', 'p50 ms', 'p50 spread', 'p95 ms', 'p95 spread'], rows));

    // Over the socket: the server's own answer time, without a process start.
    // Round trips (connect, hello, the command's own code, JSON out), and the engine's own tookMs.
    const inServer = { search: [] as number[], symbol: [] as number[], refs: [] as number[], searchEngine: [] as number[], symbolEngine: [] as number[], refsEngine: [] as number[] };
    const took = (stdout: string): number => (JSON.parse(stdout) as { tookMs: number }).tookMs;
    for (const id of [...idents, ...idents]) {
      const s = await ask(socket, ['search', id, '--json', '--limit', '10'], o.root, o.storeDir);
      const y = await ask(socket, ['symbol', id, '--json', '--limit', '10'], o.root, o.storeDir);
      const f = await ask(socket, ['refs', id, '--json', '--limit', '100'], o.root, o.storeDir);
      inServer.search.push(s.ms);
      inServer.symbol.push(y.ms);
      inServer.refs.push(f.ms);
      inServer.searchEngine.push(took(s.stdout));
      inServer.symbolEngine.push(took(y.stdout));
      inServer.refsEngine.push(took(f.stdout));
    }
    const edits = await saveToSearchable(socket, o.root, o.storeDir);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = server.pid ? await idleCost(server.pid) : undefined;
    o.log(
      table(
        ['in the server (socket round trip)', 'p50 ms', 'p95 ms'],
        [
          ['search', fmt(percentile(inServer.search, 50), 1), fmt(percentile(inServer.search, 95), 1)],
          ['symbol', fmt(percentile(inServer.symbol, 50), 1), fmt(percentile(inServer.symbol, 95), 1)],
          ['search, engine tookMs', fmt(percentile(inServer.searchEngine, 50), 1), fmt(percentile(inServer.searchEngine, 95), 1)],
          ['symbol, engine tookMs', fmt(percentile(inServer.symbolEngine, 50), 2), fmt(percentile(inServer.symbolEngine, 95), 2)],
          ['refs (limit 100)', fmt(percentile(inServer.refs, 50), 1), fmt(percentile(inServer.refs, 95), 1)],
          ['refs, engine tookMs', fmt(percentile(inServer.refsEngine, 50), 1), fmt(percentile(inServer.refsEngine, 95), 1)],
          ['save -> searchable (polling)', fmt(percentile(edits.searchable, 50), 0), fmt(percentile(edits.searchable, 95), 0)],
        ],
      ),
    );
    o.log(`edits seen by a query 200 ms after the write: ${edits.seenAfter200}/${edits.tries}`);
    if (idle) o.log(`idle server: ${fmt(idle.cpuPercent, 2)}% CPU over ${idle.seconds} s, RSS ${fmt(idle.rssMb, 0)} MB`);

    const large = files >= LARGE_TREE_FILES;
    const vsRg = (name: string, s: { p50: number; p95: number }, today: { p50: number }): void => {
      if (large) {
        o.goals.push({ goal: `${name}, served, fresh process p50 / rg -w p50`, target: '<= 0.5x', measured: `${fmt(s.p50 / rg.p50, 2)}x`, ok: s.p50 <= 0.5 * rg.p50 });
        o.goals.push({ goal: `${name}, served, fresh process p95 / rg -w p50`, target: '<= 0.75x', measured: `${fmt(s.p95 / rg.p50, 2)}x`, ok: s.p95 <= 0.75 * rg.p50 });
      } else {
        o.goals.push({ goal: `${name}, served, fresh process p50 vs --no-server (small tree: no slower than today)`, target: '<= 1x', measured: `${fmt(s.p50 / today.p50, 2)}x (rg -w ${fmt(s.p50 / rg.p50, 2)}x)`, ok: s.p50 <= today.p50 });
      }
    };
    vsRg('cairn search', search, todaySearch);
    vsRg('cairn symbol', symbol, todaySymbol);
    vsRg('cairn refs', refs, todayRefs);
    o.goals.push({ goal: 'in the server: search p95 (socket round trip)', target: '<= 20 ms', measured: `${fmt(percentile(inServer.search, 95), 1)} ms`, ok: percentile(inServer.search, 95) <= 20 });
    o.goals.push({ goal: 'in the server: symbol p95 (socket round trip)', target: '<= 2 ms', measured: `${fmt(percentile(inServer.symbol, 95), 1)} ms`, ok: percentile(inServer.symbol, 95) <= 2 });
    o.goals.push({ goal: 'in the server: findSymbol p95 (engine tookMs, reference)', target: '-', measured: `${fmt(percentile(inServer.symbolEngine, 95), 2)} ms`, ok: undefined });
    o.goals.push({ goal: 'in the server: refs p95 (socket round trip)', target: '<= 50 ms', measured: `${fmt(percentile(inServer.refs, 95), 1)} ms`, ok: percentile(inServer.refs, 95) <= 50 });
    o.goals.push({ goal: 'save -> searchable p95 (served)', target: '<= 300 ms', measured: `${fmt(percentile(edits.searchable, 95), 0)} ms`, ok: percentile(edits.searchable, 95) <= 300 });
    o.goals.push({ goal: 'an edit written 200 ms before a query is in its answer', target: 'always', measured: `${edits.seenAfter200}/${edits.tries}`, ok: edits.seenAfter200 === edits.tries });
    if (idle) {
      o.goals.push({ goal: 'idle server CPU', target: '~0', measured: `${fmt(idle.cpuPercent, 2)}%`, ok: idle.cpuPercent < 0.5 });
      o.goals.push({ goal: `idle server memory (${files} files)`, target: '<= 150 MB', measured: `${fmt(idle.rssMb, 0)} MB RSS`, ok: idle.rssMb <= 150 });
    }
    o.report.serve = { files, fresh, inServer, edits, idle };
  } finally {
    server.kill('SIGTERM');
  }
}

export interface ServeFreshTimes {
  served: { search: number[][]; symbol: number[][]; refs: number[][] };
  inProcess: { search: number[][]; symbol: number[][]; refs: number[][] };
  rg: number[][];
  node: number[][];
}

/** The `serve-fresh` child: each identifier through every command in turn, round after round. */
export function serveFreshProcesses(cli: string, rg: string, root: string, storeDir: string, idents: string[], rounds: number): ServeFreshTimes {
  const env = SERVER_ENV();
  const run = (command: string, args: string[]): number => {
    const t = performance.now();
    const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env });
    const ms = performance.now() - t;
    if (r.status !== 0 && command !== rg) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
    return ms;
  };
  // refs at its default limit (rg prints every match; search and symbol a first page).
  const cairn = (cmd: string, id: string, extra: string[] = []): number => run(process.execPath, [cli, cmd, id, '--root', root, '--store', storeDir, '--json', '--limit', cmd === 'refs' ? '100' : '10', ...extra]);
  const times: ServeFreshTimes = { served: { search: [], symbol: [], refs: [] }, inProcess: { search: [], symbol: [], refs: [] }, rg: [], node: [] };
  // Unmeasured: each command's code cache, the page cache for rg.
  for (const cmd of ['search', 'symbol', 'refs']) {
    cairn(cmd, idents[0] as string);
    cairn(cmd, idents[0] as string, ['--no-server']);
  }
  run(rg, ['-w', '-n', idents[0] as string, root]);
  for (let round = 0; round < rounds; round++) {
    const r = { search: [] as number[], symbol: [] as number[], refs: [] as number[], searchIn: [] as number[], symbolIn: [] as number[], refsIn: [] as number[], rg: [] as number[], node: [] as number[] };
    for (const id of idents) {
      r.search.push(cairn('search', id));
      r.symbol.push(cairn('symbol', id));
      r.refs.push(cairn('refs', id));
      r.rg.push(run(rg, ['-w', '-n', id, root]));
      r.searchIn.push(cairn('search', id, ['--no-server']));
      r.symbolIn.push(cairn('symbol', id, ['--no-server']));
      r.refsIn.push(cairn('refs', id, ['--no-server']));
      r.node.push(run(process.execPath, ['-e', '0']));
    }
    times.served.search.push(r.search);
    times.served.symbol.push(r.symbol);
    times.served.refs.push(r.refs);
    times.inProcess.search.push(r.searchIn);
    times.inProcess.symbol.push(r.symbolIn);
    times.inProcess.refs.push(r.refsIn);
    times.rg.push(r.rg);
    times.node.push(r.node);
  }
  return times;
}

/** One client connection: hello, one command line, its result. */
function ask(socket: string, argv: string[], root: string, storeDir: string): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const conn = net.connect(socket);
    const decoder = new LineDecoder(1 << 30);
    conn.on('connect', () => conn.write(encodeMessage({ type: 'hello', ...OUR_IDENTITY }) + encodeMessage({ type: 'run', argv, cwd: root, root, storeDir, stdoutIsTTY: false })));
    conn.on('data', (d: Buffer) => {
      for (const m of decoder.push(d) as Array<{ type: string; stdout?: string; message?: string; reason?: string }>) {
        if (m.type === 'result') {
          conn.destroy();
          resolve({ ms: performance.now() - t, stdout: m.stdout ?? '' });
        } else if (m.type !== 'welcome') {
          conn.destroy();
          reject(new Error(`the server answered ${m.type}: ${m.message ?? m.reason ?? ''}`));
        }
      }
    });
    conn.on('error', reject);
  });
}

async function waitForWatching(socket: string, root: string, storeDir: string): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    if (fs.existsSync(socket)) {
      const status = JSON.parse((await ask(socket, ['status', '--json'], root, storeDir)).stdout) as { freshness?: { watching?: boolean } };
      if (status.freshness?.watching) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not start watching within 10 minutes');
}

/** New files written one by one: the time until a query finds each, and whether a query 200 ms after the write does. */
async function saveToSearchable(socket: string, root: string, storeDir: string): Promise<{ searchable: number[]; seenAfter200: number; tries: number }> {
  const dir = path.join(root, 'cairn-bench-edits');
  fs.mkdirSync(dir, { recursive: true });
  const searchable: number[] = [];
  let seenAfter200 = 0;
  const tries = 10;
  const stamp = Date.now().toString(36);
  try {
    for (let i = 0; i < tries; i++) {
      const name = `benchSavedIdentifier${stamp}x${i}`;
      const t = performance.now();
      fs.writeFileSync(path.join(dir, `saved${i}.ts`), `export function ${name}() {\n  return ${i};\n}\n`);
      for (;;) {
        const r = await ask(socket, ['symbol', name, '--json', '--limit', '1'], root, storeDir);
        if (r.stdout.includes(`saved${i}.ts`)) break;
        if (performance.now() - t > 10_000) throw new Error(`saved${i}.ts not searchable after 10 s`);
      }
      searchable.push(performance.now() - t);
      const later = `benchLaterIdentifier${stamp}x${i}`;
      fs.writeFileSync(path.join(dir, `later${i}.ts`), `export const ${later} = ${i};\n`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      if ((await ask(socket, ['symbol', later, '--json', '--limit', '1'], root, storeDir)).stdout.includes(`later${i}.ts`)) seenAfter200++;
      // A pause between edits, so each one starts from a calm watcher as saves usually do.
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { searchable, seenAfter200, tries };
}

/** CPU share and resident memory of an idle process over a few seconds (Linux /proc). */
async function idleCost(pid: number): Promise<{ cpuPercent: number; rssMb: number; seconds: number } | undefined> {
  const ticks = (): number | undefined => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  };
  const before = ticks();
  if (before === undefined) return undefined;
  const seconds = 5;
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = ticks() ?? before;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  // USER_HZ is 100 on Linux.
  return { cpuPercent: ((after - before) / 100 / seconds) * 100, rssMb: rssKb / 1024, seconds };
}
