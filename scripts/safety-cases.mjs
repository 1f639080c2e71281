#!/usr/bin/env node
// The safety re-run of issue #36: adversarial cases, each through the real bundled CLI
// (`dist/cli.js`) or `cairn mcp` over stdio, each with a timeout, printed as a pass/fail table
// with the class and the severity. It is a tool, not a test suite: run `node esbuild.mjs`, then
// `node scripts/safety-cases.mjs [--only SUBSTRING] [--json]`. Exit code 1 when a critical or
// high case fails.
//
// Everything happens in one temporary folder (removed at the end); HOME and XDG_CACHE_HOME
// point into it, so no server, registry or cache of the user's is touched, and every server a
// case starts is stopped by its pid.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
/** A run that takes longer was blocked (a normal one here takes well under a second or two). */
const TIMEOUT_MS = 30_000;
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const asJson = args.includes('--json');

if (!fs.existsSync(CLI)) {
  console.error(`${CLI} is missing: run \`node esbuild.mjs\` first`);
  process.exit(2);
}

const BASE = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-safety-')));
const HOME = path.join(BASE, 'home');
fs.mkdirSync(HOME);
const startedServers = new Set();

// --- helpers ------------------------------------------------------------------------------

function baseEnv(extra = {}) {
  const env = { ...process.env, HOME, XDG_CACHE_HOME: path.join(HOME, '.cache'), XDG_CONFIG_HOME: path.join(HOME, '.config'), CAIRN_SERVER: '0', CAIRN_REGISTRY_REMOTE: '', CAIRN_REGISTRY_TRUST_REPO: '' };
  for (const k of ['CAIRN_STORE', 'CAIRN_DEBUG']) delete env[k];
  return { ...env, ...extra };
}

/** Runs `cairn ...argv`; never throws; `timedOut` when it had to be killed. */
function cairn(argv, { cwd, env = {}, input, timeout = TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...argv], { cwd: cwd ?? BASE, env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeout);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const done = (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut, ms: Date.now() - started });
    };
    child.on('close', done);
    // A child of cairn's that outlives it holds the pipes open: a killed run ends at its exit.
    child.on('exit', (code) => timedOut && done(code));
    child.stdin.end(input ?? '');
  });
}

