// The CLI bundle's entry (dist/cliMain.js, run by the launcher, launch.ts): this process's
// command line through runCli.
import { runCli } from './run';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`cairn: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
