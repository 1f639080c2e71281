// read_span's path confinement and clamping (src/mcp/confine.ts, src/mcp/readSpan.ts): nothing
// outside the root is ever read, whatever the caller passes; long spans are cut and say so.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { normaliseRequestedPath, resolveInsideRoot } from '../../src/tools/confine';
import { ToolError } from '../../src/tools/errors';
import { parseSpanRef, readSpan, renderSpan } from '../../src/tools/readSpan';

const LIMITS = { maxLines: 300, maxTokens: 6000 };

describe('mcp read_span: path confinement', () => {
  let base: string;
  let root: string;

  const write = (rel: string, content: string | Buffer): void => {
    fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    fs.writeFileSync(path.join(base, rel), content);
  };
  const refused = (input: string, pattern: RegExp): void => {
    assert.throws(() => readSpan(root, { path: input }, LIMITS), (e: unknown) => e instanceof ToolError && pattern.test(e.message), `expected ${JSON.stringify(input)} to be refused with ${pattern}`);
  };

  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-mcp-span-')));
    root = path.join(base, 'root');
    write('root/src/a.ts', 'line 1\nline 2\nline 3\n');
    write('root/.env', 'TOKEN=abc\n');
    write('root/config/id_rsa', 'PRIVATE\n');
    write('root/.git/config', '[remote]\n');
    write('secret.txt', 'outside the root\n');
    write('outside/dir/file.ts', 'outside\n');
    fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'link-out.txt'));
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'linked-dir'));
    fs.symlinkSync('src/a.ts', path.join(root, 'link-in.ts'));
    fs.symlinkSync('.env', path.join(root, 'innocent.txt'));
    fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
    fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  it('refuses `..` anywhere in the path, even when it would land inside the root', () => {
    refused('../secret.txt', /'\.\.' is not accepted/);
    refused('src/../../secret.txt', /'\.\.' is not accepted/);
    refused('src/../src/a.ts', /'\.\.' is not accepted/);
    refused('..\\secret.txt', /'\.\.' is not accepted/);
  });

  it('refuses absolute paths, and suggests the relative path when one is inside the root', () => {
    refused('/etc/passwd', /absolute paths are not accepted/);
    refused('C:\\Windows\\win.ini', /absolute paths are not accepted/);
    assert.throws(() => normaliseRequestedPath(path.join(root, 'src/a.ts'), root), /absolute paths are not accepted.*\(here: src\/a\.ts\)/);
  });

  it('refuses NUL bytes and empty paths', () => {
    refused('src/a.ts\0.png', /NUL byte/);
    refused('   ', /empty/);
    refused('./', /root folder itself/);
  });

  it('refuses symbolic links that lead outside the root (to a file or through a directory)', () => {
    refused('link-out.txt', /outside the root/);
    refused('linked-dir/dir/file.ts', /outside the root/);
    refused('loop-a', /symbolic links/);
  });

  it('follows links that stay inside the root, citing the path as asked', () => {
    const span = readSpan(root, { path: 'link-in.ts', startLine: 2, endLine: 2 }, LIMITS);
    assert.deepEqual([span.path, span.lines], ['link-in.ts', ['line 2']]);
  });

  it('refuses secret-looking files and version-control metadata, also behind a link', () => {
    refused('.env', /secrets/);
    refused('config/id_rsa', /secrets/);
    refused('innocent.txt', /a link to \.env.*secrets/);
    refused('.git/config', /version-control/);
  });

  it('reports missing files and directories plainly', () => {
    refused('src/nope.ts', /^no such file: src\/nope\.ts$/);
    refused('src/a.ts/deeper', /^no such file/);
    refused('src', /is a directory/);
  });

  it('refuses a named pipe at once instead of waiting for a writer', function () {
    if (process.platform === 'win32') this.skip();
    execFileSync('mkfifo', [path.join(root, 'src/pipe.ts')]);
    refused('src/pipe.ts', /is a named pipe, not a file/);
  });

  it('normalises ./, doubled slashes and backslashes to the POSIX form', () => {
    assert.equal(normaliseRequestedPath('./src//a.ts'), 'src/a.ts');
    assert.equal(normaliseRequestedPath('src\\a.ts'), 'src/a.ts');
    assert.equal(resolveInsideRoot(root, './src/./a.ts').relPath, 'src/a.ts');
  });
});

