#!/usr/bin/env node
// Asks two builds of the `cairn` CLI the same queries over the same indexes and reports every
// answer that differs (JSON output, byte for byte, timing fields left out). For a change that
// must not change results: build the base in a worktree, then
//
//   node scripts/compare-answers.mjs BASE_DIST NEW_DIST /work/corpus/flask /work/corpus/hono …
//
// Each folder is answered from the store STORE_PREFIX<folder name> (default /tmp/cairn-compare-),
// built by the base build when missing and never refreshed (`--no-refresh`), so both builds read
// the same index. Options: --store-prefix P, --save DIR (keeps every answer as DIR/<repo>/<n>.<base|new>.json).
// A BASE_DIST or NEW_DIST folder must sit beside a `grammars/` folder and a `node_modules/` holding
// @vscode/ripgrep, as the repository's dist/ does: a dist/ copied alone answers `--provider ripgrep`
// and `hybrid` without ripgrep, which reads as a difference.
// Exits 1 when any answer differs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Queries asked in every folder: every piece of the query language and the options that read it. */
const COMMON = [
  ['search', 'error'],
  ['search', 'parse'],
  ['search', 'parsing'],
  ['search', 'tests'],
  ['search', 'config file'],
  ['search', 'read the config file'],
  ['search', 'how do I install'],
  ['search', 'fix the error handling when the request fails'],
  ['search', 'add a timeout option'],
  ['search', '"error handling"'],
  ['search', 'name:test'],
  ['search', 'path:test error'],
  ['search', 'symbol:new'],
  ['search', 'doc:returns'],
  ['search', 'prose:install'],
  ['search', 'body:return +error'],
  ['search', '+error -test'],
  ['search', '+parse +config'],
  ['search', 'error -path:test'],
  ['search', 'hand*'],
  ['search', '*ing'],
  ['search', 're*d'],
  ['search', 'eror~1'],
  ['search', 'confg~2 file'],
  ['search', 'error^5 handler'],
  ['search', 'a* b* c* d* e* f* g* h* i* j*'],
  ['search', 'foo:bar baz:'],
  ['search', 'xyzzyplugh'],
  ['search', '--', '-error'],
  ['search', '--', '-error +test'],
  ['search', 'the'],
  ['search', 'error', '--group', 'file'],
  ['search', 'config file', '--group', 'file', '--limit', '5'],
  ['search', 'hand', '--prefix'],
  ['search', 'read conf', '--prefix'],
  ['search', 'error', '--scope', 'code'],
  ['search', 'error', '--scope', 'docs'],
  ['search', 'error', '--scope', 'all', '--limit', '20', '--offset', '5'],
  ['search', 'new', '--kind', 'function'],
  ['search', 'error handling', '--provider', 'hybrid'],
  ['search', 'config', '--provider', 'ripgrep', '--group', 'file'],
];

/** Queries about each folder's own code (identifiers, members, tasks), by folder name. */
const OWN = {
  flask: ['url_for', 'send_file', 'Flask.route', 'register_blueprint', 'app context teardown', 'jsonify', 'SecureCookieSessionInterface', 'make_response', 'test_client', 'blueprint url prefix'],
  hono: ['getCookie', 'c.json', 'RegExpRouter', 'cors middleware', 'basicAuth', 'HTTPException', 'validator zValidator', 'app.route', 'streamSSE', 'handle not found'],
  cobra: ['AddCommand', 'PersistentFlags', 'bash completion', 'cobra.Command', 'ExecuteC', 'MarkFlagRequired', 'usage template', 'PreRunE', 'ValidArgsFunction', 'shell completion powershell'],
  ripgrep: ['SearcherBuilder', 'line_number', 'glob matcher', 'multiline', 'mmap', 'Printer', 'sink_context', 'ignore hidden files', 'binary detection', 'RegexMatcherBuilder'],
  express: ['res.sendFile', 'app.use', 'router param', 'req.query', 'etag', 'res.render', 'query parser', 'trust proxy', 'static files', 'createApplication'],
  gson: ['TypeAdapter', 'JsonReader', 'fromJson', 'serializeNulls', 'lenient parsing', 'GsonBuilder', 'TypeToken', 'ReflectiveTypeAdapterFactory', 'date format', 'JsonDeserializer'],
};

function ownQueries(repo) {
  const words = OWN[repo] ?? [];
  return [
    ...words.map((q) => ['search', q]),
    ...words.slice(0, 3).map((q) => ['search', q, '--group', 'file']),
    ...words.slice(0, 3).map((q) => ['symbol', q]),
    // Misspelt: no name matches, so the edit-distance scan answers.
    ...words.slice(0, 5).map((q) => ['symbol', q.slice(0, Math.floor(q.length / 2)) + q.slice(Math.floor(q.length / 2) + 1)]),
    ...words.slice(0, 2).map((q) => ['symbol', `${q}x`]),
  ];
}

function parseArgs(argv) {
  const out = { dirs: [], storePrefix: '/tmp/cairn-compare-', save: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--store-prefix') out.storePrefix = argv[++i];
    else if (a === '--save') out.save = argv[++i];
    else out.dirs.push(a);
  }
  if (out.dirs.length < 3) {
    console.error('usage: compare-answers.mjs BASE_DIST NEW_DIST FOLDER... [--store-prefix P] [--save DIR]');
    process.exit(2);
  }
  return out;
}

/** The command's JSON answer without timing fields, as text. */
function ask(dist, cwd, store, args) {
  let text;
  try {
    const [command, ...rest] = args;
    text = execFileSync(process.execPath, [path.join(dist, 'cli.js'), command, '--json', '--no-refresh', '--no-server', '--store', store, ...rest], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    text = `exit ${e.status}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`;
  }
  try {
    return JSON.stringify(JSON.parse(text), (key, value) => (key === 'tookMs' ? undefined : value), 1);
  } catch {
    return text;
  }
}

const { dirs, storePrefix, save } = parseArgs(process.argv.slice(2));
const [base, next, ...folders] = dirs.map((d) => path.resolve(d));
let compared = 0;
const differing = [];
for (const folder of folders) {
  const repo = path.basename(folder);
  const store = `${storePrefix}${repo}`;
  if (!fs.existsSync(path.join(store, 'manifest.json'))) execFileSync(process.execPath, [path.join(base, 'cli.js'), 'index', folder, '--store', store], { stdio: 'ignore' });
  const queries = [...COMMON, ...ownQueries(repo)];
  queries.forEach((args, n) => {
    const a = ask(base, folder, store, args);
    const b = ask(next, folder, store, args);
    compared++;
    if (a !== b) differing.push(`${repo}: cairn ${args.join(' ')}`);
    if (save) {
      fs.mkdirSync(path.join(save, repo), { recursive: true });
      fs.writeFileSync(path.join(save, repo, `${n}.base.json`), a);
      fs.writeFileSync(path.join(save, repo, `${n}.new.json`), b);
    }
  });
  console.log(`${repo}: ${queries.length} answers compared`);
}
for (const d of differing) console.log(`differs: ${d}`);
console.log(`${compared} answers compared, ${compared - differing.length} identical, ${differing.length} different`);
process.exit(differing.length ? 1 : 0);
