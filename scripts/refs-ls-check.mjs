#!/usr/bin/env node
// How often Cairn's *certain* references really refer to the definition, by the TypeScript
// language server inside a real VS Code (issue #26):
//   1. `cairn eval --refs ROOT --json --all-refs` samples names (its seeded ctags sampling) and
//      lists, for each name Cairn defines once, the definition and every reference;
//   2. the first --sample of those defined in a TS/JS file are asked of VS Code's built-in
//      TypeScript server (`vscode.executeReferenceProvider` at the definition's name) by the
//      in-host suite test/vscode/refsLs/ (TypeScript's syntax server off, so every answer is the
//      project's; every TS/JS file open, so every project is loaded), on a copy of ROOT's tracked files (with a generated
//      jsconfig.json when ROOT has no tsconfig.json or jsconfig.json: a loose JS file would get an
//      inferred project that holds only what it imports, so the server would not see its users);
//   3. src/eval/lsRefs.ts scores them: precision (certain references, the definition left
//      out, that the server reports at the same file, line and overlapping columns, or where its
//      go-to-definition lands on the definition), recall vs the
//      server, and the names with the most certain references the server does not confirm.
//
//   node scripts/refs-ls-check.mjs ROOT [--sample 200] [--seed 1] [--worst 15] [--out DIR]
//        [--timeout SEC] [--no-build] [--rescore] [--ls vscode|typescript] [--cli PATH]
//
// --ls typescript asks the TypeScript language service in process (scripts/refs-ts-service.mjs)
// instead of VS Code; --cli measures another build's dist/cli.js (a baseline). Names Cairn
// defines two to five times are asked once per definition, from that definition (`cairn refs
// PATH:LINE`), and scored apart ("several definitions").
//
// --out (default test-artifacts/refs-ls/<ROOT's name>) gets names.json, answers.json, report.json
// and the host's artifacts; --rescore scores the answers.json already there again (no host run).
// Needs the offline VS Code host (bash scripts/vscode-host/setup.sh) and universal-ctags.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sample: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    worst: { type: 'string', default: '15' },
    out: { type: 'string' },
    timeout: { type: 'string', default: '2400' },
    'no-build': { type: 'boolean' },
    rescore: { type: 'boolean' },
    ls: { type: 'string', default: 'vscode' },
    cli: { type: 'string' },
  },
});
if (positionals.length !== 1) {
  console.error('usage: node scripts/refs-ls-check.mjs ROOT [--sample 200] [--seed 1] [--worst 15] [--out DIR] [--timeout SEC] [--no-build] [--rescore]');
  process.exit(2);
}
const root = path.resolve(positionals[0]);
const sample = Number(opt.sample);
const outDir = path.resolve(repo, opt.out ?? path.join('test-artifacts/refs-ls', path.basename(root)));
const TS_JS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const log = (m) => console.error(`refs-ls-check: ${m}`);

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30, encoding: 'utf8', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
  return r.stdout;
}

/** Names Cairn defines once in a TS/JS file, in the eval's sampling order, with their references. */
function sampleNames() {
  log(`sampling names with cairn eval --refs (seed ${opt.seed})`);
  // Twice the sample: some sampled names are defined more than once, or outside TS/JS.
  const text = run(process.execPath, [opt.cli ? path.resolve(opt.cli) : path.join(repo, 'dist/cli.js'), 'eval', '--refs', root, '--sample', String(sample * 2), '--seed', opt.seed, '--json', '--all-refs']);
  const report = JSON.parse(text);
  const once = report.names.filter((n) => n.definition && TS_JS.test(n.definition.path)).slice(0, sample);
  const several = report.names.flatMap((n) => (n.perDefinition ?? []).filter((d) => TS_JS.test(d.definition.path)).map((d) => ({ name: n.name, definition: d.definition, allReferences: d.allReferences, several: true })));
  const names = [...once, ...several];
  if (names.length < sample) log(`only ${names.length} names of ${report.names.length} sampled are defined once in a TS/JS file`);
  return { head: report.head, names };
}

