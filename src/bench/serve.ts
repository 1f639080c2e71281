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
import { encodeMessage, LineDecoder, OUR_IDENTITY, SERVER_NODE_FLAGS, serverEnv, socketPathFor } from '../server/protocol';
import { fmt, median, percentile, table } from './stats';
import { taskTexts, type TaskText, type TaskTextSource } from './taskTexts';

/** Served answer times per round (serve.ts): each round's p50 and p95. */
export interface ServedRounds {
  search: { p50s: number[]; p95s: number[] };
  symbol: { p50s: number[]; p95s: number[] };
  rg: { p50s: number[] };
}

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
  /** Definitions of the tree (of its index): the identifiers asked for and the task texts' quotes. */
  definitions: (storeDir: string) => Promise<TaskTextSource[]>;
  /** Runs a task in a small child process (forking the bench process itself is slow). */
  child: (args: string[]) => Record<string, unknown>;
  log: (line?: string) => void;
  goals: BenchGoal[];
  report: Record<string, unknown>;
}

/** The bench's `--release-idle` (minutes): short, so the released server is measured in the run. */
const RELEASE_IDLE_MIN = 0.1;

/** Tree size from which the issue's goals against `rg -w` apply (smaller: no slower than today). */
const LARGE_TREE_FILES = 15_000;

const SERVER_ENV = (): NodeJS.ProcessEnv => {
  const { CAIRN_SERVER: _off, CAIRN_DEBUG: _debug, ...env } = process.env;
  return env;
};

