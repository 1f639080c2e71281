// What a task text says about where its code is: frames, diff headers, paths and code names.
import * as assert from 'node:assert/strict';
import { codeNames, extractTaskEvidence, isTaskText } from '../../src/core/search/taskEvidence';
import { gatherEvidence, localizeFiles, resolveMentionedPath, type LocalizeContext } from '../../src/core/search/localize';
import type { FileHit, SearchHit } from '../../src/core/api';
import { checkAll } from './check';

const PY_TRACEBACK = `Traceback (most recent call last):
  File "/home/u/.venv/lib/python3.9/site-packages/click/core.py", line 763, in invoke
    return __callback(*args, **kwargs)
  File "/home/u/proj/src/sqlfluff/cli/commands.py", line 347, in lint
    result = lnt.lint_string_wrapped(sys.stdin.read(), fname="stdin")
  File "/home/u/proj/src/sqlfluff/core/parser/helpers.py", line 30, in check_still_complete
    raise RuntimeError(
RuntimeError: Dropped elements in sequence matching! 'select id from tbl;;' != ';'`;

const NODE_STACK = `TypeError: Cannot read properties of undefined (reading 'length')
    at parseRoute (/srv/app/src/router/parse.js:41:17)
    at Router.handle (/srv/app/src/router/index.js:120:5)
    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)`;

const DIFF = `--- a/sympy/solvers/polysys.py
+++ b/sympy/solvers/polysys.py
@@ -240,7 +240,7 @@ def _solve_reduced_system(system, gens, entry=False):
-        if len(univariate) == 1:
+        if len(univariate) == 1 and len(gens) == 1:`;

const JAVA_STACK = `java.lang.IllegalStateException: closed
\tat com.google.gson.stream.JsonWriter.close(JsonWriter.java:555)
\tat com.google.gson.Gson.toJson(Gson.java:700)`;

const GO_PANIC = `panic: runtime error: index out of range [3] with length 3

goroutine 1 [running]:
main.parseArgs(...)
\t/home/u/cobra/args.go:42 +0x1d
main.main()
\t/home/u/cobra/main.go:10 +0x25`;

describe('task evidence: is it a task text', () => {
  checkAll<string, boolean>(
    [
      { input: 'parse config', expected: false },
      { input: 'lang:ts kind:function fetchUser', expected: false },
      { input: 'Deprecation warnings from numpy\n### Steps to reproduce', expected: true },
      { input: 'when I call the function with an empty list it raises an error instead of returning', expected: true },
    ],
    isTaskText,
  );
});

describe('task evidence: frames and diff headers', () => {
  checkAll<string, Array<[string, number | undefined, string | undefined, boolean]>>(
    [
      {
        name: 'a Python traceback: innermost is the last frame; installed packages are marked foreign',
        input: PY_TRACEBACK,
        expected: [
          ['/home/u/.venv/lib/python3.9/site-packages/click/core.py', 763, 'invoke', false],
          ['/home/u/proj/src/sqlfluff/cli/commands.py', 347, 'lint', false],
          ['/home/u/proj/src/sqlfluff/core/parser/helpers.py', 30, 'check_still_complete', true],
        ],
      },
      {
        name: 'a Node stack: innermost is the first frame',
        input: NODE_STACK,
        expected: [
          ['/srv/app/src/router/parse.js', 41, 'parseRoute', true],
          ['/srv/app/src/router/index.js', 120, 'handle', false],
          ['/srv/app/node_modules/express/lib/router/layer.js', 95, 'handle', false],
        ],
      },
      {
        name: 'a Java stack: the class path becomes a file path',
        input: JAVA_STACK,
        expected: [
          ['com/google/gson/stream/JsonWriter.java', 555, 'close', true],
          ['com/google/gson/Gson.java', 700, 'toJson', false],
        ],
      },
      {
        name: 'a Go panic',
        input: GO_PANIC,
        expected: [
          ['/home/u/cobra/args.go', 42, undefined, true],
          ['/home/u/cobra/main.go', 10, undefined, false],
        ],
      },
      { name: 'prose has no frames', input: 'The parser drops elements when a statement ends with two semicolons.', expected: [] },
    ],
    (text) => extractTaskEvidence(text).frames.map((f) => [f.path, f.line, f.function, f.innermost === true]),
  );

  it('counts each frame by its distance from the error', () => {
    assert.deepEqual(extractTaskEvidence(PY_TRACEBACK).frames.map((f) => f.depth), [2, 1, 0]);
    assert.deepEqual(extractTaskEvidence(NODE_STACK).frames.map((f) => f.depth), [0, 1, 2]);
  });

  it("does not count a frame's function again as a name the text mentions", () => {
    assert.deepEqual(extractTaskEvidence(PY_TRACEBACK).names.filter((n) => ['invoke', 'lint', 'check_still_complete'].includes(n)), []);
  });

  it('marks frames under installed packages as foreign', () => {
    const frames = extractTaskEvidence(PY_TRACEBACK).frames;
    assert.deepEqual(frames.map((f) => f.foreign === true), [true, false, false]);
  });

  it('a unified diff names its file once and the hunk header names its function', () => {
    const ev = extractTaskEvidence(DIFF);
    assert.deepEqual(ev.diffPaths.map((p) => p.path), ['sympy/solvers/polysys.py']);
    assert.equal(ev.names[0], '_solve_reduced_system');
    assert.deepEqual(ev.paths, [], 'a diff header is not counted again as a path in the text');
  });
});

