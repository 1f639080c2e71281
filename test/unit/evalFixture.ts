// A small git repository with a known history, built in a temp folder for the `cairn eval`
// tests: four commits that make evaluation cases, and one of each kind that must be skipped
// (root, merge, version bumps, typo fix, docs-only, giant refactor, new file only, formatting,
// whitespace-only, dependency update).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface HistoryFixture {
  dir: string;
  /** Commit ids by label (see `buildHistoryFixture`). */
  commits: Record<string, string>;
  git(...args: string[]): string;
  dispose(): void;
}

export const CLIENT_V1 = `// A small HTTP client.
export interface RequestOptions {
  url: string;
  method?: string;
  timeoutMs?: number;
}

export async function sendRequest(options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10000);
  try {
    return await fetch(options.url, { method: options.method ?? 'GET', signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}
`;

// Retry: one line inserted after line 5, lines 11-12 (try / return) rewritten.
export const CLIENT_V2 = `// A small HTTP client.
export interface RequestOptions {
  url: string;
  method?: string;
  timeoutMs?: number;
  retries?: number;
}

export async function sendRequest(options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10000);
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(options.url, { method: options.method ?? 'GET', signal: controller.signal });
    } catch (error) {
      if (attempt >= (options.retries ?? 3)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    } finally {
      clearTimeout(timer);
    }
  }
}
`;

export const PARSER_V1 = `// Parses a tiny expression language.
export type Token = { kind: 'string' | 'number' | 'name'; text: string };

export function readString(source: string, start: number): { value: string; end: number } {
  let i = start + 1;
  let value = '';
  while (i < source.length && source[i] !== '"') {
    value += source[i];
    i++;
  }
  return { value, end: i + 1 };
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  // walk the inptu
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === '"') {
      const s = readString(source, i);
      tokens.push({ kind: 'string', text: s.value });
      i = s.end - 1;
    } else if (/[0-9]/.test(ch)) {
      tokens.push({ kind: 'number', text: ch });
    } else if (/[a-z]/i.test(ch)) {
      tokens.push({ kind: 'name', text: ch });
    }
  }
  return tokens;
}
`;

// Escapes: lines 8-9 of readString rewritten.
export const PARSER_V2 = PARSER_V1.replace(
  '    value += source[i];\n    i++;\n',
  "    const escaped = source[i] === '\\\\' && i + 1 < source.length;\n    value += escaped ? source[i + 1] : source[i];\n    i += escaped ? 2 : 1;\n",
);

const MATH = `export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export function mean(values: number[]): number {
  return values.length === 0 ? 0 : sum(values) / values.length;
}
`;

const MEDIAN = `
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
`;

export const CONFIG_V1 = `export interface ServerConfig {
  host: string;
  port: number;
}

export function loadServerConfig(json: string): ServerConfig {
  const raw = JSON.parse(json) as Partial<ServerConfig>;
  return { host: raw.host ?? 'localhost', port: raw.port ?? 8080 };
}
`;

// Port validation: line 8 rewritten into three lines.
export const CONFIG_V2 = CONFIG_V1.replace(
  "  return { host: raw.host ?? 'localhost', port: raw.port ?? 8080 };\n",
  "  const port = raw.port ?? 8080;\n  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid port number: ${port}`);\n  return { host: raw.host ?? 'localhost', port };\n",
);

const SMALL_MODULES: Record<string, string> = {
  'src/log.ts': 'export function logLine(message: string): void {\n  console.log(message);\n}\n',
  'src/format.ts': 'export function formatBytes(n: number): string {\n  return `${n} B`;\n}\n',
  'src/cache.ts': 'export class Cache<V> {\n  private readonly map = new Map<string, V>();\n  get(key: string): V | undefined {\n    return this.map.get(key);\n  }\n}\n',
  'src/util.ts': 'export function clamp(n: number, lo: number, hi: number): number {\n  return Math.min(hi, Math.max(lo, n));\n}\n',
};

/**
 * The history, oldest first (committer dates one day apart from 2026-01-01):
 *
 *   root     Initial import of the toolkit                             skipped: root
 *   retry    Add retry with exponential backoff ... (#12)              CASE  client.ts
 *   escapes  fix(parser): handle escaped quotes ... (fixes #34)        CASE  parser.ts (+ a test)
 *   bump     Bump version to 1.2.0                                     skipped: version-bump
 *   typo     Fix typo in the parser comment                            skipped: typo
 *   docs     Document the configuration options in the README         skipped: tests-or-docs-only
 *   median   Add a median helper next to mean and sum   (branch)       CASE  math.ts (pure addition)
 *   merge    Merge branch 'feature'                                    skipped: merge
 *   port     Validate the port number ... GH-7                         CASE  config.ts
 *   rename   Rename helpers across the codebase for consistency       skipped: too-many-files (6)
 *   newfile  Add a request cache module                                skipped: only-new-files
 *   release  1.3.0                                                     skipped: version-bump
 *   style    style: reformat the parser                                skipped: formatting
 *   tidy     Tidy the cache module                                     skipped: whitespace-only
 *   deps     Bump lodash from 4.17.20 to 4.17.21                       skipped: dependencies
 */