/** ROOT's tracked files, copied, so the host neither writes into ROOT nor sees untracked files. */
function workspaceCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-refs-ls-'));
  const files = run('git', ['-C', root, 'ls-files', '-z']).split('\0').filter(Boolean);
  for (const f of files) {
    const from = path.join(root, f);
    const stat = fs.lstatSync(from, { throwIfNoEntry: false });
    if (!stat || !(stat.isFile() || stat.isSymbolicLink())) continue;
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.cpSync(from, path.join(dir, f), { verbatimSymlinks: true });
  }
  if (!fs.existsSync(path.join(dir, 'tsconfig.json')) && !fs.existsSync(path.join(dir, 'jsconfig.json'))) {
    const config = { compilerOptions: { allowJs: true, checkJs: false, module: 'commonjs', target: 'es2022' }, include: ['**/*.js', '**/*.cjs', '**/*.mjs'], exclude: ['node_modules'] };
    fs.writeFileSync(path.join(dir, 'jsconfig.json'), `${JSON.stringify(config, null, 2)}\n`);
    log('no tsconfig.json or jsconfig.json: the copy gets a jsconfig.json including every JS file');
  }
  return dir;
}

/** The TypeScript language service's answers, in process. */
async function askTypeScript(names) {
  const { createService } = await import('./refs-ts-service.mjs');
  const { unconfirmedCertain } = createRequire(import.meta.url)(path.join(repo, 'out/src/eval/lsRefs.js'));
  const files = run('git', ['-C', root, 'ls-files']).split('\n').filter(Boolean);
  log(`asking the TypeScript language service about ${names.length} definitions (${files.length} tracked files)`);
  const service = createService(repo, root, files);
  const answers = [];
  for (const n of names) {
    const t0 = performance.now();
    try {
      const { locations, outside } = service.references(n.definition);
      const definitionsAt = unconfirmedCertain(n.name, n.definition, n.allReferences ?? [], locations).map((r) => ({ path: r.path, line: r.line, column: r.column, locations: service.definitionsAt(r) }));
      answers.push({ name: n.name, definition: n.definition, locations, outside, definitionsAt, ms: Math.round(performance.now() - t0) });
    } catch (e) {
      answers.push({ name: n.name, definition: n.definition, locations: [], outside: 0, error: String(e), ms: Math.round(performance.now() - t0) });
    }
  }
  return answers;
}

function askLanguageServer(names) {
  const namesFile = path.join(outDir, 'names.json');
  const answersFile = path.join(outDir, 'answers.json');
  const certain = (n) => (n.allReferences ?? []).filter((r) => r.certain).map(({ path, line, column, certain }) => ({ path, line, column, certain }));
  fs.writeFileSync(namesFile, JSON.stringify(names.map((n) => ({ name: n.name, definition: n.definition, certain: certain(n) }))));
  fs.rmSync(answersFile, { force: true });
  const workspace = workspaceCopy();
  // Without a syntax server every request waits for the project: the syntax server answers a
  // references request at once, from the one file, while the project is still loading.
  const settings = path.join(outDir, 'settings.json');
  // The suite opens every TS/JS file: diagnostics for all of them would only cost time.
  fs.writeFileSync(settings, JSON.stringify({
    'typescript.tsserver.useSyntaxServer': 'never', 'typescript.disableAutomaticTypeAcquisition': true,
    'typescript.validate.enable': false, 'javascript.validate.enable': false,
  }));
  log(`asking the language server about ${names.length} names in VS Code (workspace ${workspace})`);
  return new Promise((resolve, reject) => {
    const env = { ...process.env, CAIRN_REFS_LS_NAMES: namesFile, CAIRN_REFS_LS_ANSWERS: answersFile };
    delete env.VSCODE_TEST_GREP;
    const child = spawn(process.execPath, [path.join(repo, 'scripts/vscode-test.mjs'), '--tests', path.join(repo, 'out/test/vscode/refsLs/index.js'),
      '--workspace', workspace, '--artifacts', path.join(outDir, 'vscode'), '--settings', settings, '--timeout', opt.timeout], { cwd: repo, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => {
      fs.rmSync(workspace, { recursive: true, force: true, maxRetries: 3 });
      if (!fs.existsSync(answersFile)) reject(new Error(`the in-host run (exit ${code}) wrote no ${answersFile}`));
      else {
        if (code !== 0) log(`the in-host run exited with ${code}: scoring the answers it wrote`);
        resolve(JSON.parse(fs.readFileSync(answersFile, 'utf8')));
      }
    });
  });
}

/** The trimmed text of a line of ROOT's file, for reading why a reference was not confirmed. */
function lineText(file, line, cache = new Map()) {
  if (!cache.has(file)) cache.set(file, fs.readFileSync(path.join(root, file), 'utf8').split('\n'));
  return (cache.get(file)[line - 1] ?? '').trim().slice(0, 160);
}

if (!opt['no-build'] && !opt.rescore) {
  log('building (npm run build, tsc to out/)');
  run('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  run(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', '.', '--outDir', 'out'], { stdio: ['ignore', 'inherit', 'inherit'] });
}
fs.mkdirSync(outDir, { recursive: true });
const { scoreName, summariseLs, formatLsSummary, formatWorst } = createRequire(import.meta.url)(path.join(repo, 'out/src/eval/lsRefs.js'));