function write(root, rel, content) {
  const file = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

let dirCount = 0;
function freshDir(name) {
  const dir = path.join(BASE, `${String(++dirCount).padStart(3, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 30)}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function git(cwd, ...argv) {
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...argv], { cwd, stdio: 'ignore' });
}

function mkfifo(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
}

/** A small project: one TypeScript file with a known word. */
function project(name, files = {}) {
  const dir = freshDir(name);
  const root = path.join(dir, 'repo');
  const store = path.join(dir, 'store');
  write(root, 'src/app.ts', 'export function startApp(): string {\n  return "quokkaordinary";\n}\n');
  for (const [rel, content] of Object.entries(files)) write(root, rel, content);
  return { dir, root, store };
}

const pass = (detail = '') => ({ ok: true, detail });
const fail = (detail) => ({ ok: false, detail });
const blocked = (r) => (r.timedOut ? fail(`blocked: killed after ${TIMEOUT_MS} ms`) : undefined);
const oneLine = (s) => s.replace(/\s+/g, ' ').trim().slice(0, 140);

/** The pid of the server `serve --list` shows for root, waiting up to 20 s for it to listen. */
async function serverPid(root, env) {
  for (let i = 0; i < 40; i++) {
    const list = await cairn(['serve', '--list', '--json'], { cwd: root, env });
    try {
      const found = (JSON.parse(list.stdout).servers ?? []).find((s) => s.root === root);
      if (found) {
        startedServers.add(found.pid);
        return found.pid;
      }
    } catch {
      // not JSON yet: try again
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return undefined;
}

/** A minimal MCP client over stdio: JSON-RPC lines, with a timeout per request. */
class Mcp {
  constructor(root, store, env = {}) {
    this.child = spawn(process.execPath, [CLI, 'mcp', '--root', root, '--store', store, '--refresh-interval', '3600000'], { cwd: root, env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    this.pending = new Map();
    this.nextId = 1;
    this.stderr = '';
    let buffer = '';
    this.child.stdout.on('data', (d) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let msg;
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        const waiter = this.pending.get(msg.id);
        if (waiter) {
          this.pending.delete(msg.id);
          waiter(msg);
        }
      }
    });
    this.child.stderr.on('data', (d) => (this.stderr += d));
  }
  /** Sends a raw line (for protocol cases) and waits for the reply with `id`, or undefined on timeout. */
  raw(line, id, timeout = TIMEOUT_MS) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(undefined);
      }, timeout);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      this.child.stdin.write(`${line}\n`);
    });
  }
  request(method, params) {
    const id = this.nextId++;
    return this.raw(JSON.stringify({ jsonrpc: '2.0', id, method, params }), id);
  }
  async start() {
    const hello = await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'safety-cases', version: '1' } });
    if (!hello) throw new Error(`cairn mcp did not answer initialize: ${this.stderr}`);
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }
  /** A tool call: {text, isError}, or {timedOut} when no answer came. */
  async call(name, args) {
    const r = await this.request('tools/call', { name, arguments: args });
    if (!r) return { timedOut: true, text: '', isError: true };
    if (r.error) return { text: r.error.message, isError: true };
    return { text: (r.result.content ?? []).map((c) => c.text ?? '').join('\n'), isError: r.result.isError === true };
  }
  close() {
    this.child.stdin.end();
    this.child.kill('SIGTERM');
  }
}

// --- the cases ------------------------------------------------------------------------------

/** @type {Array<{cls: string, sev: string, name: string, run: () => Promise<{ok: boolean, detail: string}>, group?: string}>} */
const cases = [];
const add = (cls, sev, name, run, group) => cases.push({ cls, sev, name, run, group });

// 1. One eligibility rule for every read: each refused file, through four surfaces.
const REFUSED = [
  { path: 'config/local.yaml', marker: 'quokkagitignored' },
  { path: 'private/notes.md', marker: 'quokkaprivatefolder' },
  { path: 'drafts/plan.md', marker: 'quokkacairnignored' },
  { path: 'node_modules/pkg/index.js', marker: 'quokkadependency' },
  { path: 'big.txt', marker: 'quokkaoversized' },
  { path: 'latin1.txt', marker: 'quokkanotutf' },
  { path: '.env', marker: 'quokkadotenv' },
  { path: 'prod.env', marker: 'quokkaprodenv' },
  { path: 'client_secret.json', marker: 'quokkaclientsecret' },
  { path: 'service-account.json', marker: 'quokkaserviceaccount' },
  { path: 'kubeconfig.yaml', marker: 'quokkakubeconfig' },
  { path: 'terraform.tfvars', marker: 'quokkatfvars' },
  { path: 'terraform.tfvars.json', marker: 'quokkatfvarsjson' },
  { path: '.docker/config.json', marker: 'quokkadockerauth' },
  { path: 'token.txt', marker: 'quokkatokenfile' },
  { path: 'wp-config.php', marker: 'quokkawpconfig' },
  { path: 'deploy/secret.yaml', marker: 'quokkak8ssecret' },
  { path: 'deploy/secrets.yaml', marker: 'quokkak8ssecrets' },
  { path: 'id_rsa', marker: 'quokkaidrsa' },
  { path: 'notes.txt', marker: 'quokkadotenv', hardLinkTo: '.env' },
];

let eligible;
/** One fixture (a git work tree) shared by the eligibility cases, built once, and its MCP server. */
async function eligibleFixture() {
  if (eligible) return eligible;
  eligible = (async () => {
    const p = project('eligibility', { '.gitignore': 'config/local.yaml\nprivate/\n', '.cairnignore': 'drafts/\n' });
    for (const f of REFUSED) {
      if (f.hardLinkTo) continue;
      if (f.path === 'big.txt') write(p.root, f.path, `${f.marker}\n${'x'.repeat(99)}\n`.repeat(20_000));
      else if (f.path === 'latin1.txt') write(p.root, f.path, Buffer.concat([Buffer.from(`${f.marker} caf`), Buffer.from([0xe9, 0x0a])]));
      else write(p.root, f.path, `${f.marker}: hunter2\n`);
    }
    for (const f of REFUSED) if (f.hardLinkTo) fs.linkSync(path.join(p.root, f.hardLinkTo), path.join(p.root, f.path));
    git(p.root, 'init', '-q');
    const mcp = new Mcp(p.root, p.store);
    await mcp.start();
    const index = await cairn(['index', '--store', p.store], { cwd: p.root });
    const exported = await cairn(['export', '--format', 'jsonl', '--store', p.store, '--no-refresh'], { cwd: p.root });
    return { ...p, mcp, index, exported };
  })();
  return eligible;
}

for (const f of REFUSED) {
  const what = f.hardLinkTo ? `hard link ${f.path} -> ${f.hardLinkTo}` : f.path;
  add('eligibility', 'critical', `read_span refuses ${what}`, async () => {
    const { mcp } = await eligibleFixture();
    const r = await mcp.call('read_span', { path: f.path });
    if (r.timedOut) return fail('no answer');
    if (r.text.includes(f.marker)) return fail('served its content');
    return r.isError ? pass(oneLine(r.text)) : fail(`not an error: ${oneLine(r.text)}`);
  }, 'eligibility');
  add('eligibility', 'critical', `refresh_index+search_code keep out ${what}`, async () => {
    const { mcp } = await eligibleFixture();
    const refreshed = await mcp.call('refresh_index', { paths: [f.path] });
    if (refreshed.timedOut) return fail('refresh_index did not answer');
    const r = await mcp.call('search_code', { query: f.marker });
    if (r.timedOut) return fail('search_code did not answer');
    return r.text.includes(`${f.marker}:`) || r.text.includes(f.path) ? fail(`search_code returned it: ${oneLine(r.text)}`) : pass();
  }, 'eligibility');
  add('eligibility', 'critical', `cairn search/export keep out ${what}`, async () => {
    const p = await eligibleFixture();
    const r = await cairn(['search', f.marker, '--store', p.store, '--json'], { cwd: p.root });
    if (r.timedOut) return fail('search blocked');
    const hits = JSON.parse(r.stdout || '{"results":[]}').results ?? [];
    if (hits.some((h) => h.path === f.path)) return fail('cairn search returned it');
    if (p.exported.stdout.includes(f.marker)) return fail('cairn export wrote its text');
    return pass();
  }, 'eligibility');
}

// 2. Cairn deletes only what it created: a store on a user's folder.
for (const [name, userFiles] of [
  ['a folder holding manifest.json', { 'manifest.json': '{"name":"my app"}' }],
  ['a folder holding state-machine.json', { 'state-machine.json': '{"states":[]}' }],
  ['a folder holding state-2024.json and build.tmp', { 'state-2024.json': '{}', 'build.tmp': 'x' }],
  ['a folder holding notes.md', { 'notes.md': '# mine' }],
  ['a folder holding cairn-store.json that is not Cairn\'s', { 'cairn-store.json': '{"mine":true}', 'keep.txt': 'k' }],
]) {
  add('store', 'critical', `--store on ${name}: refused, nothing removed`, async () => {
    const p = project(`store-${name}`);
    const user = path.join(p.dir, 'user');
    for (const [rel, content] of Object.entries(userFiles)) write(user, rel, content);
    const r = await cairn(['index', '--store', user], { cwd: p.root });
    if (r.timedOut) return fail('blocked');
    for (const [rel, content] of Object.entries(userFiles)) {
      if (!fs.existsSync(path.join(user, rel)) || fs.readFileSync(path.join(user, rel), 'utf8') !== content) return fail(`${rel} was removed or changed`);
    }
    const extra = fs.readdirSync(user).filter((n) => !(n in userFiles));
    if (r.code === 0) return fail(`accepted; wrote ${extra.join(', ')}`);
    return extra.length ? fail(`refused but wrote ${extra.join(', ')}`) : pass(oneLine(r.stderr));
  });
}
add('store', 'critical', '--store through a link to a user folder holding manifest.json', async () => {
  const p = project('store-link');
  const user = path.join(p.dir, 'user');
  write(user, 'manifest.json', '{"mine":1}');
  fs.symlinkSync(user, path.join(p.dir, 'link'));
  const r = await cairn(['index', '--store', path.join(p.dir, 'link')], { cwd: p.root });
  if (r.timedOut) return fail('blocked');
  return fs.readFileSync(path.join(user, 'manifest.json'), 'utf8') === '{"mine":1}' && r.code !== 0 ? pass(oneLine(r.stderr)) : fail(`code ${r.code}; manifest ${fs.existsSync(path.join(user, 'manifest.json')) ? 'changed' : 'gone'}`);
});
add('store', 'critical', '--store . in a project with a manifest.json of its own', async () => {
  const p = project('store-dot', { 'manifest.json': '{"app":1}' });
  const r = await cairn(['index', '--store', '.'], { cwd: p.root });
  if (r.timedOut) return fail('blocked');
  return fs.readFileSync(path.join(p.root, 'manifest.json'), 'utf8') === '{"app":1}' && r.code !== 0 ? pass(oneLine(r.stderr)) : fail(`code ${r.code}`);
});
add('store', 'critical', '--store naming a file of the user\'s: one line, file kept', async () => {
  const p = project('store-file');
  const file = write(p.dir, 'mine.txt', 'mine');
  const r = await cairn(['index', '--store', file], { cwd: p.root });
  if (r.timedOut) return fail('blocked');
  return fs.readFileSync(file, 'utf8') === 'mine' && r.code !== 0 && !/\n\s+at /.test(r.stderr) ? pass(oneLine(r.stderr)) : fail(`code ${r.code}: ${oneLine(r.stderr)}`);
});
add('store', 'high', 'one store, two roots: the second is refused, the first keeps answering', async () => {
  const a = project('two-roots-a');
  const b = project('two-roots-b');
  write(b.root, 'src/other.ts', 'export const onlyInB = "quokkarootb";\n');
  const store = path.join(a.dir, 'shared-store');
  const first = await cairn(['index', '--store', store], { cwd: a.root });
  const second = await cairn(['index', '--store', store], { cwd: b.root });
  const again = await cairn(['search', 'quokkaordinary', '--store', store, '--json'], { cwd: a.root });
  if (first.code !== 0) return fail(`first index failed: ${oneLine(first.stderr)}`);
  if (second.code === 0) return fail('the second root was indexed into the first root\'s store');
  const hits = JSON.parse(again.stdout || '{"results":[]}').results ?? [];
  return hits.length ? pass(oneLine(second.stderr)) : fail('root A lost its answers');
});

// 3. Special files never hang a read: FIFOs as ignore, config, registry and store files.
const FIFO_IN_TREE = [
  { name: 'root .gitignore, no git', fifo: '.gitignore', git: false, sev: 'critical' },
  { name: 'root .gitignore, git', fifo: '.gitignore', git: true, sev: 'critical' },
  { name: 'subfolder .gitignore, git, tracked folder', fifo: 'src/.gitignore', git: true, sev: 'critical' },
  { name: 'subfolder .gitignore, git, folder of untracked files only', fifo: 'fresh/.gitignore', git: true, untracked: 'fresh/new.ts', sev: 'critical' },
  { name: '.cairnignore, git', fifo: '.cairnignore', git: true, sev: 'critical' },
  { name: '.cairnignore, no git', fifo: '.cairnignore', git: false, sev: 'critical' },
  { name: '.git/info/exclude', fifo: '.git/info/exclude', git: true, sev: 'critical' },
  { name: 'a source file', fifo: 'src/pipe.ts', git: false, sev: 'critical' },
  { name: 'a source file, git, untracked', fifo: 'src/pipe.ts', git: true, sev: 'critical' },
];
for (const c of FIFO_IN_TREE) {
  add('fifo', c.sev, `FIFO as ${c.name}: index and search finish`, async () => {
    const p = project(`fifo-${c.name}`);
    if (c.git) {
      git(p.root, 'init', '-q');
      git(p.root, 'add', '.');
      git(p.root, 'commit', '-q', '-m', 'x');
    }
    if (c.untracked) write(p.root, c.untracked, 'export const untrackedWord = "quokkauntracked";\n');
    if (c.fifo === '.git/info/exclude') fs.rmSync(path.join(p.root, c.fifo), { force: true });
    mkfifo(path.join(p.root, c.fifo));
    const r = await cairn(['index', '--store', p.store, '--json'], { cwd: p.root, timeout: 15_000 });
    if (r.timedOut) return fail('cairn index blocked');
    if (r.code !== 0) return fail(`index failed: ${oneLine(r.stderr)}`);
    if (fs.existsSync(path.join(p.store, 'write.lock'))) return fail('write.lock left behind');
    const s = await cairn(['search', c.untracked ? 'quokkauntracked' : 'quokkaordinary', '--store', p.store, '--json'], { cwd: p.root, timeout: 15_000 });
    if (s.timedOut) return fail('refreshing search blocked');
    const hits = JSON.parse(s.stdout || '{"results":[]}').results ?? [];
    return hits.length ? pass() : fail('the file was not found');
  });
}
add('fifo', 'critical', 'FIFO .gitignore above the root (git work tree): a diagnostic, no hang', async () => {
  const dir = freshDir('fifo-above');
  write(dir, 'top/sub/src/app.ts', 'export const x = "quokkaabove";\n');
  git(path.join(dir, 'top'), 'init', '-q');
  mkfifo(path.join(dir, 'top', '.gitignore'));
  const root = path.join(dir, 'top', 'sub');
  const r = await cairn(['index', '--store', path.join(dir, 'store'), '--json'], { cwd: root, timeout: 15_000 });
  if (r.timedOut) return fail('cairn index blocked');
  if (r.code !== 0) return fail(`index failed: ${oneLine(r.stderr)}`);
  return /\.gitignore/.test(r.stdout + r.stderr) ? pass() : fail('no diagnostic names the special .gitignore');
});
for (const [name, rel] of [
  ['.agent-context/config.json', '.agent-context/config.json'],
  ['registry.json', '.agent-context/registry/registry.json'],
]) {
  add('fifo', 'critical', `FIFO as ${name}: cairn context search finishes`, async () => {
    const p = project(`fifo-${name}`);
    mkfifo(path.join(p.root, rel));
    const r = await cairn(['context', 'search', 'anything', '--store', p.store], { cwd: p.root, timeout: 15_000 });
    return blocked(r) ?? (/\n\s+at /.test(r.stderr) ? fail('stack trace') : pass(oneLine(r.stderr)));
  });
}
for (const name of ['manifest.json', 'cairn-store.json', 'write.lock', 'state']) {
  add('fifo', 'critical', `FIFO as the store's ${name}: a diagnostic, never a hang`, async () => {
    const p = project(`fifo-store-${name}`);
    const first = await cairn(['index', '--store', p.store], { cwd: p.root });
    if (first.code !== 0) return fail(`first index failed: ${oneLine(first.stderr)}`);
    let target = path.join(p.store, name);
    if (name === 'state') {
      const state = fs.readdirSync(p.store).find((n) => /^state-.*\.cstate$/.test(n));
      if (!state) return fail(`no state file in ${fs.readdirSync(p.store).join(', ')}`);
      target = path.join(p.store, state);
    }
    fs.rmSync(target, { force: true });
    mkfifo(target);
    for (const argv of [['search', 'quokkaordinary'], ['status'], ['index']]) {
      const r = await cairn([...argv, '--store', p.store], { cwd: p.root, timeout: 10_000 });
      if (r.timedOut) return fail(`cairn ${argv[0]} blocked`);
      if (/\n\s+at /.test(r.stderr)) return fail(`cairn ${argv[0]}: stack trace`);
    }
    return pass();
  });
}

