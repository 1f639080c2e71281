import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { chunkByLines } from '../../src/core/chunking/lines';
import { keyOf } from '../../src/core/chunking/lines/yaml';
import { assertLineChunkInvariants, docOf, flatPolicy, prng, text, view, type ChunkView } from './lineChunkerSupport';

const chunk = (t: string, chars = 800): ChunkView[] => view(chunkByLines(docOf('config.yaml', t), flatPolicy(chars)));
const K = (context: string, lines: string): ChunkView => {
  const path = context.split('.');
  const v: ChunkView = { kind: 'key', symbol: path[path.length - 1] as string, context, lines };
  if (path.length > 1) v.parent = path.slice(0, -1).join('.');
  return v;
};
const T = (lines: string): ChunkView => ({ kind: 'text', symbol: '', context: '', lines });

describe('line chunker: yaml', () => {
  describe('top-level keys', () => {
    checkAll<string, ChunkView[]>(
      [
        {
          name: 'one chunk per top-level key, however small',
          input: text('name: CI', '', 'on: [push]', 'env:', '  A: 1', '  B: 2'),
          expected: [K('name', '1-1'), K('on', '3-3'), K('env', '4-6')],
        },
        {
          name: 'comments directly above a key belong to it; a detached one stays with the key before',
          input: text('a: 1', '# about a, detached', '', '# about b', '# more about b', 'b:', '  - x'),
          expected: [K('a', '1-2'), K('b', '4-7')],
        },
        {
          name: 'an indentless sequence belongs to the key above it',
          input: text('steps:', '- run: a', '- run: b', 'after: 1'),
          expected: [K('steps', '1-3'), K('after', '4-4')],
        },
        {
          name: 'quoted keys and keys with colons',
          input: text('"a: b": 1', "'it''s': 2", 'url: http://x', 'c:d: 3'),
          expected: [K('a: b', '1-1'), K("it's", '2-2'), K('url', '3-3'), K('c:d', '4-4')],
        },
        {
          name: 'block scalars stay with their key',
          input: text('script: |', '  echo a', '', '  echo b: c', 'next: 1'),
          expected: [K('script', '1-4'), K('next', '5-5')],
        },
      ],
      (input) => chunk(input),
    );
  });

  describe('documents', () => {
    checkAll<string, ChunkView[]>(
      [
        {
          name: '--- starts a new document; the separator opens its first chunk',
          input: text('a: 1', '---', 'b: 2', '--- # second', 'c: 3', '...'),
          expected: [K('a', '1-1'), K('b', '2-3'), K('c', '4-6')],
        },
        {
          name: 'a directive before --- rides along with the next document',
          input: text('%YAML 1.2', '---', 'a: 1'),
          expected: [K('a', '1-3')],
        },
        {
          name: 'a root sequence has no key to name it: text',
          input: text('- name: a', '  value: 1', '- name: b', '  value: 2'),
          expected: [T('1-4')],
        },
        {
          name: 'a key never spans two documents',
          input: text('a:', '  x: 1', '---', '  y: 2'),
          expected: [K('a', '1-2'), T('3-4')],
        },
      ],
      (input) => chunk(input),
    );
  });

  describe('blocks over budget are cut at their children', () => {
    const job = (name: string, steps: number): string[] => [
      `  ${name}:`,
      '    runs-on: ubuntu-latest',
      '    steps:',
      ...Array.from({ length: steps }, (_, i) => `      - run: echo step ${i} of the ${name} job`),
    ];
    it('names each child `top.child`; the top key line opens the first child chunk', () => {
      const t = text('name: CI', 'jobs:', ...job('build', 6), ...job('test', 6), ...job('lint', 6));
      assert.deepEqual(chunk(t, 400), [K('name', '1-1'), K('jobs.build', '2-11'), K('jobs.test', '12-20'), K('jobs.lint', '21-29')]);
    });
    it('packs runs of small children together under the parent name', () => {
      const env = Array.from({ length: 40 }, (_, i) => `  VAR_${i}: value-${i}`); // ~20 chars each
      const chunks = chunkByLines(docOf('c.yml', text('env:', ...env)), flatPolicy(200));
      assert.ok(chunks.length > 1 && chunks.length < 10, `${chunks.length} chunks`);
      for (const c of chunks) assert.equal(c.context, 'env');
    });
    it('recurses into a child that is itself over budget', () => {
      const t = text('jobs:', ...job('build', 30), ...job('test', 2));
      const contexts = chunkByLines(docOf('ci.yml', t), flatPolicy(400)).map((c) => c.context);
      assert.ok(contexts.includes('jobs.build.steps'), contexts.join(' | '));
      assert.equal(contexts.at(-1), 'jobs.test');
    });
  });

  describe('keyOf', () => {
    checkAll(
      [
        { input: 'name: x', expected: 'name' },
        { input: '  nested-key:', expected: 'nested-key' },
        { input: '"quoted": 1', expected: 'quoted' },
        { input: '- item: 1', expected: undefined },
        { input: '# comment: no', expected: undefined },
        { input: 'url http://x', expected: undefined },
        { input: '<<: *defaults', expected: '<<' },
      ],
      keyOf,
    );
  });

  it('holds the invariants on generated documents', () => {
    const random = prng(3);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    for (let n = 0; n < 300; n++) {
      const lines: string[] = [];
      const count = Math.floor(random() * 100);
      while (lines.length < count) {
        const indent = ' '.repeat(pick([0, 0, 2, 2, 4, 6]));
        lines.push(pick([
          `${indent}key${lines.length}: value`,
          `${indent}block${lines.length}:`,
          `${indent}- item ${'x'.repeat(Math.floor(random() * 60))}`,
          `${indent}# comment`,
          '',
          '---',
          `${indent}text: |`,
          `${indent}  ${'long '.repeat(Math.floor(random() * 60))}`,
        ]));
      }
      const doc = docOf(`gen/${n}.yaml`, lines.join('\n'));
      for (const chars of [80, 400, 800]) assertLineChunkInvariants(doc, chunkByLines(doc, flatPolicy(chars)), flatPolicy(chars));
    }
  });
});
