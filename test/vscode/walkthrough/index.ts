// extensionTestsPath of the walkthrough (test/vscode/walkthrough/README.md): the main suite's
// mocha runner over this folder only, so it never runs with `npm test` (it needs a real
// repository opened as the workspace).
import { runTestsIn } from '../suite/index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
