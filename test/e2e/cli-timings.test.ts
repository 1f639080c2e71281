// `cairn index --timings` (or CAIRN_TIMINGS=1): where a build's time goes, stage by stage, summed
// over the index thread and the chunk workers, through the real bundled CLI.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI, runCairn } from './cli';

describe('cairn index --timings (bundled CLI)', function () {
  this.timeout(120000);
  let base: string;
  let fixture: string;

  before(() => {
    assert.ok(existsSync(CLI), `${CLI} is missing: run \`node esbuild.mjs\` first`);
    base = mkdtempSync(path.join(tmpdir(), 'cairn-timings-'));
    fixture = path.join(base, 'repo');
    mkdirSync(path.join(fixture, 'src'), { recursive: true });
    // More text than the CLI chunks in its own thread, so the chunk workers' stages show too.
    for (let f = 0; f < 8; f++) {
      const body: string[] = [];
      for (let i = 0; i < 600; i++) body.push(`export function handle${f}_${i}(request) {\n  return respond${i}(request.body, ${i});\n}\n`);
      writeFileSync(path.join(fixture, 'src', `part${f}.js`), body.join('\n'));
    }
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  /** Runs a rebuild with `args` (and `env`); checks which stages it reports and that it still indexed everything. */
  const check = (args: string[], env: Record<string, string>, expected: { stages: string[] }) => {
    const store = mkdtempSync(path.join(base, 'store-'));
    const r = runCairn(['index', fixture, '--rebuild', ...args], { env: { CAIRN_STORE: store, ...env } });
    assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
    if (args.includes('--json')) {
      const report = JSON.parse(r.stdout) as { files: number; timings?: Record<string, number> };
      assert.equal(report.files, 8);
      for (const s of expected.stages) assert.ok((report.timings?.[s] ?? 0) > 0, `no time for ${s}: ${JSON.stringify(report.timings)}`);
      return;
    }
    assert.match(r.stdout, /8 files/);
    assert.match(r.stdout, /timings \(ms summed over threads; \d+ ms of work in \d+ ms\)/);
    for (const s of expected.stages) assert.match(r.stdout, new RegExp(`^\\s+${s}\\s+\\d+\\s+\\d+\\.\\d%`, 'm'), `no line for ${s}:\n${r.stdout}`);
  };

  // Stages of the index thread (discover, build, write, commit) and of the chunk workers (parse,
  // definitions, occurrences, analyze) both show, whichever way timings are asked for.
  const BOTH_SIDES = ['discover', 'parse', 'definitions', 'occurrences', 'analyze', 'build', 'write', 'commit'];
  it('prints the stages with --timings', () => check(['--timings'], {}, { stages: BOTH_SIDES }));
  it('prints the stages with CAIRN_TIMINGS=1', () => check([], { CAIRN_TIMINGS: '1' }, { stages: BOTH_SIDES }));
  it('reports them in --json', () => check(['--timings', '--json'], {}, { stages: BOTH_SIDES }));
});
