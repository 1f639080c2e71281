// The local tool-use counters (src/tools/usage.ts) as runTool feeds them: what one answer adds
// (results, tokens, the whole files its spans came from), spans read later, errors, the opt-outs,
// and the file in the store: written after the call, merged across processes, reset when damaged.
import type { IndexStatus, SearchHit } from '../../src/core/api';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { FreshnessPolicy } from '../../src/core/api';
import { estimateTokens } from '../../src/core/pack/markdown';
import { runTool, type ToolDeps, type ToolEngine } from '../../src/tools/tools';
import { emptyUsage, parseUsage, REMEMBERED_SPANS, usageAllowedByEnv, usageTable, UsageCounters, USAGE_FILE, type ToolUsage, type UsageSummary } from '../../src/tools/usage';
import { checkAll } from './check';

const line = (n: number): string => `export const value${String(n).padStart(2, '0')} = ${n};`.padEnd(34, ' ');
/** 20 lines of 35 bytes (700 bytes, 200 tokens) and 10 lines (350 bytes, 100 tokens). */
const FILES: Record<string, string> = {
  'src/a.ts': Array.from({ length: 20 }, (_, i) => `${line(i + 1)}\n`).join(''),
  'src/b.ts': Array.from({ length: 10 }, (_, i) => `${line(i + 1)}\n`).join(''),
  'src/c.ts': Array.from({ length: 7 }, (_, i) => `${line(i + 1)}\n`).join(''),
};

function hit(p: string, startLine: number, endLine: number): SearchHit {
  const size = Buffer.byteLength(FILES[p] as string);
  return {
    path: p,
    startLine,
    endLine,
    docid: `${p}:${startLine}-${endLine}`,
    id: `${p}#${startLine}`,
    score: 1,
    scoreBreakdown: [{ kind: 'match', name: 'body', value: 1 }],
    symbol: `value${startLine}`,
    kind: 'variable',
    language: 'typescript',
    context: '',
    preview: line(startLine),
    previewLine: startLine,
    indexed: { size, mtimeMs: 0, sha256: '0'.repeat(64) },
  };
}

const THREE_HITS = [hit('src/a.ts', 1, 5), hit('src/a.ts', 10, 14), hit('src/b.ts', 1, 4)];

function engine(): ToolEngine {
  const index = { files: 3, chunks: 9, fresh: true, generation: 1 };
  const status: IndexStatus = { root: '/r', storeDir: '/s', exists: true, generation: 1, files: 3, chunks: 9, segments: 1, deletedChunks: 0, storeBytes: 0, skippedByReason: {}, skipped: [], languages: {}, diagnostics: [] };
  return {
    search: async (query) => ({ query, results: THREE_HITS, total: 3, tookMs: 0, index, warnings: [], diagnostics: [] }),
    searchFiles: async (query) => ({ query, files: [], total: 0, tookMs: 0, index, warnings: [], diagnostics: [] }),
    findSymbol: async (name) => ({ query: name, exact: false, results: [], tookMs: 0, index, diagnostics: [] }),
    references: async (name) => ({ name, definitions: [], references: [], byFile: [], total: 0, certain: 0, truncated: false, tookMs: 0, index, diagnostics: [] }),
    buildPack: async (task) => ({
      task,
      budgetTokens: 6000,
      usedTokens: 100,
      // Pack items carry no file sizes: the counters stat the files.
      mustInspect: [{ ...hit('src/c.ts', 2, 3), relation: 'lexical', reason: 'matches', tokens: 20, text: 'x' }],
      relatedFiles: [{ path: 'src/b.ts', relation: 'imported', reason: 'imported', score: 1, scoreBreakdown: [] }],
      rejectedFiles: [],
      cut: [],
      guidance: [],
      index,
      tookMs: 0,
      warnings: [],
      diagnostics: [],
    }),
    status: () => status,
  };
}

const freshness: FreshnessPolicy = {
  ensureFresh: async () => ({ kind: 'recent', checkedAgoMs: 10 }),
  refreshNow: async () => ({ kind: 'recent', checkedAgoMs: 10 }),
  describe: () => ({ minIntervalMs: 3000 }),
};

const tokensOf = (r: { content: Array<{ text: string }> }): number => r.content.reduce((n, c) => n + estimateTokens(c.text), 0);
const readFile = (store: string): UsageSummary => parseUsage(fs.readFileSync(path.join(store, USAGE_FILE), 'utf8'));
const usage = (over: Partial<ToolUsage>): ToolUsage => ({ ...emptyUsage(), ...over });

