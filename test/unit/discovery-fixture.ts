// Builds discovery fixture trees in a temp dir: symlink loops, binary files, invalid UTF-8,
// unreadable files and .git repositories cannot be committed sensibly, so tests make them.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export type Entry = string | Buffer | { symlink: string } | { dir: true } | { mode: number; content: string };
export type Tree = Record<string, Entry>;

export function makeTempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-disc-'));
}

/** Writes the tree under root; returns false for symlink entries the platform refused. */
export function writeTree(root: string, tree: Tree): { symlinks: boolean } {
  let symlinks = true;
  for (const [rel, entry] of Object.entries(tree)) {
    const abs = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof entry === 'string' || Buffer.isBuffer(entry)) fs.writeFileSync(abs, entry);
    else if ('dir' in entry) fs.mkdirSync(abs, { recursive: true });
    else if ('symlink' in entry) {
      try {
        fs.symlinkSync(entry.symlink, abs);
      } catch {
        symlinks = false;
      }
    } else {
      fs.writeFileSync(abs, entry.content);
      fs.chmodSync(abs, entry.mode);
    }
  }
  return { symlinks };
}

/** Makes everything under root removable again (chmod 000 entries), then removes it. */
export function removeTree(root: string): void {
  const unlock = (dir: string): void => {
    fs.chmodSync(dir, 0o755);
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) unlock(path.join(dir, e.name));
    }
  };
  try {
    unlock(root);
  } catch {
    // best effort: rmSync below reports what is really stuck
  }
  fs.rmSync(root, { recursive: true, force: true });
}

/** True when the OS enforces a chmod 000 on this process (not so for root). */
export function permissionsEnforced(root: string): boolean {
  const probe = path.join(root, '.perm-probe');
  fs.writeFileSync(probe, 'x');
  fs.chmodSync(probe, 0o000);
  try {
    fs.readFileSync(probe);
    return false;
  } catch {
    return true;
  } finally {
    fs.chmodSync(probe, 0o644);
    fs.rmSync(probe);
  }
}

let gitChecked: boolean | undefined;

export function gitAvailable(): boolean {
  if (gitChecked === undefined) {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
      gitChecked = true;
    } catch {
      gitChecked = false;
    }
  }
  return gitChecked;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Keeps the developer's git configuration (global excludes file, hooks) and any repository
 * enclosing the temp dir out of the tests; restores the environment afterwards.
 */
export function isolateGitEnvironment(): void {
  const saved: Record<string, string | undefined> = {};
  const overrides: Record<string, string> = {
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: fs.realpathSync(os.tmpdir()),
  };
  before(() => {
    for (const [k, v] of Object.entries(overrides)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  after(() => {
    for (const k of Object.keys(overrides)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
}
