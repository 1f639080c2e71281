// The extension's merged references: what a language server lists becomes certain and says
// so, what only the index has keeps its certainty, and the counts follow.
import * as assert from 'node:assert/strict';
import type { ReferenceDefinition, ReferenceHit, ReferencesResponse } from '../../src/core/api';
import { describeSources, mergeReferences, type ServerAnswer } from '../../src/vscode/references/merge';
import { checkAll } from './check';

const def: ReferenceDefinition = { path: 'src/vector.ts', startLine: 19, endLine: 21, line: 19, column: 3, kind: 'method', qualifiedName: 'Vector.length', language: 'typescript' };

function ref(path: string, line: number, column: number, certainty: ReferenceHit['certainty'], role: ReferenceHit['role'] = 'code'): ReferenceHit {
  return { path, line, column, endColumn: column + 6, role, context: '', contextKind: 'code', text: `line ${line}`, certainty, reason: certainty === 'certain' ? 'same file' : 'a member of something else', language: 'typescript' };
}

const INDEX: ReferencesResponse = {
  name: 'length',
  qualifier: 'Vector',
  definitions: [def],
  references: [ref('src/vector.ts', 19, 3, 'certain', 'definition'), ref('src/vector.ts', 24, 22, 'name-match'), ref('src/ruler.ts', 5, 12, 'name-match')],
  byFile: [
    { path: 'src/vector.ts', language: 'typescript', references: 2, certain: 1 },
    { path: 'src/ruler.ts', language: 'typescript', references: 1, certain: 0 },
  ],
  total: 3,
  certain: 1,
  truncated: false,
  tookMs: 1,
  index: { files: 2, chunks: 4, fresh: true, generation: 1 },
  diagnostics: [],
};

const at = (path: string, line: number, column: number, context?: string) => ({ path, line, column, endColumn: column + 6, text: `server line ${line}`, ...(context ? { context } : {}) });
const answered = (...locations: ServerAnswer['locations']): ServerAnswer => ({ definition: def, status: 'answered', locations });

describe('references merged with a language server', () => {
  checkAll(
    [
      {
        name: 'the server confirms the definition and this.length(): both certain from the language server; the other class stays a name match from the index',
        input: [answered(at('src/vector.ts', 19, 3), at('src/vector.ts', 24, 22, 'Vector.normalize'))],
        expected: [
          'src/vector.ts:19:3 certain language server',
          'src/vector.ts:24:22 certain language server',
          'src/ruler.ts:5:12 name-match index',
        ],
      },
      {
        name: 'a place only the server knows is added as certain, after the index certain ones',
        input: [answered(at('src/vector.ts', 19, 3), at('src/main.ts', 8, 40, 'main'))],
        expected: ['src/vector.ts:19:3 certain language server', 'src/main.ts:8:40 certain language server', 'src/vector.ts:24:22 name-match index', 'src/ruler.ts:5:12 name-match index'],
      },
      {
        name: 'no server, or one that timed out: the index as it is, every reference marked index',
        input: [{ definition: def, status: 'timeout', locations: [] } as ServerAnswer],
        expected: ['src/vector.ts:19:3 certain index', 'src/vector.ts:24:22 name-match index', 'src/ruler.ts:5:12 name-match index'],
      },
    ],
    (answers) => mergeReferences(INDEX, answers, 100).references.map((r) => `${r.path}:${r.line}:${r.column} ${r.certainty} ${r.source}`),
  );

  it('counts follow the merge: certain, total and the files', () => {
    const m = mergeReferences(INDEX, [answered(at('src/vector.ts', 19, 3), at('src/vector.ts', 24, 22), at('src/main.ts', 8, 40, 'main'))], 100);
    assert.equal(m.total, 4);
    assert.equal(m.certain, 3);
    assert.deepEqual(
      m.byFile.map((f) => [f.path, f.references, f.certain]),
      [
        ['src/vector.ts', 2, 2],
        ['src/main.ts', 1, 1],
        ['src/ruler.ts', 1, 0],
      ],
    );
    const added = m.references.find((r) => r.path === 'src/main.ts');
    assert.equal(added?.context, 'main');
    assert.equal(added?.text, 'server line 8');
    assert.equal(m.references.find((r) => r.line === 24)?.reason, 'the language server resolves it to the definition');
  });

  it('cuts to the limit, certain first, and says it did', () => {
    const m = mergeReferences(INDEX, [answered(at('src/vector.ts', 24, 22))], 2);
    assert.deepEqual(
      m.references.map((r) => r.line),
      [19, 24],
    );
    assert.equal(m.truncated, true);
  });

  checkAll(
    [
      { input: [] as ServerAnswer[], expected: 'the index only (no definition to ask a language server about)' },
      { input: [answered()], expected: 'typescript language server for 1 definition' },
      {
        input: [answered(), { definition: { ...def, language: 'python' }, status: 'none', locations: [] } as ServerAnswer, { definition: def, status: 'timeout', locations: [] } as ServerAnswer],
        expected: 'typescript language server for 1 definition; the index only for python (no language server answered); the index only for 1 definition whose language server did not answer in time',
      },
      {
        input: [{ definition: def, status: 'off', locations: [] } as ServerAnswer, { definition: { ...def, line: 40 }, status: 'off', locations: [] } as ServerAnswer],
        expected: 'the index only (language servers not asked: cairn.references.languageServerTimeout is 0)',
      },
    ],
    (answers) => describeSources(answers),
  );
});
