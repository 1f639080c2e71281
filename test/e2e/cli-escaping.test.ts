// File names and text reach the terminal shown, not obeyed, through the real CLI: a line feed in
// a name cannot forge another `path:line` row and U+202E cannot reorder it, while JSON output
// (--json, export) carries them as they are, escaped by JSON itself.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCairnAsync } from './cli';

describe('cairn: names with line feeds and bidi controls (e2e)', function () {
  this.timeout(60_000);
  if (process.platform === 'win32') return; // no line feeds in Windows file names
  let root: string;
  let store: string;
  const forged = 'evil\nlogin.ts:1-9  function login.ts';
  const reversed = 'invoice\u202Est.ts';

  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'cairn-escaping-'));
    store = mkdtempSync(path.join(tmpdir(), 'cairn-escaping-store-'));
    writeFileSync(path.join(root, forged), 'export function frobnicateWidget() { return "\u202Edone\u0085"; }\n');
    writeFileSync(path.join(root, reversed), 'export function frobnicateGadget() { return 2; }\n');
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
  });

  const run = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> => runCairnAsync([...args, '--root', root], { env: { CAIRN_STORE: store } });

  it('search shows the names escaped, one row each', async () => {
    const r = await run(['search', 'frobnicate']);
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.split('\n').filter((l) => /^\S/.test(l));
    assert.ok(rows.some((l) => l.startsWith('evil\\nlogin.ts:1-9  function login.ts:1-1')), r.stdout);
    assert.ok(rows.some((l) => l.startsWith('invoice\\u{202E}st.ts:1-1')), r.stdout);
    assert.equal(rows.some((l) => l.startsWith('login.ts')), false, 'a forged row');
    assert.doesNotMatch(r.stdout, /\u202E/);
    assert.match(r.stdout, /return "\\u\{202E\}done\\x85"/, 'text is shown escaped too');
  });

  it('--json and export keep the names as they are', async () => {
    const json = await run(['search', 'frobnicate', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const paths = (JSON.parse(json.stdout) as { results: Array<{ path: string }> }).results.map((h) => h.path).sort();
    assert.deepEqual(paths, [forged, reversed].sort());
    const exported = await runCairnAsync(['export', root], { env: { CAIRN_STORE: store } });
    assert.equal(exported.code, 0, exported.stderr);
    const chunks = exported.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { path: string; text?: string });
    assert.deepEqual([...new Set(chunks.map((c) => c.path))].sort(), [forged, reversed].sort());
    assert.ok(chunks.some((c) => c.text?.includes('"\u202Edone\u0085"')), 'the text as it is');
  });
});
