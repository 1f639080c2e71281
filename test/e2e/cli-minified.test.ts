// A one-line minified bundle through the real `cairn` binary: its export is about the file's
// size (each chunk prints its own characters, not the line), and code that shares the line with
// definitions is searchable.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCairn, type Run } from './cli';

describe('a minified one-line file (bundled CLI)', function () {
  this.timeout(120000);
  let base: string;
  let root: string;
  let bundle: string;

  const cairn = (...args: string[]): Run => runCairn(args, { cwd: root, env: { CAIRN_STORE: path.join(base, 'store') } });

  before(() => {
    base = mkdtempSync(path.join(tmpdir(), 'cairn-minified-'));
    root = path.join(base, 'repo');
    mkdirSync(path.join(root, 'lib'), { recursive: true });
    const parts: string[] = ['var sharedLineMarker=1;'];
    for (let i = 0; i < 1500; i++) {
      parts.push(`function f${i}(a,b){return a*${i}+b}`);
      if (i % 10 === 0) parts.push(`class K${i}{constructor(x){this.x=x}get v(){return f${i}(this.x,${i})}}var k${i}=new K${i}(${i});`);
    }
    bundle = parts.join('');
    writeFileSync(path.join(root, 'lib', 'bundle.min.js'), `${bundle}\n`);
    const r = cairn('index', root);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('export prints chunk texts that add up to about the file, not a line per chunk', () => {
    const r = cairn('export', root, '--format', 'jsonl', '--no-refresh');
    assert.equal(r.code, 0, r.stderr);
    const chunks = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { text: string; kind: string; startLine: number });
    assert.ok(chunks.length > 1000, `${chunks.length} chunks`);
    const total = chunks.reduce((n, c) => n + c.text.length, 0);
    // Class chunks stand for the class, whose methods have chunks too: a little over the file.
    assert.ok(total <= bundle.length * 1.5, `${total} characters exported for a ${bundle.length}-character line`);
    const own = chunks.filter((c) => c.kind !== 'class').reduce((n, c) => n + c.text.length, 0);
    assert.ok(own <= bundle.length, `${own} characters of chunks other than classes`);
    assert.ok(chunks.every((c) => c.text.length <= 2400), 'no chunk prints the line');
    assert.ok(chunks.some((c) => c.text === 'var sharedLineMarker=1;'));
  });

  it('search finds the code that shares the line with definitions', () => {
    const r = cairn('search', 'sharedLineMarker', '--root', root, '--json', '--limit', '3');
    assert.equal(r.code, 0, r.stderr);
    const results = (JSON.parse(r.stdout) as { results: Array<{ docid: string; kind: string; preview: string }> }).results;
    assert.equal(results[0]?.docid, 'lib/bundle.min.js:1-1');
    assert.equal(results[0]?.kind, 'code');
    assert.equal(results[0]?.preview, 'var «sharedLineMarker»=1;');
  });
});
