// `cairn setup --check`'s live test: start the configured server command as a real child
// process, speak MCP to it over stdio (newline-delimited JSON-RPC: initialize, the initialized
// notification, tools/list), and report how many tools it offers and how long that took.
import { spawn } from 'node:child_process';

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
