// Local tool-use counters (issue #27): per tool, how often agents call Cairn, what the answers
// held, and how their size compares with reading the whole files instead. They live in
// `<store>/usage.json` and nowhere else: nothing here talks to the network. Counting never
// delays a tool call: `record` only adds numbers in memory; file sizes an answer did not carry
// are looked up and the file is written asynchronously, at most every few seconds and on close.
//
// Several processes may count into one store (two `cairn mcp` servers, the extension's own
// tools): each keeps the counts added since its last write and adds them to what the file holds
// when it writes (read, add, atomic rename), one writer at a time under `usage.json.lock`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomicAsync } from '../core/clientApi';

export const USAGE_FILE = 'usage.json';
const FORMAT = 'cairn-usage';
const VERSION = 1;
/** How often pending counts are written at most. */
export const USAGE_FLUSH_MS = 5_000;
/** Served spans remembered for "later read" (the oldest are forgotten first). */
export const REMEMBERED_SPANS = 1_000;
/** Days of per-day totals kept in the file. */
const KEPT_DAYS = 60;
/** Characters per estimated token, as everywhere in the tools (`estimateTokens`). */
const CHARS_PER_TOKEN = 3.5;

export interface ToolUsage {
  calls: number;
  /** Calls answered with an error (bad arguments, no index, a refused path, an internal failure). */
  errors: number;
  /** Hits, files, spans or entries listed in the answers. */
  results: number;
  /** Estimated tokens of the answers (about 3.5 characters each). */
  tokensServed: number;
  /** Estimated tokens of the whole files the answers' spans came from (each file once per answer). */
  wholeFileTokens: number;
  /** read_span calls, in the same process, of a span (or file) this tool returned earlier. */
  spansLaterRead: number;
}

/** The counters of one store, as `usage.json` holds them. */
export interface UsageSummary {
  /** When counting started for this store (ISO time). */
  since: string;
  /** The last write (ISO time). */
  updatedAt: string;
  tools: Record<string, ToolUsage>;
  /** Totals per day (UTC, `YYYY-MM-DD`), the last 60 days. */
  days: Record<string, ToolUsage>;
}

/** A `path:start-end` an answer returned; without lines, a whole file it named. */
export interface ServedSpan {
  path: string;
  startLine?: number;
  endLine?: number;
  /** The whole file's size in bytes, when the answer knows it (a hit's `indexed.size`). */
  fileBytes?: number;
}

/** What an answer held, as the tool that made it reports it. */
export interface Served {
  /** Hits, files, spans or entries listed. */
  results: number;
  /** Spans whose whole files count against the answer's size. */
  spans?: readonly ServedSpan[];
  /** Files or spans listed without their text (a pack's related files): remembered for "later read" only. */
  mentioned?: readonly ServedSpan[];
  /** read_span: what it read (counts as a later read when an earlier answer returned it). */
  read?: ServedSpan;
}

export interface ToolOutcome extends Served {
  isError: boolean;
  /** Estimated tokens of the answer. */
  tokens: number;
}

/** What the tool layer calls; `UsageCounters` implements it. */
export interface UsageRecorder {
  record(tool: string, outcome: ToolOutcome): void;
}

export const emptyUsage = (): ToolUsage => ({ calls: 0, errors: 0, results: 0, tokensServed: 0, wholeFileTokens: 0, spansLaterRead: 0 });
const FIELDS = Object.keys(emptyUsage()) as Array<keyof ToolUsage>;

function addInto(target: ToolUsage, delta: Partial<ToolUsage>): void {
  for (const f of FIELDS) target[f] += delta[f] ?? 0;
}

const tokensOfBytes = (bytes: number): number => Math.ceil(bytes / CHARS_PER_TOKEN);
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** `CAIRN_USAGE=0` (or `false`, `off`, `no`) turns counting off. */
export function usageAllowedByEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.CAIRN_USAGE?.trim().toLowerCase();
  return !(v === '0' || v === 'false' || v === 'off' || v === 'no');
}

// --- the file ----------------------------------------------------------------------------

function counters(value: unknown, where: string): ToolUsage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} is not an object`);
  const out = emptyUsage();
  for (const f of FIELDS) {
    const n = (value as Record<string, unknown>)[f];
    if (n === undefined) continue;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new Error(`${where}.${f} is not a count`);
    out[f] = n;
  }
  return out;
}

function countersByKey(value: unknown, where: string): Record<string, ToolUsage> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} is not an object`);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, counters(v, `${where}.${k}`)]));
}

