// `npm run bench -- --compare BASE`: the regression gate. Builds BASE (a commit, tag or branch)
// in a worktree beside this checkout, then measures both builds as a user meets them — a cold
// `cairn index`, and `cairn search`, `cairn symbol` and a task text as fresh processes on the built index —
// in interleaved rounds (base, head, then head, base, …), so a neighbour's load falls on both.
// Each measure's verdict comes from the per-round ratios: a change is faster or slower only
// when every round agrees; otherwise it is within the noise.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fmt, median, percentile, table } from './stats';
import { taskTexts, taskTextSource, type ExportedChunk, type TaskTextSource } from './taskTexts';

export interface CompareOptions {
  repoRoot: string;
  base: string;
  corpusRoot: string;
  workDir: string;
  rounds: number;
  queries: number;
  log: (line?: string) => void;
}

interface Build {
  name: string;
  cli: string;
}

/** One round's figures for one build, in ms. */
interface Figures {
  coldIndex: number;
  searchP50: number;
  symbolP50: number;
  taskTextP50: number;
}

const MEASURES: Array<{ key: keyof Figures; label: string }> = [
  { key: 'coldIndex', label: 'cold index (cairn index --rebuild)' },
  { key: 'searchP50', label: 'cairn search p50, fresh process' },
  { key: 'symbolP50', label: 'cairn symbol p50, fresh process' },
  { key: 'taskTextP50', label: 'a ~4 KB task text, --group file, p50, fresh process' },
];

function git(repoRoot: string, args: string[]): string {
  return execFileSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A worktree of `base` with its bundles built (reused when it is already there). */
function buildBase(repoRoot: string, base: string, workDir: string, log: (line?: string) => void): Build {
  const sha = git(repoRoot, ['rev-parse', '--verify', `${base}^{commit}`]);
  const dir = path.join(workDir, `base-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, 'dist', 'cli.js'))) {
    log(`building ${base} (${sha.slice(0, 12)}) in ${dir}`);
    if (!fs.existsSync(dir)) git(repoRoot, ['worktree', 'add', '--detach', dir, sha]);
    // The lockfile rarely changes between the builds compared; the base reuses these modules.
    if (!fs.existsSync(path.join(dir, 'node_modules'))) fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return { name: `base ${sha.slice(0, 12)}`, cli: path.join(dir, 'dist', 'cli.js') };
}

function cairn(build: Build, args: string[]): { ms: number; stdout: string } {
  const t = performance.now();
  // CAIRN_SERVER=0: a fresh process answers itself; a server the CLI started would answer the
  // next calls instead, and outlive the run.
  const r = spawnSync(process.execPath, [build.cli, ...args], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, CAIRN_SERVER: '0' } });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${build.name}: cairn ${args.join(' ')} failed: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** What the builds are asked: identifiers (definitions of the index, spread over it) and task texts quoting them. */
function sampleQueries(build: Build, root: string, store: string, count: number): { names: string[]; texts: string[] } {
  const names: string[] = [];
  const definitions: TaskTextSource[] = [];
  for (const line of cairn(build, ['export', root, '--store', store, '--format', 'jsonl', '--no-refresh']).stdout.split('\n')) {
    if (!line) continue;
    const c = JSON.parse(line) as ExportedChunk;
    if (c.symbol && c.kind !== 'section' && /^[A-Za-z_]\w{5,}$/.test(c.symbol)) names.push(c.symbol);
    const source = taskTextSource(c);
    if (source) definitions.push(source);
  }
  if (names.length === 0) throw new Error(`no definitions to query in ${root}`);
  const texts = taskTexts(definitions).map((t) => t.text);
  return {
    names: Array.from({ length: count }, (_, i) => names[(i * 7919 + 17) % names.length] as string),
    texts: Array.from({ length: count }, (_, i) => texts[i % texts.length] as string),
  };
}

function measure(build: Build, root: string, store: string, queries: { names: readonly string[]; texts: readonly string[] }): Figures {
  const coldIndex = cairn(build, ['index', root, '--rebuild', '--store', store, '--json']).ms;
  const timesOf = (command: string, asked: readonly string[], extra: string[] = []) => {
    cairn(build, [command, asked[0] as string, '--root', root, '--store', store, '--no-refresh', ...extra]); // leaves the code cache
    return asked.map((q) => cairn(build, [command, q, '--root', root, '--store', store, '--no-refresh', '--json', ...extra]).ms);
  };
  return {
    coldIndex,
    searchP50: percentile(timesOf('search', queries.names), 50),
    symbolP50: percentile(timesOf('symbol', queries.names), 50),
    taskTextP50: percentile(timesOf('search', queries.texts, ['--group', 'file', '--limit', '10']), 50),
  };
}

export function compareBuilds(o: CompareOptions): void {
  o.log(`\n## Regression gate: this checkout against ${o.base}`);
  const base = buildBase(o.repoRoot, o.base, o.workDir, o.log);
  const head: Build = { name: 'head (this checkout)', cli: path.join(o.repoRoot, 'dist', 'cli.js') };
  const stores = { base: path.join(o.workDir, 'store-base'), head: path.join(o.workDir, 'store-head') };
  // The gate's own scratch stores: a store serves one root, and an earlier run may have indexed another corpus.
  for (const store of Object.values(stores)) fs.rmSync(store, { recursive: true, force: true });
  cairn(head, ['index', o.corpusRoot, '--store', stores.head]);
  const queries = sampleQueries(head, o.corpusRoot, stores.head, o.queries);
  const rounds: Array<{ base: Figures; head: Figures }> = [];
  for (let r = 0; r < o.rounds; r++) {
    const order = r % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
    const figures: Partial<Record<'base' | 'head', Figures>> = {};
    for (const which of order) figures[which] = measure(which === 'base' ? base : head, o.corpusRoot, stores[which], queries);
    rounds.push(figures as { base: Figures; head: Figures });
    o.log(`round ${r + 1}/${o.rounds}: ${MEASURES.map((m) => `${m.key} ${fmt(figures.base![m.key], 0)} → ${fmt(figures.head![m.key], 0)} ms`).join(', ')}`);
  }
  const rows = MEASURES.map(({ key, label }) => {
    const ratios = rounds.map((x) => x.head[key] / x.base[key]);
    const lo = Math.min(...ratios);
    const hi = Math.max(...ratios);
    const verdict = hi < 1 ? 'faster' : lo > 1 ? 'slower' : 'within the noise';
    return [label, fmt(median(rounds.map((x) => x.base[key])), 0), fmt(median(rounds.map((x) => x.head[key])), 0), `×${fmt(median(ratios), 2)}`, `×${fmt(lo, 2)}–${fmt(hi, 2)}`, verdict];
  });
  o.log(`${o.rounds} interleaved rounds, ${o.queries} queries each, on ${o.corpusRoot}`);
  o.log(table(['measure', 'base ms', 'head ms', 'head ÷ base', 'spread (per round)', 'verdict'], rows));
}
