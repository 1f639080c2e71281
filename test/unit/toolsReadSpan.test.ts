// read_span's path confinement, eligibility and clamping (src/tools/confine.ts,
// src/tools/readSpan.ts, core/discovery/eligibility.ts): nothing outside the root is ever read,
// nothing the index refuses is served (each refusal says why), and long spans are cut and say so.
import * as assert from 'node:assert/strict';
import childProcess = require('node:child_process');
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readEligibleFile } from '../../src/core/discovery/eligibility';
import { GitAnswers, RACY_MS } from '../../src/core/discovery/gitAnswers';
import { normaliseRequestedPath } from '../../src/tools/confine';
import { ToolError } from '../../src/tools/errors';
import { parseSpanRef, readSpan, renderSpan } from '../../src/tools/readSpan';
import { checkAll } from './check';

const LIMITS = { maxLines: 300, maxTokens: 6000 };

/** The first line read_span returns for a path, or the message it refuses it with. */
async function answer(root: string, input: string, discovery = {}): Promise<string> {
  try {
    const span = await readSpan(root, { path: input }, LIMITS, discovery);
    return `served: ${span.lines[0] ?? ''}`;
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    return e.message;
  }
}

const hasGit = ((): boolean => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('mcp read_span: path confinement', () => {
  let base: string;
  let root: string;

  const write = (rel: string, content: string | Buffer): void => {
    fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    fs.writeFileSync(path.join(base, rel), content);
  };
  const refused = async (input: string, pattern: RegExp): Promise<void> => {
    await assert.rejects(readSpan(root, { path: input }, LIMITS), (e: unknown) => e instanceof ToolError && pattern.test(e.message), `expected ${JSON.stringify(input)} to be refused with ${pattern}`);
  };

  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-mcp-span-')));
    root = path.join(base, 'root');
    write('root/src/a.ts', 'line 1\nline 2\nline 3\n');
    write('root/.env', 'TOKEN=abc\n');
    write('secret.txt', 'outside the root\n');
    write('outside/dir/file.ts', 'outside\n');
    fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'link-out.txt'));
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'linked-dir'));
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  it('refuses `..` anywhere in the path, even when it would land inside the root', async () => {
    await refused('../secret.txt', /'\.\.' is not accepted/);
    await refused('src/../../secret.txt', /'\.\.' is not accepted/);
    await refused('src/../src/a.ts', /'\.\.' is not accepted/);
    await refused('..\\secret.txt', /'\.\.' is not accepted/);
  });

  it('refuses absolute paths, and suggests the relative path when one is inside the root', async () => {
    await refused('/etc/passwd', /absolute paths are not accepted/);
    await refused('C:\\Windows\\win.ini', /absolute paths are not accepted/);
    assert.throws(() => normaliseRequestedPath(path.join(root, 'src/a.ts'), root), /absolute paths are not accepted.*\(here: src\/a\.ts\)/);
  });

  it('refuses NUL bytes and empty paths', async () => {
    await refused('src/a.ts\0.png', /NUL byte/);
    await refused('   ', /empty/);
    await refused('./', /root folder itself/);
  });

  it('refuses symbolic links that lead outside the root (to a file or through a directory)', async () => {
    await refused('link-out.txt', /^link-out\.txt is a symbolic link leading outside the root; links are not followed$/);
    await refused('linked-dir/dir/file.ts', /^linked-dir\/dir\/file\.ts is inside linked-dir, a symbolic link to a folder; links are not followed$/);
  });

  it('normalises ./, doubled slashes and backslashes to the POSIX form', async () => {
    assert.equal(normaliseRequestedPath('./src//a.ts'), 'src/a.ts');
    assert.equal(normaliseRequestedPath('src\\a.ts'), 'src/a.ts');
    assert.equal((await readSpan(root, { path: './src/./a.ts' }, LIMITS)).path, 'src/a.ts');
  });
});

/**
 * One row per class of file discovery refuses: read_span refuses each with discovery's reason,
 * inside a git work tree (git's own ignore decision) and outside one (the ignore-aware walk).
 */