describe('usage counters', () => {
  let root: string;
  let store: string;
  let logged: string[];
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-usage-'));
    store = path.join(root, '.store');
    for (const [p, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), text);
    }
    logged = [];
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** Tool deps counting into `store`; flushes only when the test says so (close). */
  function setup(options: { enabled?: () => boolean; flushIntervalMs?: number } = {}): { deps: ToolDeps; counters: UsageCounters } {
    const counters = new UsageCounters({ root, storeDir: store, log: (m) => logged.push(m), flushIntervalMs: options.flushIntervalMs ?? 60_000, ...(options.enabled ? { enabled: options.enabled } : {}) });
    return { deps: { root, engine: engine(), freshness, usage: counters }, counters };
  }

  it('a search answer with 3 hits from 2 files counts 3 results and the tokens of the 2 whole files', async () => {
    const { deps, counters } = setup();
    const answer = await runTool('search_code', { query: 'value' }, deps);
    assert.equal(answer.isError, undefined);
    assert.equal('served' in answer, false, 'front ends get the MCP result shape only');
    await counters.close();
    assert.deepEqual(readFile(store).tools, { search_code: usage({ calls: 1, results: 3, tokensServed: tokensOf(answer), wholeFileTokens: 200 + 100 }) });
  });

  it('a later read_span of a returned span counts as a span later read, for the tool that returned it', async () => {
    const { deps, counters } = setup();
    const search = await runTool('search_code', { query: 'value' }, deps);
    const read = await runTool('read_span', { span: 'src/a.ts:10-14' }, deps);
    // Not returned by any answer: read, but not "later read".
    const other = await runTool('read_span', { span: 'src/c.ts:1-2' }, deps);
    // The same span again: it was counted already.
    await runTool('read_span', { span: 'src/a.ts:10-14' }, deps);
    await counters.close();
    const tools = readFile(store).tools;
    assert.deepEqual(tools.search_code, usage({ calls: 1, results: 3, tokensServed: tokensOf(search), wholeFileTokens: 300, spansLaterRead: 1 }));
    assert.equal(tools.read_span?.calls, 3);
    assert.equal(tools.read_span?.spansLaterRead, 0);
    assert.equal(tools.read_span?.wholeFileTokens, 200 + 70 + 200, 'each read counts its whole file: a.ts, c.ts, a.ts');
    assert.equal(tools.read_span?.tokensServed, tokensOf(read) * 2 + tokensOf(other));
  });

  it('a read counts once, for the span it overlaps; a pack\'s related file counts when read', async () => {
    const { deps, counters } = setup();
    await runTool('search_code', { query: 'value' }, deps);
    await runTool('get_context_pack', { task: 'change value' }, deps);
    await runTool('read_span', { path: 'src/a.ts' }, deps);
    await runTool('read_span', { path: 'src/b.ts', startLine: 8, endLine: 9 }, deps);
    await counters.close();
    const tools = readFile(store).tools;
    assert.equal(tools.search_code?.spansLaterRead, 1, 'the whole of a.ts covers two returned spans, but it is one read');
    assert.equal(tools.get_context_pack?.spansLaterRead, 1, 'the related file b.ts, read in part');
    assert.equal(tools.get_context_pack?.results, 2);
    assert.equal(tools.get_context_pack?.wholeFileTokens, 70, 'c.ts (245 bytes), looked up on disk; the related file is not counted');
  });

  it('remembers the last spans only, so memory stays bounded', async () => {
    const counters = new UsageCounters({ root, storeDir: store, flushIntervalMs: 60_000 });
    const served = (p: string, n: number) => ({ path: p, startLine: n, endLine: n });
    counters.record('search_code', { isError: false, tokens: 1, results: 1, spans: [served('src/a.ts', 1)] });
    for (let i = 0; i < REMEMBERED_SPANS; i++) counters.record('search_code', { isError: false, tokens: 1, results: 1, spans: [served('src/b.ts', i + 1)], mentioned: [] });
    counters.record('read_span', { isError: false, tokens: 1, results: 1, read: served('src/a.ts', 1) });
    counters.record('read_span', { isError: false, tokens: 1, results: 1, read: served('src/b.ts', REMEMBERED_SPANS) });
    await counters.close();
    assert.equal(readFile(store).tools.search_code?.spansLaterRead, 1, 'the oldest span was forgotten');
  });

  it('counts errors: bad arguments, refused paths, no results', async () => {
    const { deps, counters } = setup();
    const bad = await runTool('search_code', { query: 5 }, deps);
    const outside = await runTool('read_span', { span: '../etc/passwd' }, deps);
    await runTool('no_such_tool', {}, deps);
    await counters.close();
    const tools = readFile(store).tools;
    assert.deepEqual(tools.search_code, usage({ calls: 1, errors: 1, tokensServed: tokensOf(bad) }));
    assert.deepEqual(tools.read_span, usage({ calls: 1, errors: 1, tokensServed: tokensOf(outside) }));
    assert.deepEqual(Object.keys(tools).sort(), ['read_span', 'search_code'], 'an unknown tool name adds no key');
  });

  it('writes after the call, never during it, and at most once per interval', async () => {
    const { deps, counters } = setup({ flushIntervalMs: 30 });
    const file = path.join(store, USAGE_FILE);
    await runTool('search_code', { query: 'value' }, deps);
    await runTool('search_code', { query: 'value' }, deps);
    assert.equal(fs.existsSync(file), false, 'nothing written while answering');
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(readFile(store).tools.search_code?.calls, 2, 'both calls in one write');
    await counters.close();
  });

  it('opted out, nothing is counted and nothing is written', async () => {
    let on = false;
    const { deps, counters } = setup({ enabled: () => on });
    await runTool('search_code', { query: 'value' }, deps);
    await runTool('read_span', { span: 'src/a.ts:1-5' }, deps);
    await counters.flush();
    assert.equal(fs.existsSync(store), false, 'not even the store folder');
    on = true;
    await runTool('read_span', { span: 'src/a.ts:1-5' }, deps);
    await counters.close();
    assert.deepEqual(Object.keys(readFile(store).tools), ['read_span'], 'a setting turned on counts from then on');
    assert.equal(readFile(store).tools.read_span?.spansLaterRead, 0, 'the search made while off was not remembered');
  });

  checkAll(
    [
      { name: 'CAIRN_USAGE unset: counting', input: undefined, expected: true },
      { input: '1', expected: true },
      { input: '0', expected: false },
      { input: 'false', expected: false },
      { input: ' OFF ', expected: false },
      { input: 'no', expected: false },
    ],
    (value: string | undefined) => usageAllowedByEnv(value === undefined ? {} : { CAIRN_USAGE: value }),
  );

  it('a damaged usage.json is reset with a warning, never a crash', async () => {
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, USAGE_FILE), '{"format":"cairn-usage", "version": 1, "tools": {"search_code": {"calls": -3');
    const { deps, counters } = setup();
    const answer = await runTool('search_code', { query: 'value' }, deps);
    assert.equal(answer.isError, undefined);
    await counters.close();
    assert.equal(readFile(store).tools.search_code?.calls, 1);
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /usage\.json is damaged .*counting starts again from now/);
  });

  it('two processes on one store add up their counts, each flushing only what it added since', async () => {
    const one = setup();
    const two = setup();
    await runTool('search_code', { query: 'value' }, one.deps);
    await one.counters.flush();
    await runTool('search_code', { query: 'value' }, two.deps);
    await runTool('read_span', { span: 'src/b.ts:1-2' }, two.deps);
    await two.counters.flush();
    await runTool('search_code', { query: 'value' }, one.deps);
    await Promise.all([one.counters.close(), two.counters.close()]);
    const summary = readFile(store);
    assert.equal(summary.tools.search_code?.calls, 3);
    assert.equal(summary.tools.search_code?.results, 9);
    assert.equal(summary.tools.read_span?.calls, 1);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(summary.days[today]?.calls, 4, 'the day\'s totals');
    assert.ok(Date.parse(summary.since) <= Date.parse(summary.updatedAt));
  });

  it('a store that cannot be written keeps the counts and says so once', async () => {
    fs.writeFileSync(store, 'a file where the store folder should be');
    const { deps, counters } = setup();
    await runTool('search_code', { query: 'value' }, deps);
    await counters.flush();
    await runTool('search_code', { query: 'value' }, deps);
    await counters.flush();
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /usage counters not saved to /);
    fs.rmSync(store);
    await counters.close();
    assert.equal(readFile(store).tools.search_code?.calls, 2, 'kept until a write succeeded');
  });

  it('the table: one row per tool by calls, the totals, and tokens served against the whole files', () => {
    const summary: UsageSummary = {
      since: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
      tools: {
        read_span: usage({ calls: 4, results: 4, tokensServed: 1200, wholeFileTokens: 9000, spansLaterRead: 0 }),
        search_code: usage({ calls: 6, errors: 1, results: 40, tokensServed: 10_800, wholeFileTokens: 301_000, spansLaterRead: 3 }),
        index_status: usage({ calls: 1, tokensServed: 90 }),
      },
      days: {},
    };
    assert.deepEqual(usageTable(summary), [
      'tool          calls  errors  results  tokens  whole files  later read',
      'search_code       6       1       40     11k         301k           3',
      'read_span         4       0        4    1.2k         9.0k           0',
      'index_status      1       0        0      90            -           0',
      'total            11       1       44     12k         310k           3',
      'served 12k tokens where the whole files were 310k (3.9%)',
    ]);
  });
});
