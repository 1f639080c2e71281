// Drives the real bundled CLI (`node dist/cli.js`, built by `node esbuild.mjs`) as a child
// process against a workspace written to a temp directory.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, ROOT, runCairn, type Run } from './cli';

function cairn(...args: string[]): Run {
  return runCairn(args);
}

function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

const jsonLines = (stdout: string): Array<Record<string, unknown>> =>
  stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('cairn chunks (bundled CLI)', function () {
  this.timeout(60000);
  let fixture: string;

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    fixture = mkdtempSync(path.join(tmpdir(), 'cairn-chunks-'));
    write(fixture, 'README.md', '# Project\n\nIntro text for the project.\n\n## Install\n\nRun the installer.\n\n```sh\n# not a heading\nnpm i\n```\n');
    write(fixture, 'config/app.yaml', 'name: app\nserver:\n  port: 8080\n---\nother: 1\n');
    write(fixture, 'src/main.ts', 'export function main(): number {\n  return 42;\n}\n');
    write(fixture, 'Cargo.toml', '[package]\nname = "x"\n');
    write(fixture, 'notes.txt', 'plain notes\n');
    write(fixture, 'blank.txt', '\n\n   \n');
    write(fixture, 'image.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    write(fixture, '.env', 'SECRET=1\n');
  });
  after(() => rmSync(fixture, { recursive: true, force: true }));

  it('--json prints one chunk per line with every field, then a summary line', () => {
    const r = cairn('chunks', fixture, '--json', '--strategy', 'lines');
    assert.equal(r.code, 0, r.stderr);
    const lines = jsonLines(r.stdout);
    const summary = lines.pop()?.summary as Record<string, unknown>;
    assert.ok(summary, 'last line is {"summary": ...}');
    for (const c of lines) {
      for (const field of ['docid', 'id', 'path', 'startLine', 'endLine', 'text', 'language', 'kind', 'symbol', 'context']) {
        assert.ok(field in c, `chunk lacks ${field}: ${JSON.stringify(c)}`);
      }
      assert.equal(c.docid, `${c.path}:${c.startLine}-${c.endLine}`);
    }
    const byPath = (p: string): Array<Record<string, unknown>> => lines.filter((c) => c.path === p);
    // `# Project` holds one short paragraph: it is folded into its first subsection.
    assert.deepEqual(byPath('README.md').map((c) => [c.docid, c.context]), [['README.md:1-12', 'Project > Install']]);
    assert.deepEqual(byPath('config/app.yaml').map((c) => c.context), ['name', 'server', 'other']);
    assert.deepEqual(byPath('blank.txt'), []);
    assert.equal(summary.files, 6);
    assert.equal(summary.chunks, lines.length);
    assert.deepEqual(summary.skipped, { binary: 1, 'secret-name': 1 });
    assert.deepEqual(summary.strategies, { markdown: 1, yaml: 1, lines: 4 });
  });

  it('human output: one `path:start-end  kind  context` line per chunk; summary on stderr when piped', () => {
    const r = cairn('chunks', fixture, '--strategy', 'lines');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) assert.match(line, /^\S+:\d+-\d+ {2}[a-z]+( {2}.+)?$/);
    assert.ok(lines.includes('README.md:1-12  section  Project > Install'), lines.join('\n'));
    assert.match(r.stderr, /6 files, \d+ chunks/);
    assert.match(r.stderr, /skipped 2 \(.*binary 1/);
  });

  it('threaded and in-process runs print the same chunks (exercises dist/chunkWorker.js)', () => {
    const strip = (out: string): string => out.trimEnd().split('\n').slice(0, -1).join('\n');
    const inProcess = cairn('chunks', fixture, '--json', '--workers', '0');
    const threaded = cairn('chunks', fixture, '--json', '--workers', '2');
    assert.equal(threaded.code, 0, threaded.stderr);
    assert.equal(strip(threaded.stdout), strip(inProcess.stdout));
    assert.equal((jsonLines(threaded.stdout).at(-1)?.summary as { workers: number }).workers, 2);
  });

  for (const [args, message] of [
    [['--foo'], /^cairn chunks: unknown option --foo \(usage: cairn chunks \[PATH\].*\)$/],
    [['--strategy'], /^cairn chunks: option --strategy needs a value \(usage: /],
    [['--strategy', 'regex'], /^cairn chunks: --strategy must be one of ast, lines, got 'regex' \(usage: /],
    [['--workers', '-1'], /^cairn chunks: /],
    [['a', 'b'], /^cairn chunks: unexpected argument 'b' \(usage: /],
  ] as const) {
    it(`exits 2 with a one-line usage error: chunks ${args.join(' ')}`, () => {
      const r = cairn('chunks', ...args);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.match(r.stderr.trimEnd(), message);
    });
  }

  it('with --json, a usage error is a JSON error object on stderr', () => {
    const r = cairn('chunks', '--json', '--foo');
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
    const { error } = JSON.parse(r.stderr) as { error: { code: string; message: string } };
    assert.equal(error.code, 'usage');
    assert.match(error.message, /^unknown option --foo \(usage: cairn chunks/);
  });

  it('exits 1 with an error for a directory that does not exist', () => {
    const r = cairn('chunks', path.join(fixture, 'missing'), '--json');
    assert.equal(r.code, 1);
    assert.equal(JSON.parse(r.stderr).error.code, 'not-found');
  });

  it('an unknown command exits 2; --help and --version exit 0', () => {
    const unknown = cairn('frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^cairn: unknown command 'frobnicate'/);
    const help = cairn('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /chunks/);
    const chunksHelp = cairn('chunks', '--help');
    assert.match(chunksHelp.stdout, /--max-file-bytes N/);
    assert.match(cairn('--version').stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it('a reader that closes early (`| head -1`) ends the run quietly with exit 0', async () => {
    const big = mkdtempSync(path.join(tmpdir(), 'cairn-big-'));
    try {
      for (let i = 0; i < 400; i++) write(big, `f${i}.txt`, Array.from({ length: 200 }, (_, j) => `line ${j} of file ${i}`).join('\n'));
      const child = spawn(process.execPath, [CLI, 'chunks', big, '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const firstLine = await new Promise<string>((resolve) => {
        let buf = '';
        child.stdout.on('data', (d: Buffer) => {
          buf += d.toString();
          const nl = buf.indexOf('\n');
          if (nl >= 0) {
            child.stdout.destroy(); // what `head -1` does after one line
            resolve(buf.slice(0, nl));
          }
        });
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      assert.ok(JSON.parse(firstLine).docid);
      assert.equal(code, 0, stderr);
      assert.doesNotMatch(stderr, /EPIPE|Error|at /);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });
});
