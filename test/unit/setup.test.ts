// `cairn setup`: for each client with a project configuration file, the fixtures a user has
// (no file, `{}`, other servers, Cairn already there, a differing Cairn entry, invalid JSON; comments and trailing commas, kept where the client reads JSONC)
// and what setup does to them: merges without disturbing the rest, refuses without writing,
// writes nothing on a dry run. Plus the diff, the in-place edit and the instructions section.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { CLIENTS, findClient, serverEntry, type ClientSpec } from '../../src/cli/setup/clients';
import { unifiedDiff } from '../../src/cli/setup/diff';
import { withInstructions, BEGIN, END } from '../../src/cli/setup/instructions';
import { ConfigError } from '../../src/cli/setup/jsonConfig';
import { runSetup, type SetupOptions } from '../../src/cli/setup/plan';
import { checkAll } from './check';

const LAUNCHER = { node: '/opt/node/bin/node', cli: '/opt/cairn/dist/cli.js' };
const DEFAULTS: SetupOptions = { force: false, dryRun: false, instructions: false };

interface Fixture {
  name: string;
  /** The configuration file's text before setup; undefined: no file. */
  before: (client: ClientSpec, root: string) => string | undefined;
  options?: Partial<SetupOptions>;
}

interface Seen {
  status?: string;
  written: boolean;
  /** The file's servers afterwards, by name (undefined: no file). */
  servers?: string[];
  cairnIsThisOne?: boolean;
  fileUnchanged: boolean;
  /** Lines of the original text that are still there, byte for byte. */
  keptLines?: boolean;
  diffAddsCairn?: boolean;
  error?: string;
}

const OTHER_SERVER = (client: ClientSpec): string =>
  `{\n    "${client.serversKey}": {\n        "other": {"command": "uvx", "args": ["other-server"], "env": {"TOKEN": "\${env:TOKEN}"}}\n    },\n    "inputs": [ ]\n}\n`;
const WITH_CAIRN = (client: ClientSpec, root: string, entry: unknown = serverEntry(client, root, LAUNCHER)): string =>
  `${JSON.stringify({ [client.serversKey]: { other: { command: 'x' }, cairn: entry } }, null, 2)}\n`;

const FIXTURES: Fixture[] = [
  { name: 'no file', before: () => undefined },
  { name: 'an empty object', before: () => '{}\n' },
  { name: 'an empty file', before: () => '' },
  { name: 'other servers and keys', before: OTHER_SERVER },
  { name: 'this Cairn already configured', before: (c, root) => WITH_CAIRN(c, root) },
  { name: 'a differing cairn entry, without --force', before: (c, root) => WITH_CAIRN(c, root, { command: 'npx', args: ['cairn', 'mcp'] }) },
  { name: 'a differing cairn entry, with --force', before: (c, root) => WITH_CAIRN(c, root, { command: 'npx', args: ['cairn', 'mcp'] }), options: { force: true } },
  { name: 'a trailing comma', before: (c) => `{\n  "${c.serversKey}": {\n    "other": {"command": "x"},\n  }\n}\n` },
  { name: 'a comment', before: (c) => `{\n  // mine\n  "${c.serversKey}": {}\n}\n` },
  { name: 'not JSON at all', before: () => '{"servers" 1}\n' },
  { name: 'servers that are not an object', before: (c) => `{"${c.serversKey}": []}\n` },
  { name: 'a dry run', before: OTHER_SERVER, options: { dryRun: true } },
];

/** Lines of the original file an edit must keep byte for byte (or with a comma added). */
const KEPT_LINES: Record<string, string[]> = {
  'other servers and keys': ['"other"', '"inputs"'],
  'a comment': ['// mine'],
  'a trailing comma': ['"other"'],
};

