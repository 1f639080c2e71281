// find_references as a model reads it: grouped by file, each reference marked certain or a
// name match (and by whom, in VS Code), certain ones kept first when the budget is tight, and
// a `next:` line that reads the best certain use.
import * as assert from 'node:assert/strict';
import type { FreshnessPolicy, ReferenceHit, ReferencesResponse, SourcedReferencesResponse } from '../../src/core/api';
import { estimateTokens } from '../../src/core/pack/markdown';
import { runTool, type ToolDeps, type ToolEngine } from '../../src/tools/tools';
import { checkAll } from './check';

const index = { files: 3, chunks: 9, fresh: true, generation: 1 };

function ref(path: string, line: number, certainty: ReferenceHit['certainty'], over: Partial<ReferenceHit> = {}): ReferenceHit {
  return { path, line, column: 5, endColumn: 13, role: 'code', context: 'main', contextKind: 'function', text: `distance(a, b) // line ${line}`, certainty, reason: certainty === 'certain' ? 'imports src/vector.ts' : 'not imported', language: 'typescript', ...over };
}

function answer(references: ReferenceHit[], over: Partial<ReferencesResponse> = {}): ReferencesResponse {
  const files = [...new Set(references.map((r) => r.path))];
  return {
    name: 'distance',
    definitions: [{ path: 'src/vector.ts', startLine: 37, endLine: 39, line: 37, column: 17, kind: 'function', qualifiedName: 'distance', language: 'typescript' }],
    references,
    byFile: files.map((p) => ({ path: p, language: 'typescript', references: references.filter((r) => r.path === p).length, certain: references.filter((r) => r.path === p && r.certainty === 'certain').length })),
    total: references.length,
    certain: references.filter((r) => r.certainty === 'certain').length,
    truncated: false,
    tookMs: 1,
    index,
    diagnostics: [],
    ...over,
  };
}

const freshness: FreshnessPolicy = {
  ensureFresh: async () => ({ kind: 'recent', checkedAgoMs: 10 }),
  refreshNow: async () => ({ kind: 'recent', checkedAgoMs: 10 }),
  describe: () => ({ minIntervalMs: 3000 }),
};

function depsAnswering(r: ReferencesResponse | SourcedReferencesResponse): ToolDeps {
  const unused = async (): Promise<never> => {
    throw new Error('not used');
  };
  const engine: ToolEngine = { search: unused, searchFiles: unused, findSymbol: unused, buildPack: unused, references: async () => r, status: unused };
  return { root: '/r', engine, freshness };
}

const call = async (r: ReferencesResponse | SourcedReferencesResponse, args: Record<string, unknown> = {}): Promise<string> =>
  (await runTool('find_references', { name: 'distance', ...args }, depsAnswering(r))).content.map((c) => c.text).join('\n');

const bodyOf = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('  ') || /^[\w/]+\.ts {2}\(/.test(l));

const THREE = [ref('src/index.ts', 8, 'certain'), ref('src/vector.ts', 37, 'certain', { role: 'definition', context: 'distance' }), ref('test/geo.ts', 4, 'name-match', { context: '' })];

