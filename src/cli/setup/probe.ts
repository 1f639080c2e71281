// `cairn setup --check`'s live test: start the configured server command as a real child
// process, speak MCP to it over stdio (newline-delimited JSON-RPC: initialize, the initialized
// notification, tools/list), and report how many tools it offers and how long that took.
//
// Only an entry that starts this Cairn is run (`cairnEntry`): the configuration comes from the
// repository, and a cloned repository's `.vscode/mcp.json` can name any command for "cairn".
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { findOnPath } from '../assets';

export interface ProbeResult {
  ok: boolean;
  /** Tool names from tools/list. */
  tools: string[];
  /** From spawning to the tools/list answer. */
  ms: number;
  serverName?: string;
  error?: string;
}

export interface ProbeOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
}

export function probeServer(options: ProbeOptions): Promise<ProbeResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    let stdout = '';
    let stderr = '';
    let serverName: string | undefined;
    const child = spawn(options.command, [...options.args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const finish = (result: Omit<ProbeResult, 'ms'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      // Closing stdin is how a client says goodbye; the kill is for a server that ignores it.
      const killer = setTimeout(() => child.kill(), 2000);
      child.once('exit', () => clearTimeout(killer));
      resolve({ ...result, ms: Date.now() - started, ...(serverName ? { serverName } : {}) });
    };
    const lastWords = (): string => {
      const tail = stderr.trim().split('\n').slice(-1)[0];
      return tail ? `: ${tail.slice(0, 300)}` : '';
    };
    const timer = setTimeout(() => finish({ ok: false, tools: [], error: `no answer within ${Math.round(options.timeoutMs / 1000)} s${lastWords()}` }), options.timeoutMs);
    const send = (message: object): void => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    };
    child.on('error', (e) => finish({ ok: false, tools: [], error: `could not start ${options.command}: ${e.message}` }));
    child.on('exit', (code, signal) => finish({ ok: false, tools: [], error: `the server exited (${signal ?? `code ${String(code)}`}) before answering${lastWords()}` }));
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      for (let nl = stdout.indexOf('\n'); nl >= 0; nl = stdout.indexOf('\n')) {
        const line = stdout.slice(0, nl).trim();
        stdout = stdout.slice(nl + 1);
        if (line) onMessage(line);
      }
    });
    const onMessage = (line: string): void => {
      let message: { id?: unknown; result?: { serverInfo?: { name?: string }; tools?: Array<{ name?: unknown }> }; error?: { message?: string } };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        finish({ ok: false, tools: [], error: `the server wrote something that is not JSON-RPC on stdout: ${line.slice(0, 120)}` });
        return;
      }
      if (message.error) {
        finish({ ok: false, tools: [], error: `the server answered with an error: ${message.error.message ?? 'unknown'}` });
      } else if (message.id === 1) {
        serverName = message.result?.serverInfo?.name;
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      } else if (message.id === 2) {
        const tools = (message.result?.tools ?? []).map((t) => String(t.name));
        finish({ ok: tools.length > 0, tools, ...(tools.length ? {} : { error: 'the server offers no tools' }) });
      }
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cairn-setup-check', version: '1' } } });
  });
}

export interface Launcher {
  /** The Node binary running this Cairn. */
  node: string;
  /** This Cairn's `dist/cli.js`. */
  cli: string;
}

export type EntryVerdict = { run: true } | { run: false; reason: string };

/**
 * Whether a configured entry starts this Cairn's MCP server, and so may be run to test it: the
 * Node binary running this Cairn with this Cairn's cli.js and `mcp` (what `cairn setup` writes),
 * or this Cairn's `cairn` command itself (a link to cli.js, on PATH or by path) with `mcp`.
 * Paths are compared by their real paths, so a repository cannot pass off a script of its own,
 * or a binary of its own named `node`, as Cairn.
 */
export function cairnEntry(entry: { command: string; args: readonly string[] }, self: Launcher, envPath: string = process.env.PATH ?? ''): EntryVerdict {
  const command = resolveCommand(entry.command, envPath);
  const cli = real(self.cli);
  if (command !== undefined && command === real(self.node)) {
    const script = entry.args[0] !== undefined && path.isAbsolute(entry.args[0]) ? real(entry.args[0]) : undefined;
    if (script === undefined || script !== cli) return { run: false, reason: "not Cairn's entry (Node runs another script than this Cairn's cli.js); not run" };
    return entry.args[1] === 'mcp' ? { run: true } : { run: false, reason: "not Cairn's MCP server (no 'mcp' after cli.js); not run" };
  }
  if (command !== undefined && command === cli) {
    return entry.args[0] === 'mcp' ? { run: true } : { run: false, reason: "not Cairn's MCP server (no 'mcp' after cairn); not run" };
  }
  return { run: false, reason: "not Cairn's entry (its command is not this Cairn's node and cli.js); not run" };
}

/** The real path of a command as a shell would find it; undefined when there is none. */
function resolveCommand(command: string, envPath: string): string | undefined {
  if (path.isAbsolute(command)) return real(command);
  // A relative path with a slash would be resolved against the client's working directory,
  // which is the repository: never this Cairn.
  if (command.includes('/') || command.includes(path.sep)) return undefined;
  const found = findOnPath(command, envPath);
  return found === undefined ? undefined : real(found);
}

function real(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}