/** Runs the section; returns each round's served search and symbol p50 and p95, and rg -w's p50, for the goal table. */
export async function serveSection(o: ServeBenchOptions): Promise<ServedRounds> {
  o.log('\n## cairn serve: fresh processes answered by a watching server');
  const built = spawnSync(process.execPath, [o.cli, 'index', o.root, '--store', o.storeDir], { encoding: 'utf8', env: { ...process.env, CAIRN_SERVER: '0' } });
  if (built.status !== 0) throw new Error(`cairn index failed: ${built.stderr}`);
  const files = (JSON.parse(spawnSync(process.execPath, [o.cli, 'status', o.root, '--store', o.storeDir, '--json', '--no-server'], { encoding: 'utf8' }).stdout) as { files: number }).files;
  const definitions = await o.definitions(o.storeDir);
  const sampled = sampleIdentifiers(definitions);
  const texts = taskTexts(definitions);
  const idents = sampled.slice(0, Math.max(3, o.runs));
  // Names no command has asked for yet: a first lookup reads its pages (a reference figure).
  const unasked = sampled.slice(idents.length, idents.length + 50);
  const socket = socketPathFor(o.storeDir);
  if (!socket) throw new Error('the store path is too long for a socket');
  // Caches are let go after RELEASE_IDLE_MIN unused (5 minutes by default), so that the idle figure is measured within the run.
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, o.cli, 'serve', '--root', o.root, '--store', o.storeDir, '--idle-timeout', '30', '--release-idle', String(RELEASE_IDLE_MIN)], { stdio: 'ignore', env: serverEnv(SERVER_ENV()) });
  try {
    await waitForWatching(socket, o.root, o.storeDir);
    const debug = spawnSync(process.execPath, [o.cli, 'search', idents[0] as string, '--root', o.root, '--store', o.storeDir], { encoding: 'utf8', env: { ...SERVER_ENV(), CAIRN_DEBUG: '1' } });
    if (!/answered by the server/.test(debug.stderr)) throw new Error(`the server did not answer: ${debug.stderr}`);

    const fresh = o.child(['serve-fresh', o.root, o.storeDir, JSON.stringify({ idents, rounds: o.rounds })]) as unknown as ServeFreshTimes;
    const rows: string[][] = [];
    const summary = (name: string, perRound: number[][]): { p50: number; p95: number; p50s: number[]; p95s: number[] } => {
      const p50s = perRound.map((r) => percentile(r, 50));
      const p95s = perRound.map((r) => percentile(r, 95));
      rows.push([name, fmt(median(p50s), 0), `${fmt(Math.min(...p50s), 0)}-${fmt(Math.max(...p50s), 0)}`, fmt(median(p95s), 0), `${fmt(Math.min(...p95s), 0)}-${fmt(Math.max(...p95s), 0)}`]);
      return { p50: median(p50s), p95: median(p95s), p50s, p95s };
    };
    const served = Object.fromEntries(COMMANDS.map((c) => [c.name, summary(`cairn ${c.name}, served`, fresh.served[c.name])])) as Record<Command, ReturnType<typeof summary>>;
    const rg = summary('rg -w', fresh.rg);
    const today = Object.fromEntries(COMMANDS.map((c) => [c.name, summary(`cairn ${c.name} --no-server (checks the tree first)`, fresh.inProcess[c.name])])) as Record<Command, ReturnType<typeof summary>>;
    summary('node -e 0', fresh.node);
    o.log(`${files} files; ${o.rounds} interleaved rounds of ${idents.length} identifiers; the median of the rounds' p50 and p95, and their spread (min-max over rounds)`);
    o.log(table(['fresh process', 'p50 ms', 'p50 spread', 'p95 ms', 'p95 spread'], rows));

    // Over the socket, from a small client process (the bench's own heap would add its pauses):
    // the server's own answer time, five passes over the names the fresh processes asked, then
    // names not asked before.
    const { inServer, firstAsked } = o.child(['serve-socket', o.root, o.storeDir, JSON.stringify({ idents, unasked })]) as unknown as ServeSocketTimes;
    const tasks = o.child(['serve-tasks', o.root, o.storeDir, JSON.stringify({ texts, rounds: TASK_TEXT_ROUNDS })]) as unknown as ServeTaskTimes;
    const edits = await saveToSearchable(socket, o.root, o.storeDir);
    const inUseMb = server.pid ? rssMb(server.pid) : undefined;
    await new Promise((resolve) => setTimeout(resolve, RELEASE_IDLE_MIN * 60_000 + 2000));
    const idle = server.pid ? await idleCost(server.pid) : undefined;
    // What the release costs: the first answers after it read their pages again.
    const afterRelease = COMMANDS.map((c) => ({ name: c.name, ms: 0 }));
    for (const a of afterRelease) a.ms = (await ask(socket, [a.name, idents[0] as string, '--json', '--limit', '10'], o.root, o.storeDir)).ms;
    const p = (xs: number[], q: number, digits = 1) => fmt(percentile(xs, q), digits);
    o.log(
      table(['in the server (socket round trip)', 'p50 ms', 'p95 ms'], [
        ...COMMANDS.flatMap((c) => [
          [`${c.name} (limit ${c.limit})`, p(inServer[c.name].trip, 50), p(inServer[c.name].trip, 95)],
          [`${c.name}, engine tookMs`, p(inServer[c.name].engine, 50, 2), p(inServer[c.name].engine, 95, 2)],
          [`${c.name}, a name not asked before (${unasked.length})`, p(firstAsked[c.name].trip, 50), p(firstAsked[c.name].trip, 95)],
        ]),
        ['save -> searchable (polling)', p(edits.searchable, 50, 0), p(edits.searchable, 95, 0)],
      ]),
    );
    o.log(`edits seen by a query 200 ms after the write: ${edits.seenAfter200}/${edits.tries}`);
    o.log(`\ntask texts of ~${fmt(median(texts.map((t) => t.text.length)), 0)} characters made from the tree's definitions, \`search TEXT --group file --limit 10\` over the socket, ${TASK_TEXT_ROUNDS} rounds:`);
    o.log(table(['task text', 'round trip p50 ms', 'p95 ms', 'engine tookMs p50', 'p95'], texts.map((t) => {
      const r = tasks[t.kind];
      return [t.kind, p(r.trip, 50, 0), p(r.trip, 95, 0), p(r.engine, 50, 0), p(r.engine, 95, 0)];
    })));
    if (inUseMb !== undefined) o.log(`server in use (after the queries and edits): RSS ${fmt(inUseMb, 0)} MB`);
    if (idle) o.log(`idle server (its caches released after ${RELEASE_IDLE_MIN * 60} s unused; 5 minutes by default): ${fmt(idle.cpuPercent, 2)}% CPU over ${idle.seconds} s, RSS ${fmt(idle.rssMb, 0)} MB`);
    o.log(`first answers after the release: ${afterRelease.map((a) => `${a.name} ${fmt(a.ms, 1)} ms`).join(', ')}`);

    const large = files >= LARGE_TREE_FILES;
    for (const c of COMMANDS) {
      const s = served[c.name];
      const name = `cairn ${c.name}`;
      if (large) {
        o.goals.push({ goal: `${name}, served, fresh process p50 / rg -w p50`, target: '<= 0.5x', measured: `${fmt(s.p50 / rg.p50, 2)}x`, ok: s.p50 <= 0.5 * rg.p50 });
        o.goals.push({ goal: `${name}, served, fresh process p95 / rg -w p50`, target: '<= 0.75x', measured: `${fmt(s.p95 / rg.p50, 2)}x`, ok: s.p95 <= 0.75 * rg.p50 });
      } else {
        const t = today[c.name];
        o.goals.push({ goal: `${name}, served, fresh process p50 vs --no-server (small tree: no slower than today)`, target: '<= 1x', measured: `${fmt(s.p50 / t.p50, 2)}x (rg -w ${fmt(s.p50 / rg.p50, 2)}x)`, ok: s.p50 <= t.p50 });
      }
    }
    for (const c of COMMANDS) {
      const trip = percentile(inServer[c.name].trip, 95);
      o.goals.push({ goal: `in the server: ${c.name} p95 (socket round trip)`, target: `<= ${c.goalMs} ms`, measured: `${fmt(trip, 1)} ms`, ok: trip <= c.goalMs });
    }
    o.goals.push({ goal: 'in the server: findSymbol p95 (engine tookMs, reference)', target: '-', measured: `${fmt(percentile(inServer.symbol.engine, 95), 2)} ms`, ok: undefined });
    if (large) {
      const worst = Math.max(...texts.map((t) => percentile(tasks[t.kind].trip, 95)));
      o.goals.push({ goal: 'a ~4 KB task text, served, p95 of the slowest kind (socket round trip)', target: `<= ${TASK_TEXT_GOAL_MS} ms`, measured: `${fmt(worst, 0)} ms`, ok: worst <= TASK_TEXT_GOAL_MS });
    }
    o.goals.push({ goal: 'save -> searchable p95 (served)', target: '<= 300 ms', measured: `${fmt(percentile(edits.searchable, 95), 0)} ms`, ok: percentile(edits.searchable, 95) <= 300 });
    o.goals.push({ goal: 'an edit written 200 ms before a query is in its answer', target: 'always', measured: `${edits.seenAfter200}/${edits.tries}`, ok: edits.seenAfter200 === edits.tries });
    if (idle) {
      o.goals.push({ goal: 'idle server CPU', target: '~0', measured: `${fmt(idle.cpuPercent, 2)}%`, ok: idle.cpuPercent < 0.5 });
      o.goals.push({ goal: `idle server memory (${files} files; caches released when unused)`, target: '<= 150 MB', measured: `${fmt(idle.rssMb, 0)} MB RSS`, ok: idle.rssMb <= 150 });
    }
    o.report.serve = { files, fresh, inServer, firstAsked, tasks, edits, inUseMb, idle, afterRelease };
    return { search: served.search, symbol: served.symbol, rg: { p50s: rg.p50s } };
  } finally {
    server.kill('SIGTERM');
  }
}