describe('mcp read_span: spans and clamping', () => {
  let root: string;
  const lines = Array.from({ length: 50 }, (_, i) => `const value${i + 1} = ${i + 1};`);

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-mcp-clamp-'));
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src/long.ts'), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(root, 'src/crlf.ts'), 'a\r\nb\r\nc');
    fs.writeFileSync(path.join(root, 'src/min.js'), `${'x'.repeat(10_000)}\nsecond\n`);
    fs.writeFileSync(path.join(root, 'src/blob.bin.ts'), Buffer.from([0x61, 0x00, 0x62]));
    fs.writeFileSync(path.join(root, 'src/empty.ts'), '');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('parses path:start-end, path:line, path#Lx-Ly and bare paths (colons may be in the path)', () => {
    assert.deepEqual(parseSpanRef('src/a.ts:10-20'), { path: 'src/a.ts', startLine: 10, endLine: 20 });
    assert.deepEqual(parseSpanRef('src/a.ts:7'), { path: 'src/a.ts', startLine: 7, endLine: 7 });
    assert.deepEqual(parseSpanRef('src/a.ts#L3-L9'), { path: 'src/a.ts', startLine: 3, endLine: 9 });
    assert.deepEqual(parseSpanRef('src/a.ts#L3'), { path: 'src/a.ts', startLine: 3, endLine: 3 });
    assert.deepEqual(parseSpanRef('dir:x/a.ts:1-2'), { path: 'dir:x/a.ts', startLine: 1, endLine: 2 });
    assert.deepEqual(parseSpanRef(' src/a.ts '), { path: 'src/a.ts' });
    assert.throws(() => parseSpanRef('src/a.ts:9-3'), /ends before it starts/);
    assert.throws(() => parseSpanRef('src/a.ts:0-3'), /start at 1/);
  });

  it('returns exactly the asked lines, numbered', () => {
    const span = readSpan(root, { path: 'src/long.ts', startLine: 10, endLine: 12 }, LIMITS);
    assert.deepEqual(span.lines, lines.slice(9, 12));
    assert.deepEqual([span.startLine, span.endLine, span.totalLines, span.notes], [10, 12, 50, []]);
    assert.equal(renderSpan(span, true), `src/long.ts:10-12 (the file has 50 lines)\n10| ${lines[9]}\n11| ${lines[10]}\n12| ${lines[11]}`);
    assert.equal(renderSpan(span, false).split('\n').slice(1).join('\n'), lines.slice(9, 12).join('\n'));
  });

  it('cuts to maxLines and says where to continue', () => {
    const span = readSpan(root, { path: 'src/long.ts' }, { maxLines: 5, maxTokens: 6000 });
    assert.deepEqual([span.startLine, span.endLine], [1, 5]);
    assert.match(span.notes.join('\n'), /maxLines=5: returned lines 1-5 of the 1-50 asked for; continue with startLine=6/);
  });

  it('cuts to maxTokens at whole lines, and cuts a single huge line', () => {
    const span = readSpan(root, { path: 'src/long.ts' }, { maxLines: 300, maxTokens: 100 });
    assert.ok(span.lines.join('\n').length <= 350, 'about 100 tokens of text');
    assert.ok(span.endLine < 50 && span.endLine > 1);
    assert.match(span.notes.join('\n'), /maxTokens=100.*continue with startLine=/);
    const huge = readSpan(root, { path: 'src/min.js' }, { maxLines: 300, maxTokens: 100 });
    assert.equal(huge.lines.length, 1);
    assert.equal(huge.lines[0]?.length, 350);
    assert.match(huge.notes.join('\n'), /line 1 is 10000 characters long; cut/);
  });

  it('clamps an end past the file, and refuses a start past it', () => {
    const span = readSpan(root, { path: 'src/long.ts', startLine: 49, endLine: 400 }, LIMITS);
    assert.deepEqual([span.startLine, span.endLine], [49, 50]);
    assert.match(span.notes.join('\n'), /endLine 400 is past the end of the file; clamped to its last line, 50/);
    assert.throws(() => readSpan(root, { path: 'src/long.ts', startLine: 51 }, LIMITS), /startLine 51 is past the end of src\/long\.ts, which has 50 lines/);
  });

  it('handles CRLF, and refuses binary and empty files', () => {
    assert.deepEqual(readSpan(root, { path: 'src/crlf.ts' }, LIMITS).lines, ['a', 'b', 'c']);
    assert.throws(() => readSpan(root, { path: 'src/blob.bin.ts' }, LIMITS), /binary file/);
    assert.throws(() => readSpan(root, { path: 'src/empty.ts' }, LIMITS), /is empty/);
  });
});