describe('find_references: what a model reads', () => {
  checkAll(
    [
      {
        name: 'references grouped by file, each marked certain or a name match, with its context and line',
        input: { r: answer(THREE) },
        expected: [
          'src/index.ts  (1 reference, 1 certain)',
          '  8:5  [certain]  main  distance(a, b) // line 8',
          'src/vector.ts  (1 reference, 1 certain)',
          '  37:5  [certain, definition]  distance  distance(a, b) // line 37',
          'test/geo.ts  (1 reference, 0 certain)',
          '  4:5  [name]  -  distance(a, b) // line 4',
        ],
      },
      {
        name: 'a reference a language server confirmed says so',
        input: { r: { ...answer([ref('src/index.ts', 8, 'certain')]), references: [{ ...ref('src/index.ts', 8, 'certain'), source: 'language server' as const }], sources: 'typescript language server for 1 definition' } },
        expected: ['src/index.ts  (1 reference, 1 certain)', '  8:5  [certain, language server]  main  distance(a, b) // line 8'],
      },
    ],
    async ({ r }) => bodyOf(await call(r)),
  );

  it('an empty answer says there are no references in code and points at the definition', async () => {
    const text = await call(answer([]));
    assert.match(text, /^no references to "distance" in code\ndefined at src\/vector\.ts:37:17 \(function distance\)/);
    assert.equal(text.split('\n').at(-1), 'next: read_span {"span":"src/vector.ts:37-39"} — read the definition');
    const undefinedName = await call(answer([], { definitions: [], note: 'no definition of distance in the index' }));
    assert.equal(undefinedName.split('\n').at(-1), 'next: search_code {"query":"distance"} — search by words when the name is not used as code');
  });

  it('ends with a read_span of the first certain use, not the definition', async () => {
    const text = await call(answer([ref('src/vector.ts', 37, 'certain', { role: 'definition' }), ref('src/index.ts', 8, 'certain'), ref('test/geo.ts', 4, 'name-match')]));
    assert.equal(text.split('\n').at(-1), 'next: read_span {"span":"src/index.ts:3-13"} — read the first certain reference in context');
  });

  it('under a tight maxTokens keeps the certain references first, says how many it left out, and stays near the budget', async () => {
    const many = [...Array.from({ length: 40 }, (_, i) => ref(`src/use${i % 7}.ts`, i + 1, 'certain')), ...Array.from({ length: 40 }, (_, i) => ref(`other/n${i}.ts`, i + 1, 'name-match'))];
    const text = await call(answer(many), { maxTokens: 300 });
    assert.ok(estimateTokens(text) <= 330, `${estimateTokens(text)} tokens`);
    const lines = text.split('\n').filter((l) => /^ {2}\d+:\d+ /.test(l));
    assert.ok(lines.length > 3, text);
    assert.ok(lines.every((l) => l.includes('[certain]')), 'only certain references fit, none of the name matches');
    assert.match(text, /\n(\d+) more references left out to fit maxTokens=300\n/);
    const omitted = Number(/(\d+) more references left out/.exec(text)?.[1]);
    assert.equal(omitted + lines.length, 80);
  });

  it('says when the engine returned fewer than it found (limit)', async () => {
    const text = await call(answer([ref('src/index.ts', 8, 'certain')], { total: 30, truncated: true }), { limit: 1 });
    assert.match(text, /^29 more beyond limit=1$/m);
  });

  it('JSON mode: the same references as objects, with certainty, source and the next call', async () => {
    const r: SourcedReferencesResponse = { ...answer(THREE), references: THREE.map((x, i) => ({ ...x, source: i === 0 ? 'language server' : 'index' })), sources: 'typescript language server for 1 definition' };
    const json = JSON.parse(await call(r, { format: 'json' })) as { total: number; certain: number; references: Array<{ at: string; certainty: string; source?: string }>; summary: string; next: string };
    assert.deepEqual(
      json.references.map((x) => [x.at, x.certainty, x.source]),
      [
        ['src/index.ts:8:5', 'certain', 'language server'],
        ['src/vector.ts:37:5', 'certain', 'index'],
        ['test/geo.ts:4:5', 'name-match', 'index'],
      ],
    );
    assert.equal(json.total, 3);
    assert.equal(json.certain, 2);
    assert.match(json.summary, /sources: typescript language server for 1 definition/);
    assert.match(json.next, /^next: read_span /);
  });

  it('callers=true lists who uses the name, one line per enclosing definition', async () => {
    const r = answer(THREE, { callers: [{ path: 'src/index.ts', context: 'main', kind: 'function', references: 2, certain: 2, lines: [8, 9] }] });
    const text = await call(r, { callers: true });
    assert.match(text, /^src\/index\.ts:8 {2}function main {2}2 references \(2 certain\) {2}lines 8, 9$/m);
  });
});