describe('task evidence: paths written in the text', () => {
  checkAll<string, Array<[string, number | undefined]>>(
    [
      { input: 'The bug is in src/app/views.py:120 I think', expected: [['src/app/views.py', 120]] },
      { input: 'see `fields.py` and utils/helpers.ts.', expected: [['fields.py', undefined], ['utils/helpers.ts', undefined]] },
      {
        name: 'a warning line with an absolute path and a line',
        input: '/home/bje/myenv/lib/python3.10/site-packages/astroid/raw_building.py:470: FutureWarning: In the future',
        expected: [['/home/bje/myenv/lib/python3.10/site-packages/astroid/raw_building.py', 470]],
      },
      { name: 'dotted names and versions are not files', input: 'call os.path.join, e.g. version 2.9.1, see www.example.com', expected: [] },
    ],
    (text) => extractTaskEvidence(text).paths.map((p) => [p.path, p.line]),
  );
});

describe('task evidence: code names', () => {
  checkAll<string, string[]>(
    [
      { input: 'Calling `Schema.load()` with `partial=True` fails', expected: ['Schema.load', 'partial'] },
      { input: 'solve_poly_system returns a wrong answer for django.db.models.Q', expected: ['django.db.models.Q', 'solve_poly_system'] },
      { input: 'the fetchUserName helper and the HttpClient class', expected: ['fetchUserName', 'HttpClient'] },
      { input: 'MAX_RETRIES is ignored', expected: ['MAX_RETRIES'] },
      { name: 'plain words are left to the keyword search', input: 'the value is wrong when it is empty', expected: [] },
    ],
    (text) => codeNames(text),
  );
});

describe('localization: a written path to the indexed file', () => {
  const files = ['src/sqlfluff/core/parser/helpers.py', 'src/sqlfluff/utils/helpers.py', 'src/sqlfluff/core/linter.py', 'docs/conf.py', 'astroid/raw_building.py'];
  const named = (name: string) => files.filter((f) => f.endsWith(`/${name}`) || f === name);
  checkAll<[string, number], string[]>(
    [
      { name: 'an absolute path shares its tail with one file', input: ['/home/u/proj/src/sqlfluff/core/parser/helpers.py', 1], expected: ['src/sqlfluff/core/parser/helpers.py'] },
      { name: 'an ambiguous base name alone resolves to nothing', input: ['helpers.py', 1], expected: [] },
      { name: 'a unique base name resolves', input: ['linter.py', 1], expected: ['src/sqlfluff/core/linter.py'] },
      { name: 'an installed copy of the repository resolves by its package folder', input: ['/x/site-packages/astroid/raw_building.py', 2], expected: ['astroid/raw_building.py'] },
      { name: "an installed library's file does not resolve by base name alone", input: ['/x/site-packages/sphinx/conf.py', 2], expected: [] },
    ],
    ([written, minShared]) => resolveMentionedPath(written, named, minShared),
  );
});

