// Any text is a query: a short line written in the query language is read as one; an issue, a
// traceback, a log or a pasted diff is plain text (its operators just characters), and a long
// one is searched for its most telling words wherever they stand. No text throws.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { parseQuery } from '../../src/core/search/query';
import { COMMON_PART_SHARE, TEXT_MAX_WORDS, type TermRarity } from '../../src/core/search/queryText';
import { c, searcher } from './helpers/snapshot';

/** A clause as `[field:][+|-]word,word` (`*pattern` for a wildcard, `~n`/`^n` when fuzzy or boosted). */
function read(q: string, rarity?: TermRarity): { terms: string[]; warned: boolean } {
  const p = parseQuery(q, { rarity });
  const terms = p.clauses.map((k) => {
    const field = k.fields.length > 1 ? '' : `${k.fields.join()}:`;
    const presence = k.presence === 'required' ? '+' : k.presence === 'prohibited' ? '-' : '';
    const body = k.wildcard ?? k.words.map((w) => w.whole).join(',');
    return `${field}${presence}${body}${k.editDistance ? `~${k.editDistance}` : ''}${k.boost !== 1 ? `^${k.boost}` : ''}`;
  });
  return { terms, warned: p.warnings.length > 0 };
}

const PY_TRACEBACK = `Traceback (most recent call last):
  File "sympy/solvers/polysys.py", line 50, in solve_poly_system
    return solve_generic(polys, opt)
  File "sympy/solvers/polysys.py", line 238, in _solve_reduced_system
    raise NotImplementedError(filldedent('''
NotImplementedError: only zero-dimensional systems supported`;

const JS_STACK = `TypeError: Cannot read properties of undefined (reading 'map')
    at renderRows (/app/src/components/Table.jsx:42:18)
    at Object.<anonymous> (node:internal/main:12:3)`;

const DIFF = `--- a/sympy/solvers/polysys.py
+++ b/sympy/solvers/polysys.py
@@ -240,7 +240,7 @@ def _solve_reduced_system(system, gens, entry=False):
-        if len(univariate) == 1:
+        if len(univariate) == 1 and len(gens) == 1:`;

