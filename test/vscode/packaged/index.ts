// extensionTestsPath of the packaged-extension run (scripts/vscode-package-test.mjs): the same
// mocha runner as the main suite, over the tests in this folder only.
import { runTestsIn } from '../suite/index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
