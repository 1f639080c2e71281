// The bundled CLI under test (`node dist/cli.js`, built by `node esbuild.mjs`) and one way to
// run it to completion, shared by the end-to-end suites.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cairn ...args` and waits for it. `cwd` defaults to the repository, `env` adds variables. */
export function runCairn(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    cwd: options.cwd ?? ROOT,
    env: options.env ? { ...process.env, ...options.env } : process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