export function buildHistoryFixture(): HistoryFixture {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-eval-repo-'));
  let day = 0;
  const git = (...args: string[]): string => {
    const date = `2026-01-${String(day).padStart(2, '0')}T12:00:00Z`;
    return execFileSync('git', ['-c', 'user.name=Fixture Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined },
    }).trim();
  };
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const commits: Record<string, string> = {};
  const commit = (label: string, message: string, files: Record<string, string>) => {
    day++;
    for (const [rel, text] of Object.entries(files)) write(rel, text);
    git('add', '-A');
    git('commit', '-q', '-m', message);
    commits[label] = git('rev-parse', 'HEAD');
  };

  day = 1;
  git('init', '-q', '-b', 'main');
  day = 0;
  commit('root', 'Initial import of the toolkit', {
    'package.json': '{\n  "name": "toolkit",\n  "version": "1.1.0",\n  "dependencies": {\n    "lodash": "4.17.20"\n  }\n}\n',
    'README.md': '# Toolkit\n\nSmall helpers for HTTP, parsing and numbers.\n',
    'src/http/client.ts': CLIENT_V1,
    'src/parser.ts': PARSER_V1,
    'src/math.ts': MATH,
    'src/config.ts': CONFIG_V1,
    'test/parser.test.ts': "import { tokenize } from '../src/parser';\n\nit('reads a string', () => tokenize('\"a\"'));\n",
    ...SMALL_MODULES,
  });
  commit('retry', 'Add retry with exponential backoff to the HTTP client (#12)', { 'src/http/client.ts': CLIENT_V2 });
  commit(
    'escapes',
    'fix(parser): handle escaped quotes in string literals (fixes #34)\n\nA backslash before a quote no longer ends the string.\n\nSigned-off-by: Fixture Dev <dev@example.com>',
    { 'src/parser.ts': PARSER_V2, 'test/parser.test.ts': "import { tokenize } from '../src/parser';\n\nit('reads a string', () => tokenize('\"a\"'));\nit('reads an escaped quote', () => tokenize('\"a\\\\\"b\"'));\n" },
  );
  commit('bump', 'Bump version to 1.2.0', { 'package.json': '{\n  "name": "toolkit",\n  "version": "1.2.0",\n  "dependencies": {\n    "lodash": "4.17.20"\n  }\n}\n' });
  commit('typo', 'Fix typo in the parser comment', { 'src/parser.ts': PARSER_V2.replace('// walk the inptu', '// walk the input') });
  commit('docs', 'Document the configuration options in the README', { 'README.md': '# Toolkit\n\nSmall helpers for HTTP, parsing and numbers.\n\n## Configuration\n\n`host` and `port` of the server.\n' });
  git('checkout', '-q', '-b', 'feature');
  commit('median', 'Add a median helper next to mean and sum', { 'src/math.ts': MATH + MEDIAN });
  git('checkout', '-q', 'main');
  day++;
  git('merge', '-q', '--no-ff', '-m', "Merge branch 'feature'", 'feature');
  commits.merge = git('rev-parse', 'HEAD');
  commit('port', 'Validate the port number when loading the server config GH-7', { 'src/config.ts': CONFIG_V2 });
  const renamed: Record<string, string> = {};
  for (const [rel, text] of Object.entries(SMALL_MODULES)) renamed[rel] = text.replace(/export (function|class) (\w+)/, 'export $1 $2Helper');
  renamed['src/math.ts'] = (MATH + MEDIAN).replace('export function sum(', 'export function sumOf(').replace('sum(values)', 'sumOf(values)');
  renamed['src/config.ts'] = CONFIG_V2.replace('loadServerConfig', 'readServerConfig');
  commit('rename', 'Rename helpers across the codebase for consistency', renamed);
  commit('newfile', 'Add a request cache module', { 'src/requestCache.ts': 'export const requestCache = new Map<string, Response>();\n' });
  commit('release', '1.3.0', { 'package.json': '{\n  "name": "toolkit",\n  "version": "1.3.0",\n  "dependencies": {\n    "lodash": "4.17.20"\n  }\n}\n' });
  const parserNow = fs.readFileSync(path.join(dir, 'src/parser.ts'), 'utf8');
  commit('style', 'style: reformat the parser', { 'src/parser.ts': parserNow.replace(/^ {2}/gm, '\t') });
  const cacheNow = fs.readFileSync(path.join(dir, 'src/cache.ts'), 'utf8');
  commit('tidy', 'Tidy the cache module', { 'src/cache.ts': cacheNow.replace(/^ {4}/gm, '      ') });
  commit('deps', 'Bump lodash from 4.17.20 to 4.17.21', { 'package.json': '{\n  "name": "toolkit",\n  "version": "1.3.0",\n  "dependencies": {\n    "lodash": "4.17.21"\n  }\n}\n' });

  return { dir, commits, git, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
