import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverFiles, type DiscoverFilesOptions } from '../../src/core/discovery';
import type { DiscoveryResult, SkippedFile } from '../../src/core/types';
import { checkAll } from './check';
import {
  git,
  gitAvailable,
  isolateGitEnvironment,
  makeTempDir,
  permissionsEnforced,
  removeTree,
  writeTree,
  type Tree,
} from './discovery-fixture';

const TWO_MB = 2 * 1024 * 1024;

/** One tree exercising every rule; listed identically by git and by the walk. */
const TREE: Tree = {
  '.gitignore': '*.generated.ts\n/ignored-dir/\n!ignored-dir/keep.ts\nlocal-only.md\n',
  'sub/.gitignore': '!important.generated.ts\n',
  'sub/important.generated.ts': 'export const kept = 1;\n',
  'sub/other.generated.ts': 'export const dropped = 1;\n',
  'top.generated.ts': 'x\n',
  'ignored-dir/a.ts': 'a\n',
  'ignored-dir/keep.ts': 'cannot be re-included below an ignored directory\n',
  'local-only.md': 'ignored\n',
  'sub/local-only.md': 'ignored at every level (no slash in the pattern)\n',
  '.cairnignore': 'drafts/\n*.wip.md\n',
  'docs/.cairnignore': '!keep.wip.md\n',
  'docs/keep.wip.md': 'kept by the nested negation\n',
  'docs/notes.wip.md': 'ignored\n',
  'drafts/a.md': 'ignored\n',
  'docs/README.md': '# Docs\n',
  'docs/naïve café.md': '# Café\n',
  'src/index.ts': 'export const x = 1;\n',
  'src/my file.ts': 'export const y = 2;\n',
  'node_modules/pkg/index.js': 'module.exports = 1;\n',
  'foo.egg-info/top_level.txt': 'foo\n',
  'vendor/lib.go': 'package lib\n',
  'build/out.js': 'built\n',
  'pkg/dist/bundle.js': 'built\n',
  '.env': 'TOKEN=1\n',
  '.env.local': 'TOKEN=2\n',
  id_rsa: 'PRIVATE\n',
  'server.pem': 'PRIVATE\n',
  'credentials.json': '{}\n',
  'config/.npmrc': '//registry:_authToken=x\n',
  Dockerfile: 'FROM scratch\n',
  Makefile: 'all:\n',
  LICENSE: 'MIT\n',
  'tools/Jenkinsfile': 'pipeline {}\n',
  'big.txt': Buffer.alloc(TWO_MB, 'a'),
  'binary.ts': Buffer.from([0x63, 0x00, 0x64]),
  'latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'bom.md': Buffer.from('\ufeff# Title\n', 'utf8'),
  'notes.xyz': 'unknown extension\n',
  'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]),
  'link.ts': { symlink: 'src/index.ts' },
  'src/loop': { symlink: '..' },
  'locked.ts': { mode: 0o000, content: 'secret?\n' },
  'untracked.ts': 'not added to git\n',
};

/** Eligible in every mode, sorted by code unit. */
const EXPECTED_FILES = [
  '.cairnignore',
  '.gitignore',
  'Dockerfile',
  'LICENSE',
  'Makefile',
  'binary.ts',
  'bom.md',
  'docs/.cairnignore',
  'docs/README.md',
  'docs/keep.wip.md',
  'docs/naïve café.md',
  'latin1.md',
  'locked.ts',
  'src/index.ts',
  'src/my file.ts',
  'sub/.gitignore',
  'sub/important.generated.ts',
  'tools/Jenkinsfile',
  'untracked.ts',
];

const SECRET_SKIPS: SkippedFile[] = ['.env', '.env.local', 'config/.npmrc', 'credentials.json', 'id_rsa', 'server.pem'].map((p) => ({
  path: p,
  reason: 'secret-name',
}));

