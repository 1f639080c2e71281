// `npm run bench`: Cairn's performance figures on a real corpus, side by side with the reference
// tools in the same run (tree-sitter parsing alone for chunking; ripgrep for search). These
// machines are noisy, so the report gives ratios next to absolute times, and the goals are
// judged on ratios. Not a test: it prints, it does not assert.
//
//   node dist/bench.js [--corpus DIR ... | --generate FILES | --root DIR] [--max-files N] [--runs N] [--rounds N] [--section chunking|index|serve|goals|all] [--json FILE]
//
// --root DIR measures that folder as it is (nothing copied); `--section goals` prints only the
// goal table of issue #40 (cold index vs ctags -R, served search/symbol vs rg -w) and what it needs.
//   node dist/bench.js --compare BASE [--corpus DIR ...] [--rounds N] [--runs N]   (compare.ts: the regression gate)
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ChunkPool } from '../core/chunking/pool';
import { DEFAULT_POLICY } from '../core/chunking/policy';
import { discoverFiles, loadDocuments } from '../core/discovery';
import { Engine } from '../core/engine/engine';
import { SymbolIndex } from '../core/search/symbols';
import { IndexStore } from '../core/store/store';
import type { SourceDocument } from '../core/types';
import { compareBuilds } from './compare';
import { assembleCorpus, defaultSources, type Corpus } from './corpus';
import { generateTree } from './generate';
import { fmt, mb, percentile, table, timed } from './stats';
import { serveFreshProcesses, serveSection, serveSocketTimes, serveTaskTimes } from './serve';
import { taskTextSource, type TaskTextSource } from './taskTexts';
import { coldRounds, printGoalTable, type ServedRounds } from './goalTable';

const repoRoot = path.resolve(__dirname, '..');
const dist = __dirname;
const grammarsDir = path.join(repoRoot, 'grammars');
const chunkWorker = path.join(dist, 'chunkWorker.js');
const cli = path.join(dist, 'cli.js');
/** The bench indexes everything the reference tools see: no pruned folders besides VCS ones. */
export const BENCH_DISCOVERY = { excludeDirs: ['.git', '.hg', '.svn'], useGit: false };

interface Goal {
  goal: string;
  target: string;
  measured: string;
  ok: boolean | undefined;
}

const goals: Goal[] = [];
const report: Record<string, unknown> = {};