function expectedFor(fixture: string, client: ClientSpec): Seen {
  const file = client.configPath!;
  switch (fixture) {
    case 'no file':
      return { status: 'create', written: true, servers: ['cairn'], cairnIsThisOne: true, fileUnchanged: false, diffAddsCairn: true };
    case 'an empty object':
    case 'an empty file':
      return { status: 'update', written: true, servers: ['cairn'], cairnIsThisOne: true, fileUnchanged: false, diffAddsCairn: true };
    case 'other servers and keys':
      return { status: 'update', written: true, servers: ['other', 'cairn'], cairnIsThisOne: true, fileUnchanged: false, keptLines: true, diffAddsCairn: true };
    case 'this Cairn already configured':
      return { status: 'unchanged', written: true, servers: ['other', 'cairn'], cairnIsThisOne: true, fileUnchanged: true };
    case 'a differing cairn entry, without --force':
      return { status: 'conflict', written: false, servers: ['other', 'cairn'], cairnIsThisOne: false, fileUnchanged: true, diffAddsCairn: false };
    case 'a differing cairn entry, with --force':
      return { status: 'update', written: true, servers: ['other', 'cairn'], cairnIsThisOne: true, fileUnchanged: false, diffAddsCairn: false };
    case 'a trailing comma':
      // VS Code reads mcp.json as JSONC: the entry goes in and the file keeps its trailing comma.
      if (client.jsonc) return { status: 'update', written: true, servers: ['other', 'cairn'], cairnIsThisOne: true, fileUnchanged: false, keptLines: true, diffAddsCairn: true };
      return { written: false, fileUnchanged: true, error: `${file}:4:3: not valid JSON (this client reads strict JSON: comments and trailing commas are not allowed); nothing was written` };
    case 'a comment':
      if (client.jsonc) return { status: 'update', written: true, servers: ['cairn'], cairnIsThisOne: true, fileUnchanged: false, keptLines: true, diffAddsCairn: true };
      return { written: false, fileUnchanged: true, error: `${file}:2:3: not valid JSON (this client reads strict JSON: comments and trailing commas are not allowed); nothing was written` };
    case 'not JSON at all':
      return { written: false, fileUnchanged: true, error: `${file}:1:12: not valid JSON (colon expected); nothing was written` };
    case 'servers that are not an object':
      return { written: false, fileUnchanged: true, error: `${file}: "${client.serversKey}" is not a JSON object; nothing was written` };
    case 'a dry run':
      return { status: 'update', written: false, servers: ['other'], fileUnchanged: true, diffAddsCairn: true };
    default:
      throw new Error(fixture);
  }
}

