// A one-line minified bundle through the real `cairn` binary: it is cut into a few bounded
// pieces, so its export is about the file's size, and every word of it is searchable with the
// caret opening on the match.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { matchColumn } from '../../src/vscode/hitLine';
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

  it('export is about the file\'s size: a few bounded pieces, not a chunk per definition', () => {
    const r = cairn('export', root, '--format', 'jsonl', '--no-refresh');
    assert.equal(r.code, 0, r.stderr);
    const chunks = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { text: string; kind: string; startLine: number });
    // Each exported chunk carries its metadata; a chunk per definition made the export 6x the file.
    assert.ok(Buffer.byteLength(r.stdout) <= bundle.length * 1.2, `${Buffer.byteLength(r.stdout)} bytes exported for a ${bundle.length}-character line`);
    assert.ok(chunks.length <= Math.ceil(bundle.length / 2048), `${chunks.length} chunks`);
    assert.ok(chunks.every((c) => c.text.length <= 4096), 'no chunk prints the line');
    assert.ok(chunks.some((c) => c.text.includes('var sharedLineMarker=1;')));
  });

  it('search finds a word of the line, and the caret opens on the match', () => {
    const r = cairn('search', 'sharedLineMarker', '--root', root, '--json', '--limit', '3');
    assert.equal(r.code, 0, r.stderr);
    const results = (JSON.parse(r.stdout) as { results: Array<{ docid: string; kind: string; preview: string }> }).results;
    assert.equal(results[0]?.docid, 'lib/bundle.min.js:1-1');
    assert.match(results[0]?.preview ?? '', /var «sharedLineMarker»=1;/);
    assert.equal(matchColumn(bundle, results[0]!.preview), bundle.indexOf('sharedLineMarker'));
    const deep = cairn('search', 'K1490', '--root', root, '--json', '--limit', '1');
    const hit = (JSON.parse(deep.stdout) as { results: Array<{ preview: string }> }).results[0];
    assert.ok(hit, deep.stderr);
    assert.equal(matchColumn(bundle, hit.preview), bundle.indexOf('K1490'));
  });
});
