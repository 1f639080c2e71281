// `cairn eval --tasks`: reading SWE-bench-style task files, the gold a patch implies, and the
// Acc@k / MRR figures on small fixed rankings.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { definitionsTouched, rankedDefinitions, type Definition } from '../../src/eval/definitions';
import { allAt, meanTaskMetrics, scoreTask } from '../../src/eval/taskMetrics';
import { goldOfPatch, parseTasks, TaskFileError } from '../../src/eval/tasks';

const PATCH = [
  'diff --git a/pkg/core.py b/pkg/core.py',
  'index 1111111..2222222 100644',
  '--- a/pkg/core.py',
  '+++ b/pkg/core.py',
  '@@ -10,7 +10,8 @@ def parse(text):',
  '     a = 1',
  '     b = 2',
  '     c = 3',
  '-    return a',
  '+    d = 4',
  '+    return a + d',
  '     # end',
  '     x = 0',
  '     y = 0',
  '@@ -40,3 +41,4 @@ class Reader:',
  '     def read(self):',
  '         pass',
  '+        # more',
  '     z = 1',
  'diff --git a/pkg/new.py b/pkg/new.py',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/pkg/new.py',
  '@@ -0,0 +1,2 @@',
  '+def fresh():',
  '+    pass',
  'diff --git a/pkg/util.py b/pkg/util.py',
  '--- a/pkg/util.py',
  '+++ b/pkg/util.py',
  '@@ -5,0 +6 @@ import os',
  '+import sys',
  '\\ No newline at end of file',
].join('\n');

const task = (fields: Record<string, unknown>): string => JSON.stringify({ instance_id: 'o__r-1', repo: 'o/r', base_commit: 'abc1234', problem_statement: 'it breaks', ...fields });

/** What a test reads of a parse: each task's id, gold files (with changed lines) and where the gold came from; or the error message. */
function parsed(text: string): unknown {
  try {
    return parseTasks(text, 'tasks.jsonl').map((t) => ({ id: t.instanceId, line: t.line, gold: t.goldFiles, fromPatch: t.fromPatch }));
  } catch (e) {
    // JSON.parse's own wording differs between Node versions.
    if (e instanceof TaskFileError) return `error: ${e.message.replace(/not valid JSON \(.*\)$/, 'not valid JSON (…)')}`;
    throw e;
  }
}

describe('eval --tasks: the task file', () => {
  checkAll<string, unknown>(
    [
      {
        name: 'gold_files: the files, no line ranges',
        input: task({ gold_files: ['a/b.py', './c.py', 'a/b.py'] }),
        expected: [{ id: 'o__r-1', line: 1, gold: [{ path: 'a/b.py' }, { path: 'c.py' }], fromPatch: false }],
      },
      {
        name: 'patch: changed lines of the base side only, context lines left out, a created file left out',
        input: `\n${task({ patch: PATCH })}\n\n`,
        expected: [
          {
            id: 'o__r-1',
            line: 2,
            gold: [
              // line 13 removed and two lines put between 13 and 14; one line put between 41 and 42
              { path: 'pkg/core.py', ranges: [{ start: 13, end: 14 }, { start: 41, end: 42 }] },
              { path: 'pkg/util.py', ranges: [{ start: 5, end: 6 }] },
            ],
            fromPatch: true,
          },
        ],
      },
      {
        name: 'both gold_files and patch: the patch is read',
        input: task({ gold_files: ['pkg/core.py', 'pkg/util.py', 'pkg/new.py'], patch: PATCH }),
        expected: [
          {
            id: 'o__r-1',
            line: 1,
            gold: [
              { path: 'pkg/core.py', ranges: [{ start: 13, end: 14 }, { start: 41, end: 42 }] },
              { path: 'pkg/util.py', ranges: [{ start: 5, end: 6 }] },
            ],
            fromPatch: true,
          },
        ],
      },
      { name: 'not JSON: the line is named', input: `${task({ gold_files: ['a.py'] })}\n{"instance_id": `, expected: 'error: tasks.jsonl:2: not valid JSON (…)' },
      { name: 'neither gold_files nor patch', input: task({}), expected: 'error: tasks.jsonl:1 (o__r-1): needs "gold_files" (a list of paths) or "patch" (a unified diff)' },
      { name: 'gold_files empty', input: task({ gold_files: [] }), expected: 'error: tasks.jsonl:1 (o__r-1): "gold_files" must be a non-empty list of paths' },
      { name: 'a field missing', input: JSON.stringify({ instance_id: 'x', repo: 'o/r', problem_statement: 'p', gold_files: ['a'] }), expected: 'error: tasks.jsonl:1 (x): "base_commit" must be a non-empty string' },
      { name: 'a base commit that is not a commit id', input: task({ base_commit: 'main', gold_files: ['a'] }), expected: 'error: tasks.jsonl:1 (o__r-1): "base_commit" must be a commit id (hex), not "main"' },
      { name: 'a patch that changes no existing file', input: task({ patch: 'just words' }), expected: 'error: tasks.jsonl:1 (o__r-1): "patch" changes no file of the base commit (is it a unified diff?)' },
      { name: 'an array, not an object', input: '[1, 2]', expected: 'error: tasks.jsonl:1: expected a JSON object' },
      { name: 'the same instance twice', input: `${task({ gold_files: ['a'] })}\n${task({ gold_files: ['b'] })}`, expected: 'error: tasks.jsonl:2: instance_id o__r-1 already appears on line 1' },
      { name: 'an empty file', input: '\n\n', expected: 'error: tasks.jsonl: no tasks (expected one JSON object per line)' },
    ],
    parsed,
  );

  it('a patch with CRLF line ends reads as with LF', () => {
    assert.deepEqual(goldOfPatch(PATCH.replace(/\n/g, '\r\n')), goldOfPatch(PATCH));
  });
});

