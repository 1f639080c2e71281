#!/usr/bin/env node
// Queries during a big checkout, measured as a user meets them: a git repository with FILES
// source files on two branches that differ in every file, a watched root served by `cairn
// serve` (started by the CLI itself), then `git checkout` and a `cairn search` every 200 ms.
// Prints each query's latency, whether the server answered it, the pending count it reported,
// and when answers converged (nothing pending, every file's new word found).
//
//   node scripts/measure-checkout.mjs [--files 2000] [--keep]
//   node scripts/measure-checkout.mjs --repo DIR --to REV [--word WORD] [--keep]
//
// With --repo, a clone of that git repository (its HEAD) is watched and checked out at REV
// instead (the issue's case: about 2,000 files of ESLint between v8.0.0 and today); answers
// have converged when a served query that had reported pending files reports none.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const REPO = option('--repo');
const TO = option('--to');
const WORD = option('--word') ?? (REPO ? 'function' : 'zebraquux');
if (REPO && !TO) throw new Error('--repo needs --to REV');
let FILES = Number(option('--files') || 0) || 2000;
const KEEP = args.includes('--keep');
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const INTERVAL_MS = 200;
const GIVE_UP_MS = 120_000;

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-checkout-'));
const root = path.join(base, 'repo');
const store = path.join(base, 'store');
const env = { ...process.env, CAIRN_SERVER: '1', CAIRN_DEBUG: '1', CAIRN_SERVER_IDLE_TIMEOUT: '60' };
const git = (...a) => execFileSync('git', a, { cwd: root, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'm', GIT_AUTHOR_EMAIL: 'm@x', GIT_COMMITTER_NAME: 'm', GIT_COMMITTER_EMAIL: 'm@x' } });

function writeTree(word) {
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, 'src', `m${i % 40}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), `// ${word} module ${i}\nexport function handler${i}(input: string): string {\n  const label = '${word}';\n  return label + input.length * ${i};\n}\n`);
  }
}

function cairn(argv) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...argv, '--store', store], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

if (REPO) {
  execFileSync('git', ['clone', '-q', path.resolve(REPO), root], { stdio: 'ignore' });
  FILES = execFileSync('git', ['diff', '--name-only', 'HEAD', TO], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n').filter(Boolean).length;
} else {
  fs.mkdirSync(root, { recursive: true });
  git('init', '-q', '-b', 'one');
  writeTree('walrusold');
  git('add', '-A');
  git('commit', '-q', '-m', 'one');
  git('checkout', '-q', '-b', 'two');
  writeTree('zebraquux');
  git('add', '-A');
  git('commit', '-q', '-m', 'two');
  git('checkout', '-q', 'one');
}

const indexed = await cairn(['index', root]);
if (indexed.code !== 0) throw new Error(indexed.stderr);
await cairn(['search', WORD]); // starts the server
for (let waited = 0; ; waited += 200) {
  const s = await cairn(['status', '--json']);
  if (JSON.parse(s.stdout).freshness?.watching) break;
  if (waited > 60_000) throw new Error('the server never watched the root');
  await new Promise((r) => setTimeout(r, 200));
}
const idle = [];
for (let i = 0; i < 5; i++) idle.push((await cairn(['search', WORD, '--json'])).ms);

const t0 = performance.now();
execFileSync('git', ['checkout', '-q', REPO ? TO : 'two'], { cwd: root });
const checkoutMs = performance.now() - t0;
const rows = [];
let convergedAt;
let sawPending = false;
while (performance.now() - t0 < GIVE_UP_MS) {
  const at = performance.now() - t0;
  const r = await cairn(['search', WORD, '--json', '--limit', '5']);
  const served = /answered by the server/.test(r.stderr);
  let answer = {};
  try {
    answer = JSON.parse(r.stdout);
  } catch {
    // reported below as no answer
  }
  const pending = answer.index?.pending ?? 0;
  rows.push({ at, ms: r.ms, served, pending, total: answer.total ?? -1 });
  sawPending ||= pending > 0;
  if (served && pending === 0 && (REPO ? sawPending : (answer.total ?? 0) >= FILES)) {
    convergedAt = at;
    break;
  }
  await new Promise((res) => setTimeout(res, Math.max(0, INTERVAL_MS - (performance.now() - t0 - at))));
}

const fmt = (n) => `${Math.round(n)}`;
console.log(`${REPO ? `${REPO} HEAD -> ${TO}: ` : ''}files ${FILES}; checkout took ${fmt(checkoutMs)} ms; idle served query ${idle.map(fmt).join(', ')} ms`);
console.log('at ms\tquery ms\tserved\tpending\tfound');
for (const r of rows) console.log(`${fmt(r.at)}\t${fmt(r.ms)}\t${r.served ? 'yes' : 'NO'}\t${r.pending}\t${r.total}`);
const lat = rows.map((r) => r.ms).sort((a, b) => a - b);
console.log(`queries ${rows.length}; latency p50 ${fmt(lat[Math.floor(lat.length / 2)])} ms, max ${fmt(lat[lat.length - 1])} ms; over 1 s: ${lat.filter((x) => x > 1000).length}; not served: ${rows.filter((r) => !r.served).length}`);
console.log(convergedAt === undefined ? `did not converge within ${GIVE_UP_MS / 1000} s` : `converged ${fmt(convergedAt)} ms after the checkout began`);
await cairn(['serve', '--stop']);
if (!KEEP) fs.rmSync(base, { recursive: true, force: true });
else console.log(`kept ${base}`);