/** Parses `usage.json`; throws an Error saying what is wrong with it. */
export function parseUsage(text: string): UsageSummary {
  const raw = JSON.parse(text) as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not a JSON object');
  if (raw.format !== FORMAT || raw.version !== VERSION) throw new Error(`not a ${FORMAT} version ${VERSION} file`);
  if (typeof raw.since !== 'string' || Number.isNaN(Date.parse(raw.since))) throw new Error('since is not a time');
  const updatedAt = typeof raw.updatedAt === 'string' && !Number.isNaN(Date.parse(raw.updatedAt)) ? raw.updatedAt : raw.since;
  return { since: raw.since, updatedAt, tools: countersByKey(raw.tools, 'tools'), days: raw.days === undefined ? {} : countersByKey(raw.days, 'days') };
}

export function serializeUsage(summary: UsageSummary): string {
  return `${JSON.stringify({ format: FORMAT, version: VERSION, ...summary }, null, 1)}\n`;
}

export interface UsageRead {
  /** Undefined when nothing was counted yet (no file) or the file is unreadable. */
  summary?: UsageSummary;
  /** Why the file could not be used. */
  problem?: string;
  /** The file is there but not a counters file: the next write starts it again. */
  damaged?: boolean;
}

/** Reads a store's counters without blocking the event loop; never throws. */
export async function readUsage(storeDir: string): Promise<UsageRead> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(storeDir, USAGE_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: e instanceof Error ? e.message : String(e) };
  }
  try {
    return { summary: parseUsage(text) };
  } catch (e) {
    return { problem: `${USAGE_FILE} is damaged (${e instanceof Error ? e.message : String(e)})`, damaged: true };
  }
}

/** `summary` plus the counts in `delta`, with per-day totals older than 60 days dropped. */
export function mergeUsage(summary: UsageSummary | undefined, delta: { tools: Record<string, ToolUsage>; days: Record<string, ToolUsage> }, nowMs: number): UsageSummary {
  const now = new Date(nowMs).toISOString();
  const out: UsageSummary = { since: summary?.since ?? now, updatedAt: now, tools: {}, days: {} };
  for (const [key, into] of [['tools', out.tools], ['days', out.days]] as const) {
    for (const source of [summary?.[key] ?? {}, delta[key]]) {
      for (const [name, c] of Object.entries(source)) addInto((into[name] ??= emptyUsage()), c);
    }
  }
  const days = Object.keys(out.days).sort();
  for (const old of days.slice(0, Math.max(0, days.length - KEPT_DAYS))) delete out.days[old];
  return out;
}

/** Every tool's counters added up. */
export function usageTotals(summary: UsageSummary): ToolUsage {
  const total = emptyUsage();
  for (const c of Object.values(summary.tools)) addInto(total, c);
  return total;
}

/**
 * Tokens served by the answers made of spans (the tools that counted whole files) against the
 * whole files those spans came from: the "served 12k where the files were 310k" figure.
 */
export function spanEconomy(summary: UsageSummary): { tokensServed: number; wholeFileTokens: number } {
  let tokensServed = 0;
  let wholeFileTokens = 0;
  for (const c of Object.values(summary.tools)) {
    if (c.wholeFileTokens === 0) continue;
    tokensServed += c.tokensServed;
    wholeFileTokens += c.wholeFileTokens;
  }
  return { tokensServed, wholeFileTokens };
}

/** `950`, `9.1k`, `310k`, `1.2M`: sizes a person compares at a glance. */
export function compactCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}

/** `3.9%`: the tokens served as a share of the whole files'. */
export function economyShare(e: { tokensServed: number; wholeFileTokens: number }): string {
  const share = (100 * e.tokensServed) / e.wholeFileTokens;
  return `${share < 10 ? share.toFixed(1) : Math.round(share)}%`;
}

/** `served 12k tokens where the whole files were 310k (3.9%)`, or undefined before any span answer. */
export function describeEconomy(summary: UsageSummary): string | undefined {
  const e = spanEconomy(summary);
  if (e.wholeFileTokens === 0) return undefined;
  return `served ${compactCount(e.tokensServed)} tokens where the whole files were ${compactCount(e.wholeFileTokens)} (${economyShare(e)})`;
}