let sampled;
let answers;
if (opt.rescore) {
  sampled = JSON.parse(fs.readFileSync(path.join(outDir, 'sampled.json'), 'utf8'));
  answers = JSON.parse(fs.readFileSync(path.join(outDir, 'answers.json'), 'utf8'));
} else {
  sampled = sampleNames();
  fs.writeFileSync(path.join(outDir, 'sampled.json'), JSON.stringify(sampled));
  answers = opt.ls === 'typescript' ? await askTypeScript(sampled.names) : await askLanguageServer(sampled.names);
  fs.writeFileSync(path.join(outDir, 'answers.json'), JSON.stringify(answers));
}
const keyOf = (n) => `${n.name}@${n.definition.path}:${n.definition.line}:${n.definition.column}`;
const byName = new Map(sampled.names.map((n) => [keyOf(n), n]));
const scores = answers.map((a) => Object.assign(scoreName(a.name, a.definition, byName.get(keyOf(a))?.allReferences ?? [], a), { several: byName.get(keyOf(a))?.several === true }));
const cache = new Map();
for (const s of scores) for (const r of s.disconfirmed) r.text = lineText(r.path, r.line, cache);
const summary = summariseLs(scores.filter((s) => !s.several));
const severalSummary = summariseLs(scores.filter((s) => s.several));
const unanswered = scores.filter((s) => !s.answered).map((s) => `${s.name} (${s.definition.path}:${s.definition.line}:${s.definition.column})`);
const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
fs.writeFileSync(path.join(outDir, 'report.json'), JSON.stringify({ root, head: sampled.head, seed: Number(opt.seed), summary, severalSummary, names: scores }, null, 1));

console.log(`${root}${sampled.head ? ` @ ${sampled.head}` : ''} (seed ${opt.seed}; ${answers.length} of ${sampled.names.length} names asked; language server p50 ${ms[Math.floor(ms.length / 2)] ?? 0} ms)`);
for (const line of formatLsSummary(summary)) console.log(line);
if (severalSummary.names > 0) {
  console.log('several definitions, each asked from its own:');
  for (const line of formatLsSummary(severalSummary)) console.log(`  ${line}`);
}
if (unanswered.length) console.log(`no answer holding the definition: ${unanswered.join(', ')}`);
const worst = formatWorst(scores, Number(opt.worst));
if (worst.length) console.log(`\ncertain references the language server does not confirm (worst names first):\n${worst.join('\n')}`);
console.log(`\nreport: ${path.relative(process.cwd(), path.join(outDir, 'report.json'))}`);
