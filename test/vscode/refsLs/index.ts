// extensionTestsPath of the references measurement (scripts/refs-ls-check.mjs): the main suite's
// mocha runner over this folder only, so the measurement never runs with `npm test`.
import { runTestsIn } from '../suite/index';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
