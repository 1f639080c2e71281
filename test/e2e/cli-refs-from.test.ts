// `cairn refs PATH:LINE` through the bundled CLI: asked from one definition, it lists what
// resolves to that definition (`resolvesTo` in --json), never the references of a same-named
// definition elsewhere; asked by name, a certain reference says which definition it is.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, runCairn } from './cli';
import { writeTree } from '../unit/discovery-fixture';
import type { ReferencesResponse } from '../../src/core/api';

const FILES: Record<string, string> = {
  'src/config.ts': ['export function loadConfig(path: string): string {', '  return path;', '}', ''].join('\n'),
  'src/main.ts': ["import { loadConfig } from './config';", "export const a = loadConfig('a');", ''].join('\n'),
  // A same-named definition of its own, and a CommonJS file that requires it.
  'lib/legacy.js': ['function loadConfig(file) {', '  return file;', '}', 'module.exports = { loadConfig };', ''].join('\n'),
  'lib/boot.js': ["const { loadConfig } = require('./legacy');", "loadConfig('b');", ''].join('\n'),
};

/** `path:line:col certainty → resolvesTo`. */
const brief = (r: ReferencesResponse['references'][number]) => `${r.path}:${r.line}:${r.column} ${r.certainty}${r.resolvesTo ? ` → ${r.resolvesTo.path}:${r.resolvesTo.line}` : ''}`;

describe('cairn refs PATH:LINE (bundled CLI)', function () {
  this.timeout(120000);
  let root: string;
  let store: string;
  const cairn = (...args: string[]) => runCairn([...args, '--store', store], { cwd: root });

  before(() => {
    assert.ok(fs.existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-refs-from-'));
    root = path.join(base, 'root');
    store = path.join(base, 'store');
    writeTree(root, FILES);
    const built = runCairn(['index', root, '--store', store]);
    assert.equal(built.code, 0, built.stderr);
  });
  after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

  it('from the TypeScript definition: its import and call, each resolving to it; nothing of legacy.js', () => {
    const r = cairn('refs', 'src/config.ts:1', '--json');
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as ReferencesResponse;
    assert.deepEqual(answer.definitions.map((d) => `${d.path}:${d.line}`), ['src/config.ts:1']);
    assert.deepEqual(answer.references.map(brief), ['src/config.ts:1:17 certain → src/config.ts:1', 'src/main.ts:1:10 certain → src/config.ts:1', 'src/main.ts:2:18 certain → src/config.ts:1']);
  });

  it('from the CommonJS definition, written relative to the working folder: what requires it, nothing of config.ts', () => {
    const r = runCairn(['refs', path.join('legacy.js') + ':1', '--json', '--root', root, '--store', store], { cwd: path.join(root, 'lib') });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as ReferencesResponse).references.map(brief), [
      'lib/boot.js:1:9 certain → lib/legacy.js:1',
      'lib/boot.js:2:1 certain → lib/legacy.js:1',
      'lib/legacy.js:1:10 certain → lib/legacy.js:1',
      'lib/legacy.js:4:20 certain → lib/legacy.js:1',
    ]);
  });

  it('by name, with two definitions, each certain reference names the one it resolves to', () => {
    const r = cairn('refs', 'loadConfig');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.ok(lines.includes("lib/boot.js:2:1  [certain → lib/legacy.js:1]  -  loadConfig('b');"), r.stdout);
    assert.ok(lines.includes("src/main.ts:2:18  [certain → src/config.ts:1]  a  export const a = loadConfig('a');"), r.stdout);
  });

  it('a line without a definition\'s name: an error saying so, exit 1', () => {
    const r = cairn('refs', 'src/config.ts:2');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no definition's name at src\/config\.ts:2/);
  });
});
