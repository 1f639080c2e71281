// The extensionTestsPath module: VS Code's extension host loads it after the extension under
// development and calls run(). It runs mocha (bdd: describe/it) *inside* the extension host over every
// `*.test.js` below this folder, and
//   - streams a spec report through the extension-host console, each line tagged "[vscode-test] " so
//     the offline launcher can pick it out of the forwarded browser console (under test-electron the
//     lines go to VS Code's stdout);
//   - writes a JSON summary to $VSCODE_TEST_RESULTS (both launchers read it for the final count).
// Env: VSCODE_TEST_GREP (mocha --grep), VSCODE_TEST_TIMEOUT (ms per test, default 30000).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';

const TAG = '[vscode-test] ';

export interface SuiteResults {
  passes: number;
  failures: number;
  pending: number;
  tests: number;
  duration: number;
  failed: { title: string; error: string }[];
}

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (e.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

function writeResults(r: SuiteResults): void {
  const out = process.env.VSCODE_TEST_RESULTS;
  if (out) fs.writeFileSync(out, JSON.stringify(r, null, 2));
}

const errorText = (err: unknown): string =>
  String((err instanceof Error && (err.stack || err.message)) || util.inspect(err));

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}

/** Runs every `*.test.js` below `dir` (other suites, e.g. ../packaged/, reuse this runner). */
export function runTestsIn(dir: string): Promise<void> {
  // Pre-format every reporter line and tag it, so it survives console forwarding intact.
  (Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void }).consoleLog =
    (...args: unknown[]) => console.log(TAG + util.format(...args));

  const timeout = Number(process.env.VSCODE_TEST_TIMEOUT) || 30000;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout, reporter: 'spec' });
  const grep = process.env.VSCODE_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = testFiles(dir);
  for (const f of files) mocha.addFile(f);
  console.log(`${TAG}${files.length} test file(s) in ${dir}${grep ? `, grep ${JSON.stringify(grep)}` : ''}`);

  return new Promise((resolve, reject) => {
    const failed: SuiteResults['failed'] = [];
    try {
      const runner = mocha.run((failures) => {
        const s = runner.stats;
        writeResults({
          passes: s?.passes ?? 0, failures, pending: s?.pending ?? 0,
          tests: s?.tests ?? 0, duration: s?.duration ?? 0, failed,
        });
        if (failures > 0) reject(new Error(`${failures} test(s) failed.`));
        else resolve();
      });
      runner.on('fail', (t, err) => failed.push({ title: t.fullTitle(), error: errorText(err) }));
    } catch (err) {
      // A test file that throws while loading (syntax error, bad import) ends up here.
      const error = errorText(err);
      console.log(`${TAG}could not load the test files: ${error}`);
      writeResults({ passes: 0, failures: 1, pending: 0, tests: 0, duration: 0, failed: [{ title: 'loading the in-host test files', error }] });
      reject(err instanceof Error ? err : new Error(error));
    }
  });
}
