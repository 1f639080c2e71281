// `cairn setup` through the real CLI: a dry run writes nothing, setup writes Claude Code's
// `.mcp.json` beside another server, `--check` starts the configured server as a real process
// and gets its tools, and the failures (invalid JSON, a missing entry, a server that cannot
// start) exit 1 and say why.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, runCairnAsync } from './cli';

// Runs `argv` on a pseudo-terminal (Python's pty module), answering the first `[y/N]` question.
const PTY_DRIVER = `
import os, pty, select, sys
answer, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
out, answered = b'', False
while True:
    ready, _, _ = select.select([fd], [], [], 40)
    if not ready:
        break
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    out += data
    if not answered and b'[y/N]' in out:
        os.write(fd, (answer + '\\n').encode())
        answered = True
os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf8', 'replace'))
`;

function atTerminal(answer: string, argv: string[], env: NodeJS.ProcessEnv): Promise<{ output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', PTY_DRIVER, answer, ...argv], { env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ output: output.replace(/\r\n/g, '\n') }));
  });
}

describe('cairn setup (e2e)', function () {
  this.timeout(60_000);
  let root: string;
  let store: string;
  const env = (): Record<string, string> => ({ CAIRN_STORE: store, CAIRN_REGISTRY_REMOTE: '' });

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-setup-e2e-')));
    store = mkdtempSync(path.join(tmpdir(), 'cairn-setup-store-'));
    writeFileSync(path.join(root, 'app.ts'), 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
  });

  it('claude-code: dry run, setup beside another server, then --check against the real server', async () => {
    const other = '{\n  "mcpServers": {\n    "other": { "command": "other-server" }\n  }\n}\n';
    writeFileSync(path.join(root, '.mcp.json'), other);

    const dry = await runCairnAsync(['setup', 'claude-code', '--root', root, '--dry-run', '--instructions'], { env: env() });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^\+\s+"cairn": \{$/m);
    assert.match(dry.stdout, /^--- \/dev\/null\n\+\+\+ b\/CLAUDE\.md$/m);
    assert.equal(readFileSync(path.join(root, '.mcp.json'), 'utf8'), other);
    assert.equal(existsSync(path.join(root, 'CLAUDE.md')), false);

    const setup = await runCairnAsync(['setup', 'claude', '--root', root, '--instructions'], { env: env() });
    assert.equal(setup.code, 0, setup.stderr);
    const config = JSON.parse(readFileSync(path.join(root, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
    assert.deepEqual(config.mcpServers.other, { command: 'other-server' });
    assert.deepEqual(config.mcpServers.cairn, { command: process.execPath, args: [CLI, 'mcp', '--root', root] });
    assert.match(readFileSync(path.join(root, 'CLAUDE.md'), 'utf8'), /`search_code`/);

    const again = await runCairnAsync(['setup', 'claude', '--root', root], { env: env() });
    assert.equal(again.code, 0);
    assert.match(again.stdout, /\.mcp\.json: cairn is already configured/);

    const check = await runCairnAsync(['setup', '--check', '--root', root], { env: env() });
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /^\.mcp\.json\s+cairn configured$/m);
    assert.match(check.stdout, /^\.vscode\/mcp\.json\s+not present$/m);
    assert.match(check.stdout, /server: answered in \d+ ms with 9 tools \(search_code, find_symbol, find_references, get_context_pack, read_span, /);

    const json = await runCairnAsync(['setup', '--check', 'claude-code', '--root', root, '--json'], { env: env() });
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { clients: Array<{ state: string }>; server: { ok: boolean; tools: string[]; ms: number; serverName: string } };
    assert.deepEqual(report.clients.map((c) => c.state), ['configured']);
    assert.equal(report.server.ok, true);
    assert.equal(report.server.serverName, 'cairn');
    assert.ok(report.server.tools.includes('read_span'));
  });

  it('refuses invalid JSON with its place, writes nothing, exits 1', async () => {
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "a" },\n  }\n}\n';
    writeFileSync(path.join(root, '.mcp.json'), broken);
    const r = await runCairnAsync(['setup', 'claude-code', '--root', root], { env: env() });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^cairn setup: \.mcp\.json:4:3: not valid JSON \(this client reads strict JSON: comments and trailing commas are not allowed\)/m);
    assert.equal(readFileSync(path.join(root, '.mcp.json'), 'utf8'), broken);
  });

  it('adds the entry to a VS Code mcp.json with comments and a trailing comma, keeping both', async () => {
    const mine = '{\n  // my servers\n  "servers": {\n    "a": { "command": "a" }, // theirs\n  },\n}\n';
    const dir = path.join(root, '.vscode');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcp.json'), mine);
    const r = await runCairnAsync(['setup', 'vscode', '--root', root], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    const now = readFileSync(path.join(dir, 'mcp.json'), 'utf8');
    assert.ok(now.startsWith('{\n  // my servers\n  "servers": {\n    "a": { "command": "a" }, // theirs\n    "cairn": {'), now);
    assert.match(now, /\n {4}\},\n {2}\},\n\}\n$/, 'the trailing commas stay');
  });

  it('--check exits 1 when no client is configured, and when the configured server cannot start', async () => {
    const none = await runCairnAsync(['setup', '--check', '--root', root], { env: env() });
    assert.equal(none.code, 1);
    assert.match(none.stdout, /no client here has a "cairn" server/);
    // The server itself still answers: the check tells a missing entry from a broken server.
    assert.match(none.stdout, /server: answered in \d+ ms/);

    writeFileSync(path.join(root, '.mcp.json'), JSON.stringify({ mcpServers: { cairn: { command: process.execPath, args: [CLI, 'mcp', '--no-such-option'] } } }));
    const broken = await runCairnAsync(['setup', '--check', 'claude-code', '--root', root], { env: env() });
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /differently from this Cairn's entry/);
    assert.match(broken.stdout, /server: FAILED: the server exited \(code 2\) before answering/);
  });

  it("--check does not run a command a cloned repository's .vscode/mcp.json names for cairn", async () => {
    const marker = path.join(root, 'ran');
    mkdirSync(path.join(root, '.vscode'));
    writeFileSync(path.join(root, '.vscode', 'mcp.json'), JSON.stringify({ servers: { cairn: { type: 'stdio', command: 'sh', args: ['-c', `touch ${marker}`] } } }));
    const r = await runCairnAsync(['setup', '--check', '--root', root], { env: env() });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^\.vscode\/mcp\.json: sh -c touch .*: not Cairn's entry \(its command is not this Cairn's node and cli\.js\); not run/m);
    // This Cairn's own server is tested instead, and says so.
    assert.match(r.stdout, /^server \(this Cairn's own entry\): .*cli\.js mcp/m);
    assert.match(r.stdout, /server: answered in \d+ ms/);
    assert.equal(existsSync(marker), false, 'the planted command ran');
  });

  // At a terminal (a pseudo-terminal here) --check asks before running such a command, and runs
  // it only on a yes.
  for (const answer of ['n', 'y']) {
    it(`--check at a terminal asks before running another command, answered ${answer}`, async function () {
      if (spawnSync('python3', ['-c', 'import pty']).status !== 0) this.skip(); // no Python, or no pty (Windows)
      const marker = path.join(root, 'ran');
      mkdirSync(path.join(root, '.vscode'));
      writeFileSync(path.join(root, '.vscode', 'mcp.json'), JSON.stringify({ servers: { cairn: { type: 'stdio', command: 'sh', args: ['-c', `touch ${marker}`] } } }));
      const r = await atTerminal(answer, [process.execPath, CLI, 'setup', '--check', '--root', root], { ...process.env, CAIRN_SERVER: '0', ...env() });
      assert.match(r.output, /names "sh -c touch .*" for cairn, which is not this Cairn's entry\. Run it to test it\? \[y\/N\]/);
      if (answer === 'y') assert.match(r.output, /server \(run at your request\): sh -c touch/);
      else assert.match(r.output, /not Cairn's entry \(its command is not this Cairn's node and cli\.js\); not run/);
      assert.equal(existsSync(marker), answer === 'y', r.output);
    });
  }

  it('keeps a 0600 .mcp.json 0600, and refuses a read-only one', async () => {
    const file = path.join(root, '.mcp.json');
    writeFileSync(file, '{\n  "mcpServers": {\n    "other": { "command": "o", "env": { "TOKEN": "s3cret" } }\n  }\n}\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    const r = await runCairnAsync(['setup', 'claude-code', '--root', root], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.match(readFileSync(file, 'utf8'), /"cairn"/);

    const before = '{ "mcpServers": {} }\n';
    writeFileSync(file, before);
    chmodSync(file, 0o444);
    const ro = await runCairnAsync(['setup', 'claude-code', '--root', root], { env: env() });
    assert.equal(ro.code, 1);
    assert.match(ro.stderr, /^cairn setup: \.mcp\.json is read-only \(mode 0444\): cairn setup does not replace it/m);
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal(statSync(file).mode & 0o777, 0o444);
  });

  it('a differing entry needs --force', async () => {
    writeFileSync(path.join(root, '.mcp.json'), '{\n  "mcpServers": {\n    "cairn": { "command": "npx", "args": ["cairn", "mcp"] }\n  }\n}\n');
    const r = await runCairnAsync(['setup', 'claude-code', '--root', root], { env: env() });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /already has a "cairn" server that differs .* --force/);
    assert.match(r.stdout, /^-\s+"cairn": \{ "command": "npx"/m);
    const forced = await runCairnAsync(['setup', 'claude-code', '--root', root, '--force'], { env: env() });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((JSON.parse(readFileSync(path.join(root, '.mcp.json'), 'utf8')) as { mcpServers: { cairn: { command: string } } }).mcpServers.cairn.command, process.execPath);
  });
});
