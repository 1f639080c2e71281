// The bench's task texts (issue #37's 4 KB goal): made from the tree's own definitions, about
// 4 KB each, the same texts on every run, each kind written as an agent would paste it.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { frameOf, TASK_TEXT_BYTES, taskTexts, type TaskTextSource } from '../../src/bench/taskTexts';

const sources: TaskTextSource[] = Array.from({ length: 400 }, (_, i) => ({
  path: i % 2 ? `core/src/main/java/org/acme/query/Parser${i}.java` : `pkg/solvers/mod${i}.py`,
  startLine: 10 + i,
  symbol: i % 2 ? `parseNode${i}` : `solve_case_${i}`,
  context: i % 2 ? `Parser${i}.parseNode${i}` : `solve_case_${i}`,
  language: i % 2 ? 'java' : 'python',
  lines: i % 2 ? [`  Node parseNode${i}(Token t) {`, `    throw new IllegalStateException("unexpected token in clause ${i}");`, '  }'] : [`def solve_case_${i}(system):`, `    raise ValueError("no solution for case ${i}")`],
}));

describe('bench task texts', () => {
  const texts = taskTexts(sources);

  it('are five kinds, each of about 4 KB and never over it', () => {
    assert.deepEqual(texts.map((t) => t.kind), ['trace', 'diff', 'feature', 'log', 'report']);
    for (const t of texts) assert.ok(t.text.length <= TASK_TEXT_BYTES && t.text.length > TASK_TEXT_BYTES * 0.75, `${t.kind}: ${t.text.length} characters`);
  });

  it('are the same texts on every run', () => {
    assert.deepEqual(taskTexts(sources), texts);
  });

  checkAll(
    [
      { name: 'the trace has frames of the definitions it quotes', input: { kind: 'trace', pattern: /\tat org\.acme\.query\.Parser\d+\.parseNode\d+\(Parser\d+\.java:\d+\)/ }, expected: true },
      { name: 'the diff has file headers and hunks at the definitions', input: { kind: 'diff', pattern: /--- a\/\S+\n\+\+\+ b\/\S+\n@@ -\d+,\d+ \+\d+,\d+ @@ \S+/ }, expected: true },
      { name: 'the feature request names definitions in backticks', input: { kind: 'feature', pattern: /`(Parser\d+\.parseNode\d+|solve_case_\d+)`/ }, expected: true },
      { name: 'the log names definitions after its timestamps', input: { kind: 'log', pattern: /^2026-03-0\d \d\d:\d\d:\d\d\.\d{3} [A-Z]+ \[worker-\d\] \S+ - /m }, expected: true },
      { name: 'the report quotes a string of the code as its error', input: { kind: 'report', pattern: /An error: "(unexpected token in clause|no solution for case) \d+"/ }, expected: true },
    ],
    ({ kind, pattern }) => pattern.test(texts.find((t) => t.kind === kind)?.text ?? ''),
  );

  checkAll(
    [
      { name: 'Python', input: 1, expected: '  File "/home/user/project/pkg/solvers/mod0.py", line 10, in solve_case_0\n    def solve_case_0(system):\n' },
      { name: 'Java', input: 2, expected: '\tat org.acme.query.Parser1.parseNode1(Parser1.java:11)\n' },
      { name: 'Rust', input: 3, expected: '  store::Index::open\n             at ./src/store.rs:7:5\n' },
      { name: 'JavaScript', input: 4, expected: '    at Router.handle (/app/lib/router.js:3:5)\n' },
    ],
    (which) => {
      const rust: TaskTextSource = { path: 'src/store.rs', startLine: 7, symbol: 'open', context: 'store.Index.open', language: 'rust', lines: [] };
      const js: TaskTextSource = { path: 'lib/router.js', startLine: 3, symbol: 'handle', context: 'Router.handle', language: 'javascript', lines: [] };
      return frameOf([sources[0], sources[1], rust, js][which - 1] as TaskTextSource);
    },
  );
});