/** The counters as a table for a terminal: one row per tool, then the totals and the economy line. */
export function usageTable(summary: UsageSummary): string[] {
  const head = ['tool', 'calls', 'errors', 'results', 'tokens', 'whole files', 'later read'];
  const row = (name: string, c: ToolUsage): string[] => [name, String(c.calls), String(c.errors), String(c.results), compactCount(c.tokensServed), c.wholeFileTokens ? compactCount(c.wholeFileTokens) : '-', String(c.spansLaterRead)];
  const names = Object.keys(summary.tools).sort((a, b) => summary.tools[b]!.calls - summary.tools[a]!.calls || (a < b ? -1 : 1));
  const rows = [head, ...names.map((n) => row(n, summary.tools[n]!)), row('total', usageTotals(summary))];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
  const economy = describeEconomy(summary);
  return [...lines, ...(economy ? [economy] : [])];
}

// --- writes seen in this process ---------------------------------------------------------

type WriteListener = (storeDir: string) => void;
const writeListeners = new Set<WriteListener>();

/** Called after this process wrote a store's counters (the Index view redraws). */
export function onUsageWritten(listener: WriteListener): { dispose(): void } {
  writeListeners.add(listener);
  return { dispose: () => void writeListeners.delete(listener) };
}

// --- counting ----------------------------------------------------------------------------

export interface UsageCountersOptions {
  /** The indexed root: paths in answers are relative to it. */
  root: string;
  /** The store directory; the counters go to `<storeDir>/usage.json`. */
  storeDir: string;
  /** Warnings (a damaged file reset, a failed write), once each. */
  log?: (message: string) => void;
  /** Asked on every call: false records nothing (a setting turned off meanwhile). */
  enabled?: () => boolean;
  flushIntervalMs?: number;
  now?: () => number;
}

interface Remembered {
  tool: string;
  path: string;
  startLine?: number;
  endLine?: number;
}

interface Delta {
  tools: Record<string, ToolUsage>;
  days: Record<string, ToolUsage>;
}

const overlaps = (a: ServedSpan, b: ServedSpan): boolean =>
  a.startLine === undefined || b.startLine === undefined || ((a.startLine ?? 1) <= (b.endLine ?? Infinity) && (b.startLine ?? 1) <= (a.endLine ?? Infinity));