function rgPath(): string {
  return require.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`, { paths: [repoRoot] });
}

/**
 * universal-ctags over the same tree (one thread, every language it knows, tags to a scratch
 * file): the independent symbol indexer a cold index is reported beside. Undefined without ctags.
 */
function ctagsTime(root: string, scratchDir: string): number | undefined {
  const tags = path.join(path.dirname(scratchDir), 'bench.tags');
  const t = performance.now();
  const r = spawnSync('ctags', ['-R', '-f', tags, '--exclude=.git', '--exclude=node_modules', root], { stdio: 'ignore' });
  const ms = performance.now() - t;
  fs.rmSync(tags, { force: true });
  return r.error || r.status !== 0 ? undefined : ms;
}

function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** The first 200 documents and the first of every other language. */
function warmUpDocs(docs: readonly SourceDocument[]): SourceDocument[] {
  const sample = docs.slice(0, 200);
  const languages = new Set(sample.map((d) => d.language));
  for (const d of docs) {
    if (languages.has(d.language)) continue;
    languages.add(d.language);
    sample.push(d);
  }
  return sample;
}

async function chunkWith(docs: SourceDocument[], workers: number, parseOnly: boolean): Promise<{ ms: number; cpuMs: number; chunks: number }> {
  const pool = await ChunkPool.create({ workerScript: chunkWorker, grammarsDir, workers, policy: DEFAULT_POLICY, strategy: 'ast', parseOnly });
  // Warm-up: workers load grammars on first use; the goal is about steady-state cost. A file
  // of every language is in it, so no grammar is first loaded during the timed run.
  await pool.chunk(warmUpDocs(docs));
  // Consumed as a stream, as the indexer (4 MB batches) and `cairn chunks` consume it: keeping
  // all 800k chunks to the end made this thread's garbage collector the bottleneck instead.
  // CPU time of the whole process (every thread: workers, this one, V8's helpers) beside the
  // wall time: a neighbour that takes the machine's cores stretches the wall time, not this.
  const cpu = process.cpuUsage();
  const t = performance.now();
  let chunks = 0;
  for await (const r of pool.stream(docs)) chunks += r.chunks.length;
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  await pool.close();
  return { ms, cpuMs: (used.user + used.system) / 1000, chunks };
}

async function chunkingSection(corpus: Corpus, rounds: number): Promise<{ parse2ms: number }> {
  log('\n## Discovery and chunking');
  const disc = await timed(() => discoverFiles(corpus.root, BENCH_DISCOVERY));
  const files = disc.value.files;
  const read = await timed(() => loadDocuments(corpus.root, files));
  const docs = read.value.docs;
  const parseable = docs.filter((d) => ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'swift', 'bash', 'css', 'html', 'json'].includes(d.language));
  const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d.text), 0);
  const pbytes = parseable.reduce((n, d) => n + Buffer.byteLength(d.text), 0);
  // Parse-only and the pipeline alternate, round after round, and each keeps its best time:
  // on a shared machine a slow minute then hits both sides of a ratio, not just one.
  const runs: Record<string, number> = {};
  let chunkCount = 0;
  for (let round = 0; round < rounds; round++) {
    for (const workers of [1, 2]) {
      for (const [name, parseOnly] of [['parse', true], ['chunk', false]] as const) {
        const { ms, cpuMs, chunks } = await chunkWith(parseable, workers, parseOnly);
        if (!parseOnly) chunkCount = chunks;
        runs[`${name}${workers}`] = Math.min(runs[`${name}${workers}`] ?? Infinity, ms);
        runs[`${name}${workers}Cpu`] = Math.min(runs[`${name}${workers}Cpu`] ?? Infinity, cpuMs);
      }
    }
  }
  log(`(parse and chunk times: best of ${rounds} interleaved round${rounds === 1 ? '' : 's'}; CPU: of the whole process, its best)`);
  const rate = (n: number, ms: number) => fmt((n / ms) * 1000, 0);
  const mbps = (b: number, ms: number) => fmt(mb(b) / (ms / 1000), 2);
  log(
    table(
      ['stage', 'files', 'MB', 'time ms', 'files/s', 'MB/s', 'CPU ms'],
      [
        ['discovery', String(files.length), fmt(mb(bytes)), fmt(disc.ms, 0), rate(files.length, disc.ms), mbps(bytes, disc.ms), '-'],
        ['read + hash + utf-8', String(docs.length), fmt(mb(bytes)), fmt(read.ms, 0), rate(docs.length, read.ms), mbps(bytes, read.ms), '-'],
        ['parse only, 1 worker', String(parseable.length), fmt(mb(pbytes)), fmt(runs.parse1 as number, 0), rate(parseable.length, runs.parse1 as number), mbps(pbytes, runs.parse1 as number), fmt(runs.parse1Cpu as number, 0)],
        ['parse only, 2 workers', String(parseable.length), fmt(mb(pbytes)), fmt(runs.parse2 as number, 0), rate(parseable.length, runs.parse2 as number), mbps(pbytes, runs.parse2 as number), fmt(runs.parse2Cpu as number, 0)],
        ['chunk pipeline, 1 worker', String(parseable.length), fmt(mb(pbytes)), fmt(runs.chunk1 as number, 0), rate(parseable.length, runs.chunk1 as number), mbps(pbytes, runs.chunk1 as number), fmt(runs.chunk1Cpu as number, 0)],
        ['chunk pipeline, 2 workers', String(parseable.length), fmt(mb(pbytes)), fmt(runs.chunk2 as number, 0), rate(parseable.length, runs.chunk2 as number), mbps(pbytes, runs.chunk2 as number), fmt(runs.chunk2Cpu as number, 0)],
      ],
    ),
  );
  // The pipeline's cost grows with the chunks it emits, not only with the bytes it parses.
  log(`chunk pipeline output: ${chunkCount.toLocaleString('en-US')} chunks`);
  const pipelineRatio = (runs.chunk1 as number) / (runs.parse1 as number);
  const scaling = (runs.chunk1 as number) / (runs.chunk2 as number);
  goals.push({ goal: 'chunk pipeline / parse only (1 worker)', target: '<= 1.3x', measured: `${fmt(pipelineRatio, 2)}x`, ok: pipelineRatio <= 1.3 });
  goals.push({ goal: 'chunk pipeline / parse only (2 workers)', target: '<= 1.3x', measured: `${fmt((runs.chunk2 as number) / (runs.parse2 as number), 2)}x`, ok: (runs.chunk2 as number) / (runs.parse2 as number) <= 1.3 });
  goals.push({ goal: 'chunk pipeline speed-up, 2 workers vs 1', target: '>= 1.7x', measured: `${fmt(scaling, 2)}x`, ok: scaling >= 1.7 });
  const cpuRatio = (workers: number) => fmt((runs[`chunk${workers}Cpu`] as number) / (runs[`parse${workers}Cpu`] as number), 2);
  goals.push({ goal: 'chunk pipeline / parse only in CPU time, 1 and 2 workers (reference)', target: '-', measured: `${cpuRatio(1)}x, ${cpuRatio(2)}x`, ok: undefined });
  goals.push({ goal: 'parse-only speed-up, 2 workers vs 1 (reference)', target: '-', measured: `${fmt((runs.parse1 as number) / (runs.parse2 as number), 2)}x`, ok: undefined });
  report.chunking = { files: files.length, bytes, parseableFiles: parseable.length, parseableBytes: pbytes, chunks: chunkCount, discoveryMs: disc.ms, readMs: read.ms, ...runs };
  return { parse2ms: (runs.parse2 as number) + read.ms + disc.ms };
}

/** Runs a bench child (this script with --child) so peak RSS and cold start are the child's alone. */
function child(args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [path.join(dist, 'bench.js'), '--child', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop() as string) as Record<string, unknown>;
}

function engineFor(root: string, storeDir: string): Engine {
  return new Engine({ root, storeDir, grammarsDir, workerScript: chunkWorker, indexWorkerScript: path.join(dist, 'indexWorker.js'), discovery: BENCH_DISCOVERY, ripgrepPath: rgPath() });
}

async function indexSection(corpus: Corpus, storeDir: string, parseBaselineMs: number | undefined, runs: number): Promise<void> {
  log('\n## Index, refresh and search');
  const cold = child(['cold-index', corpus.root, storeDir]);
  const chunks = cold.chunks as number;
  const coldMs = cold.durationMs as number;
  const storeBytes = cold.storeBytes as number;
  log(`cold index: ${cold.files} files, ${chunks} chunks in ${fmt(coldMs, 0)} ms, peak RSS ${fmt(cold.maxRssMb as number, 0)} MB, store ${fmt(mb(storeBytes))} MB for ${fmt(mb(cold.sourceBytes as number))} MB of source`);
  const ctagsMs = ctagsTime(corpus.root, storeDir);

  const engine = engineFor(corpus.root, storeDir);
  const noop: number[] = [];
  for (let i = 0; i < 3; i++) noop.push((await timed(() => engine.refresh())).ms);
  const noopMs = percentile(noop, 50);

  // As in the extension's engine thread: after a whole-tree refresh the in-thread chunker is
  // warmed up while idle (V8's background optimisation of a fresh parser stalls the thread
  // about a second after first use; see Engine.warmUp).
  await engine.warmUp();
  await new Promise((resolve) => setTimeout(resolve, 2000));

  // One edited file: write it, refresh just it, search until found.
  const editRel = 'bench-edit/edited_file.ts';
  const editAbs = path.join(corpus.root, editRel);
  const ident = `benchEditedIdentifier${Date.now().toString(36)}`;
  const editTimes: number[] = [];
  for (let i = 0; i < 10; i++) {
    fs.mkdirSync(path.dirname(editAbs), { recursive: true });
    fs.rmSync(editAbs, { force: true }); // never write through a hard link into the sources
    fs.writeFileSync(editAbs, `export function ${ident}${i}() {\n  return ${i};\n}\n`);
    const t = performance.now();
    await engine.refresh({ only: [editRel] });
    const r = await engine.search(`${ident}${i}`, { limit: 1, refresh: 'never' });
    editTimes.push(performance.now() - t);
    if (r.results[0]?.path !== editRel) throw new Error('edited file not found after refresh');
  }
  fs.rmSync(path.dirname(editAbs), { recursive: true, force: true });
  await engine.refresh({ only: ['bench-edit'] });

  // Queries: identifiers sampled from the index, plus multi-word queries built from their parts.
  const symbols: string[] = [];
  for await (const c of engine.exportChunks()) {
    if (c.symbol && /^[A-Za-z_]\w{5,}$/.test(c.symbol) && c.kind !== 'section') symbols.push(c.symbol);
  }
  const pick = (n: number, seed: number) => Array.from({ length: n }, (_, i) => symbols[(i * 7919 + seed) % symbols.length] as string);
  const idents = pick(100, 17);
  const phrases = pick(100, 101).map((s) => s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase());
  await engine.search(idents[0] as string, { refresh: 'never' });
  const q: number[] = [];
  for (const query of [...idents, ...phrases]) q.push((await timed(() => engine.search(query, { limit: 10, refresh: 'never' }))).ms);
  // findSymbol twice: as an answer with previews (reads each hit's file), and as the lookup
  // itself (previewLines 0: the symbol table plus one lstat per hit for staleness).
  const sym: number[] = [];
  const symLookup: number[] = [];
  for (const name of [...idents, ...idents]) {
    let t = process.hrtime.bigint();
    await engine.findSymbol(name, { limit: 10, refresh: 'never' });
    sym.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await engine.findSymbol(name, { limit: 10, refresh: 'never', previewLines: 0 });
    symLookup.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  await engine.close();
  const symFresh = await freshLookups(corpus.root, storeDir, idents);

  // Fresh processes: `cairn search` (start, open index, query, print) vs `rg` for the same
  // identifier, spawned from a small child: forking this process, which holds the corpus and an
  // open index, would add the cost of forking a large process to every spawn, which a user's
  // shell does not pay.
  const cliIdents = idents.slice(0, runs);
  const fresh = child(['fresh-processes', corpus.root, storeDir, JSON.stringify(cliIdents)]) as unknown as FreshProcessTimes;
  const envs = Object.keys(fresh.cli);
  const rgTimes = fresh.rg;
  const mem = child(['open-memory', corpus.root, storeDir, idents[0] as string]);

  // The goal is judged without NODE_EXTRA_CA_CERTS (the last environment); the table shows both.
  const goalEnv = envs[envs.length - 1] as string;
  const goalTimes = fresh.cli[goalEnv] as number[];
  const cliP95 = percentile(goalTimes, 95);
  const rgP50 = percentile(rgTimes, 50);
  const cliP50 = percentile(goalTimes, 50);
  const freshRows = envs.flatMap((name) => {
    const times = fresh.cli[name] as number[];
    const node = fresh.node[name] as number[];
    const label = envs.length > 1 ? `, env ${name}` : '';
    const checked = name === goalEnv ? [[`cairn search, fresh, checking the tree for changes first${label}`, fmt(percentile(fresh.cliChecked, 50), 0), fmt(percentile(fresh.cliChecked, 95), 0), `rg p50 ${fmt(rgP50, 0)} ms`, `rg/cairn ${fmt(rgP50 / percentile(fresh.cliChecked, 50), 1)}x`]] : [];
    return [
      ...checked,
      [`cairn search, fresh process${label} (${times.length} runs)`, fmt(percentile(times, 50), 0), fmt(percentile(times, 95), 0), `rg p50 ${fmt(rgP50, 0)} ms`, `rg/cairn ${fmt(rgP50 / percentile(times, 50), 1)}x`],
      [`node -e 0${label}`, fmt(percentile(node, 50), 0), fmt(percentile(node, 95), 0), '-', '-'],
    ];
  });
  log(
    table(
      ['measure', 'p50 ms', 'p95 ms', 'reference', 'ratio'],
      [
        ['cold index (child process)', fmt(coldMs, 0), '-', parseBaselineMs ? `discover+read+parse ${fmt(parseBaselineMs, 0)} ms` : '-', parseBaselineMs ? `${fmt(coldMs / parseBaselineMs, 2)}x` : '-'],
        ...(ctagsMs !== undefined ? [['ctags -R (universal-ctags, same tree, same run)', fmt(ctagsMs, 0), '-', `cold index ${fmt(coldMs, 0)} ms`, `cairn/ctags ${fmt(coldMs / ctagsMs, 2)}x`]] : []),
        ['no-op refresh', fmt(noopMs, 0), fmt(percentile(noop, 95), 0), `cold ${fmt(coldMs, 0)} ms`, `${fmt((noopMs / coldMs) * 100, 1)}%`],
        ['edit one file -> searchable', fmt(percentile(editTimes, 50), 0), fmt(percentile(editTimes, 95), 0), '-', '-'],
        ['search, in-process (200 queries)', fmt(percentile(q, 50), 2), fmt(percentile(q, 95), 2), '-', '-'],
        ['findSymbol with previews (200 lookups)', fmt(percentile(sym, 50), 3), fmt(percentile(sym, 95), 3), '-', '-'],
        ['findSymbol, no previews (200 lookups)', fmt(percentile(symLookup, 50), 3), fmt(percentile(symLookup, 95), 3), '-', '-'],
        [`symbol lookup on an index just opened (${symFresh.lookup.length} lookups)`, fmt(percentile(symFresh.lookup, 50), 3), fmt(percentile(symFresh.lookup, 95), 3), `opening it p50 ${fmt(percentile(symFresh.open, 50), 1)} ms`, '-'],
        [`findSymbol, first of a new engine, no previews (${symFresh.engine.length} lookups)`, fmt(percentile(symFresh.engine, 50), 3), fmt(percentile(symFresh.engine, 95), 3), '-', '-'],
        ...freshRows,
      ],
    ),
  );
  const perChunkMb = (mem.indexMb as number) * (50000 / chunks);
  log(`open index memory: ${fmt(mem.indexMb as number, 0)} MB for ${chunks} chunks (${fmt(perChunkMb, 0)} MB scaled to 50,000 chunks); RSS ${fmt(mem.rssMb as number, 0)} MB`);
  if (parseBaselineMs) goals.push({ goal: 'cold index / (discover + read + parse only, 2 workers)', target: '<= 1.3x', measured: `${fmt(coldMs / parseBaselineMs, 2)}x`, ok: coldMs / parseBaselineMs <= 1.3 });
  if (ctagsMs !== undefined) goals.push({ goal: 'cold index / ctags -R, same run (reference)', target: '-', measured: `${fmt(coldMs / ctagsMs, 2)}x`, ok: undefined });
  goals.push({ goal: 'cold index peak RSS', target: '<= 800 MB', measured: `${fmt(cold.maxRssMb as number, 0)} MB`, ok: (cold.maxRssMb as number) <= 800 });
  goals.push({ goal: 'store size / indexed source bytes', target: '<= 0.5', measured: fmt(storeBytes / (cold.sourceBytes as number), 2), ok: storeBytes / (cold.sourceBytes as number) <= 0.5 });
  goals.push({ goal: 'no-op refresh / cold index', target: '<= 5%', measured: `${fmt((noopMs / coldMs) * 100, 1)}%`, ok: noopMs / coldMs <= 0.05 });
  goals.push({ goal: 'edited file searchable after refresh (p95)', target: '<= 300 ms', measured: `${fmt(percentile(editTimes, 95), 0)} ms`, ok: percentile(editTimes, 95) <= 300 });
  const envNote = envs.length > 1 ? `, env ${goalEnv}` : '';
  goals.push({ goal: `cairn search, fresh process (p95${envNote})`, target: '<= 250 ms', measured: `${fmt(cliP95, 0)} ms`, ok: cliP95 <= 250 });
  if (envs.length > 1) {
    const asIs = fresh.cli[envs[0] as string] as number[];
    goals.push({ goal: `cairn search, fresh process (p95, env ${envs[0]}, reference)`, target: '-', measured: `${fmt(percentile(asIs, 95), 0)} ms`, ok: undefined });
  }
  goals.push({ goal: `cairn search checking the tree for changes first (the default), fresh process (p95${envNote}, reference)`, target: '-', measured: `${fmt(percentile(fresh.cliChecked, 95), 0)} ms`, ok: undefined });
  goals.push({ goal: 'cairn search vs rg, same identifier (p50)', target: '>= 5x faster', measured: `${fmt(rgP50 / cliP50, 1)}x`, ok: rgP50 / cliP50 >= 5 });
  goals.push({ goal: 'search in-process (p95)', target: '<= 20 ms', measured: `${fmt(percentile(q, 95), 1)} ms`, ok: percentile(q, 95) <= 20 });
  goals.push({ goal: 'findSymbol, no previews (p95)', target: '<= 1 ms', measured: `${fmt(percentile(symLookup, 95), 3)} ms`, ok: percentile(symLookup, 95) <= 1 });
  goals.push({ goal: 'symbol lookup on an index just opened (p95)', target: '<= 1 ms', measured: `${fmt(percentile(symFresh.lookup, 95), 3)} ms`, ok: percentile(symFresh.lookup, 95) <= 1 });
  goals.push({ goal: 'findSymbol, first of a new engine, no previews (p95, reference)', target: '-', measured: `${fmt(percentile(symFresh.engine, 95), 3)} ms`, ok: undefined });
  goals.push({ goal: 'findSymbol with previews (p95, reference)', target: '-', measured: `${fmt(percentile(sym, 95), 3)} ms`, ok: undefined });
  goals.push({ goal: 'open index memory, scaled to 50k chunks', target: '<= 300 MB', measured: `${fmt(perChunkMb, 0)} MB`, ok: perChunkMb <= 300 });
  report.index = { cold, noop, editTimes, queryMs: q, symbolMs: sym, symbolLookupMs: symLookup, symbolFreshMs: symFresh, cliMs: fresh.cli, cliCheckedMs: fresh.cliChecked, nodeMs: fresh.node, rgMs: rgTimes, memory: mem };
}

/**
 * Symbol lookups as a one-shot command meets them (`cairn symbol`, an MCP call in a new
 * server): the first lookup on an index just opened. Per name: the symbol table's lookup on a
 * snapshot opened for it, timed apart from opening it (the manifest, each segment's header and
 * file table, which every query pays alike); and the first findSymbol of a new engine, without
 * previews, which opens the index itself.
 */
async function freshLookups(root: string, storeDir: string, names: readonly string[]): Promise<{ open: number[]; lookup: number[]; engine: number[] }> {
  const times = { open: [] as number[], lookup: [] as number[], engine: [] as number[] };
  const ms = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;
  for (const name of names) {
    let t = process.hrtime.bigint();
    const snapshot = new IndexStore(storeDir).snapshot();
    if (!snapshot) throw new Error('no index to look symbols up in');
    times.open.push(ms(t));
    t = process.hrtime.bigint();
    new SymbolIndex(snapshot).find(name, { limit: 10 });
    times.lookup.push(ms(t));
    const engine = engineFor(root, storeDir);
    t = process.hrtime.bigint();
    await engine.findSymbol(name, { limit: 10, refresh: 'never', previewLines: 0 });
    times.engine.push(ms(t));
    await engine.close();
  }
  return times;
}

/** Fresh-process times by environment name ("as is", and without NODE_EXTRA_CA_CERTS when set). */
interface FreshProcessTimes {
  cli: Record<string, number[]>;
  node: Record<string, number[]>;
  /** `cairn search` as users run it by default: it checks the tree for changes first (last environment). */
  cliChecked: number[];
  rg: number[];
}

/** Runs a command to its end; its wall time in ms, and what it said when it failed. */
function timedSpawn(command: string, args: string[], env: NodeJS.ProcessEnv): { ms: number; status: number | null; stderr: string } {
  const t = performance.now();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env });
  return { ms: performance.now() - t, status: r.status, stderr: r.stderr };
}

/** Times `cairn search ID` and `rg -F ID` as fresh processes, with `node -e 0` beside them. */
function freshProcesses(root: string, storeDir: string, idents: string[]): FreshProcessTimes {
  // NODE_EXTRA_CA_CERTS, when the shell sets it, makes every Node process parse that CA bundle
  // as it starts (Node 20 loads it eagerly; `node -e 0` pays it too) though Cairn opens no TLS
  // connection: the runs are measured with the environment as it is and without that variable.
  const rg = rgPath();
  // In-process, as before there was a server: the serve section measures `cairn serve`.
  const inProcessEnv: NodeJS.ProcessEnv = { ...process.env, CAIRN_SERVER: '0' };
  const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...withoutCaEnv } = inProcessEnv;
  const envs: [string, NodeJS.ProcessEnv][] = [['as is', inProcessEnv]];
  if (extraCaCerts) envs.push(['without NODE_EXTRA_CA_CERTS', withoutCaEnv]);
  const times: FreshProcessTimes = { cli: {}, node: {}, cliChecked: [], rg: [] };
  for (const [name] of envs) {
    times.cli[name] = [];
    times.node[name] = [];
  }
  const cairnSearch = (id: string, env: NodeJS.ProcessEnv, refresh = false): number => {
    const r = timedSpawn(process.execPath, [cli, 'search', id, '--root', root, '--store', storeDir, ...(refresh ? [] : ['--no-refresh']), '--json', '--limit', '10'], env);
    if (r.status !== 0) throw new Error(`cairn search failed: ${r.stderr}`);
    return r.ms;
  };
  const ripgrep = (id: string): number => timedSpawn(rg, ['-n', '-F', id, root], process.env).ms;
  // One unmeasured run of each: the first `cairn search` leaves the command's code cache (as any
  // user's first run does), and rg's first pass may find the corpus out of the page cache.
  cairnSearch(idents[0] as string, process.env);
  ripgrep(idents[0] as string);
  for (const id of idents) {
    for (const [name, env] of envs) {
      times.cli[name]?.push(cairnSearch(id, env));
      times.node[name]?.push(timedSpawn(process.execPath, ['-e', '0'], env).ms);
    }
    times.cliChecked.push(cairnSearch(id, (envs[envs.length - 1] as [string, NodeJS.ProcessEnv])[1], true));
    times.rg.push(ripgrep(id));
  }
  return times;
}

/**
 * The definitions of an index the serve section asks about (chunks named by a plain word of four
 * characters or more), in index order, with their place and first lines: one pass over the
 * index gives both the identifiers it looks up and the definitions its task texts quote.
 */
function exportDefinitions(root: string): (storeDir: string) => Promise<TaskTextSource[]> {
  return async (storeDir) => {
    const engine = engineFor(root, storeDir);
    const definitions: TaskTextSource[] = [];
    try {
      for await (const c of engine.exportChunks()) {
        const source = taskTextSource(c);
        if (source) definitions.push(source);
      }
    } finally {
      await engine.close();
    }
    return definitions;
  };
}

async function runChild(args: string[]): Promise<void> {
  const [task, root, storeDir, query] = args as [string, string, string, string?];
  if (task === 'cold-index') {
    const engine = engineFor(root, storeDir);
    const r = await engine.refresh({ rebuild: true });
    const status = engine.status();
    await engine.close();
    const store = new IndexStore(storeDir);
    let sourceBytes = 0;
    for (const [, f] of store.readState(store.readManifest()!).entries()) sourceBytes += f.size;
    process.stdout.write(`${JSON.stringify({ durationMs: r.durationMs, files: r.files, chunks: r.chunks, storeBytes: status.storeBytes, sourceBytes, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
  } else if (task === 'open-memory') {
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage();
    const engine = engineFor(root, storeDir);
    // As a long-lived host holds it: with the sections warmUp reads in (Engine.warmIndex).
    await engine.warmIndex();
    await engine.search(query ?? 'index', { refresh: 'never' });
    await engine.findSymbol(query ?? 'index', { refresh: 'never' });
    (globalThis as { gc?: () => void }).gc?.();
    const after = process.memoryUsage();
    // `external` already includes `arrayBuffers` (typed arrays, Buffers): counted once.
    const used = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
    process.stdout.write(`${JSON.stringify({ indexMb: mb(used(after) - used(before)), rssMb: mb(after.rss) })}\n`);
    await engine.close();
  } else if (task === 'serve-fresh') {
    const { idents, rounds } = JSON.parse(query ?? '{}') as { idents: string[]; rounds: number };
    process.stdout.write(`${JSON.stringify(serveFreshProcesses(cli, rgPath(), root, storeDir, idents, rounds))}\n`);
  } else if (task === 'serve-socket') {
    const { idents, unasked } = JSON.parse(query ?? '{}') as { idents: string[]; unasked: string[] };
    process.stdout.write(`${JSON.stringify(await serveSocketTimes(root, storeDir, idents, unasked))}\n`);
  } else if (task === 'serve-tasks') {
    const { texts, rounds } = JSON.parse(query ?? '{}') as { texts: Parameters<typeof serveTaskTimes>[2]; rounds: number };
    process.stdout.write(`${JSON.stringify(await serveTaskTimes(root, storeDir, texts, rounds))}\n`);
  } else if (task === 'fresh-processes') {
    process.stdout.write(`${JSON.stringify(freshProcesses(root, storeDir, JSON.parse(query ?? '[]') as string[]))}\n`);
  }
}

/** `--root DIR`: a folder measured where it is, as a user's tree. */
function givenCorpus(root: string): Corpus {
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new Error(`--root ${root} is not a folder`);
  let files = 0;
  let bytes = 0;
  let parseableFiles = 0;
  const parseable = /\.(?:[cm]?[jt]sx?|py|go|rs|java|c|h|cc|cpp|hpp|cs|rb|php|swift|sh|css|html|json)$/i;
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === '.git' || e.name === '.hg' || e.name === '.svn') continue;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile()) {
        files++;
        bytes += fs.statSync(abs).size;
        if (parseable.test(e.name)) parseableFiles++;
      }
    }
  };
  walk(root);
  return { root, sources: [root], files, bytes, parseableFiles };
}

