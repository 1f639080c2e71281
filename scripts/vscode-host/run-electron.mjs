#!/usr/bin/env node
// Runs the same in-host suite in a desktop VS Code through @vscode/test-electron (runTests with
// extensionDevelopmentPath + extensionTestsPath, the workspace folder, --disable-extensions). For
// developers with internet access (VS Code is downloaded once into <repo>/.vscode-test/) or a
// desktop VS Code of their own (VSCODE_EXECUTABLE_PATH). The offline route is run-offline.mjs.
//
// Usage: node scripts/vscode-host/run-electron.mjs --extension DIR --tests FILE
//          [--workspace DIR] [--timeout SEC] [--artifacts DIR] [--settings JSON] [--keep] [--verbose]
//          [--extra-extension DIR]  another extension folder to load in development mode (repeatable)
//          [--screenshot PNG]   accepted for symmetry with run-offline.mjs; there is no UI bridge here
// Env:   VSCODE_EXECUTABLE_PATH   a VS Code executable to use instead of downloading one
//        VSCODE_TEST_VERSION      version to download (default 1.139.1, the offline host's version;
//                                 'stable' = latest, which needs the network even when cached)
//        VSCODE_TEST_CACHE        download folder (default <repo>/.vscode-test)
// Exit:  0 all passed; 1 tests failed or VS Code crashed/timed out; 2 no VS Code could be obtained
//        (or a usage error). The last line printed is always `N passed, N failed`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const t0 = Date.now();
const log = (...a) => console.log(`[electron ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const summary = (p, f, s = 0) => `${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`;
function setupError(msg) {
  console.error(msg);
  console.log(summary(0, 1));
  process.exit(2);
}

let opt;
try {
  ({ values: opt } = parseArgs({
    options: {
      extension: { type: 'string' },
      tests: { type: 'string' },
      workspace: { type: 'string' },
      timeout: { type: 'string', default: '600' },
      screenshot: { type: 'string' },
      artifacts: { type: 'string' },
      settings: { type: 'string' },
      'extra-extension': { type: 'string', multiple: true, default: [] },
      keep: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  }));
} catch (e) {
  setupError(String(e.message));
}
if (!opt.extension || !opt.tests) {
  setupError('usage: run-electron.mjs --extension DIR --tests FILE [--workspace DIR] [--timeout SEC] [--artifacts DIR] [--settings JSON] [--extra-extension DIR] [--keep] [--verbose]');
}
if (!fs.existsSync(path.join(opt.extension, 'package.json'))) setupError(`no package.json in --extension ${opt.extension}`);
const extDir = fs.realpathSync(path.resolve(opt.extension));
const testsPath = path.resolve(opt.tests);
if (!fs.existsSync(testsPath)) setupError(`tests entry not found: ${testsPath} (compiled?)`);
const extraExtensions = opt['extra-extension'].map((d) => {
  if (!fs.existsSync(path.join(d, 'package.json'))) setupError(`no package.json in --extra-extension ${d}`);
  return fs.realpathSync(path.resolve(d));
});
const timeoutMs = Number(opt.timeout) * 1000;
if (!(timeoutMs > 0)) setupError(`bad --timeout ${opt.timeout}`);
let extraSettings = {};
if (opt.settings) {
  try { extraSettings = JSON.parse(fs.readFileSync(opt.settings, 'utf8')); } catch (e) { setupError(`--settings ${opt.settings}: ${e.message}`); }
}

let testElectron;
try {
  testElectron = await import('@vscode/test-electron');
} catch (e) {
  setupError(`@vscode/test-electron is not installed (npm ci): ${e.message}`);
}
const { runTests, downloadAndUnzipVSCode, TestRunFailedError } = testElectron;

// ---- obtain VS Code ------------------------------------------------------------------------------
const version = process.env.VSCODE_TEST_VERSION || '1.139.1';
const cachePath = path.resolve(process.env.VSCODE_TEST_CACHE || path.join(root, '.vscode-test'));
let vscodeExecutablePath = process.env.VSCODE_EXECUTABLE_PATH;
const noVsCode = (why) => setupError(
  `run-electron: no VS Code could be obtained: ${why}\n`
  + '  - with internet access, @vscode/test-electron downloads VS Code into .vscode-test/ once;\n'
  + '  - or point VSCODE_EXECUTABLE_PATH at a desktop VS Code executable;\n'
  + '  - offline, use the code-server host instead: bash scripts/vscode-host/setup.sh, then node scripts/vscode-test.mjs',
);
if (vscodeExecutablePath) {
  if (!fs.existsSync(vscodeExecutablePath)) noVsCode(`VSCODE_EXECUTABLE_PATH=${vscodeExecutablePath} does not exist`);
  log(`using VS Code at ${vscodeExecutablePath}`);
} else {
  log(`obtaining VS Code ${version} (cache: ${cachePath})`);
  try {
    // `timeout` is an idle timeout: it ends a download that stops receiving data.
    vscodeExecutablePath = await downloadAndUnzipVSCode({ version, cachePath, timeout: 20000 });
  } catch (e) {
    noVsCode(`download of VS Code ${version} failed: ${String((e && e.message) || e).split('\n')[0]}`);
  }
  if (!vscodeExecutablePath || !fs.existsSync(vscodeExecutablePath)) noVsCode(`download returned no executable (${vscodeExecutablePath})`);
  log(`VS Code at ${vscodeExecutablePath}`);
}
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  log('warning: no DISPLAY; desktop VS Code needs one on Linux (run this under `xvfb-run -a`)');
}

// ---- scratch profile, workspace, artifacts --------------------------------------------------------
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-electron-test-'));
const userDataDir = path.join(tmp, 'user-data');
const extensionsDir = path.join(tmp, 'extensions');
const workspace = path.resolve(opt.workspace || path.join(tmp, 'workspace'));
const artifacts = path.resolve(opt.artifacts || path.join(extDir, '.vscode-test-artifacts'));
const resultsFile = path.join(artifacts, 'results.json');
for (const d of [path.join(userDataDir, 'User'), extensionsDir, workspace, artifacts]) fs.mkdirSync(d, { recursive: true });
fs.rmSync(resultsFile, { force: true });
fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': false,
  'git.enabled': false,
  ...extraSettings,
}, null, 2));
if (opt.screenshot) log('note: --screenshot is only supported by run-offline.mjs (no UI bridge under test-electron)');

function cleanup() {
  if (!opt.keep) fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  else log(`kept scratch dir ${tmp}`);
}

// The suite's reporter lines carry a "[vscode-test] " tag: show those (untagged), hide VS Code's own
// noise unless --verbose.
function filterStream(out) {
  let buf = '';
  return {
    write(chunk) {
      buf += chunk.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const j = line.indexOf('[vscode-test');
        if (j >= 0) out.write(`${line.slice(j).replace(/^\[vscode-test\] ?/, '  ')}\n`);
        else if (opt.verbose) out.write(`[vscode] ${line}\n`);
      }
      return true;
    },
  };
}

log(`running ${path.relative(process.cwd(), testsPath) || testsPath} in ${workspace}`);
// runTests has no handle on the VS Code process; its own SIGINT handler closes VS Code (first signal:
// SIGINT to VS Code, second: kill the tree). Our listener keeps it from calling process.exit itself.
let timedOut = false;
process.on('SIGINT', () => { /* runTests closes VS Code; we report below */ });
const timer = setTimeout(() => {
  timedOut = true;
  log(`timeout after ${opt.timeout}s: closing VS Code`);
  process.emit('SIGINT');
  setTimeout(() => process.emit('SIGINT'), 5000).unref();
}, timeoutMs);
let outcome;
try {
  outcome = await Promise.race([
    runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: extraExtensions.length ? [extDir, ...extraExtensions] : extDir,
      extensionTestsPath: testsPath,
      extensionTestsEnv: { VSCODE_TEST_RESULTS: resultsFile, VSCODE_TEST_ARTIFACTS: artifacts },
      launchArgs: [workspace, '--disable-extensions', `--user-data-dir=${userDataDir}`, `--extensions-dir=${extensionsDir}`],
      stdout: filterStream(process.stdout),
      stderr: filterStream(process.stderr),
    }),
    new Promise((r) => setTimeout(() => r('timeout'), timeoutMs + 20000).unref()), // VS Code would not close
  ]);
} catch (e) {
  outcome = e instanceof TestRunFailedError ? (e.code ?? e.signal ?? 'crashed') : `error: ${String((e && e.message) || e)}`;
}
clearTimeout(timer);
if (timedOut) outcome = 'timeout';

let results = null;
try { results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')); } catch { /* none written */ }
cleanup();
if (outcome === 'timeout') {
  log(`FAILED: no result within ${opt.timeout}s`);
  console.log(summary(results?.passes ?? 0, Math.max(1, results?.failures ?? 0)));
  process.exit(1);
}
if (!results) {
  log(`FAILED: VS Code exited with ${outcome} and the suite wrote no results (test module not loaded? activation crash?)`);
  console.log(summary(0, 1));
  process.exit(1);
}
for (const f of results.failed || []) console.log(`FAIL ${f.title}\n${String(f.error).split('\n').slice(0, 8).map((l) => `    ${l}`).join('\n')}`);
const failed = outcome !== 0 && results.failures === 0 ? 1 : results.failures;
log(`VS Code exit ${outcome}; ${results.tests} tests in ${(results.duration / 1000).toFixed(1)}s`);
console.log(summary(results.passes, failed, results.pending));
process.exit(failed === 0 ? 0 : 1);