// 4. No path component is followed out of the root.
add('links', 'critical', 'src/ swapped for a link out of the root: search/pack/export --no-refresh and read_span', async () => {
  const p = project('swap');
  const outside = path.join(p.dir, 'outside');
  write(outside, 'app.ts', 'export function startApp(): string {\n  return "OUTSIDE_SECRET";\n}\n');
  const indexed = await cairn(['index', '--store', p.store], { cwd: p.root });
  if (indexed.code !== 0) return fail(oneLine(indexed.stderr));
  fs.rmSync(path.join(p.root, 'src'), { recursive: true });
  fs.symlinkSync(outside, path.join(p.root, 'src'), 'dir');
  for (const argv of [['search', 'startApp', '--no-refresh'], ['search', 'startApp', '--no-refresh', '--json'], ['pack', 'startApp', '--no-refresh'], ['export', '--format', 'jsonl', '--no-refresh'], ['symbol', 'startApp', '--no-refresh'], ['search', 'startApp']]) {
    const r = await cairn([...argv, '--store', p.store], { cwd: p.root });
    if (r.timedOut) return fail(`${argv.join(' ')} blocked`);
    if ((r.stdout + r.stderr).includes('OUTSIDE_SECRET')) return fail(`cairn ${argv.join(' ')} showed the outside text`);
  }
  const mcp = new Mcp(p.root, p.store);
  try {
    await mcp.start();
    const r = await mcp.call('read_span', { path: 'src/app.ts' });
    return r.text.includes('OUTSIDE_SECRET') ? fail('read_span showed the outside text') : pass();
  } finally {
    mcp.close();
  }
});
add('links', 'critical', 'a file symlink to outside the root is neither indexed nor read', async () => {
  const p = project('file-link');
  const outside = write(p.dir, 'outside/secret.ts', 'export const quokkalinked = "OUTSIDE_LINKED";\n');
  fs.symlinkSync(outside, path.join(p.root, 'src', 'linked.ts'));
  const r = await cairn(['search', 'quokkalinked', '--store', p.store], { cwd: p.root });
  if (r.timedOut) return fail('blocked');
  if (r.stdout.includes('OUTSIDE_LINKED')) return fail('search showed it');
  const mcp = new Mcp(p.root, p.store);
  try {
    await mcp.start();
    const s = await mcp.call('read_span', { path: 'src/linked.ts' });
    return s.text.includes('OUTSIDE_LINKED') ? fail('read_span showed it') : pass(oneLine(s.text));
  } finally {
    mcp.close();
  }
});
for (const bad of ['../outside/secret.ts', '/etc/passwd', 'src/../../outside/secret.ts', 'src/app.ts\u0000x']) {
  add('links', 'critical', `read_span refuses ${JSON.stringify(bad)}`, async () => {
    const { mcp } = await eligibleFixture();
    const r = await mcp.call('read_span', { path: bad });
    return r.isError && !/root:x:0/.test(r.text) ? pass(oneLine(r.text)) : fail(oneLine(r.text));
  }, 'eligibility');
}
add('links', 'high', 'the store folder as a symlink into the root is not indexed', async () => {
  const p = project('store-in-root');
  const r = await cairn(['index', '--store', path.join(p.root, '.cairn-store'), '--json'], { cwd: p.root });
  const again = await cairn(['index', '--store', path.join(p.root, '.cairn-store'), '--json'], { cwd: p.root });
  if (r.timedOut || again.timedOut) return fail('blocked');
  const report = JSON.parse(again.stdout || '{}');
  return report.files === 1 ? pass() : fail(`files ${report.files}`);
});