/** `--generate N`: a synthetic tree of N files (generate.ts). */
function generatedCorpus(dir: string, files: number): Corpus {
  if (!Number.isInteger(files) || files < 100) throw new Error('--generate takes a number of files, at least 100');
  const tree = generateTree(dir, files);
  return { root: tree.root, sources: [`generated (${tree.files} files, src/bench/generate.ts)`], files: tree.files, bytes: tree.bytes, parseableFiles: tree.parseable };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', multiple: true },
      'max-files': { type: 'string' },
      generate: { type: 'string' },
      runs: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '2' },
      section: { type: 'string', default: 'all' },
      json: { type: 'string' },
      child: { type: 'boolean' },
      compare: { type: 'string' },
      root: { type: 'string' },
    },
    allowPositionals: true,
    strict: false,
  });
  if (values.child) {
    await runChild(process.argv.slice(process.argv.indexOf('--child') + 1));
    return;
  }
  const benchDir = path.join(repoRoot, '.bench');
  const sources = (values.corpus as string[] | undefined)?.map((c) => path.resolve(c)) ?? defaultSources(repoRoot);
  const maxFiles = values['max-files'] ? Number(values['max-files']) : Infinity;
  log('# Cairn benchmark');
  log(`node ${process.version}, ${require('node:os').cpus().length} cores, ${new Date().toISOString()}`);
  const corpus = typeof values.root === 'string' ? givenCorpus(path.resolve(values.root)) : values.generate ? generatedCorpus(path.join(benchDir, `generated-${Number(values.generate)}`), Number(values.generate)) : assembleCorpus(path.join(benchDir, 'corpus'), sources, maxFiles);
  log(`corpus: ${corpus.files} files, ${fmt(mb(corpus.bytes))} MB (${corpus.parseableFiles} with a tree-sitter grammar) from ${corpus.sources.join(', ')}`);
  if (typeof values.compare === 'string') {
    // Three rounds at least: with two, one noisy round decides the spread's either end.
    const rounds = Math.max(3, Number(process.argv.includes('--rounds') ? values.rounds : 3) || 3);
    compareBuilds({ repoRoot, base: values.compare, corpusRoot: corpus.root, workDir: path.join(benchDir, 'compare'), rounds, queries: Math.max(5, Number(values.runs) || 20), log });
    return;
  }
  const section = String(values.section);
  let parseBaseline: number | undefined;
  if (section === 'all' || section === 'chunking') parseBaseline = (await chunkingSection(corpus, Math.max(1, Number(values.rounds) || 1))).parse2ms;
  if (section === 'all' || section === 'index') await indexSection(corpus, path.join(benchDir, 'store'), parseBaseline, Number(values.runs));
  if (!['all', 'chunking', 'index', 'serve', 'goals'].includes(section)) throw new Error(`--section takes chunking, index, serve, goals or all, not ${section}`);
  // The goal table's rounds: three at least, so one noisy round decides neither end of a spread.
  const goalRounds = Math.max(3, Number(values.rounds) || 3);
  // Stores per measured folder: a store serves one root, and the bench measures several in turn.
  const storesDir = path.join(benchDir, `stores-${path.basename(corpus.root).slice(0, 24)}-${createHash('sha256').update(corpus.root).digest('hex').slice(0, 8)}`);
  const cold = section === 'all' || section === 'goals' ? coldRounds({ cli, root: corpus.root, storeDir: path.join(storesDir, 'goals'), rounds: goalRounds, log }) : undefined;
  let served: ServedRounds | undefined;
  if (section === 'all' || section === 'serve' || section === 'goals') {
    served = await serveSection({
      root: corpus.root,
      // Its own store, built by `cairn index` with the CLI's discovery rules (the server refreshes with those).
      storeDir: path.join(storesDir, 'serve'),
      cli,
      rg: rgPath(),
      runs: Math.min(Number(values.runs) || 20, 20),
      rounds: Math.max(3, Number(values.rounds) || 3),
      definitions: exportDefinitions(corpus.root),
      child,
      log,
      goals,
      report,
    });
  }
  if (cold) printGoalTable({ tree: corpus.sources.join(', '), cold, served, log, goals });
  log('\n## Goals');
  log(table(['goal', 'target', 'measured', 'met'], goals.map((g) => [g.goal, g.target, g.measured, g.ok === undefined ? '' : g.ok ? 'yes' : 'NO'])));
  if (values.json) fs.writeFileSync(String(values.json), JSON.stringify({ corpus, goals, report }, null, 1));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
