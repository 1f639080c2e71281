// Runs `cairn eval --json` on a folder in a child process (the bundled CLI), so mining git
// history and indexing every case never block the extension host.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { EvalProgress } from '../../eval/runner';
import type { EvalReport } from '../../eval/types';
import { nodeRuntime } from '../agent/nodeRuntime';

export class EvalError extends Error {
  override readonly name = 'EvalError';
  constructor(
    message: string,
    /** The CLI's error code (`git-failed`, `usage`, …) when it reported one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface EvalRunOptions {
  /** Most commits to evaluate (the CLI's default when omitted). */
  commits?: number;
  /** The ripgrep binary (VS Code's own): the installed extension ships none, so the CLI would find none. */
  ripgrepPath?: string;
  signal?: AbortSignal;
  /** Each stderr line of the CLI (warnings, notes) that is not a progress report. */
  onLine?: (line: string) => void;
  /** Each progress report of the CLI (`--progress-json`): a mined commit, a case started. */
  onProgress?: (progress: EvalProgress) => void;
}

/** The CLI's `{"progress":{…}}` line, if the line is one. */
export function progressOf(line: string): EvalProgress | undefined {
  if (!line.startsWith('{"progress":')) return undefined;
  try {
    const p = (JSON.parse(line) as { progress?: Partial<EvalProgress> }).progress;
    if (p && (p.phase === 'mining' || p.phase === 'evaluating') && typeof p.done === 'number' && typeof p.total === 'number') return { phase: p.phase, done: p.done, total: p.total, message: String(p.message ?? '') };
  } catch {
    // a note that happens to start so
  }
  return undefined;
}

/** The CLI's `{"error":{"code","message"}}` line, if the text holds one. */
export function cliError(stderr: string): { code: string; message: string } | undefined {
  for (const line of stderr.split('\n').reverse()) {
    try {
      const parsed = JSON.parse(line) as { error?: { code?: unknown; message?: unknown } };
      if (parsed.error && typeof parsed.error.message === 'string') return { code: String(parsed.error.code ?? 'error'), message: parsed.error.message };
    } catch {
      // not JSON: a note or a warning
    }
  }
  return undefined;
}

/** The report: the last JSON line on stdout that looks like one. */
export function parseEvalReport(stdout: string): EvalReport | undefined {
  for (const line of stdout.trim().split('\n').reverse()) {
    try {
      const parsed = JSON.parse(line) as Partial<EvalReport>;
      if (parsed && Array.isArray(parsed.systems) && typeof parsed.evaluated === 'number') return parsed as EvalReport;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

/** The CLI's arguments for an evaluation of `root`. */
export function evalArgs(cli: string, root: string, options: EvalRunOptions = {}): string[] {
  return [cli, 'eval', '--json', ...(options.onProgress ? ['--progress-json'] : []), ...(options.commits ? ['--commits', String(options.commits)] : []), ...(options.ripgrepPath ? ['--rg', options.ripgrepPath] : []), root];
}

export async function runEval(extensionPath: string, root: string, options: EvalRunOptions = {}): Promise<EvalReport> {
  const runtime = await nodeRuntime();
  const args = evalArgs(path.join(extensionPath, 'dist', 'cli.js'), root, options);
  return new Promise<EvalReport>((resolve, reject) => {
    const child = spawn(runtime.command, args, { cwd: root, env: { ...process.env, ...runtime.env }, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stdout = '';
    let stderr = '';
    let pending = '';
    const onAbort = (): void => {
      child.kill();
      reject(new EvalError('The evaluation was cancelled.', 'cancelled'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) {
        const progress = progressOf(l);
        if (progress) options.onProgress?.(progress);
        else if (l.trim()) options.onLine?.(l);
      }
    });
    child.on('error', (e) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(new EvalError(`Could not start ${runtime.command}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) return;
      const report = code === 0 ? parseEvalReport(stdout) : undefined;
      if (report) return resolve(report);
      const failure = cliError(stderr);
      if (failure) return reject(new EvalError(failure.message, failure.code));
      const tail = stderr.trim().split('\n').filter((l) => !progressOf(l)).slice(-5).join('\n');
      reject(new EvalError(`cairn eval ${signal ? `was killed (${signal})` : `exited with code ${code}`}${tail ? `: ${tail}` : ' without a report'}`));
    });
  });
}
