#!/usr/bin/env node
// Runs Cairn's test stages and ends with one summary line, `N passed, N failed`.
//
//   node scripts/test.mjs             every stage: unit, e2e, vscode, package
//   node scripts/test.mjs unit e2e    only those stages
//
// Before any stage: eslint over the tree and the webview's typecheck; compiling the tests is
// the typecheck of src/ and test/. Any of them failing fails the run with no test started.
//
// Stages:
//   unit    mocha in plain Node over the engine (compiled by tsc into out/)
//   e2e     mocha driving the real `cairn` CLI and MCP server as child processes (needs dist/)
//   vscode  the in-host suite inside a real VS Code (offline code-server host, or
//           @vscode/test-electron when a desktop VS Code is available); fails if neither is.
//   package `npm run package`, then the .vsix installed into the offline host and tested there
//           (scripts/vscode-package-test.mjs); restores the development build of dist/ after.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const all = ['unit', 'e2e', 'vscode', 'package'];
const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const s of requested) {
  if (!all.includes(s)) {
    console.error(`unknown stage "${s}"; stages: ${all.join(', ')}`);
    process.exit(2);
  }
}
const stages = requested.length ? requested : all;
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Runs a command, streaming its output, and returns {code, output}. */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { output += d; process.stderr.write(d); });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
    child.on('error', (e) => resolve({ code: 1, output: String(e) }));
  });
}

function mochaCounts(output) {
  const num = (re) => { const m = output.match(re); return m ? Number(m[1]) : 0; };
  return { passed: num(/^\s*(\d+) passing/m), failed: num(/^\s*(\d+) failing/m), skipped: num(/^\s*(\d+) pending/m) };
}

/** Mocha's failure report (from "N failing" to the end), so it can be repeated beside the summary. */
function failureReport(output) {
  const at = output.search(/^\s*\d+ failing/m);
  return at < 0 ? '' : output.slice(at).trimEnd();
}

const totals = { passed: 0, failed: 0, skipped: 0 };
// Failure reports are printed again just above the summary line: CI logs are often read from the tail.
const failures = [];
const add = (c) => { totals.passed += c.passed; totals.failed += c.failed; totals.skipped += c.skipped; };
let crashed = false;

async function step(title, cmd, args) {
  console.log(`\n▶ ${title}`);
  const r = await run(cmd, args);
  if (r.code !== 0) {
    console.error(`✘ ${title} exited with ${r.code}`);
    crashed = true;
    failures.push({ stage: title, report: r.output.trimEnd().split('\n').slice(-40).join('\n') || `exited with ${r.code}` });
  }
  return r;
}

async function mochaStage(name, glob, extra = []) {
  const r = await run(bin('mocha'), ['--reporter', 'spec', '--color', 'false', ...extra, glob]);
  const c = mochaCounts(r.output);
  if (r.code !== 0 && c.failed === 0) { c.failed = 1; console.error(`✘ ${name}: mocha exited with ${r.code}`); }
  if (c.failed) failures.push({ stage: name, report: failureReport(r.output) || `mocha exited with ${r.code}` });
  add(c);
}

// Checks first: a lint error or a type error anywhere (the webview has its own tsconfig) fails
// the run before any test starts, so what ARCHITECTURE.md says lint enforces is enforced here.
// `compile tests` below is the typecheck of src/ and test/ (tsc stops on a type error).
await step('lint (eslint)', bin('eslint'), ['.']);
await step('typecheck webview (tsc)', bin('tsc'), ['-p', 'src/webview', '--noEmit']);

const needsBuild = stages.some((s) => s === 'e2e' || s === 'vscode' || s === 'package');
if (needsBuild) {
  await step('build (esbuild)', process.execPath, ['esbuild.mjs']);
}
if (!needsBuild) await step('copy grammars', process.execPath, ['scripts/copy-grammars.mjs']);
await step('compile tests (tsc)', bin('tsc'), ['-p', '.', '--outDir', 'out']);

if (!crashed) {
  for (const stage of stages) {
    console.log(`\n▶ ${stage} tests`);
    if (stage === 'unit') await mochaStage('unit', 'out/test/unit/**/*.test.js');
    if (stage === 'e2e') await mochaStage('e2e', 'out/test/e2e/**/*.test.js', ['--timeout', '60000']);
    if (stage === 'vscode' || stage === 'package') {
      const r = await run(process.execPath, [stage === 'vscode' ? 'scripts/vscode-test.mjs' : 'scripts/vscode-package-test.mjs']);
      const m = r.output.match(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/m);
      const c = m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : { passed: 0, failed: 1, skipped: 0 };
      if (r.code !== 0 && c.failed === 0) c.failed = 1;
      if (c.failed) failures.push({ stage, report: failureReport(r.output) || `exited with ${r.code}` });
      add(c);
    }
  }
}
if (crashed && totals.failed === 0) totals.failed = 1;
for (const f of failures) console.log(`\n✘ ${f.stage} failures:\n${f.report}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
