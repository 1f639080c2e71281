// The bundled CLI under test (`node dist/cli.js`, built by `node esbuild.mjs`) and one way to
// run it to completion, shared by the end-to-end suites.
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a test's `cairn` runs in: `env` over this process's, with no background server
 * (CAIRN_SERVER=0) unless a test asks for one (test/e2e/serve.test.ts).
 */
export function cairnEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, CAIRN_SERVER: '0', ...env };
}

/** Runs `cairn ...args` and waits for it. `cwd` defaults to the repository, `env` adds variables. */
export function runCairn(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    cwd: options.cwd ?? ROOT,
    env: cairnEnv(options.env),
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like runCairn, without blocking this process (for tests that keep a helper process going meanwhile). */
export function runCairnAsync(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: cairnEnv(options.env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