function hit(path: string, startLine: number, symbol = ''): SearchHit {
  return { docid: `${path}:${startLine}-${startLine + 5}`, path, startLine, endLine: startLine + 5, score: 0, scoreBreakdown: [], symbol, kind: 'function', language: 'python', context: symbol, preview: '', id: `${path}${startLine}` } as SearchHit;
}

function fileHit(path: string, score: number): FileHit {
  return { path, score, scoreBreakdown: [{ kind: 'match', name: 'best chunk', value: score }], spans: [hit(path, 1)], matchedChunks: 1, language: 'python' };
}

describe('localization: evidence reorders the keyword ranking', () => {
  const defs: Record<string, string[]> = { check_still_complete: ['src/pkg/parser/helpers.py'], parse: ['a.py', 'b.py', 'c.py', 'd.py', 'e.py', 'f.py'] };
  const all = ['src/pkg/parser/helpers.py', 'src/pkg/linter.py', 'src/pkg/rules.py', 'tests/test_rules.py'];
  const ctx: LocalizeContext = {
    filesNamed: (name) => all.filter((f) => f.endsWith(`/${name}`)),
    definitions: (name, limit) => (defs[name] ?? []).slice(0, limit + 1).map((p) => hit(p, 20, name)),
    chunkAt: (path, line) => hit(path, Math.max(1, line - 2)),
    firstChunk: (path) => hit(path, 1),
  };
  const keyword = [fileHit('src/pkg/rules.py', 10), fileHit('tests/test_rules.py', 9), fileHit('src/pkg/linter.py', 8)];

  it('the innermost frame and the name defined once lift a file the keywords missed to the top', () => {
    const text = `${PY_TRACEBACK.replace(/sqlfluff\//g, 'pkg/')}\nI think check_still_complete is wrong`;
    const files = localizeFiles(ctx, text, keyword, 10);
    assert.equal(files[0]?.path, 'src/pkg/parser/helpers.py');
    const names = files[0]!.scoreBreakdown.map((p) => ('name' in p ? p.name : '').split(':')[0]).filter((n) => n !== 'best chunk');
    assert.deepEqual(names.sort(), ['definition-named-in-text', 'traceback-frame']);
    assert.equal(files[0]!.score, files[0]!.scoreBreakdown.reduce((t, p) => t + p.value, 0), 'the breakdown adds up to the score');
    assert.equal(files[0]!.spans[0]?.startLine, 28, "the frame's chunk comes first among the spans");
  });

  it('a name defined in many files moves nothing', () => {
    const files = localizeFiles(ctx, 'The function parse is called twice when\nthe rules run', keyword, 10);
    assert.deepEqual(files.map((f) => f.path), keyword.map((f) => f.path));
  });

  it('a text without evidence keeps the keyword order', () => {
    assert.deepEqual(localizeFiles(ctx, 'rules are slow\nwhen there are many', keyword, 2).map((f) => f.path), ['src/pkg/rules.py', 'tests/test_rules.py']);
  });
});

describe('localization: each message is looked for once', () => {
  const searched = (text: string) => {
    const asked: string[] = [];
    const ctx: LocalizeContext = {
      filesNamed: () => [],
      definitions: () => [],
      chunkAt: () => undefined,
      firstChunk: () => undefined,
      chunksMatching: (words) => {
        asked.push(words);
        return [];
      },
      text: () => undefined,
    };
    gatherEvidence(ctx, extractTaskEvidence(text));
    return asked;
  };
  checkAll(
    [
      {
        name: 'a message in the title and again in the trace is one search',
        input: "SemanticException \"Could not interpret path expression\" in a subquery\n\norg.hibernate.query.SemanticException: Could not interpret path expression 'license.expiresAt'",
        expected: ['Could not interpret path expression'],
      },
      {
        name: 'the same message raised twice with other values is one search',
        input: "Linting fails twice\nRuntimeError: Dropped elements in sequence matching! 'a;;' != ';'\nRuntimeError: Dropped elements in sequence matching! 'b;;' != ';'",
        expected: ['Dropped elements in sequence matching'],
      },
      {
        name: 'two messages are two searches',
        input: "Two errors\nValueError: Unable to parse the date given\nKeyError: Missing required config section here",
        expected: ['Unable to parse the date given', 'Missing required config section here'],
      },
    ],
    searched,
  );
});
