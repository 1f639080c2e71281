// Which `cairn serve` processes this user has running: each one writes `<dir>/<pid>.json` (dir:
// the user cache's cairn/servers, passed in by the CLI) once it listens and removes it as it
// exits. A store may be anywhere (--store), so its folder alone cannot say where servers are.
// A record whose process is gone (killed) is dropped by whoever reads it.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { encodeMessage, LineDecoder, OUR_IDENTITY, parseServerMessage } from './protocol';

export interface ServerRecord {
  pid: number;
  root: string;
  storeDir: string;
  socket: string;
  /** ISO time the server started listening. */
  startedAt: string;
}

/** Records this server in `dir`; returns what removes the record (only its own). */
export function recordServer(dir: string, record: ServerRecord): () => void {
  const file = path.join(dir, `${record.pid}.json`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch {
    // An unwritable cache costs `serve --list` this server, never the server itself.
    return () => undefined;
  }
  return () => removeRecord(dir, record.pid, record.startedAt);
}

/** Removes `<dir>/<pid>.json`, when `startedAt` is given only if it is that server's. */
export function removeRecord(dir: string, pid: number, startedAt?: string): void {
  const file = path.join(dir, `${pid}.json`);
  try {
    if (startedAt !== undefined && parseRecord(fs.readFileSync(file, 'utf8'))?.startedAt !== startedAt) return;
    fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

function parseRecord(text: string): ServerRecord | undefined {
  try {
    const r = JSON.parse(text) as Partial<ServerRecord>;
    const ok = typeof r.pid === 'number' && typeof r.root === 'string' && typeof r.storeDir === 'string' && typeof r.socket === 'string' && typeof r.startedAt === 'string';
    return ok ? (r as ServerRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** A server found running: its record, how long it has run, its memory and whether it says hello. */
export interface RunningServer extends ServerRecord {
  uptimeMs: number;
  /** Resident memory (Linux: /proc); undefined where this cannot be read. */
  rssBytes?: number;
  /** It said hello within the client's bound (false: stopped or stuck). */
  answering: boolean;
}

export interface ServerProbe {
  /** Whether `pid` is a live `cairn serve` process (not one that reused a dead server's pid). */
  isServer(pid: number): boolean;
  rssBytes(pid: number): number | undefined;
  /** Whether the server behind `socket` says hello as `pid` within `ms`. */
  hello(socket: string, pid: number, ms: number): Promise<boolean>;
}

/** The servers recorded in `dir` that still run; the records of the rest are removed. Sorted by root. */
export async function runningServers(dir: string, probe: ServerProbe = systemProbe, helloMs = 300, nowMs = Date.now()): Promise<RunningServer[]> {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^\d+\.json$/.test(n));
  } catch {
    return [];
  }
  const found: RunningServer[] = [];
  for (const name of names) {
    let record: ServerRecord | undefined;
    try {
      record = parseRecord(fs.readFileSync(path.join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    const pid = Number(name.slice(0, -'.json'.length));
    if (!record || record.pid !== pid || !probe.isServer(pid)) {
      removeRecord(dir, pid);
      continue;
    }
    const rss = probe.rssBytes(pid);
    found.push({ ...record, uptimeMs: Math.max(0, nowMs - Date.parse(record.startedAt)), ...(rss !== undefined ? { rssBytes: rss } : {}), answering: await probe.hello(record.socket, pid, helloMs) });
  }
  return found.sort((a, b) => a.root.localeCompare(b.root) || a.pid - b.pid);
}

const systemProbe: ServerProbe = {
  isServer(pid) {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    if (process.platform !== 'linux') return true;
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return argv.includes('serve') && !/\) Z /.test(stat);
    } catch {
      return false;
    }
  },
  rssBytes(pid) {
    try {
      const kb = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  },
  hello: sayHello,
};

/** Connects, says hello and waits up to `ms` for the server's welcome (or refusal) naming `pid`. */
function sayHello(socket: string, pid: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    const decoder = new LineDecoder(1024 * 1024);
    const finish = (ok: boolean): void => {
      clearTimeout(timer);
      conn.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), ms);
    conn.on('error', () => finish(false));
    conn.on('connect', () => conn.write(encodeMessage({ type: 'hello', ...OUR_IDENTITY })));
    conn.on('data', (chunk: Buffer) => {
      try {
        for (const raw of decoder.push(chunk)) {
          const m = parseServerMessage(raw);
          if (typeof m !== 'string' && (m.type === 'welcome' || m.type === 'refused')) return finish(m.pid === pid);
        }
      } catch {
        finish(false);
      }
    });
  });
}

/**
 * Stops a running server: SIGTERM (and SIGCONT, so a stopped one gets it), then SIGKILL if it
 * has not exited after `graceMs`. Resolves to how it ended.
 */
export async function stopServer(server: Pick<RunningServer, 'pid'>, isServer: (pid: number) => boolean = systemProbe.isServer, graceMs = 3000): Promise<'stopped' | 'killed' | 'gone'> {
  const signal = (s: NodeJS.Signals): boolean => {
    try {
      process.kill(server.pid, s);
      return true;
    } catch {
      return false;
    }
  };
  if (!signal('SIGTERM')) return 'gone';
  if (process.platform !== 'win32') signal('SIGCONT');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isServer(server.pid)) return 'stopped';
    await new Promise((r) => setTimeout(r, 25));
  }
  signal('SIGKILL');
  return 'killed';
}
