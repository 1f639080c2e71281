// The tool definitions shared by the MCP server and (later) VS Code's language-model tools:
// every spec has a JSON Schema and a description, and `runTool` turns every failure into an
// `isError` result that says what is wrong, without an SDK in between.
import type { IndexStatus } from '../../src/core/api';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { MAX_QUERY_CHARS, type FreshnessPolicy, type FreshnessState } from '../../src/core/api';
import { runTool, toolSpecs, type ToolDeps, type ToolEngine } from '../../src/tools/tools';

const textOf = (r: { content: Array<{ text: string }> }): string => r.content.map((c) => c.text).join('\n');

function status(exists: boolean): IndexStatus {
  return { root: '/r', storeDir: '/s', exists, generation: exists ? 1 : 0, files: 0, chunks: 0, segments: 0, deletedChunks: 0, storeBytes: 0, skippedByReason: {}, skipped: [], languages: {}, diagnostics: [] };
}

/** Tool dependencies over a fake engine that records what reaches it. */
function deps(root: string, over: { state?: FreshnessState; exists?: boolean } = {}): ToolDeps & { calls: string[] } {
  const calls: string[] = [];
  const exists = over.exists ?? true;
  const index = { files: 0, chunks: 0, fresh: false, generation: exists ? 1 : 0 };
  const engine: ToolEngine = {
    search: async (query) => {
      calls.push('search');
      return { query, results: [], total: 0, tookMs: 0, index, warnings: exists ? [] : ['no index yet'], diagnostics: [] };
    },
    searchFiles: async (query) => {
      calls.push('searchFiles');
      return { query, files: [], total: 0, tookMs: 0, index, warnings: exists ? [] : ['no index yet'], diagnostics: [] };
    },
    findSymbol: async (name) => {
      calls.push('findSymbol');
      return { query: name, exact: false, results: [], tookMs: 0, index, diagnostics: [] };
    },
    references: async (name) => {
      calls.push('references');
      return { name, definitions: [], references: [], byFile: [], total: 0, certain: 0, truncated: false, tookMs: 0, index, diagnostics: [] };
    },
    buildPack: async () => {
      calls.push('buildPack');
      throw new Error('buildPack should not be called without an index');
    },
    status: () => status(exists),
  };
  const freshness: FreshnessPolicy = {
    ensureFresh: async () => over.state ?? { kind: 'recent', checkedAgoMs: 10 },
    refreshNow: async () => over.state ?? { kind: 'recent', checkedAgoMs: 10 },
    describe: () => ({ minIntervalMs: 3000 }),
  };
  return { root, engine, freshness, calls };
}

