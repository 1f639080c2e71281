// Reads of working-tree and repository-supplied files are bounded: a FIFO where an ignore file,
// a registry config or a registry index was is refused with a diagnostic instead of blocking,
// and a folder replaced by a link to outside the root never serves the outside file's text.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProbeOp } from './helpers/boundedProbe';
import { git, gitAvailable, isolateGitEnvironment, makeTempDir, removeTree, writeTree, type Tree } from './discovery-fixture';

const PROBE = path.join(__dirname, 'helpers', 'boundedProbe.js');
/** Far above what any case takes; a case past it was blocked. */
const TIMEOUT_MS = 10_000;

interface Case {
  name: string;
  tree: Tree;
  fifos?: string[];
  /** Links made after the tree: [path, target relative to the fixture's parent folder]. */
  links?: Array<[string, string]>;
  git?: boolean;
  op: ProbeOp;
  expected: unknown;
}

const SOURCES: Tree = { 'a.ts': 'export const a = 1;\n', 'sub/b.ts': 'export const b = 2;\n' };
const BOTH = ['a.ts', 'sub/b.ts'];
const fifoSkip = (p: string) => ({ path: p, reason: 'not-a-file', detail: 'fifo' });

const CASES: Case[] = [
  { name: 'FIFO as the root .gitignore (walk)', tree: SOURCES, fifos: ['.gitignore'], op: 'discover-walk', expected: { files: BOTH, skipped: [fifoSkip('.gitignore')] } },
  { name: 'FIFO as a subfolder .gitignore (walk)', tree: SOURCES, fifos: ['sub/.gitignore'], op: 'discover-walk', expected: { files: BOTH, skipped: [fifoSkip('sub/.gitignore')] } },
  { name: 'FIFO as .cairnignore (walk)', tree: SOURCES, fifos: ['.cairnignore'], op: 'discover-walk', expected: { files: BOTH, skipped: [fifoSkip('.cairnignore')] } },
  { name: 'FIFO as the root .gitignore (git)', tree: SOURCES, fifos: ['.gitignore'], git: true, op: 'discover', expected: { files: BOTH, skipped: [fifoSkip('.gitignore')] } },
  { name: 'FIFO as a subfolder .gitignore (git)', tree: SOURCES, fifos: ['sub/.gitignore'], git: true, op: 'discover', expected: { files: BOTH, skipped: [fifoSkip('sub/.gitignore')] } },
  { name: 'FIFO as .git/info/exclude (git)', tree: SOURCES, fifos: ['.git/info/exclude'], git: true, op: 'discover', expected: { files: BOTH, skipped: [fifoSkip('.git/info/exclude')] } },
  {
    name: 'FIFO as .agent-context/config.json',
    tree: { 'a.ts': 'x\n', '.agent-context/registry/.keep': '' },
    fifos: ['.agent-context/config.json'],
    op: 'registry-config',
    expected: ['invalid-config: cannot read .agent-context/config.json: ROOT/.agent-context/config.json is a named pipe, not a regular file'],
  },
  {
    name: 'FIFO as registry.json',
    tree: { 'a.ts': 'x\n', '.agent-context/registry/.keep': '' },
    fifos: ['.agent-context/registry/registry.json'],
    op: 'registry-index',
    expected: ['unreadable: cannot read the registry index: REGISTRY/registry.json is a named pipe, not a regular file'],
  },
  {
    name: 'src/ swapped for a link to a folder outside the root: no text',
    tree: { 'root/keep.ts': 'x\n', 'outside/a.ts': 'OUTSIDE TEXT\n' },
    links: [['root/src', 'outside']],
    op: 'preview',
    expected: null,
  },
  {
    name: 'src/ a link to another folder of the root: read as before',
    tree: { 'root/lib/a.ts': 'INSIDE TEXT\n' },
    links: [['root/src', 'root/lib']],
    op: 'preview',
    expected: 'INSIDE TEXT',
  },
];

function mkfifo(file: string): boolean {
  try {
    execFileSync('mkfifo', [file], { stdio: 'ignore' });
    return true;
  } catch {
    return false; // no mkfifo (Windows, where a FIFO cannot sit in a folder)
  }
}

describe('bounded reads: special files and links', function () {
  this.timeout(TIMEOUT_MS + 30_000);
  let base: string;
  isolateGitEnvironment();
  beforeEach(() => (base = makeTempDir()));
  afterEach(() => removeTree(base));

  for (const c of CASES) {
    it(c.name, function () {
      if (c.git && !gitAvailable()) this.skip();
      writeTree(base, c.tree);
      if (c.git) {
        git(base, 'init', '-q');
        git(base, 'add', '.');
      }
      for (const fifo of c.fifos ?? []) {
        fs.rmSync(path.join(base, fifo), { force: true }); // git init writes .git/info/exclude
        if (!mkfifo(path.join(base, fifo))) this.skip();
      }
      for (const [link, target] of c.links ?? []) {
        try {
          fs.symlinkSync(path.join(base, target), path.join(base, link), 'dir');
        } catch {
          this.skip();
        }
      }
      const root = c.links ? path.join(base, 'root') : base;
      const script = `require(${JSON.stringify(PROBE)}).runProbe(${JSON.stringify(c.op)}, ${JSON.stringify(root)}).then((r) => process.stdout.write(JSON.stringify(r)))`;
      const started = Date.now();
      const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: TIMEOUT_MS });
      assert.ok(run.signal === null, `blocked: killed after ${Date.now() - started} ms`);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), c.expected);
    });
  }
});