// 5. Bounded waits and servers.
add('server', 'critical', 'a stopped server (SIGSTOP): a client answers within 1.5 s of an in-process one', async () => {
  const p = project('sigstop');
  const env = { CAIRN_SERVER: '1' };
  // What an answer without a server costs on this machine now (it is shared and loaded).
  const baseline = await cairn(['search', 'quokkaordinary', '--store', p.store, '--no-server'], { cwd: p.root });
  const first = await cairn(['search', 'quokkaordinary', '--store', p.store], { cwd: p.root, env });
  if (first.code !== 0) return fail(oneLine(first.stderr));
  // The pid file stands only for a server starting; the registry lists it once it listens.
  const pid = await serverPid(p.root, env);
  if (pid === undefined) return fail('no server started');
  // Let it finish starting before it is stopped.
  await cairn(['status', '--store', p.store], { cwd: p.root, env });
  process.kill(pid, 'SIGSTOP');
  try {
    const r = await cairn(['search', 'quokkaordinary', '--store', p.store], { cwd: p.root, env });
    if (r.timedOut) return fail('blocked');
    const bound = baseline.ms + 1500;
    return r.ms < bound && r.stdout.includes('src/app.ts') ? pass(`${r.ms} ms (in-process ${baseline.ms} ms)`) : fail(`${r.ms} ms (in-process ${baseline.ms} ms): ${oneLine(r.stdout + r.stderr)}`);
  } finally {
    process.kill(pid, 'SIGCONT');
    process.kill(pid, 'SIGTERM');
    startedServers.delete(pid);
  }
});
add('server', 'high', 'serve --list and serve --stop see and stop a started server', async () => {
  const p = project('serve-list');
  const env = { CAIRN_SERVER: '1' };
  await cairn(['search', 'quokkaordinary', '--store', p.store], { cwd: p.root, env });
  // The pid file stands only for a server starting; the registry lists it once it listens.
  const pid = await serverPid(p.root, env);
  if (pid === undefined) return fail('no server started');
  const list = await cairn(['serve', '--list', '--json'], { cwd: p.root, env });
  if (!list.stdout.includes(String(pid))) return fail(`--list does not show ${pid}`);
  const stop = await cairn(['serve', '--stop', '--root', p.root, '--store', p.store], { cwd: p.root, env });
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      startedServers.delete(pid);
      return pass();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return fail(`still running after --stop: ${oneLine(stop.stdout + stop.stderr)}`);
});
add('server', 'medium', 'serve.log through a symbolic link is not written', async () => {
  const p = project('serve-log-link');
  await cairn(['index', '--store', p.store], { cwd: p.root });
  const victim = write(p.dir, 'victim.txt', 'untouched');
  fs.symlinkSync(victim, path.join(p.store, 'serve.log'));
  const r = await cairn(['serve', '--store', p.store, '--idle-timeout', '0.02'], { cwd: p.root, timeout: 8000 });
  if (fs.readFileSync(victim, 'utf8') !== 'untouched') return fail('written through the link');
  return pass(r.timedOut ? 'server ran until killed' : oneLine(r.stderr));
});