/** Identifiers of six characters or more among `definitions`, in a fixed pseudo-random order. */
function sampleIdentifiers(definitions: readonly TaskTextSource[]): string[] {
  const symbols = definitions.map((d) => d.symbol).filter((name) => /^[A-Za-z_]\w{5,}$/.test(name));
  return Array.from({ length: Math.min(100, symbols.length) }, (_, i) => symbols[(i * 7919 + 17) % symbols.length] as string);
}

/** The commands measured, each at the limit an agent would ask for (rg prints every match; search and symbol a first page). */
const COMMANDS = [
  { name: 'search', limit: 10, goalMs: 20 },
  { name: 'symbol', limit: 10, goalMs: 2 },
  { name: 'refs', limit: 100, goalMs: 50 },
] as const;
type Command = (typeof COMMANDS)[number]['name'];

export interface ServeFreshTimes {
  served: Record<Command, number[][]>;
  inProcess: Record<Command, number[][]>;
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
  const cairn = (c: (typeof COMMANDS)[number], id: string, extra: string[] = []): number => run(process.execPath, [cli, c.name, id, '--root', root, '--store', storeDir, '--json', '--limit', String(c.limit), ...extra]);
  const perCommand = () => Object.fromEntries(COMMANDS.map((c) => [c.name, [] as number[][]])) as Record<Command, number[][]>;
  const times: ServeFreshTimes = { served: perCommand(), inProcess: perCommand(), rg: [], node: [] };
  // Unmeasured: each command's code cache, the page cache for rg.
  for (const c of COMMANDS) {
    cairn(c, idents[0] as string);
    cairn(c, idents[0] as string, ['--no-server']);
  }
  run(rg, ['-w', '-n', idents[0] as string, root]);
  for (let round = 0; round < rounds; round++) {
    const served = COMMANDS.map(() => [] as number[]);
    const inProcess = COMMANDS.map(() => [] as number[]);
    const rgTimes: number[] = [];
    const nodeTimes: number[] = [];
    for (const id of idents) {
      COMMANDS.forEach((c, k) => served[k]?.push(cairn(c, id)));
      rgTimes.push(run(rg, ['-w', '-n', id, root]));
      COMMANDS.forEach((c, k) => inProcess[k]?.push(cairn(c, id, ['--no-server'])));
      nodeTimes.push(run(process.execPath, ['-e', '0']));
    }
    COMMANDS.forEach((c, k) => {
      times.served[c.name].push(served[k] as number[]);
      times.inProcess[c.name].push(inProcess[k] as number[]);
    });
    times.rg.push(rgTimes);
    times.node.push(nodeTimes);
  }
  return times;
}

