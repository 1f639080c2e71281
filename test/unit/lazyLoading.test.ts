// A one-shot query on an up-to-date index loads no indexing code: a fresh `cairn search` pays
// only for what answering reads. Checked in a child process, where require.cache lists every
// module the query loaded (tsc compiles the engine's dynamic imports to on-demand requires).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkAll } from './check';
import { RACY_WINDOW_MS } from '../../src/core/store/fileStat';
import { GRAMMARS_DIR, TempWorkspace } from './helpers/workspace';

const ENGINE = path.resolve(__dirname, '../../src/core/engine/engine.js');
/** Modules only indexing, other providers or packs need: the chunk pool and parsers, hashing. */
const INDEXING = /core\/chunking\/(pool|worker|ast\/)|core\/providers\/|core\/pack\/build|web-tree-sitter|node:crypto/;

/** Runs one search in a fresh process; returns the hit count and the indexing modules it loaded. */
function searchInFreshProcess(ws: TempWorkspace): { hits: number; indexing: string[] } {
  const script = `
    const { Engine } = require(${JSON.stringify(ENGINE)});
    const engine = new Engine({ root: process.argv[2], storeDir: process.argv[3], grammarsDir: process.argv[4], workers: 0 });
    engine.search('fetchUser', { refresh: 'always' }).then(async (r) => {
      await engine.close();
      const loaded = Object.keys(require.cache).map((p) => p.split(require('path').sep).join('/'));
      // Built-in modules are not in require.cache; Node lists those it has loaded here.
      if ((process.moduleLoadList || []).includes('NativeModule crypto')) loaded.push('node:crypto');
      console.log(JSON.stringify({ hits: r.results.length, loaded }));
    });`;
  // A script file, not `node -e`: evaluating a string loads node:crypto before any of it runs.
  const file = path.join(path.dirname(ws.root), 'query.js');
  fs.writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file, ws.root, ws.storeDir, GRAMMARS_DIR], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const { hits, loaded } = JSON.parse(r.stdout) as { hits: number; loaded: string[] };
  return { hits, indexing: [...new Set(loaded.filter((p) => INDEXING.test(p)).map((p) => INDEXING.exec(p)![0]))].sort() };
}

/** Writes a file dated an hour back. */
function writeSettled(ws: TempWorkspace, rel: string, text: string): void {
  ws.write(rel, text);
  const past = new Date(Date.now() - 3_600_000);
  fs.utimesSync(path.join(ws.root, rel), past, past);
}

describe('a one-shot query loads what answering reads', function () {
  this.timeout(30_000);
  checkAll<'unchanged' | 'one file edited', { found: boolean; loadsIndexing: boolean }>(
    [
      { name: 'on an up-to-date index: no chunking, provider or pack code', input: 'unchanged', expected: { found: true, loadsIndexing: false } },
      { name: 'after an edit: the chunker, to index the edit first', input: 'one file edited', expected: { found: true, loadsIndexing: true } },
    ],
    async (state) => {
      const ws = new TempWorkspace();
      try {
        writeSettled(ws, 'src/users.ts', 'export function fetchUser(id: string) {\n  return id;\n}\n');
        writeSettled(ws, 'README.md', '# Users\n\nCall fetchUser.\n');
        await ws.engine().refresh();
        // Written just before that refresh, the files' stats are racy; once the window has passed,
        // the next refresh hashes them again and records stats that vouch for them.
        await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 100));
        await ws.engine().refresh();
        if (state === 'one file edited') writeSettled(ws, 'src/users.ts', 'export function fetchUser(id: number) {\n  return String(id);\n}\n');
        const { hits, indexing } = searchInFreshProcess(ws);
        return { found: hits > 0, loadsIndexing: indexing.length > 0 };
      } finally {
        await ws.dispose();
      }
    },
  );
});
