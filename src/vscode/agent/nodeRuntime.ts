// How to run the bundled CLI (dist/cli.js) as a separate Node process: for the MCP server
// definition and for `cairn eval`. Under code-server (and any Node extension host)
// process.execPath is Node. In desktop VS Code it is Electron: prefer a real `node` from PATH
// (Node 20 or later, the CLI's floor), else run Electron as Node with ELECTRON_RUN_AS_NODE=1.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface NodeRuntime {
  command: string;
  /** Extra environment for the child (empty for a real Node). */
  env: Record<string, string>;
  /** How it was chosen, for logs. */
  describe: string;
}

const MIN_NODE_MAJOR = 20;

/** `node` (or `node.exe`) on a PATH string, if one is there and executable. */
export function findOnPath(pathEnv: string | undefined, platform: NodeJS.Platform = process.platform, exists: (p: string) => boolean = isExecutable): string | undefined {
  const names = platform === 'win32' ? ['node.exe'] : ['node'];
  for (const dir of (pathEnv ?? '').split(platform === 'win32' ? ';' : ':')) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (exists(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function nodeMajor(binary: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    execFile(binary, ['--version'], { timeout: 5000, windowsHide: true }, (error, stdout) => {
      const m = /^v(\d+)\./.exec(String(stdout).trim());
      resolve(error || !m ? undefined : Number(m[1]));
    });
  });
}

export async function pickNodeRuntime(
  versions: NodeJS.ProcessVersions = process.versions,
  execPath: string = process.execPath,
  pathEnv: string | undefined = process.env.PATH,
  probe: (binary: string) => Promise<number | undefined> = nodeMajor,
): Promise<NodeRuntime> {
  if (!versions.electron) return { command: execPath, env: {}, describe: `the extension host's Node ${versions.node}` };
  const onPath = findOnPath(pathEnv);
  if (onPath) {
    const major = await probe(onPath);
    if (major !== undefined && major >= MIN_NODE_MAJOR) return { command: onPath, env: {}, describe: `${onPath} (Node ${major})` };
  }
  return { command: execPath, env: { ELECTRON_RUN_AS_NODE: '1' }, describe: `the editor's runtime as Node (ELECTRON_RUN_AS_NODE, Node ${versions.node})` };
}

let cached: Promise<NodeRuntime> | undefined;

/** The runtime for this extension host, decided once. */
export function nodeRuntime(): Promise<NodeRuntime> {
  cached ??= pickNodeRuntime();
  return cached;
}