// 6. Change detection as safe as git's.
for (const [name, surface] of [['cairn search', 'cli'], ['MCP search_code', 'mcp']]) {
  add('freshness', 'high', `same-size rewrite with mtime put back (touch -d): ${name} sees it`, async () => {
    const p = project(`touch-${surface}`);
    const file = path.join(p.root, 'src', 'app.ts');
    await cairn(['index', '--store', p.store], { cwd: p.root });
    const before = fs.statSync(file);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('quokkaordinary', 'quokkarewrite1'));
    fs.utimesSync(file, before.atime, before.mtime);
    if (surface === 'cli') {
      const r = await cairn(['search', 'quokkarewrite1', '--store', p.store, '--json'], { cwd: p.root });
      return (JSON.parse(r.stdout || '{"results":[]}').results ?? []).length ? pass() : fail('old content served');
    }
    const mcp = new Mcp(p.root, p.store);
    try {
      await mcp.start();
      await mcp.call('refresh_index', {});
      const r = await mcp.call('search_code', { query: 'quokkarewrite1' });
      return r.text.includes('src/app.ts') ? pass() : fail(`old content served: ${oneLine(r.text)}`);
    } finally {
      mcp.close();
    }
  });
}

// 7. Setup keeps modes and never runs a repository's commands.
add('setup', 'high', 'setup keeps a 0600 .mcp.json 0600', async () => {
  const p = project('setup-mode', { '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'x', env: { TOKEN: 'secret' } } } }) });
  fs.chmodSync(path.join(p.root, '.mcp.json'), 0o600);
  const r = await cairn(['setup', 'claude-code', '--root', p.root], { cwd: p.root });
  const mode = fs.statSync(path.join(p.root, '.mcp.json')).mode & 0o777;
  return mode === 0o600 ? pass(`code ${r.code}`) : fail(`mode is now ${mode.toString(8)}`);
});
add('setup', 'high', 'setup refuses a read-only config and writes nothing', async () => {
  const p = project('setup-ro', { '.mcp.json': '{"mcpServers":{}}' });
  fs.chmodSync(path.join(p.root, '.mcp.json'), 0o444);
  const r = await cairn(['setup', 'claude-code', '--root', p.root], { cwd: p.root });
  return fs.readFileSync(path.join(p.root, '.mcp.json'), 'utf8') === '{"mcpServers":{}}' && r.code !== 0 ? pass(oneLine(r.stderr)) : fail(`code ${r.code}`);
});
add('setup', 'high', 'setup refuses a symlinked config', async () => {
  const p = project('setup-link');
  const victim = write(p.dir, 'victim.json', '{"mcpServers":{}}');
  fs.symlinkSync(victim, path.join(p.root, '.mcp.json'));
  const r = await cairn(['setup', 'claude-code', '--root', p.root], { cwd: p.root });
  return fs.readFileSync(victim, 'utf8') === '{"mcpServers":{}}' ? pass(`code ${r.code}`) : fail('written through the link');
});
for (const [file, body] of [
  ['.vscode/mcp.json', (cmd) => JSON.stringify({ servers: { cairn: { type: 'stdio', command: 'sh', args: ['-c', cmd] } } })],
  ['.mcp.json', (cmd) => JSON.stringify({ mcpServers: { cairn: { command: 'sh', args: ['-c', cmd] } } })],
  ['.cursor/mcp.json', (cmd) => JSON.stringify({ mcpServers: { cairn: { command: 'sh', args: ['-c', cmd] } } })],
]) {
  add('setup', 'high', `setup --check never runs the command ${file} names`, async () => {
    const p = project(`setup-check-${file}`);
    const marker = path.join(p.dir, 'ran');
    write(p.root, file, body(`touch ${marker}`));
    const r = await cairn(['setup', '--check', '--root', p.root], { cwd: p.root, timeout: 15_000 });
    if (r.timedOut) return fail('blocked');
    return fs.existsSync(marker) ? fail('the repository\'s command ran') : pass();
  });
}

// 8. Repository-supplied configuration stays inside the repository.
add('registry', 'medium', 'a repository config pointing registryDir outside the root is ignored', async () => {
  const p = project('registry-outside');
  const outside = path.join(p.dir, 'outside-registry');
  write(outside, 'registry.json', JSON.stringify({ schemaVersion: 1, entries: [] }));
  write(p.root, '.agent-context/config.json', JSON.stringify({ registryDir: outside }));
  const r = await cairn(['context', 'search', 'x', '--json'], { cwd: p.root });
  return /config-ignored/.test(r.stdout + r.stderr) ? pass() : fail(oneLine(r.stdout + r.stderr));
});
add('registry', 'medium', 'a repository config naming a remote is not contacted', async () => {
  const p = project('registry-remote');
  let requests = 0;
  const server = http.createServer((_q, res) => {
    requests++;
    res.end('{}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    write(p.root, '.agent-context/config.json', JSON.stringify({ remotes: [{ url: `http://127.0.0.1:${server.address().port}/registry.json` }] }));
    await cairn(['context', 'search', 'x'], { cwd: p.root });
    return requests === 0 ? pass() : fail(`${requests} requests`);
  } finally {
    server.close();
  }
});

// 9. Terminal output escapes control and bidi characters.
for (const [name, fileName] of [
  ['a line feed', 'src/evil\nsrc/forged.ts:1: fake.ts'],
  ['U+202E', 'src/evil\u202Egnp.ts'],
  ['an escape sequence', 'src/evil\u001b[31mred.ts'],
  ['a carriage return', 'src/evil\rcr.ts'],
]) {
  add('terminal', 'medium', `a file name with ${name} reaches the terminal escaped`, async () => {
    const p = project(`name-${name}`);
    write(p.root, fileName, 'export const quokkaevilname = 1;\n');
    const r = await cairn(['search', 'quokkaevilname', '--store', p.store], { cwd: p.root });
    if (r.timedOut) return fail('blocked');
    if (!r.stdout.includes('evil')) return fail(`not found: ${oneLine(r.stdout)}`);
    // A raw line feed in the name would start a row of its own, forging a `path:line`.
    const forged = r.stdout.split('\n').some((l) => l.startsWith('src/forged.ts'));
    return forged || ['\u202e', '\u001b', '\r'].some((c) => r.stdout.includes(c)) ? fail('raw character printed') : pass();
  });
}
add('terminal', 'medium', 'file text with escape sequences is escaped in previews', async () => {
  const p = project('text-escape');
  write(p.root, 'src/esc.ts', 'export const quokkaescape = "\u001b]0;pwned\u0007\u202e";\n');
  const r = await cairn(['search', 'quokkaescape', '--store', p.store], { cwd: p.root });
  return r.stdout.includes('\u001b') || r.stdout.includes('\u202e') ? fail('raw characters printed') : pass();
});

// 10. Export edge cases.
add('export', 'medium', 'export --out naming a folder: one line, no stack trace', async () => {
  const p = project('export-dir');
  const r = await cairn(['export', '--format', 'jsonl', '--out', p.dir, '--store', p.store], { cwd: p.root });
  return r.code !== 0 && !/\n\s+at /.test(r.stderr) && r.stderr.trim().split('\n').length <= 2 ? pass(oneLine(r.stderr)) : fail(`code ${r.code}: ${oneLine(r.stderr)}`);
});
add('export', 'medium', 'export of a 746 KB minified line writes less than 2 MB', async () => {
  const p = project('export-minified');
  // A running length: joining the parts on every turn blocked this runner's event loop long
  // enough for the cases running beside it to time out.
  const parts = [];
  for (let i = 0, length = 0; length < 746_000; i++) {
    parts.push(`function f${i}(a,b){return a.x${i}+b.y${i}*${i}}var v${i}=f${i}({x${i}:1},{y${i}:2});`);
    length += parts[i].length;
  }
  write(p.root, 'lib/app.min.js', `${parts.join('')}quokkaminified();`);
  const r = await cairn(['export', '--format', 'jsonl', '--store', p.store], { cwd: p.root });
  if (r.timedOut) return fail('blocked');
  const bytes = Buffer.byteLength(r.stdout);
  const search = await cairn(['search', 'quokkaminified', '--store', p.store, '--json'], { cwd: p.root });
  const hit = (JSON.parse(search.stdout || '{"results":[]}').results ?? []).find((h) => h.path === 'lib/app.min.js');
  if (!hit) return fail(`${(bytes / 1e6).toFixed(1)} MB; search does not find a word of it`);
  return bytes < 2_000_000 ? pass(`${(bytes / 1e6).toFixed(2)} MB`) : fail(`${(bytes / 1e6).toFixed(1)} MB`);
});
add('export', 'medium', 'export of a corrupted store says it rebuilt', async () => {
  const p = project('export-corrupt');
  await cairn(['index', '--store', p.store], { cwd: p.root });
  fs.writeFileSync(path.join(p.store, 'manifest.json'), '{not json');
  const r = await cairn(['export', '--format', 'jsonl', '--store', p.store], { cwd: p.root });
  return /rebuil|discard/i.test(r.stderr) && r.stdout.includes('quokkaordinary') ? pass(oneLine(r.stderr)) : fail(`code ${r.code}: ${oneLine(r.stderr)}`);
});
add('export', 'low', 'export of an empty root writes nothing and succeeds', async () => {
  const dir = freshDir('export-empty');
  fs.mkdirSync(path.join(dir, 'repo'));
  const r = await cairn(['export', '--format', 'jsonl', '--store', path.join(dir, 'store')], { cwd: path.join(dir, 'repo') });
  return r.code === 0 && r.stdout === '' ? pass() : fail(`code ${r.code}: ${oneLine(r.stdout + r.stderr)}`);
});
add('export', 'medium', 'export --out through a symlink to a user file is refused or leaves it', async () => {
  const p = project('export-out-link');
  const victim = write(p.dir, 'victim.txt', 'untouched');
  fs.symlinkSync(victim, path.join(p.dir, 'out.jsonl'));
  const r = await cairn(['export', '--format', 'jsonl', '--out', path.join(p.dir, 'out.jsonl'), '--store', p.store], { cwd: p.root });
  // Writing where the user pointed is the user's choice; a crash is not.
  return !/\n\s+at /.test(r.stderr) ? pass(`code ${r.code}`) : fail('stack trace');
});

// 11. MCP protocol: nothing goes unanswered.
for (const [name, line, id] of [
  ['"jsonrpc": "1.0"', JSON.stringify({ jsonrpc: '1.0', id: 901, method: 'tools/list' }), 901],
  ['string params', JSON.stringify({ jsonrpc: '2.0', id: 902, method: 'tools/list', params: 'x' }), 902],
  ['unknown method', JSON.stringify({ jsonrpc: '2.0', id: 903, method: 'no/such' }), 903],
  ['unknown tool', JSON.stringify({ jsonrpc: '2.0', id: 904, method: 'tools/call', params: { name: 'nope', arguments: {} } }), 904],
  ['read_span with extra argument', JSON.stringify({ jsonrpc: '2.0', id: 905, method: 'tools/call', params: { name: 'read_span', arguments: { path: 'src/app.ts', evil: 1 } } }), 905],
]) {
  add('mcp', 'medium', `an MCP request with ${name} gets a reply`, async () => {
    const { mcp } = await eligibleFixture();
    const r = await mcp.raw(line, id, 5000);
    return r ? pass(oneLine(JSON.stringify(r.error ?? r.result).slice(0, 100))) : fail('no reply');
  }, 'eligibility');
}
add('mcp', 'low', 'a line that is not JSON gets a parse error', async () => {
  const { mcp } = await eligibleFixture();
  const r = await mcp.raw('{not json', null, 5000);
  return r?.error?.code === -32700 ? pass() : fail(JSON.stringify(r));
}, 'eligibility');

// 12. Secret names on the CLI path, one fixture each (fast, outside git).
for (const name of ['.env.local', 'credentials.json', '.npmrc', '.pypirc', 'id_ed25519', 'server.pem', 'server.key', '.netrc', 'secrets.json', '.aws/credentials', '.htpasswd', 'keystore.jks']) {
  add('secrets', 'high', `${name} is not indexed`, async () => {
    const p = project(`secret-${name}`);
    write(p.root, name, 'quokkasecretword = hunter2\n');
    const r = await cairn(['search', 'quokkasecretword', '--store', p.store, '--json'], { cwd: p.root });
    if (r.timedOut) return fail('blocked');
    const hits = JSON.parse(r.stdout || '{"results":[]}').results ?? [];
    return hits.length ? fail(`served from ${hits[0].path}`) : pass();
  });
}

// --- running ------------------------------------------------------------------------------

const selected = cases.filter((c) => !only || `${c.cls} ${c.name}`.includes(only));
const CONCURRENCY = 3;
const results = new Array(selected.length);
let next = 0;
const startAll = Date.now();

async function worker() {
  while (next < selected.length) {
    const i = next++;
    const c = selected[i];
    const t = Date.now();
    let r;
    try {
      r = await Promise.race([c.run(), new Promise((resolve) => setTimeout(() => resolve(fail('case timed out')), 4 * TIMEOUT_MS))]);
    } catch (e) {
      r = fail(`threw: ${oneLine(String(e?.stack ?? e))}`);
    }
    results[i] = { ...c, ...r, ms: Date.now() - t };
    if (!asJson) process.stderr.write(r.ok ? '.' : 'F');
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
if (eligible) (await eligible).mcp.close();
for (const pid of startedServers) {
  try {
    process.kill(pid, 'SIGCONT');
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
// A server just told to stop may still be writing its store: give it a moment, then retry.
await new Promise((r) => setTimeout(r, 1000));
try {
  fs.rmSync(BASE, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
} catch (e) {
  console.error(`could not remove ${BASE}: ${e.message}`);
}

const failedSerious = results.filter((r) => !r.ok && (r.sev === 'critical' || r.sev === 'high'));
if (asJson) {
  console.log(JSON.stringify(results.map(({ cls, sev, name, ok, detail, ms }) => ({ cls, sev, name, ok, detail, ms }))));
} else {
  process.stderr.write('\n');
  const rows = results.map((r) => [r.ok ? 'pass' : 'FAIL', r.sev, r.cls, r.name, `${r.ms} ms`, r.detail]);
  const widths = [4, 8, 11];
  for (const row of rows) console.log(`${row[0].padEnd(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2].padEnd(widths[2])}  ${row[3]}  (${row[4]})${row[0] === 'FAIL' ? `\n${' '.repeat(29)}-> ${row[5]}` : ''}`);
  const byClass = {};
  for (const r of results) (byClass[r.cls] ??= { pass: 0, fail: 0 })[r.ok ? 'pass' : 'fail']++;
  console.log(`\n${results.length} cases in ${((Date.now() - startAll) / 1000).toFixed(0)} s: ${results.filter((r) => r.ok).length} pass, ${results.filter((r) => !r.ok).length} fail (${failedSerious.length} critical/high)`);
  console.log(Object.entries(byClass).map(([k, v]) => `${k} ${v.pass}/${v.pass + v.fail}`).join(', '));
}
process.exit(failedSerious.length ? 1 : 0);
