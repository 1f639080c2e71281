#!/usr/bin/env node
// Tests the extension as users get it: builds the .vsix with `npm run package`, checks that it
// holds only the shipped files, installs it into a fresh extensions folder of the offline VS Code
// host (code-server's own --install-extension), and runs test/vscode/packaged/ against the
// INSTALLED extension — the development path is a stub, so nothing is loaded from the repo.
// Afterwards the development build of dist/ is restored (`npm run package` builds for production).
//
//   node scripts/vscode-package-test.mjs [launcher args, e.g. --verbose --keep]
//
// Needs out/ compiled (npx tsc -p . --outDir out) and the offline host (bash scripts/vscode-host/setup.sh).
// The last line printed is `N passed, N failed`. Exit: 0 all passed, 1 otherwise.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vsix = path.join(root, 'cairn.vsix');
const artifacts = path.join(root, 'test-artifacts/vscode-package');
const tests = path.join(root, 'out/test/vscode/packaged/index.js');

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => { out += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { out += d; process.stderr.write(d); });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
    child.on('error', (e) => resolve({ code: 1, out: String(e) }));
  });
}

function fail(message) {
  console.error(`vscode-package-test: ${message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

/** Entry names of a zip archive, from its central directory. */
function zipEntries(file) {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip archive`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error('bad zip central directory');
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    names.push(buf.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Every file in the .vsix must be one of these; anything else (sources, maps, tests) is a leak. */
const SHIPPED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/(package\.json|readme\.md|changelog\.md|LICENSE\.txt)$/,
  /^extension\/dist\/(?!bench\.js$)[^/]+\.js$/,
  /^extension\/dist\/webview\/[^/]+\.js$/,
  /^extension\/grammars\/[^/]+\.wasm$/,
  /^extension\/media\/[^/]+$/,
];

if (!fs.existsSync(tests)) fail(`${path.relative(root, tests)} not found: compile first (npx tsc -p . --outDir out)`);
fs.rmSync(vsix, { force: true });
const started = Date.now();
const packaged = await run('npm', ['run', 'package']);
// `npm run package` leaves a production build in dist/; the development build comes back either way.
const restored = await run(process.execPath, ['esbuild.mjs']);
if (packaged.code !== 0 || !fs.existsSync(vsix)) fail(`npm run package failed (exit ${packaged.code})`);
if (restored.code !== 0) fail('could not restore the development build of dist/');
const entries = zipEntries(vsix);
const leaked = entries.filter((e) => !SHIPPED.some((re) => re.test(e)));
const size = fs.statSync(vsix).size;
console.log(`vscode-package-test: ${path.basename(vsix)} ${(size / 1024 / 1024).toFixed(2)} MB, ${entries.length} files, built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
// Every grammar the chunker may load (grammars.json), whichever package it comes from.
const { grammars } = JSON.parse(fs.readFileSync(path.join(root, 'src/core/chunking/ast/grammars.json'), 'utf8'));
const grammarEntries = Object.values(grammars).map((from) => `extension/grammars/${path.posix.basename(from)}`);
for (const must of ['extension/dist/extension.js', 'extension/dist/engineWorker.js', 'extension/dist/chunkWorker.js', 'extension/dist/cli.js', 'extension/dist/cliMain.js', 'extension/grammars/tree-sitter.wasm', ...grammarEntries, 'extension/media/cairn.svg', 'extension/package.json']) {
  if (!entries.includes(must)) fail(`${must} is missing from the .vsix`);
}
if (leaked.length) fail(`the .vsix ships files it should not: ${leaked.join(', ')}`);

// A stub stands in as the development extension (the web workbench needs one to run tests), so the
// extension under test is the installed one.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-vsix-test-'));
const stub = path.join(scratch, 'stub');
fs.mkdirSync(stub);
fs.writeFileSync(path.join(stub, 'package.json'), JSON.stringify({
  name: 'packaged-test-runner', publisher: 'cairn-test', version: '0.0.1', private: true, engines: { vscode: '^1.138.0' },
}, null, 2));
const workspace = path.join(scratch, 'workspace');
fs.cpSync(path.join(root, 'test/vscode/workspace'), workspace, { recursive: true });
fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(artifacts, { recursive: true });

const launcher = path.join(root, 'scripts/vscode-host/run-offline.mjs');
const result = await run(process.execPath, [launcher, '--extension', stub, '--tests', tests, '--workspace', workspace,
  '--artifacts', artifacts, '--install-vsix', vsix, '--screenshot', path.join(artifacts, 'final.png'), ...process.argv.slice(2)]);
fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
const summary = result.out.trim().split('\n').pop() ?? '';
if (!/^\d+ passed, \d+ failed/.test(summary)) fail(`the launcher exited with ${result.code} without a summary`);
process.exit(result.code === 0 ? 0 : 1);