const def = (path: string, name: string, startLine: number, endLine: number): Definition => ({ id: `${path}#${name}@${startLine}`, path, name, startLine, endLine });
// A class with two methods, then a function, in one file.
const DEFS = [def('m.py', 'Reader', 1, 30), def('m.py', 'Reader.read', 3, 10), def('m.py', 'Reader.close', 12, 20), def('m.py', 'helper', 33, 40)];

describe('eval --tasks: gold functions and ranked functions', () => {
  checkAll(
    [
      { name: 'a change inside a method is that method, not its class', input: [{ start: 5, end: 5 }], expected: ['m.py#Reader.read@3'] },
      { name: 'a change in the class body between methods is the class', input: [{ start: 11, end: 11 }], expected: ['m.py#Reader@1'] },
      { name: 'a change spanning two methods is both', input: [{ start: 9, end: 13 }], expected: ['m.py#Reader.read@3', 'm.py#Reader.close@12'] },
      { name: 'module-level lines are no function', input: [{ start: 31, end: 32 }], expected: [] },
      { name: 'two ranges in one function count it once', input: [{ start: 34, end: 34 }, { start: 38, end: 39 }], expected: ['m.py#helper@33'] },
    ],
    (ranges) => definitionsTouched(ranges, DEFS).map((d) => d.id),
  );

  it('spans become definitions in order of first appearance, each once', () => {
    const spans = [
      { path: 'm.py', startLine: 33, endLine: 40 },
      { path: 'other.py', startLine: 1, endLine: 9 },
      { path: 'm.py', startLine: 4, endLine: 6 },
      { path: 'm.py', startLine: 35, endLine: 36 },
      { path: 'm.py', startLine: 1, endLine: 2 },
    ];
    assert.deepEqual(rankedDefinitions(spans, (p) => (p === 'm.py' ? DEFS : [])), ['m.py#helper@33', 'm.py#Reader.read@3', 'm.py#Reader@1']);
  });
});

const files = (...paths: string[]) => paths.map((path) => ({ path }));

describe('eval --tasks: Acc@k and MRR', () => {
  checkAll(
    [
      { name: 'all gold among the first k', input: { ranked: ['a', 'b', 'c'], gold: ['a', 'c'], k: 3 }, expected: true },
      { name: 'one gold outside the first k fails the task', input: { ranked: ['a', 'b', 'c'], gold: ['a', 'c'], k: 2 }, expected: false },
      { name: 'no gold is never a success', input: { ranked: ['a'], gold: [], k: 5 }, expected: false },
    ],
    ({ ranked, gold, k }) => allAt(ranked, new Set(gold), k),
  );

  checkAll(
    [
      { name: 'the gold file first', input: { results: files('g', 'x', 'g'), gold: ['g'] }, expected: { fileAcc: [1, 1, 1, 1], rr: 1, rank: 1 } },
      { name: 'the gold file third, after a repeated file', input: { results: files('x', 'x', 'y', 'g'), gold: ['g'] }, expected: { fileAcc: [0, 1, 1, 1], rr: 0.333, rank: 3 } },
      { name: 'two gold files, the second at rank 6', input: { results: files('g1', 'a', 'b', 'c', 'd', 'g2'), gold: ['g1', 'g2'] }, expected: { fileAcc: [0, 0, 0, 1], rr: 1, rank: 1 } },
      { name: 'the gold file at rank 11 counts for MRR only', input: { results: files(...'abcdefhijk'.split(''), 'g'), gold: ['g'] }, expected: { fileAcc: [0, 0, 0, 0], rr: 0.091, rank: 11 } },
      { name: 'not found', input: { results: files('a'), gold: ['g'] }, expected: { fileAcc: [0, 0, 0, 0], rr: 0, rank: null } },
    ],
    ({ results, gold }) => {
      const s = scoreTask(results, new Set(gold));
      return { fileAcc: s.fileAcc, rr: Math.round(s.reciprocalRank * 1000) / 1000, rank: s.firstRelevantRank };
    },
  );

  it('means: file figures over every task, function figures over the tasks with gold functions', () => {
    const withFunctions = scoreTask(files('g'), new Set(['g']), { ranked: ['f1', 'x', 'x2', 'x3', 'x4', 'f2'], gold: new Set(['f1', 'f2']) });
    const withoutFunctions = scoreTask(files('a', 'b', 'g'), new Set(['g']));
    assert.deepEqual(meanTaskMetrics([withFunctions, withoutFunctions]), {
      tasks: 2,
      fileAccAt1: 0.5,
      fileAccAt3: 1,
      fileAccAt5: 1,
      fileAccAt10: 1,
      mrr: (1 + 1 / 3) / 2,
      functionTasks: 1,
      functionAccAt5: 0,
      functionAccAt10: 1,
    });
  });

  it('with no task giving functions, function figures are n/a (null)', () => {
    const m = meanTaskMetrics([scoreTask(files('g'), new Set(['g']))]);
    assert.deepEqual([m.functionTasks, m.functionAccAt5, m.functionAccAt10], [0, null, null]);
  });
});