describe('any text is a query', () => {
  describe('a short line in the query language is read as one; a longer or multi-line text is plain text', () => {
    checkAll(
      [
        { input: '+retry -test', expected: { terms: ['+retry', '-test'], warned: false } },
        { input: 'symbol:Greeter path:src', expected: { terms: ['symbol:greeter', 'path:src'], warned: false } },
        { input: 'fetch* term~1 load^2', expected: { terms: ['fetch*', 'term~1', 'load^2'], warned: false } },
        { input: 'parse config', expected: { terms: ['parse', 'config'], warned: false } },
        { name: 'twelve terms are still a query', input: '+retry a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 -test', expected: { terms: ['+retry', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'b0', '-test'], warned: false } },
        { name: 'thirteen terms are text: operators are characters', input: '+retry a1 a2 a3 a4 a5 a6 a7 a8 a9 b0 b1 -test', expected: { terms: ['retry', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'b0', 'b1', 'test'], warned: false } },
        { name: 'two lines are text: operators are characters', input: '+retry -test\nsymbol:Greeter', expected: { terms: ['retry', 'test', 'symbol,greeter'], warned: false } },
      ],
      (q) => read(q),
    );
  });

  describe('no message names the parser\'s tokens or the index\'s field list', () => {
    const inputs = ['+', '-', '~', '^', 'foo:', 'symbol:', 'a - b', 'load^x', 'x i--', 'kind:function load', '+foo -', 'term~x', '"', 'eslint:recommended'];
    it('for every text that only looks like the query language', () => {
      for (const q of inputs) {
        const warnings = parseQuery(q).warnings.join('\n');
        assert.doesNotMatch(warnings, /PRESENCE|EDIT_DISTANCE|BOOST|TERM|FIELD|expecting|found nothing|symbol, context|possible fields/, q);
      }
    });
  });

  describe('what only looks like the query language is text: its words, never an error', () => {
    checkAll(
      [
        { input: 'eslint:recommended', expected: { terms: ['eslint', 'recommended'], warned: false } },
        { input: 'plugin:react/recommended', expected: { terms: ['plugin', 'react,recommended'], warned: false } },
        { input: 'import node:fs', expected: { terms: ['import', 'node', 'fs'], warned: false } },
        { input: 'see http://example.com/docs', expected: { terms: ['see', 'http', 'example,com,docs'], warned: false } },
        { input: 'foo:bar', expected: { terms: ['foo', 'bar'], warned: false } },
        { input: 'std::vector push_back', expected: { terms: ['std', 'vector', 'push_back'], warned: false } },
        { input: '+', expected: { terms: [], warned: true } },
        { input: '-', expected: { terms: [], warned: true } },
        { input: '~', expected: { terms: [], warned: true } },
        { input: '^', expected: { terms: [], warned: true } },
        { input: '*', expected: { terms: [], warned: false } },
        { input: 'retry - backoff', expected: { terms: ['retry', 'backoff'], warned: true } },
        { input: 'load^x', expected: { terms: ['load'], warned: true } },
        { name: 'a decrement ending the text', input: 'count i--', expected: { terms: ['count'], warned: true } },
        { input: '(unbalanced "quote', expected: { terms: ['unbalanced', 'quote'], warned: false } },
        { name: 'a quoted error message', input: `ValueError: could not convert string to float: 'abc'`, expected: { terms: ['valueerror', 'could', 'not', 'convert', 'string', 'to', 'float', 'abc'], warned: false } },
        { name: 'dotted names are their parts', input: 'Request.register_hook and django.db.models.Q', expected: { terms: ['request,register_hook', 'and', 'django,db,models'], warned: false } },
      ],
      (q) => read(q),
    );
  });

  describe('tracebacks and diffs are plain text: every word, in order', () => {
    checkAll(
      [
        {
          name: 'a Python traceback',
          input: PY_TRACEBACK,
          expected: [
            'traceback', 'most', 'recent', 'call', 'last',
            'file', 'sympy,solvers,polysys,py', 'line', '50', 'in', 'solve_poly_system', 'return', 'solve_generic,polys', 'opt',
            'file', 'sympy,solvers,polysys,py', 'line', '238', 'in', 'solve_reduced_system', 'raise', 'notimplementederror,filldedent',
            'notimplementederror', 'only', 'zero', 'dimensional', 'systems', 'supported',
          ],
        },
        {
          name: 'a JavaScript stack trace',
          input: JS_STACK,
          expected: ['typeerror', 'cannot', 'read', 'properties', 'of', 'undefined', 'reading', 'map', 'at', 'renderrows', 'app,src,components,table,jsx,42,18', 'at', 'object,anonymous', 'node,internal,main,12'],
        },
        {
          name: 'a unified diff',
          input: DIFF,
          expected: ['sympy,solvers,polysys,py', 'sympy,solvers,polysys,py', '240', '240', 'def', 'solve_reduced_system,system', 'gens', 'entry,false', 'if', 'len,univariate', 'if', 'len,univariate', 'and', 'len,gens'],
        },
      ],
      (q) => read(q).terms,
    );
  });

  describe('a long text keeps its telling words, wherever they stand', () => {
    const prose = 'When I run the app with the default settings the request handler returns an error and the response is empty. ';
    /** A 4 KB issue: prose of common words, its telling names only in the traceback at its end. */
    const issue = `App returns an empty response\n\n${prose.repeat(36)}\n${PY_TRACEBACK}`;
    /** Common words occur in half the index; the traceback's names in a few chunks; `empty` (stem `empti`) nowhere. */
    const rarity: TermRarity = {
      documents: 1000,
      documentFrequency: (t) => (['solve_poly_system', 'solve_generic', 'solve_reduced_system', 'polysys', 'filldedent', 'notimplementederror'].includes(t) ? 3 : t.startsWith('empt') ? 0 : 500),
    };
    it('is over 4 KB and over the words a query keeps in order', () => {
      assert.ok(issue.length > 4096, `${issue.length} characters`);
    });
    checkAll(
      [
        { name: 'the names at its end are searched', input: ['solve_poly_system', 'solve_generic', 'solve_reduced_system', 'polysys', 'filldedent', 'notimplementederror'], expected: true },
        { name: 'a word the index lacks is left out, even in the title', input: ['empty'], expected: false },
      ],
      (words) => {
        const { terms } = read(issue, rarity);
        return words.every((w) => terms.some((t) => t.split(',').includes(w)));
      },
    );
    it(`searches at most ${TEXT_MAX_WORDS} words, each once, and says so`, () => {
      const p = parseQuery(issue, { rarity });
      const words = p.clauses.flatMap((k) => k.words.map((w) => w.whole));
      assert.ok(words.length <= TEXT_MAX_WORDS, `${words.length} words`);
      assert.equal(new Set(words).size, words.length);
      assert.match(p.warnings.join('\n'), /searched for \d+ of its \d+ distinct words/);
    });
    describe(`a name's parts most of the index holds are not searched (over ${COMMON_PART_SHARE * 100} % of its chunks)`, () => {
      /** `solve` and `system` are in a tenth of the index's chunks, `poly` and `reduced` in a few, each whole name in three. */
      const partRarity: TermRarity = { documents: 1000, documentFrequency: (t) => (['solve', 'system'].includes(t) ? 100 : ['poly', 'reduced'].includes(t) ? 4 : rarity.documentFrequency(t)) };
      const partsOf = (text: string, r: TermRarity | undefined, whole: string): string[] | undefined => parseQuery(text, { rarity: r }).clauses.flatMap((k) => k.words).find((w) => w.whole === whole)?.parts.slice();
      checkAll(
        [
          { name: 'in a long text: only the rare parts', input: { text: issue, rarity: partRarity, whole: 'solve_poly_system' }, expected: ['poly'] },
          { name: 'in a long text: every part of a name whose parts are all rare', input: { text: issue, rarity: partRarity, whole: 'solve_reduced_system' }, expected: ['reduced'] },
          { name: 'in a short query: every part, common or not', input: { text: 'solve_poly_system fails', rarity: partRarity, whole: 'solve_poly_system' }, expected: ['solve', 'poly', 'system'] },
          { name: 'without an index to ask: every part', input: { text: issue, rarity: undefined, whole: 'solve_poly_system' }, expected: ['solve', 'poly', 'system'] },
        ],
        ({ text, rarity: r, whole }) => partsOf(text, r, whole),
      );
    });
  });

  describe('through a search: the text finds the code it is about', () => {
    const filler = Array.from({ length: 12 }, (_, i) =>
      c(`src/app/handler${i}.py:1-6 function handle_request_${i}`, `def handle_request_${i}(request, settings):\n    """Run the request handler with the default settings."""\n    response = app.dispatch(request)\n    if response is empty:\n        return error(response)\n    return response`),
    );
    const search = searcher([
      ...filler,
      c('sympy/solvers/polysys.py:230-250 function _solve_reduced_system', 'def _solve_reduced_system(system, gens, entry=False):\n    if len(univariate) == 1:\n        raise NotImplementedError(filldedent("only zero-dimensional systems supported"))'),
      c('sympy/solvers/polysys.py:40-52 function solve_poly_system', 'def solve_poly_system(seq, *gens, **args):\n    return solve_generic(polys, opt)'),
    ]);
    const prose = 'When I run the app with the default settings the request handler returns an error and the response is empty. ';
    checkAll(
      [
        { name: 'a 4 KB issue whose traceback is at its end', input: `App returns an empty response\n\n${prose.repeat(36)}\n${PY_TRACEBACK}`, expected: 'sympy/solvers/polysys.py' },
        { name: 'a pasted diff', input: DIFF, expected: 'sympy/solvers/polysys.py' },
      ],
      (q) => search(q).hits[0]?.path,
    );
  });
});
