#!/usr/bin/env node
// Retakes the README's screenshots (docs/images/*.png) from the in-host suite: builds, compiles
// the tests, runs only the tests that take those screenshots in the offline VS Code host
// (scripts/vscode-test.mjs, Playwright + chromium), and copies their PNGs into docs/images/.
//
//   node scripts/readme-screenshots.mjs                       every README image
//   node scripts/readme-screenshots.mjs sidebar-results       only some (names below)
//
// The images show the fixture workspace (test/vscode/workspace/) as the tests leave it, so a
// change to a view shows up in the README by running this once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** README image → the suite's screenshot of it and the tests (mocha --grep) that take it. */
const IMAGES = {
  'sidebar-results': { shot: 'sidebar-results', grep: 'Results view: shows files with their chunks' },
  'search-quickpick': { shot: 'search-quickpick', grep: 'type a query, accept, and the hit opens' },
  'context-pack': { shot: 'pack-result', grep: 'Context pack webview' },
};

const wanted = process.argv.slice(2);
for (const w of wanted) {
  if (!IMAGES[w]) {
    console.error(`unknown image "${w}"; images: ${Object.keys(IMAGES).join(', ')}`);
    process.exit(2);
  }
}
const names = wanted.length ? wanted : Object.keys(IMAGES);

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`readme-screenshots: ${[cmd, ...args].join(' ')} failed (exit ${r.status})`);
    process.exit(1);
  }
}

run(process.execPath, ['esbuild.mjs']);
run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', '.', '--outDir', 'out']);
const artifacts = path.join(root, 'test-artifacts/readme-screenshots');
// The suite's hooks (indexing the fixture first) run for whichever tests the grep picks.
const grep = names.map((n) => IMAGES[n].grep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
run(process.execPath, ['scripts/vscode-test.mjs', '--artifacts', artifacts], { VSCODE_TEST_GREP: grep, VSCODE_TEST_HOST: 'offline' });

const images = path.join(root, 'docs/images');
for (const n of names) {
  const from = path.join(artifacts, `${IMAGES[n].shot}.png`);
  if (!fs.existsSync(from)) {
    console.error(`readme-screenshots: the suite took no ${IMAGES[n].shot}.png (see ${artifacts})`);
    process.exit(1);
  }
  fs.copyFileSync(from, path.join(images, `${n}.png`));
  console.log(`docs/images/${n}.png ← ${path.relative(root, from)}`);
}
