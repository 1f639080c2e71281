// One way to run git for discovery: in the root, with the variables that would point it at
// another repository removed, never rejecting.
import { spawn } from 'node:child_process';

export interface GitRun {
  code: number;
  stdout: Buffer;
}

/**
 * Variables a parent git process (a hook, `git rebase -x`) may have exported would point git
 * at another repository than the one holding root.
 */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0' };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_COMMON_DIR', 'GIT_NAMESPACE']) {
    delete env[name];
  }
  return env;
}

/** Runs git; never rejects. A missing git binary or an abort yields code -1. */
export function runGit(cwd: string, args: string[], signal?: AbortSignal): Promise<GitRun> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (code: number) => {
      if (settled) return;
      settled = true;
      resolve({ code, stdout: Buffer.concat(chunks) });
    };
    try {
      const child = spawn('git', args, { cwd, env: gitEnv(), stdio: ['ignore', 'pipe', 'ignore'], signal, windowsHide: true });
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.on('error', () => finish(-1));
      child.on('close', (code) => finish(code ?? -1));
    } catch {
      finish(-1);
    }
  });
}
