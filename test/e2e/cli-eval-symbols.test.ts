// `cairn eval --symbols` through the bundled CLI on a tiny generated repository, against the
// universal-ctags on PATH (CI installs it: .ci/run). Skipped, saying so, where ctags is missing.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, runCairn } from './cli';
import { writeTree } from '../unit/discovery-fixture';
import { findOnPath } from '../../src/cli/assets';

const FILES: Record<string, string> = {
  'src/client.ts': [
    '// An HTTP client.',
    'export interface RequestOptions {',
    '  url: string;',
    '}',
    '',
    'export class HttpClient {',
    '  send(options: RequestOptions): Promise<Response> {',
    '    return fetch(options.url);',
    '  }',
    '}',
    '',
    'export const DEFAULT_TIMEOUT = 1000;',
    '',
    'export function createClient(): HttpClient {',
    '  const local = new HttpClient();',
    '  return local;',
    '}',
    '',
  ].join('\n'),
  'tools/report.py': [
    'import os',
    '',
    'LIMIT = 10',
    '',
    'class Report:',
    '    def render(self):',
    '        def helper():',
    '            return 1',
    '        return helper()',
    '',
    'def write_report(path):',
    '    return Report().render()',
    '',
  ].join('\n'),
  'cmd/main.go': ['package main', '', 'type Options struct {', '\tVerbose bool', '}', '', 'func parseOptions(args []string) Options {', '\treturn Options{}', '}', '', 'func main() {', '\t_ = parseOptions(nil)', '}', ''].join('\n'),
  'README.md': '# Fixture\n\nCalls createClient and write_report.\n',
};

/** Definitions the kind filter keeps: locals (`local`, `helper`), imports and fields are left out. */
const EXPECTED_NAMES = ['DEFAULT_TIMEOUT', 'HttpClient', 'LIMIT', 'Options', 'Report', 'RequestOptions', 'createClient', 'main', 'parseOptions', 'render', 'send', 'write_report'];

interface JsonReport {
  head?: string;
  ctags: { kept: number; names: number; dropped: Record<string, number> };
  settings: { sample: number; seed: number };
  systems: Array<{ system: string; names: number; precisionAt1: number; recallAt5: number; misses: number }>;
  names: Array<{ name: string; definitions: Array<{ path: string; line: number }>; systems: Record<string, { rank: number | null; top: unknown[] }> }>;
}

describe('cairn eval --symbols (bundled CLI)', function () {
  this.timeout(120000);
  let dir: string;
  const ctags = findOnPath('ctags');

  before(function () {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    dir = mkdtempSync(path.join(tmpdir(), 'cairn-symbols-repo-'));
    writeTree(dir, FILES);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('without ctags on PATH: a one-line error naming the package', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'cairn-no-ctags-'));
    try {
      const r = runCairn(['eval', '--symbols', dir], { env: { PATH: empty } });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /apt-get install universal-ctags/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('--json: the kept definitions, every name looked up by Cairn and by grep, each with its rank', function () {
    if (!ctags) return this.skip(); // universal-ctags is not installed (apt-get install universal-ctags)
    const scratch = mkdtempSync(path.join(tmpdir(), 'cairn-symbols-scratch-'));
    const r = runCairn(['eval', '--symbols', dir, '--json', '--sample', '100', '--seed', '5', '--ctags', ctags, '--scratch', scratch]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(scratch), [], 'the index store is removed');
    rmSync(scratch, { recursive: true, force: true });
    const report = JSON.parse(r.stdout) as JsonReport;
    assert.deepEqual(report.names.map((n) => n.name).sort(), EXPECTED_NAMES);
    assert.equal(report.settings.sample, EXPECTED_NAMES.length);
    assert.ok(report.head && /^[0-9a-f]{40}$/.test(report.head));
    assert.deepEqual(report.systems.map((s) => [s.system, s.names]), [
      ['cairn symbol', EXPECTED_NAMES.length],
      ['cairn search', EXPECTED_NAMES.length],
      ['rg -w + def pattern', EXPECTED_NAMES.length],
    ]);
    for (const s of report.systems) assert.ok(s.recallAt5 >= 0.75, `${s.system} finds most of a tiny repository: ${JSON.stringify(s)}`);
    const parse = report.names.find((n) => n.name === 'parseOptions');
    assert.deepEqual(parse?.definitions.map((d) => `${d.path}:${d.line}`), ['cmd/main.go:7']);
    assert.equal(parse?.systems['cairn symbol']?.rank, 1);
    assert.equal(parse?.systems['cairn search']?.rank, 1, 'searching the name puts its definition first');
    assert.equal(parse?.systems['rg -w + def pattern']?.rank, 1, 'the definition line ranks above the call');
  });

  it('the same seed gives the same sample; the text table and --misses', function () {
    if (!ctags) return this.skip(); // universal-ctags is not installed (apt-get install universal-ctags)
    const a = runCairn(['eval', '--symbols', dir, '--json', '--sample', '5', '--seed', '9']);
    const b = runCairn(['eval', '--symbols', dir, '--json', '--sample', '5', '--seed', '9']);
    assert.equal(a.code, 0, a.stderr);
    const names = (r: typeof a) => (JSON.parse(r.stdout) as JsonReport).names.map((n) => n.name);
    assert.deepEqual(names(a), names(b));
    assert.equal(names(a).length, 5);
    const text = runCairn(['eval', '--symbols', dir, '--misses', '3']);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.split('\n');
    assert.match(lines[1] ?? '', /^system\s+names\s+P@1\s+R@5\s+misses\s+P@1 span$/);
    assert.match(lines[3] ?? '', /^cairn symbol\s+12\s+\d\.\d{3}\s+\d\.\d{3}\s+\d+\s+\d\.\d{3}$/);
    assert.match(text.stdout, /^cairn symbol: \d+ of \d+ misses$/m);
    assert.match(text.stderr, /12 names sampled with seed 1/);
  });

  it('usage: history options do not mix with --symbols', () => {
    const r = runCairn(['eval', '--symbols', dir, '--commits', '3']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--commits does not apply to --symbols/);
    const s = runCairn(['eval', dir, '--sample', '3']);
    assert.equal(s.code, 2);
    assert.match(s.stderr, /--sample needs --symbols/);
  });
});