/** One store's counters in one process. */
export class UsageCounters implements UsageRecorder {
  readonly file: string;
  private pending: Delta = { tools: {}, days: {} };
  private readonly served = new Map<string, Remembered>();
  private readonly sizing = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly warned = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly options: UsageCountersOptions) {
    this.file = path.join(options.storeDir, USAGE_FILE);
    this.now = options.now ?? Date.now;
  }

  record(tool: string, outcome: ToolOutcome): void {
    if (this.closed || (this.options.enabled && !this.options.enabled())) return;
    const delta: ToolUsage = { ...emptyUsage(), calls: 1, errors: outcome.isError ? 1 : 0, tokensServed: outcome.tokens };
    if (!outcome.isError) {
      delta.results = outcome.results;
      // Each file once per answer: what reading the files instead would have cost.
      const files = new Map<string, number | undefined>();
      for (const s of [...(outcome.spans ?? []), ...(outcome.read ? [outcome.read] : [])]) files.set(s.path, s.fileBytes ?? files.get(s.path));
      const unknown: string[] = [];
      for (const [p, bytes] of files) {
        if (bytes === undefined) unknown.push(p);
        else delta.wholeFileTokens += tokensOfBytes(bytes);
      }
      if (unknown.length) this.sizeLater(tool, unknown);
      if (outcome.read) this.countLaterReads(outcome.read);
      for (const s of [...(outcome.spans ?? []), ...(outcome.mentioned ?? [])]) this.remember(tool, s);
    }
    this.add(tool, delta);
  }

  private add(tool: string, delta: Partial<ToolUsage>): void {
    addInto((this.pending.tools[tool] ??= emptyUsage()), delta);
    addInto((this.pending.days[dayOf(this.now())] ??= emptyUsage()), delta);
    this.schedule();
  }

  private remember(tool: string, s: ServedSpan): void {
    const key = `${s.path}:${s.startLine ?? ''}-${s.endLine ?? ''}`;
    this.served.delete(key);
    this.served.set(key, { tool, path: s.path, ...(s.startLine !== undefined ? { startLine: s.startLine, endLine: s.endLine ?? s.startLine } : {}) });
    if (this.served.size > REMEMBERED_SPANS) this.served.delete(this.served.keys().next().value as string);
  }

  /**
   * A read counts once, for the served span it matches best: the same lines, else the latest
   * answer's span it overlaps. That span is then forgotten, so reading it again does not count.
   */
  private countLaterReads(read: ServedSpan): void {
    let best: [string, Remembered] | undefined;
    for (const entry of this.served) {
      const s = entry[1];
      if (s.path !== read.path || !overlaps(s, read)) continue;
      best = entry;
      if (s.startLine === read.startLine && s.endLine === read.endLine) break;
    }
    if (!best) return;
    this.served.delete(best[0]);
    this.add(best[1].tool, { spansLaterRead: 1 });
  }

  /** Sizes of files an answer named without them (pack items): stat'ed off the call's path. */
  private sizeLater(tool: string, paths: readonly string[]): void {
    const job = (async () => {
      let tokens = 0;
      for (const p of paths) {
        if (path.isAbsolute(p) || p.split(/[\\/]/).includes('..')) continue;
        const st = await fs.promises.stat(path.join(this.options.root, p)).catch(() => undefined);
        if (st?.isFile()) tokens += tokensOfBytes(st.size);
      }
      if (tokens > 0) this.add(tool, { wholeFileTokens: tokens });
    })();
    this.sizing.add(job);
    void job.finally(() => this.sizing.delete(job));
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.flushIntervalMs ?? USAGE_FLUSH_MS);
    this.timer.unref?.();
  }

  /** Writes the pending counts now (one write at a time per process). Never throws. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeOnce());
    return this.writing;
  }

  /** Stops counting, waits for sizes being looked up, and writes what is pending. */
  async close(): Promise<void> {
    if (this.closed) return this.writing;
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all([...this.sizing]);
    await this.flush();
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.options.log?.(message);
  }

  private async writeOnce(): Promise<void> {
    if (Object.keys(this.pending.tools).length === 0 && Object.keys(this.pending.days).length === 0) return;
    const delta = this.pending;
    this.pending = { tools: {}, days: {} };
    let unlock: (() => Promise<void>) | undefined;
    try {
      await fs.promises.mkdir(this.options.storeDir, { recursive: true });
      // Two processes on one store (two MCP servers) each add their own delta: one at a time.
      unlock = await lockFile(`${this.file}.lock`);
      const current = await readUsage(this.options.storeDir);
      // A file that cannot be read is not overwritten (it may hold other processes' counts).
      if (current.problem && !current.damaged) throw new Error(current.problem);
      if (current.problem) this.warnOnce(`read:${current.problem}`, `usage counters: ${current.problem}; counting starts again from now`);
      await writeFileAtomicAsync(this.file, serializeUsage(mergeUsage(current.summary, delta, this.now())));
      for (const listener of writeListeners) listener(this.options.storeDir);
    } catch (e) {
      // Kept for the next try (a store that is read-only now may not be later); said once.
      for (const key of ['tools', 'days'] as const) for (const [name, c] of Object.entries(delta[key])) addInto((this.pending[key][name] ??= emptyUsage()), c);
      this.warnOnce('write', `usage counters not saved to ${this.file}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await unlock?.();
    }
  }
}

/** A lock older than this was left by a process that died while writing. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 3000;

/**
 * Takes `lock` (created exclusively), waiting a bounded time for another writer; resolves with
 * the function that releases it. Counts are never worth a long wait: past it, this throws and
 * the delta is kept for the next write.
 */
async function lockFile(lock: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await fs.promises.open(lock, 'wx', 0o600)).close();
      return () => fs.promises.rm(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = await fs.promises.stat(lock).then((st) => Date.now() - st.mtimeMs, () => 0);
      if (age > STALE_LOCK_MS) await fs.promises.rm(lock, { force: true });
      else if (Date.now() > deadline) throw new Error('another process is writing the usage counters');
      else await new Promise((r) => setTimeout(r, 10 + Math.random() * 20));
    }
  }
}