describe('mcp read_span: serves only what discovery would index', () => {
  let root: string;
  const write = (rel: string, content: string | Buffer): void => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  };

  before(function () {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-span-eligible-')));
    write('src/a.ts', 'export const a = 1;\n');
    write('.gitignore', 'config/local.yaml\nprivate/\n');
    write('config/local.yaml', 'password: hunter2\n');
    write('private/notes.md', '# private notes\n');
    write('.cairnignore', 'drafts/\nhidden.md\n');
    write('drafts/plan.md', '# plan\n');
    write('hidden.md', '# hidden\n');
    write('node_modules/pkg/index.js', 'module.exports = 1;\n');
    write('big.txt', Buffer.alloc(5 * 1024 * 1024, 'x\n'));
    write('bad.txt', Buffer.from([0x61, 0xff, 0xfe, 0x0a]));
    write('blob.ts', Buffer.from([0x61, 0x00, 0x62]));
    write('.env', 'TOKEN=hunter2\n');
    for (const name of ['client_secret.json', 'service-account.json', 'kubeconfig.yaml', 'terraform.tfvars', 'terraform.tfvars.json', '.docker/config.json', 'token.txt', 'wp-config.php', 'secret.yaml', 'secrets.yaml', 'prod.env', 'config/id_rsa']) {
      write(name, 'hunter2\n');
    }
    // Ordinary code and config that only resembles those names stays readable.
    for (const name of ['src/tokenizer.ts', 'src/serviceAccount.ts', 'config.json', 'docker/config.json']) write(name, 'ordinary\n');
    fs.linkSync(path.join(root, '.env'), path.join(root, 'innocent.txt'));
    fs.symlinkSync('src/a.ts', path.join(root, 'link-in.ts'));
    fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
    fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
    fs.mkdirSync(path.join(root, '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git/config.json'), '{}\n');
    if (process.platform !== 'win32') execFileSync('mkfifo', [path.join(root, 'src/pipe.ts')]);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const table = [
    { input: 'src/a.ts', expected: 'served: export const a = 1;' },
    { input: 'src/tokenizer.ts', expected: 'served: ordinary' },
    { input: 'src/serviceAccount.ts', expected: 'served: ordinary' },
    { input: 'config.json', expected: 'served: ordinary' },
    { input: 'docker/config.json', expected: 'served: ordinary' },
    { input: 'config/local.yaml', expected: 'config/local.yaml is ignored by .gitignore; Cairn neither indexes nor serves ignored files' },
    { input: 'private/notes.md', expected: 'private/notes.md is ignored by .gitignore; Cairn neither indexes nor serves ignored files' },
    { input: 'drafts/plan.md', expected: 'drafts/plan.md is ignored by .cairnignore; Cairn neither indexes nor serves ignored files' },
    { input: 'hidden.md', expected: 'hidden.md is ignored by .cairnignore; Cairn neither indexes nor serves ignored files' },
    { input: 'node_modules/pkg/index.js', expected: 'node_modules/pkg/index.js lies inside node_modules, a folder Cairn never indexes (dependencies, build output, caches); it is not served' },
    { input: '.git/config.json', expected: '.git/config.json lies inside version-control metadata (.git); it is not served' },
    { input: 'big.txt', expected: 'big.txt is larger than the size cap, 5242880 bytes (limit 1048576); it is not served' },
    { input: 'bad.txt', expected: 'bad.txt is not valid UTF-8 text; it is not served' },
    { input: 'blob.ts', expected: 'blob.ts is a binary file; only text is served' },
    ...['.env', 'client_secret.json', 'service-account.json', 'kubeconfig.yaml', 'terraform.tfvars', 'terraform.tfvars.json', '.docker/config.json', 'token.txt', 'wp-config.php', 'secret.yaml', 'secrets.yaml', 'prod.env', 'config/id_rsa'].map((input) => ({
      input,
      expected: `${input} looks like a file holding secrets (its name is on the secret deny-list); it is not served`,
    })),
    { input: 'innocent.txt', expected: 'innocent.txt is a hard link (2 names); it is not served, as another of its names may be a refused file' },
    { input: 'link-in.ts', expected: 'link-in.ts is a link to src/a.ts; links are not followed: read the file it points to' },
    { input: 'loop-a', expected: 'loop-a is a link to loop-b; links are not followed: read the file it points to' },
    { input: 'src/nope.ts', expected: 'no such file: src/nope.ts' },
    { input: 'src/a.ts/deeper', expected: 'no such file: src/a.ts/deeper' },
    { input: 'src', expected: 'src is a directory, not a file' },
    ...(process.platform === 'win32' ? [] : [{ input: 'src/pipe.ts', expected: 'src/pipe.ts is a named pipe, not a file' }]),
  ];

  describe('inside a git work tree', () => {
    before(function () {
      if (!hasGit) this.skip();
      // `git init` after the fixture's `.git/config.json`: git keeps its own files beside it.
      execFileSync('git', ['init', '-q'], { cwd: root });
    });
    checkAll(table, (input) => answer(root, input));
  });

  describe('outside git (the ignore-aware walk)', () => {
    checkAll(table, (input) => answer(root, input, { useGit: false }));
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

  it('returns exactly the asked lines, numbered', async () => {
    const span = await readSpan(root, { path: 'src/long.ts', startLine: 10, endLine: 12 }, LIMITS);
    assert.deepEqual(span.lines, lines.slice(9, 12));
    assert.deepEqual([span.startLine, span.endLine, span.totalLines, span.notes], [10, 12, 50, []]);
    assert.equal(renderSpan(span, true), `src/long.ts:10-12 (the file has 50 lines)\n10| ${lines[9]}\n11| ${lines[10]}\n12| ${lines[11]}`);
    assert.equal(renderSpan(span, false).split('\n').slice(1).join('\n'), lines.slice(9, 12).join('\n'));
  });

  it('cuts to maxLines and says where to continue', async () => {
    const span = await readSpan(root, { path: 'src/long.ts' }, { maxLines: 5, maxTokens: 6000 });
    assert.deepEqual([span.startLine, span.endLine], [1, 5]);
    assert.match(span.notes.join('\n'), /maxLines=5: returned lines 1-5 of the 1-50 asked for; continue with startLine=6/);
  });

  it('cuts to maxTokens at whole lines, and cuts a single huge line', async () => {
    const span = await readSpan(root, { path: 'src/long.ts' }, { maxLines: 300, maxTokens: 100 });
    assert.ok(span.lines.join('\n').length <= 350, 'about 100 tokens of text');
    assert.ok(span.endLine < 50 && span.endLine > 1);
    assert.match(span.notes.join('\n'), /maxTokens=100.*continue with startLine=/);
    const huge = await readSpan(root, { path: 'src/min.js' }, { maxLines: 300, maxTokens: 100 });
    assert.equal(huge.lines.length, 1);
    assert.equal(huge.lines[0]?.length, 350);
    assert.match(huge.notes.join('\n'), /line 1 is 10000 characters long; cut/);
  });

  it('clamps an end past the file, and refuses a start past it', async () => {
    const span = await readSpan(root, { path: 'src/long.ts', startLine: 49, endLine: 400 }, LIMITS);
    assert.deepEqual([span.startLine, span.endLine], [49, 50]);
    assert.match(span.notes.join('\n'), /endLine 400 is past the end of the file; clamped to its last line, 50/);
    await assert.rejects(readSpan(root, { path: 'src/long.ts', startLine: 51 }, LIMITS), /startLine 51 is past the end of src\/long\.ts, which has 50 lines/);
  });

  it('handles CRLF, and refuses binary and empty files', async () => {
    assert.deepEqual((await readSpan(root, { path: 'src/crlf.ts' }, LIMITS)).lines, ['a', 'b', 'c']);
    await assert.rejects(readSpan(root, { path: 'src/blob.bin.ts' }, LIMITS), /binary file/);
    await assert.rejects(readSpan(root, { path: 'src/empty.ts' }, LIMITS), /is empty/);
  });
});

/**
 * git's answer for a file read before is reused (no git process per read) only while nothing it
 * depends on changed: each row reads a file (served), changes one thing discovery decides by,
 * and reads it again. The clock runs ahead so the fixture's fresh files are past the racy window
 * and the answer is remembered; the second read must still be discovery's decision.
 */
describe('mcp read_span: a file read before is refused once discovery would refuse it', () => {
  interface Row {
    /** The file read twice, relative to the repository. */
    file: string;
    /** Before the first read (after `git init`). */
    setup?: (repo: string) => void;
    /** Between the two reads. */
    change: (repo: string) => void;
  }
  let base: string;
  let count = 0;
  const git = (repo: string, ...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  const put = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  const OPTIONS = { maxFileBytes: 1000 };

  async function decide(repo: string, file: string, answers: GitAnswers): Promise<string> {
    const r = await readEligibleFile(repo, file, OPTIONS, answers);
    return 'doc' in r ? `served: ${r.doc.text.split('\n')[0] ?? ''}` : r.refusal.message;
  }

  /** A fresh repository holding the row's file, read once (which must serve it), then changed. */
  async function readChangeRead(row: Row): Promise<string> {
    const repo = path.join(base, `repo${count++}`);
    put(path.join(repo, row.file), 'export const kept = 1;\n');
    put(path.join(repo, '.gitignore'), 'other.log\n');
    git(repo, 'init', '-q');
    row.setup?.(repo);
    const answers = new GitAnswers({ now: () => Date.now() + 10 * RACY_MS });
    assert.equal(await decide(repo, row.file, answers), 'served: export const kept = 1;', 'the first read serves the file');
    row.change(repo);
    return decide(repo, row.file, answers);
  }

  before(function () {
    if (!hasGit) this.skip();
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-span-reuse-')));
  });
  after(() => base && fs.rmSync(base, { recursive: true, force: true }));

  const IGNORED = (p: string, by: string) => `${p} is ignored by ${by}; Cairn neither indexes nor serves ignored files`;
  const table: Array<{ name: string; input: Row; expected: string }> = [
    { name: 'unchanged', input: { file: 'src/a.ts', change: () => undefined }, expected: 'served: export const kept = 1;' },
    { name: 'then listed in the root .gitignore', input: { file: 'src/a.ts', change: (r) => fs.appendFileSync(path.join(r, '.gitignore'), 'src/a.ts\n') }, expected: IGNORED('src/a.ts', '.gitignore') },
    { name: "then listed in a new .gitignore in the file's folder", input: { file: 'src/deep/a.ts', change: (r) => put(path.join(r, 'src/deep/.gitignore'), 'a.ts\n') }, expected: IGNORED('src/deep/a.ts', '.gitignore') },
    { name: 'then its folder listed in a new .gitignore above it', input: { file: 'src/deep/a.ts', change: (r) => put(path.join(r, 'src/.gitignore'), 'deep/\n') }, expected: IGNORED('src/deep/a.ts', '.gitignore') },
    { name: 'then listed in .git/info/exclude', input: { file: 'a.ts', change: (r) => fs.appendFileSync(path.join(r, '.git/info/exclude'), 'a.ts\n') }, expected: IGNORED('a.ts', '.gitignore') },
    {
      name: "then listed in an excludes file the repository's config names",
      input: {
        file: 'a.ts',
        change: (r) => {
          put(path.join(r, '..', `excludes${count}`), 'a.ts\n');
          git(r, 'config', 'core.excludesFile', path.join(r, '..', `excludes${count}`));
        },
      },
      expected: IGNORED('a.ts', '.gitignore'),
    },
    {
      name: 'tracked while .gitignored, then untracked (git rm --cached)',
      input: {
        file: 'a.ts',
        setup: (r) => {
          fs.appendFileSync(path.join(r, '.gitignore'), 'a.ts\n');
          git(r, 'add', '-f', 'a.ts');
        },
        change: (r) => git(r, 'rm', '-q', '--cached', 'a.ts'),
      },
      expected: IGNORED('a.ts', '.gitignore'),
    },
    {
      name: 'then its folder made a nested repository',
      input: { file: 'nested/a.ts', change: (r) => git(path.join(r, 'nested'), 'init', '-q') },
      expected: 'nested/a.ts is not listed by git (inside a nested repository or submodule); Cairn neither indexes nor serves ignored files',
    },
    { name: 'then listed in .cairnignore', input: { file: 'src/a.ts', change: (r) => put(path.join(r, '.cairnignore'), 'src/a.ts\n') }, expected: IGNORED('src/a.ts', '.cairnignore') },
    {
      name: 'then given a second name (a hard link)',
      input: { file: 'a.ts', change: (r) => fs.linkSync(path.join(r, 'a.ts'), path.join(r, 'b.txt')) },
      expected: 'a.ts is a hard link (2 names); it is not served, as another of its names may be a refused file',
    },
    {
      name: 'then grown past the size cap',
      input: { file: 'a.ts', change: (r) => fs.appendFileSync(path.join(r, 'a.ts'), 'x'.repeat(2000)) },
      expected: 'a.ts is larger than the size cap, 2023 bytes (limit 1000); it is not served',
    },
  ];
  checkAll(table, readChangeRead);

  describe('git processes per read', () => {
    let spawned: string[] = [];
    const real = childProcess.spawn;
    before(() => {
      (childProcess as { spawn: unknown }).spawn = (command: string, ...rest: unknown[]) => {
        spawned.push(command);
        return (real as (...a: unknown[]) => unknown)(command, ...rest);
      };
    });
    after(() => ((childProcess as { spawn: unknown }).spawn = real));

    /** git processes the second read of an unchanged file starts, with answers on this clock. */
    async function secondRead(now: () => number): Promise<number> {
      const repo = path.join(base, `repo${count++}`);
      put(path.join(repo, 'src/a.ts'), 'export const kept = 1;\n');
      git(repo, 'init', '-q');
      const answers = new GitAnswers({ now });
      await decide(repo, 'src/a.ts', answers);
      spawned = [];
      assert.equal(await decide(repo, 'src/a.ts', answers), 'served: export const kept = 1;');
      return spawned.filter((c) => c === 'git').length;
    }

    it('an unchanged file read again starts no git process', async () => {
      assert.equal(await secondRead(() => Date.now() + 10 * RACY_MS), 0);
    });

    it('a file whose ignore files changed within the racy window is asked of git again, as before', async () => {
      // Just written: a change within the timestamps' granularity could go unseen, so git lists
      // the file again (tracked and untracked: two processes), and no more than that.
      assert.equal(await secondRead(Date.now), 2);
    });
  });
});
