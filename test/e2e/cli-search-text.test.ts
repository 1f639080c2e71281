// Any text is a query, through the real `cairn` binary: a pasted diff (operators everywhere:
// `---`, `+++`, `@@ -40,6 +40,7 @@`, `p->busy--`) answers with the code it changes, not an error;
// a pasted traceback ranks the frame's file first and says which span the frame points at.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCairn, type Run } from './cli';

const DIFF = `--- a/src/pool.c
+++ b/src/pool.c
@@ -40,6 +40,7 @@ void pool_release(struct pool *p)
 \tif (p->busy)
+\t\tp->busy--;
 \tp->free++
-\tp->busy--`;

describe('cairn search with a pasted text (bundled CLI)', function () {
  this.timeout(120000);
  let base: string;
  let root: string;
  const cairn = (...args: string[]): Run => runCairn(args, { cwd: root, env: { CAIRN_STORE: path.join(base, 'store') } });

  before(() => {
    base = mkdtempSync(path.join(tmpdir(), 'cairn-search-text-'));
    root = path.join(base, 'repo');
    mkdirSync(path.join(root, 'src'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'pool.c'), 'struct pool { int busy; int free; };\n\nvoid pool_release(struct pool *p)\n{\n\tif (p->busy)\n\t\tp->busy--;\n\tp->free++;\n}\n');
    writeFileSync(path.join(root, 'src', 'queue.c'), 'struct queue { int len; };\n\nvoid queue_push(struct queue *q)\n{\n\tq->len++;\n}\n');
    writeFileSync(path.join(root, 'README.md'), '# Pools\n\nA pool hands out buffers and takes them back.\n');
    writeFileSync(path.join(root, 'src', 'loader.py'), 'def read_text(path):\n    return open(path).read()\n\n\ndef load_config(path):\n    text = read_text(path)\n    return parse_config(text)\n');
    writeFileSync(path.join(root, 'src', 'config.py'), '# Config: a pool config, a queue config, the config text, a blank config line.\n\n\ndef parse_config(text):\n    return dict(line.split("=") for line in text.splitlines())\n');
    const r = cairn('index', root);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it("a traceback: the frame's file first, its span named by the frame, no file called a partial match", () => {
    const text = 'Loading a config crashes on a blank line\nTraceback (most recent call last):\n  File "/home/me/proj/src/loader.py", line 7, in load_config\n    return parse_config(text)\nValueError: not enough values to unpack (expected 2, got 1)';
    const r = cairn('search', text, '--root', root, '--group', 'file', '--no-refresh');
    assert.equal(r.code, 0, r.stderr || r.stdout);
    const lines = r.stdout.split('\n');
    assert.match(lines[0] ?? '', /^src\/loader\.py {2}\(/, r.stdout);
    assert.match(lines[1] ?? '', /^ {4}5-7 {2}function load_config {2}\([\d.]+; traceback-frame\b/, r.stdout);
    assert.doesNotMatch(r.stdout, /partial match/);
  });

  it('a unified diff answers with hits in the file it changes, no error', () => {
    const r = cairn('search', DIFF, '--root', root, '--json', '--no-refresh');
    assert.equal(r.code, 0, r.stderr || r.stdout);
    const out = JSON.parse(r.stdout) as { results: Array<{ path: string }>; error?: unknown };
    assert.equal(out.error, undefined);
    assert.equal(out.results[0]?.path, 'src/pool.c', r.stdout);
  });
});
