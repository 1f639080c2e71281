// Running git for the evaluation: argument vectors only (no shell), paths printed verbatim
// (`core.quotepath=off`), hooks disabled, and an environment scrubbed of variables a parent git
// process may have exported, so every call reads the repository it was pointed at.
import { execFile } from 'node:child_process';

/** A git call that exited non-zero (or could not start). */
export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(readonly args: readonly string[], readonly code: number | string | undefined, readonly stderr: string) {
    super(`git ${args.slice(0, 3).join(' ')} failed${code !== undefined ? ` (${code})` : ''}: ${stderr.trim().split('\n')[0] ?? ''}`);
  }
}

/** Settings that keep git's output machine-readable and its side effects nil. */
const FIXED_CONFIG = ['-c', 'core.quotepath=off', '-c', 'core.hooksPath=/dev/null', '-c', 'color.ui=false', '-c', 'diff.noprefix=false', '-c', 'log.showSignature=false'];

const INHERITED_GIT_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES'];

export interface GitCallOptions {
  /** Extra environment (e.g. a separate GIT_INDEX_FILE); applied after the scrub. */
  env?: Record<string, string>;
  /** Largest stdout accepted (default 256 MiB). */
  maxBuffer?: number;
  signal?: AbortSignal;
  /** Written to git's stdin (then closed). */
  input?: string;
}

function gitEnvironment(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_LFS_SKIP_SMUDGE: '1', GIT_LITERAL_PATHSPECS: '1', LC_ALL: 'C' };
  for (const name of INHERITED_GIT_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

/** Runs `git <args>` in `cwd` and resolves to its stdout; rejects with GitError on failure. */
export function git(cwd: string, args: readonly string[], options: GitCallOptions = {}): Promise<string> {
  const fullArgs = [...FIXED_CONFIG, ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      fullArgs,
      { cwd, env: gitEnvironment(options.env), maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024, encoding: 'utf8', signal: options.signal, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) reject(new GitError(args, (error as NodeJS.ErrnoException).code ?? undefined, stderr || error.message));
        else resolve(stdout);
      },
    );
    if (child.stdin) {
      child.stdin.on('error', () => {}); // git may exit before reading it all; its exit code says why
      child.stdin.end(options.input ?? '');
    }
  });
}

/** Splits NUL-separated git output (`-z`), dropping the empty tail. */
export function splitNul(output: string): string[] {
  const parts = output.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** True when a git failure says an object could not be read (a blob the repository lacks). */
export function isMissingObjectError(e: unknown): boolean {
  return e instanceof GitError && /unable to read|missing blob|bad object|could not read|does not exist|is not a valid object|fatal: object [0-9a-f]+ /i.test(e.stderr);
}

/** The repository's git directory (absolute) and top-level folder, for a path inside its work tree. */
export async function locateRepository(dir: string): Promise<{ gitDir: string; topLevel: string }> {
  const out = await git(dir, ['rev-parse', '--absolute-git-dir', '--show-toplevel']);
  const [gitDir, topLevel] = out.split('\n');
  if (!gitDir || !topLevel) throw new GitError(['rev-parse'], undefined, `${dir} is not inside a git work tree`);
  return { gitDir, topLevel };
}
