// `cairn eval` through the bundled CLI (`node dist/cli.js`, built by `node esbuild.mjs`) on a
// git repository with a known history, built in a temp folder by the test.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, runCairn, type Run } from './cli';
import { locateRipgrep } from '../../src/cli/assets';
import type { SystemMetrics } from '../../src/eval/types';
import { buildHistoryFixture, type HistoryFixture } from '../unit/evalFixture';

function cairn(...args: string[]): Run {
  return runCairn(args);
}

interface JsonReport {
  evaluated: number;
  mining: { scanned: number; accepted: number; skipped: Record<string, number> };
  settings: { variants: Array<{ name: string; settings: Record<string, unknown> }> };
  systems: Array<{ name: string; system: string; variant?: string; spans: boolean; cases: number; metrics: SystemMetrics | null; meanMs: number }>;
  cases: Array<{ commit: string; query: string; truth: unknown[]; outcomes: Record<string, unknown> }>;
  warnings: string[];
}

describe('cairn eval (bundled CLI)', function () {
  this.timeout(120000);
  let fixture: HistoryFixture;
  let scratchParent: string;

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    fixture = buildHistoryFixture();
    scratchParent = mkdtempSync(path.join(tmpdir(), 'cairn-eval-scratch-'));
  });
  after(() => {
    fixture.dispose();
    rmSync(scratchParent, { recursive: true, force: true });
  });

  it('--json reports every system with its metrics, and cleans up its scratch folder', () => {
    const r = cairn('eval', fixture.dir, '--json', '--commits', '10', '--scratch', scratchParent);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport;
    assert.equal(report.evaluated, 4);
    assert.equal(report.mining.scanned, 15);
    assert.deepEqual(report.systems.map((s) => s.name), ['cairn index', 'cairn files', 'cairn hybrid', 'cairn pack', 'bm25 whole-file', 'rg query-words']);
    for (const s of report.systems) {
      assert.equal(s.cases, 4, s.name);
      const m = s.metrics;
      assert.ok(m, `${s.name} has metrics`);
      for (const key of ['recallAt1', 'recallAt5', 'recallAt10', 'mrr'] as const) assert.equal(typeof m[key], 'number', `${s.name}.${key}`);
      if (s.spans) assert.equal(typeof m.hitAt10, 'number', `${s.name} points at spans`);
      else assert.equal(m.hitAt10, null, `${s.name} returns whole files: n/a`);
      assert.equal(typeof m.packCoverage, s.system === 'pack' ? 'number' : 'object', s.name);
    }
    assert.deepEqual(report.cases.map((c) => Object.keys(c.outcomes).length), [6, 6, 6, 6]);
    assert.deepEqual(report.warnings, []);
    assert.deepEqual(readdirSync(scratchParent), [], 'the scratch folder is removed');
  });

  it('--progress-json reports each mined commit and each case as a JSON line on stderr (the extension\'s progress bar)', () => {
    const r = cairn('eval', fixture.dir, '--json', '--progress-json', '--commits', '10', '--systems', 'index', '--scratch', scratchParent);
    assert.equal(r.code, 0, r.stderr);
    const steps = r.stderr.trim().split('\n').map((l) => (JSON.parse(l) as { progress: { phase: string; done: number; total: number } }).progress);
    const phases = steps.map((p) => p.phase);
    assert.ok(phases.indexOf('evaluating') > 0 && phases.lastIndexOf('mining') < phases.indexOf('evaluating'), phases.join(' '));
    assert.deepEqual(steps.filter((p) => p.phase === 'evaluating').map((p) => `${p.done}/${p.total}`), ['0/4', '1/4', '2/4', '3/4', '4/4']);
    assert.equal((JSON.parse(r.stdout) as JsonReport).evaluated, 4);
  });

  it('prints an aligned table, one row per system, and compares a --param variant in the same run', () => {
    const r = cairn('eval', fixture.dir, '--commits', '2', '--param', 'ranking.exactDefinition=2', '--systems', 'index,bm25', '--scratch', scratchParent);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^system\s+cases\s+R@1\s+R@5\s+R@10\s+MRR\s+Hit@10 span\s+pack cov\s+ms\/query$/);
    assert.deepEqual(lines.slice(2).map((l) => l.split(/\s{2,}/)[0]), ['cairn index', 'cairn index [ranking.exactDefinition=2]', 'bm25 whole-file']);
    const widths = new Set(lines.map((l) => l.length));
    assert.equal(widths.size, 1, `columns are aligned:\n${lines.join('\n')}`);
    assert.match(lines[4] ?? '', /\bn\/a\b/);
    assert.match(r.stderr, /2 cases evaluated from \d+ commits/);
  });

  it('reads variants from --config', () => {
    const config = path.join(scratchParent, '..', `cairn-eval-config-${process.pid}.json`);
    writeFileSync(config, JSON.stringify({ variants: [{ name: 'small-ast', policy: { astMaxChars: 600 } }] }));
    try {
      const r = cairn('eval', fixture.dir, '--json', '--commits', '2', '--config', config, '--systems', 'index', '--scratch', scratchParent);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout) as JsonReport;
      assert.deepEqual(report.systems.map((s) => [s.name, s.variant, s.cases]), [
        ['cairn index', 'default', 2],
        ['cairn index [small-ast]', 'small-ast', 2],
      ]);
      assert.deepEqual(report.settings.variants[1], { name: 'small-ast', settings: { policy: { astMaxChars: 600 } } });
    } finally {
      rmSync(config, { force: true });
    }
  });

  it('--rev pins the run to the history behind a commit', () => {
    const r = cairn('eval', fixture.dir, '--json', '--rev', fixture.commits.median as string, '--systems', 'bm25', '--scratch', scratchParent);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as JsonReport & { head: string };
    assert.equal(report.head, fixture.commits.median);
    assert.deepEqual(report.cases.map((c) => c.commit), [fixture.commits.retry, fixture.commits.escapes, fixture.commits.median]);
  });

  it('--rg names the ripgrep binary (the extension passes VS Code\'s own, having none installed beside the CLI)', function () {
    const real = locateRipgrep();
    if (!real) this.skip();
    const dir = mkdtempSync(path.join(tmpdir(), 'cairn-eval-rg-'));
    try {
      const log = path.join(dir, 'calls.log');
      const wrapper = path.join(dir, 'rg');
      writeFileSync(wrapper, `#!/bin/sh\necho called >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
      const r = cairn('eval', fixture.dir, '--json', '--commits', '3', '--systems', 'rg-words', '--rg', wrapper, '--scratch', scratchParent);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout) as JsonReport;
      assert.deepEqual(report.systems.map((s) => s.system), ['rg-words']);
      assert.ok(existsSync(log), 'the named binary was not run');
      const missing = cairn('eval', fixture.dir, '--rg', path.join(dir, 'no-such-rg'));
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--rg .*no-such-rg: no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('usage mistakes exit 2 with a one-line message', () => {
    const bad = cairn('eval', fixture.dir, '--param', 'ranking.bogus=1');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown ranking parameter 'bogus'/);
    const system = cairn('eval', fixture.dir, '--systems', 'index,grep');
    assert.equal(system.code, 2);
    assert.match(system.stderr, /unknown system 'grep'/);
  });

  it('a folder outside any git repository is a clear error', () => {
    const plain = mkdtempSync(path.join(tmpdir(), 'cairn-eval-plain-'));
    try {
      const r = cairn('eval', plain, '--json');
      assert.equal(r.code, 1);
      assert.equal((JSON.parse(r.stderr) as { error: { code: string } }).error.code, 'git-failed');
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
