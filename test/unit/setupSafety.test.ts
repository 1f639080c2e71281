// `cairn setup`'s safety around files and commands it did not make: a rewrite keeps the file's
// mode, a read-only file or a link is refused with nothing written, and `--check` runs only an
// entry that starts this Cairn (a cloned repository's config can name any command).
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { findClient, serverEntry } from '../../src/cli/setup/clients';
import { runSetup } from '../../src/cli/setup/plan';
import { cairnEntry, type Launcher } from '../../src/cli/setup/probe';
import { checkAll } from './check';

const TOKEN_CONFIG = '{\n  "mcpServers": {\n    "other": { "command": "other", "env": { "TOKEN": "s3cret" } }\n  }\n}\n';

interface ModeCase {
  /** The file's mode before setup; undefined: no file. */
  mode?: number;
  /** `.mcp.json` is a link to a file outside the root. */
  link?: boolean;
}

interface ModeSeen {
  /** The file's mode afterwards, in octal. */
  mode?: string;
  hasCairn: boolean;
  error?: string;
  /** Files in the root afterwards (no temporary left behind). */
  files: string[];
}

function runModeCase(c: ModeCase): ModeSeen {
  const root = mkdtempSync(path.join(tmpdir(), 'cairn-setup-mode-'));
  const outside = mkdtempSync(path.join(tmpdir(), 'cairn-setup-outside-'));
  const file = path.join(root, '.mcp.json');
  try {
    if (c.link) {
      writeFileSync(path.join(outside, 'mcp.json'), TOKEN_CONFIG, { mode: 0o600 });
      symlinkSync(path.join(outside, 'mcp.json'), file);
    } else if (c.mode !== undefined) {
      writeFileSync(file, TOKEN_CONFIG);
      chmodSync(file, c.mode);
    }
    const client = findClient('claude-code')!;
    let error: string | undefined;
    try {
      runSetup(root, client, serverEntry(client, root, { node: '/n/node', cli: '/n/cli.js' }), { force: false, dryRun: false, instructions: false });
    } catch (e) {
      error = (e as Error).message;
    }
    const target = c.link ? path.join(outside, 'mcp.json') : file;
    const seen: ModeSeen = { hasCairn: readFileSync(target, 'utf8').includes('"cairn"'), files: readdirSync(root).sort() };
    if (!c.link) seen.mode = (statSync(file).mode & 0o777).toString(8);
    if (error !== undefined) seen.error = error;
    return seen;
  } finally {
    chmodSync(root, 0o755);
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
}

describe('cairn setup: the file it rewrites', () => {
  checkAll<ModeCase, ModeSeen>(
    [
      { name: 'a 0600 file stays 0600', input: { mode: 0o600 }, expected: { mode: '600', hasCairn: true, files: ['.mcp.json'] } },
      { name: 'a 0640 file stays 0640', input: { mode: 0o640 }, expected: { mode: '640', hasCairn: true, files: ['.mcp.json'] } },
      { name: 'a 0644 file stays 0644', input: { mode: 0o644 }, expected: { mode: '644', hasCairn: true, files: ['.mcp.json'] } },
      {
        name: 'a read-only file is refused, not replaced',
        input: { mode: 0o444 },
        expected: {
          mode: '444',
          hasCairn: false,
          files: ['.mcp.json'],
          error: '.mcp.json is read-only (mode 0444): cairn setup does not replace it; make it writable (chmod u+w .mcp.json) and run again, or add the entry by hand; nothing was written',
        },
      },
      {
        name: 'a link is not followed: the file it points to keeps its text',
        input: { link: true },
        expected: { hasCairn: false, files: ['.mcp.json'], error: '.mcp.json is a symbolic link: edit the file it points to by hand; nothing was written' },
      },
    ],
    runModeCase,
  );

  it('a read-only instructions file stops the configuration being written too', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cairn-setup-mode-'));
    try {
      writeFileSync(path.join(root, 'CLAUDE.md'), '# mine\n');
      chmodSync(path.join(root, 'CLAUDE.md'), 0o444);
      const client = findClient('claude-code')!;
      assert.throws(() => runSetup(root, client, serverEntry(client, root, { node: '/n/node', cli: '/n/cli.js' }), { force: false, dryRun: false, instructions: true }), /CLAUDE\.md is read-only/);
      assert.deepEqual(readdirSync(root).sort(), ['CLAUDE.md']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('cairn setup --check: which entries it runs', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'cairn-check-entry-'));
  // A stand-in install: a node binary, Cairn's cli.js, and a `cairn` link to it on PATH.
  const self: Launcher = { node: path.join(base, 'bin', 'node'), cli: path.join(base, 'cairn', 'dist', 'cli.js') };
  const repo = path.join(base, 'repo');
  for (const dir of ['bin', 'cairn/dist', 'repo/dist', 'repo/bin', 'links']) mkdirSync(path.join(base, dir), { recursive: true });
  for (const f of [self.node, self.cli, path.join(repo, 'dist', 'cli.js'), path.join(repo, 'bin', 'node')]) writeFileSync(f, '', { mode: 0o755 });
  symlinkSync(self.cli, path.join(base, 'bin', 'cairn'));
  symlinkSync(self.cli, path.join(base, 'links', 'cli.js'));
  const envPath = path.join(base, 'bin');
  after(() => rmSync(base, { recursive: true, force: true }));

  const NOT_CAIRN = "not Cairn's entry (its command is not this Cairn's node and cli.js); not run";
  const OTHER_SCRIPT = "not Cairn's entry (Node runs another script than this Cairn's cli.js); not run";
  checkAll<{ command: string; args: string[] }, ReturnType<typeof cairnEntry>>(
    [
      { name: 'the entry setup writes', input: { command: self.node, args: [self.cli, 'mcp', '--root', repo] }, expected: { run: true } },
      { name: 'cli.js through a link', input: { command: self.node, args: [path.join(base, 'links', 'cli.js'), 'mcp'] }, expected: { run: true } },
      { name: '`cairn mcp` found on PATH', input: { command: 'cairn', args: ['mcp', '--root', repo] }, expected: { run: true } },
      { name: 'a shell command', input: { command: 'sh', args: ['-c', 'touch marker'] }, expected: { run: false, reason: NOT_CAIRN } },
      { name: "this node with the repository's cli.js", input: { command: self.node, args: [path.join(repo, 'dist', 'cli.js'), 'mcp'] }, expected: { run: false, reason: OTHER_SCRIPT } },
      { name: 'this node running inline code', input: { command: self.node, args: ['-e', 'require("fs").writeFileSync("m", "")', self.cli, 'mcp'] }, expected: { run: false, reason: OTHER_SCRIPT } },
      { name: "the repository's own binary named node", input: { command: path.join(repo, 'bin', 'node'), args: [self.cli, 'mcp'] }, expected: { run: false, reason: NOT_CAIRN } },
      { name: 'a relative path', input: { command: './bin/node', args: [self.cli, 'mcp'] }, expected: { run: false, reason: NOT_CAIRN } },
      { name: 'npx cairn', input: { command: 'npx', args: ['cairn', 'mcp'] }, expected: { run: false, reason: NOT_CAIRN } },
      { name: 'Cairn, but not its MCP server', input: { command: self.node, args: [self.cli, 'serve'] }, expected: { run: false, reason: "not Cairn's MCP server (no 'mcp' after cli.js); not run" } },
    ],
    (entry) => cairnEntry(entry, self, envPath),
  );
});