type CommandTimes = Record<Command, { trip: number[]; engine: number[] }>;

/** Rounds of the five task texts (the first, unmeasured, warms each text's pages). */
const TASK_TEXT_ROUNDS = 30;
/** Issue #37: a 4 KB issue text answered by `cairn serve` in this time, p95, on a 20k-file tree. */
const TASK_TEXT_GOAL_MS = 150;

export type ServeTaskTimes = Record<TaskText['kind'], { trip: number[]; engine: number[] }>;

/** The `serve-tasks` child: each task text as a file search over the socket, round after round. */
export async function serveTaskTimes(root: string, storeDir: string, texts: readonly TaskText[], rounds: number): Promise<ServeTaskTimes> {
  const socket = socketPathFor(storeDir);
  if (!socket) throw new Error('the store path is too long for a socket');
  const times = Object.fromEntries(texts.map((t) => [t.kind, { trip: [] as number[], engine: [] as number[] }])) as ServeTaskTimes;
  for (let round = -1; round < rounds; round++) {
    for (const t of texts) {
      const r = await ask(socket, ['search', t.text, '--group', 'file', '--json', '--limit', '10'], root, storeDir);
      if (round < 0) continue;
      times[t.kind].trip.push(r.ms);
      times[t.kind].engine.push((JSON.parse(r.stdout) as { tookMs: number }).tookMs);
    }
  }
  return times;
}

export interface ServeSocketTimes {
  inServer: CommandTimes;
  firstAsked: CommandTimes;
}

/**
 * The `serve-socket` child: each command's round trip over the socket (connect, hello, the
 * command's own code, JSON out) and the engine's own tookMs, for five passes over `idents`, then
 * once for each of `unasked`.
 */
export async function serveSocketTimes(root: string, storeDir: string, idents: readonly string[], unasked: readonly string[]): Promise<ServeSocketTimes> {
  const socket = socketPathFor(storeDir);
  if (!socket) throw new Error('the store path is too long for a socket');
  const perCommand = () => Object.fromEntries(COMMANDS.map((c) => [c.name, { trip: [] as number[], engine: [] as number[] }])) as CommandTimes;
  const measure = async (names: readonly string[]): Promise<CommandTimes> => {
    const into = perCommand();
    for (const id of names) {
      for (const c of COMMANDS) {
        const r = await ask(socket, [c.name, id, '--json', '--limit', String(c.limit)], root, storeDir);
        into[c.name].trip.push(r.ms);
        into[c.name].engine.push((JSON.parse(r.stdout) as { tookMs: number }).tookMs);
      }
    }
    return into;
  };
  const inServer = await measure(Array.from({ length: 5 }, () => idents).flat());
  return { inServer, firstAsked: await measure(unasked) };
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
  // Twenty, so that the p95 is not simply the slowest (one full collection of a large heap can be it).
  const tries = 20;
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
  // USER_HZ is 100 on Linux.
  return { cpuPercent: ((after - before) / 100 / seconds) * 100, rssMb: rssMb(pid), seconds };
}

/** A process's resident memory (Linux /proc). */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}
