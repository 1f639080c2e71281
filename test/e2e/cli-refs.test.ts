// `cairn refs` through the bundled CLI as a child process: text grouped by file, --json,
// --callers, and a name that occurs only in comments and strings answers with nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, runCairn } from './cli';
import { writeTree } from '../unit/discovery-fixture';
import type { ReferencesResponse } from '../../src/core/api';

const FILES: Record<string, string> = {
  'src/config.ts': ['// loadConfig reads the file', 'export function loadConfig(path: string): string {', '  return path;', '}', ''].join('\n'),
  'src/main.ts': [
    "import { loadConfig } from './config';",
    '',
    'export function start(): string {',
    "  return loadConfig('a') + loadConfig('b');",
    '}',
    '',
    "export const banner = 'loadConfig and onlyMentioned'; // onlyMentioned in a comment",
    '',
  ].join('\n'),
  'lib/other.py': ['def other(loadConfig):', '    return loadConfig', ''].join('\n'),
};

describe('cairn refs (bundled CLI)', function () {
  this.timeout(120000);
  let root: string;
  let store: string;
  const cairn = (...args: string[]) => runCairn([...args, '--store', store], { cwd: root });

  before(() => {
    assert.ok(fs.existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-refs-cli-'));
    root = path.join(base, 'root');
    store = path.join(base, 'store');
    writeTree(root, FILES);
    const built = runCairn(['index', root, '--store', store]);
    assert.equal(built.code, 0, built.stderr);
  });
  after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

  it('prints each reference as path:line:col, certain ones first, files apart', () => {
    const r = cairn('refs', 'loadConfig');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        '6 references to loadConfig (4 certain) in 3 files',
        'defined at src/config.ts:2:17 (function loadConfig)',
        'src/config.ts:2:17  [certain, definition]  loadConfig  export function loadConfig(path: string): string {',
        '',
        "src/main.ts:1:10  [certain, import]  -  import { loadConfig } from './config';",
        "src/main.ts:4:10  [certain]  start  return loadConfig('a') + loadConfig('b');",
        "src/main.ts:4:28  [certain]  start  return loadConfig('a') + loadConfig('b');",
        '',
        'lib/other.py:1:11  [name]  other  def other(loadConfig):',
        'lib/other.py:2:12  [name]  other  return loadConfig',
        '',
      ].join('\n'),
    );
  });

  it('--json gives the engine\'s answer: roles, certainty, reasons, groups', () => {
    const r = cairn('refs', 'loadConfig', '--json', '--limit', '2');
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as ReferencesResponse;
    assert.equal(answer.total, 6);
    assert.equal(answer.certain, 4);
    assert.equal(answer.truncated, true);
    assert.deepEqual(answer.references.map((h) => [h.path, h.line, h.column, h.endColumn, h.role, h.certainty, h.reason]), [
      ['src/config.ts', 2, 17, 27, 'definition', 'certain', 'definition'],
      ['src/main.ts', 1, 10, 20, 'import', 'certain', 'imports it from src/config.ts'],
    ]);
    assert.deepEqual(answer.byFile.map((f) => [f.path, f.references, f.certain]), [['src/config.ts', 1, 1], ['src/main.ts', 3, 3], ['lib/other.py', 2, 0]]);
  });

  it('--callers groups them by the definition they are in', () => {
    const r = cairn('refs', 'loadConfig', '--callers');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.split('\n').slice(2).filter(Boolean), ['src/main.ts:4  function start  2 references (2 certain)  lines 4', 'lib/other.py:1  function other  2 references (0 certain)  lines 1, 2']);
  });

  it('a name only in comments and strings: no references, said plainly', () => {
    const r = cairn('refs', 'onlyMentioned');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '"onlyMentioned" occurs nowhere as code in the index\n');
    const json = JSON.parse(cairn('refs', 'onlyMentioned', '--json').stdout) as ReferencesResponse;
    assert.deepEqual([json.total, json.references], [0, []]);
  });

  it('asks for a name', () => {
    const r = cairn('refs');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /a name is required/);
  });
});