function runFixture(client: ClientSpec, fixture: Fixture): Seen {
  const root = mkdtempSync(path.join(tmpdir(), 'cairn-setup-'));
  try {
    const file = path.join(root, client.configPath!);
    const before = fixture.before(client, root);
    if (before !== undefined) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, before);
    }
    const entry = serverEntry(client, root, LAUNCHER);
    const readNow = (): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    let seen: Seen;
    try {
      const outcome = runSetup(root, client, entry, { ...DEFAULTS, ...fixture.options });
      const change = outcome.changes[0]!;
      const diff = unifiedDiff(change.file, change.before, change.after);
      seen = { status: change.status, written: outcome.written, fileUnchanged: readNow() === before };
      if (seen.status !== 'unchanged' && seen.status !== 'conflict') seen.diffAddsCairn = /^\+\s*"cairn": \{$/m.test(diff);
      if (seen.status === 'conflict' || fixture.name.includes('--force')) seen.diffAddsCairn = /^\+\s*"cairn": \{$/m.test(diff);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      seen = { written: false, fileUnchanged: readNow() === before, error: e.message };
      // Nothing else appeared either: no folder made, no temporary file left.
      if (before === undefined) assert.equal(existsSync(path.dirname(file)), false);
      else assert.deepEqual(readdirSync(path.dirname(file)), [path.basename(file)]);
    }
    const now = readNow();
    if (now !== undefined && !seen.error) {
      const servers = (parseJsonc(now) as Record<string, Record<string, unknown>>)[client.serversKey] ?? {};
      seen.servers = Object.keys(servers);
      if ('cairn' in servers) seen.cairnIsThisOne = JSON.stringify(servers.cairn) === JSON.stringify(entry);
      const keep = KEPT_LINES[fixture.name];
      if (keep) {
        const kept = before!.split('\n').filter((l) => keep.some((k) => l.includes(k)));
        seen.keptLines = kept.length === keep.length && kept.every((l) => now.split('\n').some((n) => n === l || n === `${l},`));
      }
    }
    return seen;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('cairn setup', () => {
  for (const client of CLIENTS.filter((c) => c.configPath)) {
    describe(`${client.name} (${client.configPath})`, () => {
      checkAll(
        FIXTURES.map((f) => ({ name: f.name, input: f, expected: expectedFor(f.name, client) })),
        (f) => runFixture(client, f),
      );
    });
  }

  describe('the entry each client gets', () => {
    checkAll(
      [
        { input: 'vscode', expected: { type: 'stdio', command: LAUNCHER.node, args: [LAUNCHER.cli, 'mcp', '--root', '${workspaceFolder}'] } },
        { input: 'claude', expected: { command: LAUNCHER.node, args: [LAUNCHER.cli, 'mcp', '--root', '/work/repo'] } },
        { input: 'cursor', expected: { command: LAUNCHER.node, args: [LAUNCHER.cli, 'mcp', '--root', '/work/repo'] } },
        { input: 'generic', expected: { command: LAUNCHER.node, args: [LAUNCHER.cli, 'mcp', '--root', '/work/repo'] } },
      ],
      (name) => serverEntry(findClient(name)!, '/work/repo', LAUNCHER),
    );
  });

  it('keeps CRLF line ends and the file\'s indentation when it adds the entry', () => {
    const client = findClient('claude-code')!;
    const root = mkdtempSync(path.join(tmpdir(), 'cairn-setup-'));
    try {
      writeFileSync(path.join(root, '.mcp.json'), '{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "a"}\r\n\t}\r\n}\r\n');
      runSetup(root, client, { command: 'node', args: ['cli.js'] }, DEFAULTS);
      assert.equal(
        readFileSync(path.join(root, '.mcp.json'), 'utf8'),
        '{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "a"},\r\n\t\t"cairn": {\r\n\t\t\t"command": "node",\r\n\t\t\t"args": [\r\n\t\t\t\t"cli.js"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a configuration file that is a symbolic link, and writes nothing', () => {
    const client = findClient('claude-code')!;
    const root = mkdtempSync(path.join(tmpdir(), 'cairn-setup-'));
    const outside = mkdtempSync(path.join(tmpdir(), 'cairn-outside-'));
    try {
      writeFileSync(path.join(outside, 'mcp.json'), '{}\n');
      symlinkSync(path.join(outside, 'mcp.json'), path.join(root, '.mcp.json'));
      assert.throws(() => runSetup(root, client, { command: 'node', args: [] }, DEFAULTS), /\.mcp\.json is a symbolic link/);
      assert.equal(readFileSync(path.join(outside, 'mcp.json'), 'utf8'), '{}\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  describe('unified diff', () => {
    checkAll(
      [
        { name: 'a new file', input: [undefined, 'a\nb\n'] as const, expected: '--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b' },
        { name: 'equal texts', input: ['a\n', 'a\n'] as const, expected: '' },
        { name: 'one changed line among many keeps three lines of context', input: ['1\n2\n3\n4\n5\n6\n7\n8\n', '1\n2\n3\n4\nfive\n6\n7\n8\n'] as const, expected: '--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8' },
        {
          name: 'changes far apart make two hunks',
          input: ['a\n1\n2\n3\n4\n5\n6\n7\n8\nz\n', 'A\n1\n2\n3\n4\n5\n6\n7\n8\nZ\n'] as const,
          expected: '--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-z\n+Z',
        },
      ],
      ([before, after]) => unifiedDiff('f', before, after),
    );
  });

  describe('instructions section', () => {
    const section = withInstructions(undefined);
    checkAll(
      [
        { name: 'a new file is the section alone', input: [undefined, ''] as const, expected: section },
        { name: 'a new Cursor rule starts with its front matter', input: [undefined, '---\nalwaysApply: true\n---\n\n'] as const, expected: `---\nalwaysApply: true\n---\n\n${section}` },
        { name: 'an existing file keeps its text, the section after a blank line', input: ['# Notes\nBe kind.\n', ''] as const, expected: `# Notes\nBe kind.\n\n${section}` },
        { name: 'an old section is replaced, the text around it kept', input: [`# Notes\n\n${BEGIN}\nold advice\n${END}\nMore.\n`, ''] as const, expected: `# Notes\n\n${section}More.\n` },
        { name: 'a second run changes nothing', input: [`# Notes\n\n${section}`, ''] as const, expected: `# Notes\n\n${section}` },
      ],
      ([existing, preamble]) => withInstructions(existing, preamble),
    );

    it('names the four tools to use instead of grep, in 8 to 12 lines', () => {
      const lines = section.split('\n').filter((l) => l && !l.startsWith('<!--'));
      assert.ok(lines.length >= 6 && lines.length <= 12, `${lines.length} lines`);
      for (const tool of ['search_code', 'find_symbol', 'get_context_pack', 'read_span']) assert.match(section, new RegExp(`\`${tool}\``));
      assert.match(section, /grep/);
    });

    it('--instructions writes the file with the configuration, and a conflict writes neither', () => {
      const client = findClient('cursor')!;
      const root = mkdtempSync(path.join(tmpdir(), 'cairn-setup-'));
      try {
        const entry = serverEntry(client, root, LAUNCHER);
        runSetup(root, client, entry, { ...DEFAULTS, instructions: true });
        assert.match(readFileSync(path.join(root, '.cursor/rules/cairn.mdc'), 'utf8'), /^---\ndescription: .*\nalwaysApply: true\n---\n\n<!-- cairn -->\n/);
        rmSync(path.join(root, '.cursor/rules'), { recursive: true });
        const conflict = runSetup(root, client, { command: 'other', args: [] }, { ...DEFAULTS, instructions: true });
        assert.equal(conflict.written, false);
        assert.equal(existsSync(path.join(root, '.cursor/rules')), false);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