describe('mcp tool definitions', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-mcp-tools-'));
    fs.writeFileSync(path.join(root, 'a.ts'), 'one\ntwo\nthree\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('lists the nine tools, each with a title, a description for a model and an object JSON Schema', () => {
    assert.deepEqual(
      toolSpecs.map((t) => t.name),
      ['search_code', 'find_symbol', 'find_references', 'get_context_pack', 'read_span', 'context_search', 'context_get', 'index_status', 'refresh_index'],
    );
    for (const t of toolSpecs) {
      assert.ok(t.title && t.description.length > 80, t.name);
      assert.equal(t.jsonSchema.type, 'object', t.name);
      assert.equal(t.jsonSchema.additionalProperties, false, `${t.name} rejects unknown arguments`);
    }
    const search = toolSpecs[0]!.jsonSchema as { required?: string[]; properties: Record<string, { default?: unknown }> };
    assert.deepEqual(search.required, ['query']);
    assert.equal(search.properties.limit?.default, 10);
  });

  it('each tool that replaces grep or whole-file reads says so, and how big its answer is by default', () => {
    const steering: Record<string, RegExp[]> = {
      search_code: [/instead of grep, rg or reading whole files/, /2,500 tokens/, /`next:` line/],
      find_symbol: [/instead of grepping for a name/, /2,000 tokens/],
      find_references: [/instead of grep or rg for a name/, /2,000 tokens/, /`next:` line/],
      get_context_pack: [/instead of many searches or reading whole files/, /6,000/],
      read_span: [/instead of whole files/, /300 lines and 6,000 tokens/],
    };
    for (const [name, patterns] of Object.entries(steering)) {
      const spec = toolSpecs.find((t) => t.name === name)!;
      for (const p of patterns) assert.match(spec.description, p, name);
    }
  });

  it('partial matches only: the text says no result has all the words, each hit is marked, JSON carries allTerms and the note', async () => {
    const d = deps(root);
    const note = 'No result has all of: getDefinedMessageData; 2 partial matches';
    const partialHit = (p: string, score: number) => ({
      docid: `${p}:1-3`, path: p, startLine: 1, endLine: 3, score, scoreBreakdown: [], symbol: 'getMessage', kind: 'function' as const,
      language: 'javascript', context: 'getMessage', preview: 'function getMessage() {}', id: p, partial: true as const,
    });
    d.engine.search = async (query) => ({
      query, results: [partialHit('a.js', 2), partialHit('b.js', 1)], total: 2, allTerms: false as const, note, tookMs: 0, index: { files: 2, chunks: 2, fresh: false, generation: 1 }, warnings: [], diagnostics: [],
    });
    const lines = textOf(await runTool('search_code', { query: 'getDefinedMessageData' }, d)).split('\n');
    assert.equal(lines[0], `${note}; 2 shown for "getDefinedMessageData" (index provider)`);
    assert.ok(!lines.some((l) => / results for /.test(l)), lines.join('\n'));
    assert.equal(lines.filter((l) => l.includes('[partial match]')).length, 2, lines.join('\n'));
    const json = JSON.parse(textOf(await runTool('search_code', { query: 'getDefinedMessageData', format: 'json' }, d))) as { allTerms?: boolean; note?: string; results: Array<{ partial?: boolean }> };
    assert.equal(json.allTerms, false);
    assert.equal(json.note, note);
    assert.deepEqual(json.results.map((r) => r.partial), [true, true]);
  });

  it('groupBy file, partial matches only: the same line heads the files, each partial file is marked, JSON carries allTerms, the note and partial', async () => {
    const d = deps(root);
    const note = 'No result has all of: getDefinedMessageData; 2 partial matches';
    const span = (p: string) => ({
      docid: `${p}:1-3`, path: p, startLine: 1, endLine: 3, score: 1, scoreBreakdown: [], symbol: 'getMessage', kind: 'function' as const,
      language: 'javascript', context: 'getMessage', preview: 'function getMessage() {}', id: p, partial: true as const,
    });
    const file = (p: string, score: number) => ({ path: p, score, scoreBreakdown: [], spans: [span(p)], matchedChunks: 1, language: 'javascript', partial: true as const });
    d.engine.searchFiles = async (query) => ({
      query, files: [file('a.js', 2), file('b.js', 1)], total: 2, allTerms: false as const, note, tookMs: 0, index: { files: 2, chunks: 2, fresh: false, generation: 1 }, warnings: [], diagnostics: [],
    });
    const lines = textOf(await runTool('search_code', { query: 'getDefinedMessageData', groupBy: 'file' }, d)).split('\n');
    assert.equal(lines[0], `${note}; 2 shown for "getDefinedMessageData" (index provider, ranked as files)`);
    assert.deepEqual(lines.filter((l) => /^\d+\. /.test(l)).map((l) => l.endsWith('[partial match]')), [true, true], lines.join('\n'));
    const json = JSON.parse(textOf(await runTool('search_code', { query: 'getDefinedMessageData', groupBy: 'file', format: 'json' }, d))) as { allTerms?: boolean; note?: string; files: Array<{ partial?: boolean }> };
    assert.deepEqual([json.allTerms, json.note], [false, note]);
    assert.deepEqual(json.files.map((f) => f.partial), [true, true]);
  });

  it('an empty answer ends with the next call worth making, spelled out', async () => {
    const d = deps(root);
    const last = async (tool: string, args: Record<string, unknown>): Promise<string> => textOf(await runTool(tool, args, d)).split('\n').at(-1)!;
    assert.equal(await last('search_code', { query: 'retry backoff' }), 'next: search_code {"query":"retry backoff","provider":"ripgrep"} — exact text, including files the index ranks low');
    assert.equal(await last('search_code', { query: 'retry', provider: 'ripgrep' }), 'next: search_code {"query":"retry","provider":"index"} — ranked search by words and identifier parts');
    assert.equal(await last('find_symbol', { name: 'Retry' }), 'next: search_code {"query":"Retry"} — search by words when the name is not a definition here');
    const json = JSON.parse(textOf(await runTool('search_code', { query: 'retry', format: 'json' }, d))) as { next: string };
    assert.match(json.next, /^next: search_code /);
  });

  it('runTool reports unknown tools and invalid arguments, argument by argument', async () => {
    const d = deps(root);
    const unknown = await runTool('drop_tables', {}, d);
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /unknown tool "drop_tables"; the tools are search_code, /);
    const bad = await runTool('search_code', { limit: 'ten', qurey: 'x' }, d);
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /^invalid arguments for search_code: /);
    assert.match(textOf(bad), /query: required \(string\)/);
    assert.match(textOf(bad), /limit: .*expected number/);
    assert.match(textOf(bad), /qurey/);
    assert.match(textOf(await runTool('search_code', { query: '   ' }, d)), /query: must not be empty/);
    assert.match(textOf(await runTool('search_code', { query: 'x', limit: 500 }, d)), /limit: .*50/);
    assert.deepEqual(d.calls, [], 'nothing reaches the engine');
  });

  it('search_code takes a pasted issue of several KB as its query, and no more than the engine reads', async () => {
    const d = deps(root);
    const issue = `Solving fails on a zero-dimensional system\n\n${'The solver raises when the system has one generator. '.repeat(80)}`;
    assert.ok(issue.length > 4000);
    assert.equal((await runTool('search_code', { query: issue }, d)).isError, undefined);
    assert.deepEqual(d.calls, ['search']);
    assert.match(textOf(await runTool('search_code', { query: 'x'.repeat(MAX_QUERY_CHARS + 1) }, d)), /query: .*16000/);
  });

  it('read_span through runTool: numbered text, and refusals as errors', async () => {
    const d = deps(root);
    assert.equal(textOf(await runTool('read_span', { span: 'a.ts:2-3' }, d)), 'a.ts:2-3 (the file has 3 lines)\n2| two\n3| three');
    assert.equal(textOf(await runTool('read_span', { path: 'a.ts', startLine: 3, lineNumbers: false }, d)), 'a.ts:3-3 (the file has 3 lines)\nthree');
    for (const [args, pattern] of [
      [{ span: '../etc/passwd' }, /'\.\.' is not accepted/],
      [{ path: '/etc/passwd' }, /absolute paths/],
      [{ span: 'a.ts:1-2', path: 'a.ts' }, /exactly one of them/],
      [{}, /exactly one of them/],
      [{ span: 'a.ts:1-2', startLine: 1 }, /already names its lines/],
    ] as const) {
      const r = await runTool('read_span', args, d);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(textOf(r), pattern);
    }
  });

  it('read_span follows the discovery options it is given (the index\'s own settings)', async () => {
    const served = await runTool('read_span', { path: 'a.ts' }, deps(root));
    assert.equal(served.isError, undefined, textOf(served));
    const excluded = await runTool('read_span', { path: 'a.ts' }, { ...deps(root), discovery: { exclude: ['*.ts'] } });
    assert.equal(excluded.isError, true);
    assert.equal(textOf(excluded), 'read_span: a.ts is outside the include/exclude globs of this index; it is not served');
  });

  it('index-backed tools say when the index is still being built, instead of answering empty', async () => {
    const building = deps(root, { exists: false, state: { kind: 'refreshing', startedAgoMs: 26_000, progress: { phase: 'chunk', done: 10, total: 90 }, pending: [] } });
    const r = await runTool('search_code', { query: 'x' }, building);
    assert.equal(r.isError, true);
    assert.match(textOf(r), /still being built .*chunk 10\/90.*try again/);
    const failed = await runTool('find_symbol', { name: 'x' }, deps(root, { exists: false, state: { kind: 'failed', message: 'no space left' } }));
    assert.match(textOf(failed), /no index and building it failed: no space left/);
    const pack = deps(root, { exists: false, state: { kind: 'recent', checkedAgoMs: 5, lastFailure: 'EACCES' } });
    assert.match(textOf(await runTool('get_context_pack', { task: 'x' }, pack)), /no index yet \(the last build failed: EACCES\); call refresh_index/);
    assert.deepEqual(pack.calls, [], 'no pack is built without an index');
    const empty = await runTool('search_code', { query: 'x' }, deps(root));
    assert.equal(empty.isError, undefined, 'an index with no match is an answer, not an error');
    assert.match(textOf(empty), /^no results for "x"/);
  });

  it('context tools without a registry, and refresh_index with paths outside the root, are errors', async () => {
    const d = deps(root);
    assert.match(textOf(await runTool('context_search', { query: 'x' }, d)), /no context registry/);
    const r = await runTool('refresh_index', { paths: ['src', '../other'] }, d);
    assert.equal(r.isError, true);
    assert.match(textOf(r), /'\.\.' is not accepted/);
  });
});