function expectedSkips(symlinks: boolean): SkippedFile[] {
  const skips: SkippedFile[] = [
    ...SECRET_SKIPS,
    { path: 'big.txt', reason: 'too-large', detail: `${TWO_MB} bytes (limit 1048576)` },
  ];
  if (symlinks) skips.push({ path: 'link.ts', reason: 'symlink' }, { path: 'src/loop', reason: 'symlink', detail: 'directory' });
  return skips.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const paths = (r: DiscoveryResult): string[] => r.files.map((f) => f.path);

interface Mode {
  name: string;
  source: 'git' | 'walk';
  needsGit: boolean;
  /** Runs after the tree is written. */
  setup(root: string): void;
  options: DiscoverFilesOptions;
}

/** A repository whose metadata would leak files if `.git` were walked, plus `.git/info/exclude` rules. */
function initRepository(root: string): void {
  git(root, 'init', '-q');
  writeTree(root, {
    '.git/stray.md': 'metadata is never content\n',
    '.git/info/exclude': 'excluded-by-info.ts\n',
    'excluded-by-info.ts': 'honoured by git and by the walk\n',
  });
}

const MODES: Mode[] = [
  {
    name: 'git mode (ls-files)',
    source: 'git',
    needsGit: true,
    setup: (root) => {
      initRepository(root);
      // Track everything not ignored except two files that stay untracked-but-not-ignored.
      git(root, 'add', '-A', '--', '.', ':!untracked.ts', ':!locked.ts');
    },
    options: {},
  },
  { name: 'walk mode (useGit: false) over a git work tree', source: 'walk', needsGit: true, setup: initRepository, options: { useGit: false } },
  { name: 'walk mode (no repository)', source: 'walk', needsGit: false, setup: () => undefined, options: {} },
];

describe('discoverFiles', function () {
  this.timeout(20_000);
  isolateGitEnvironment();

  for (const mode of MODES) {
    describe(mode.name, () => {
      let root = '';
      let symlinks = true;
      let enforced = true;

      before(function () {
        if (mode.needsGit && !gitAvailable()) this.skip();
        root = makeTempDir();
        enforced = permissionsEnforced(root);
        ({ symlinks } = writeTree(root, TREE));
        mode.setup(root);
      });
      after(() => root && removeTree(root));

      const discover = (extra: DiscoverFilesOptions = {}) => discoverFiles(root, { ...mode.options, ...extra });

      it('lists exactly the eligible files, sorted by code unit', async () => {
        const result = await discover();
        assert.equal(result.source, mode.source);
        assert.deepEqual(paths(result), EXPECTED_FILES);
        if (mode.source === 'git') {
          // The fixture really mixes tracked and untracked-but-not-ignored files.
          assert.deepEqual(git(root, 'ls-files', '--others', '--exclude-standard', '--', '*.ts').split('\n').filter(Boolean), ['locked.ts', 'untracked.ts']);
        }
        const sorted = [...paths(result)].sort();
        assert.deepEqual(paths(result), sorted);
      });

      it('reports secrets, oversized files and symlinks as skips', async () => {
        const result = await discover();
        assert.deepEqual(result.skipped, expectedSkips(symlinks));
      });

      it('reports the stat of each file: size, mtime, ctime, inode and device', async () => {
        const result = await discover();
        const index = result.files.find((f) => f.path === 'src/index.ts');
        const stats = fs.statSync(path.join(root, 'src', 'index.ts'));
        assert.deepEqual(index, { path: 'src/index.ts', size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, dev: stats.dev });
      });

      it('is deterministic across runs', async () => {
        const [a, b] = [await discover(), await discover()];
        assert.deepEqual(a, b);
      });

      it('includes files above the default cap when maxFileBytes is raised', async () => {
        const result = await discover({ maxFileBytes: 3 * 1024 * 1024 });
        assert.equal(result.files.find((f) => f.path === 'big.txt')?.size, TWO_MB);
        assert.ok(!result.skipped.some((s) => s.reason === 'too-large'));
      });

      it('prunes excluded directories, including overridden lists', async () => {
        const result = await discover({ excludeDirs: ['node_modules'] });
        const listed = paths(result);
        assert.ok(!listed.includes('node_modules/pkg/index.js'));
        for (const p of ['foo.egg-info/top_level.txt', 'vendor/lib.go', 'build/out.js', 'pkg/dist/bundle.js']) assert.ok(listed.includes(p), p);
      });

      it('honours include and exclude globs without reporting secrets outside the scope', async () => {
        const included = await discover({ include: ['src/**', 'docs/*.md'] });
        assert.deepEqual(paths(included), ['docs/README.md', 'docs/keep.wip.md', 'docs/naïve café.md', 'src/index.ts', 'src/my file.ts']);
        assert.deepEqual(included.skipped, symlinks ? [{ path: 'src/loop', reason: 'symlink', detail: 'directory' }] : []);
        const excluded = await discover({ exclude: ['**/*.md', 'src/**'] });
        assert.deepEqual(
          paths(excluded),
          EXPECTED_FILES.filter((p) => !p.endsWith('.md') && !p.startsWith('src/')),
        );
      });

      it('honours extra ignore files named in ignoreFiles', async () => {
        fs.writeFileSync(path.join(root, 'src', '.customignore'), 'my file.ts\n');
        try {
          const result = await discover({ ignoreFiles: ['.customignore'] });
          assert.ok(!paths(result).includes('src/my file.ts'));
          // .cairnignore is no longer honoured once the list is overridden.
          assert.ok(paths(result).includes('drafts/a.md'));
        } finally {
          fs.rmSync(path.join(root, 'src', '.customignore'));
        }
      });

      describe('with `only`', () => {
        checkAll<string[], { files: string[]; skipped: string[] }>(
          [
            { input: ['src/index.ts'], expected: { files: ['src/index.ts'], skipped: [] } },
            { input: ['./src/'], expected: { files: ['src/index.ts', 'src/my file.ts'], skipped: ['src/loop'] } },
            { input: ['docs/naïve café.md', 'src/my file.ts'], expected: { files: ['docs/naïve café.md', 'src/my file.ts'], skipped: [] } },
            { input: ['src', 'src/index.ts'], expected: { files: ['src/index.ts', 'src/my file.ts'], skipped: ['src/loop'] } },
            { input: ['missing.ts'], expected: { files: [], skipped: [] } },
            { input: ['src/loop/index.ts', 'src/loop'], expected: { files: [], skipped: ['src/loop'] } },
            { input: ['.env'], expected: { files: [], skipped: ['.env'] } },
            { input: ['node_modules/pkg/index.js'], expected: { files: [], skipped: [] } },
            { input: ['node_modules'], expected: { files: [], skipped: [] } },
            { input: ['ignored-dir/keep.ts'], expected: { files: [], skipped: [] } },
            { input: ['sub/important.generated.ts', 'sub/other.generated.ts'], expected: { files: ['sub/important.generated.ts'], skipped: [] } },
            { input: ['drafts/a.md', 'docs'], expected: { files: ['docs/.cairnignore', 'docs/README.md', 'docs/keep.wip.md', 'docs/naïve café.md'], skipped: [] } },
            { input: ['notes.xyz'], expected: { files: [], skipped: [] } },
            { input: ['../outside.ts'], expected: { files: [], skipped: [] } },
            { input: [], expected: { files: [], skipped: [] } },
          ],
          async (only) => {
            const result = await discover({ only });
            const skipped = result.skipped.map((s) => s.path).filter((p) => symlinks || p !== 'src/loop');
            return { files: paths(result), skipped };
          },
        );

        it('lists everything for `.`', async () => {
          assert.deepEqual(paths(await discover({ only: ['.'] })), EXPECTED_FILES);
        });

        it('keeps `source` truthful for an empty list', async () => {
          assert.equal((await discover({ only: [] })).source, mode.source);
        });
      });

      it('reports an unreadable directory and goes on', async function () {
        if (!enforced) this.skip(); // running as root: chmod 000 does not stop reads
        fs.mkdirSync(path.join(root, 'locked-dir'));
        fs.writeFileSync(path.join(root, 'locked-dir', 'a.ts'), 'a\n');
        fs.chmodSync(path.join(root, 'locked-dir'), 0o000);
        try {
          const result = await discover();
          assert.deepEqual(paths(result), EXPECTED_FILES);
          assert.equal(result.source, mode.source);
          // git warns about the directory on stderr and leaves it out; the walk reports it.
          const reported = result.skipped.filter((s) => s.path === 'locked-dir');
          assert.deepEqual(reported, mode.source === 'git' ? [] : [{ path: 'locked-dir', reason: 'unreadable', detail: 'EACCES' }]);
        } finally {
          fs.chmodSync(path.join(root, 'locked-dir'), 0o755);
          fs.rmSync(path.join(root, 'locked-dir'), { recursive: true });
        }
      });
    });
  }

  describe('git specifics', () => {
    let root = '';
    before(function () {
      if (!gitAvailable()) this.skip();
      root = makeTempDir();
      writeTree(root, {
        'tracked.ts': 'a\n',
        'deleted.ts': 'gone soon\n',
        'forced.ts': 'tracked although ignored\n',
        '.gitignore': 'forced.ts\nignored-root/\n',
        'sm/inside.ts': 'submodule content\n',
        'nested/inner.ts': 'separate repository\n',
        'app/src/a.ts': 'a\n',
        'app/.cairnignore': 'src/skip.ts\n',
        'app/src/skip.ts': 'skipped\n',
        'ignored-root/a.ts': 'indexed when opened on its own\n',
        '.cairnignore': 'app/src/also-skip.ts\n',
        'app/src/also-skip.ts': 'skipped only when root is the repository top\n',
      });
      git(root, 'init', '-q');
      git(root, 'add', 'tracked.ts', 'deleted.ts', '.gitignore', 'app');
      git(root, 'add', '-f', 'forced.ts');
      git(root, 'update-index', '--add', '--cacheinfo', '160000,0123456789012345678901234567890123456789,sm');
      git(path.join(root, 'nested'), 'init', '-q');
      fs.rmSync(path.join(root, 'deleted.ts'));
    });
    after(() => root && removeTree(root));

    it('omits deleted tracked files, submodules and nested repositories; keeps force-added ignored files', async () => {
      const result = await discoverFiles(root);
      assert.equal(result.source, 'git');
      assert.deepEqual(paths(result), ['.cairnignore', '.gitignore', 'app/.cairnignore', 'app/src/a.ts', 'forced.ts', 'tracked.ts']);
      assert.deepEqual(result.skipped, []);
    });

    it('lists relative to a root inside the work tree', async () => {
      const result = await discoverFiles(path.join(root, 'app'));
      assert.equal(result.source, 'git');
      assert.deepEqual(paths(result), ['.cairnignore', 'src/a.ts', 'src/also-skip.ts']);
    });

    it('walks a root that the enclosing repository ignores', async () => {
      const result = await discoverFiles(path.join(root, 'ignored-root'));
      assert.equal(result.source, 'walk');
      assert.deepEqual(paths(result), ['a.ts']);
    });

    it('restricts to `only` within a subdirectory root', async () => {
      const result = await discoverFiles(path.join(root, 'app'), { only: ['src/skip.ts', 'src/a.ts'] });
      assert.deepEqual(paths(result), ['src/a.ts']);
    });
  });

  describe('bad input', () => {
    it('throws a clear error when root does not exist', async () => {
      await assert.rejects(discoverFiles(path.join(makeTempDirGone(), 'nope')), /does not exist/);
    });

    it('throws a clear error when root is a file', async () => {
      const dir = makeTempDir();
      try {
        fs.writeFileSync(path.join(dir, 'f.ts'), 'x');
        await assert.rejects(discoverFiles(path.join(dir, 'f.ts')), /not a directory/);
      } finally {
        removeTree(dir);
      }
    });

    it('rejects with the abort reason when aborted', async () => {
      const dir = makeTempDir();
      try {
        await assert.rejects(discoverFiles(dir, { signal: AbortSignal.abort() }), { name: 'AbortError' });
      } finally {
        removeTree(dir);
      }
    });

    it('never enters a symlink loop and never follows a symlinked directory', async function () {
      const dir = makeTempDir();
      try {
        const { symlinks } = writeTree(dir, { 'a/b.ts': 'b\n', 'a/self': { symlink: '.' }, 'a/up': { symlink: '../a' }, 'c': { symlink: 'c' } });
        if (!symlinks) this.skip();
        const result = await discoverFiles(dir, { useGit: false });
        assert.deepEqual(paths(result), ['a/b.ts']);
        assert.deepEqual(result.skipped, [
          { path: 'a/self', reason: 'symlink', detail: 'directory' },
          { path: 'a/up', reason: 'symlink', detail: 'directory' },
        ]);
      } finally {
        removeTree(dir);
      }
    });
  });
});

/** A temp dir path that no longer exists. */
function makeTempDirGone(): string {
  const dir = makeTempDir();
  fs.rmSync(dir, { recursive: true });
  return dir;
}
