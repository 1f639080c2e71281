// Honest emptiness through the real `cairn` binary: when no chunk holds every word of the
// query (for a name, the name itself), the answer says so above the partial matches, counts
// them as partial matches rather than results, and marks them in JSON; a query some chunk
// fully matches reads as before.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCairn, type Run } from './cli';

interface JsonAnswer {
  total: number;
  allTerms?: boolean;
  note?: string;
  results: Array<{ path: string; partial?: boolean }>;
}

describe('cairn search says when no result has all the words (bundled CLI)', function () {
  this.timeout(120000);
  let base: string;
  let root: string;
  const cairn = (...args: string[]): Run => runCairn(args, { cwd: root, env: { CAIRN_STORE: path.join(base, 'store') } });

  before(() => {
    base = mkdtempSync(path.join(tmpdir(), 'cairn-search-partial-'));
    root = path.join(base, 'repo');
    mkdirSync(path.join(root, 'src'), { recursive: true });
    writeFileSync(path.join(root, 'src', 'messages.js'), 'function getMessage(id) {\n  return table[id];\n}\n\nfunction definedCount(list) {\n  return list.length;\n}\n\nmodule.exports = { getMessage, definedCount };\n');
    writeFileSync(path.join(root, 'src', 'report.js'), 'const { getMessage } = require("./messages");\n\nfunction report(id) {\n  console.log(getMessage(id));\n}\n\nmodule.exports = { report };\n');
    const r = cairn('index', root);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const cases: Array<{ query: string; partial: boolean }> = [
    // Its parts (get, defined, message) are everywhere; the name is nowhere.
    { query: 'getDefinedMessageData', partial: true },
    { query: 'report zebra', partial: true },
    { query: 'getMessage', partial: false },
    { query: 'report getMessage', partial: false },
  ];

  for (const { query, partial } of cases) {
    it(`${JSON.stringify(query)}: ${partial ? 'the partial matches under "No result has all of"' : 'results as before'}`, () => {
      const text = cairn('search', query, '--root', root, '--no-refresh');
      assert.equal(text.code, 0, text.stderr);
      const json = cairn('search', query, '--root', root, '--no-refresh', '--json');
      assert.equal(json.code, 0, json.stderr);
      const answer = JSON.parse(json.stdout) as JsonAnswer;
      assert.ok(answer.results.length > 0, json.stdout);
      const first = text.stdout.split('\n')[0] ?? '';
      if (partial) {
        const words = query.split(' ').join(', ');
        assert.equal(first, `No result has all of: ${words}; ${answer.total} partial match${answer.total === 1 ? '' : 'es'}`);
        assert.match(text.stderr, new RegExp(`^${answer.results.length} of ${answer.total} partial match(es)? in `, 'm'));
        assert.doesNotMatch(text.stderr, / results in /);
        assert.equal(answer.allTerms, false);
        assert.equal(answer.note, first);
        assert.ok(answer.results.every((h) => h.partial === true), json.stdout);
      } else {
        assert.doesNotMatch(text.stdout, /No result has all of/);
        assert.match(text.stderr, / results? in /);
        assert.equal(answer.allTerms, undefined);
        assert.equal(answer.note, undefined);
        assert.equal(answer.results[0]?.partial, undefined, json.stdout);
      }
    });

    it(`${JSON.stringify(query)} --group file: ${partial ? 'partial files marked under the same line' : 'files as before'}`, () => {
      const text = cairn('search', query, '--root', root, '--no-refresh', '--group', 'file');
      assert.equal(text.code, 0, text.stderr);
      const json = cairn('search', query, '--root', root, '--no-refresh', '--group', 'file', '--json');
      assert.equal(json.code, 0, json.stderr);
      const answer = JSON.parse(json.stdout) as Omit<JsonAnswer, 'results'> & { files: Array<{ path: string; partial?: boolean; spans: Array<{ partial?: boolean }> }> };
      assert.ok(answer.files.length > 0, json.stdout);
      const first = text.stdout.split('\n')[0] ?? '';
      if (partial) {
        const words = query.split(' ').join(', ');
        assert.equal(first, `No result has all of: ${words}; ${answer.total} partial match${answer.total === 1 ? '' : 'es'}`);
        assert.match(text.stderr, new RegExp(`^${answer.files.length} of ${answer.total} partial match(es)? in `, 'm'));
        assert.equal(text.stdout.split('\n').filter((l) => l.endsWith('[partial match]')).length, answer.files.length, text.stdout);
        assert.deepEqual([answer.allTerms, answer.note], [false, first]);
        assert.ok(answer.files.every((f) => f.partial === true && f.spans.every((h) => h.partial === true)), json.stdout);
      } else {
        // The best file holds every word; a file further down may still be marked a partial match.
        assert.doesNotMatch(text.stdout, /No result has all of/);
        assert.doesNotMatch(text.stdout.split('\n')[0] ?? '', /partial match/);
        assert.match(text.stderr, / files? in /);
        assert.deepEqual([answer.allTerms, answer.note, answer.files[0]?.partial], [undefined, undefined, undefined], json.stdout);
      }
    });
  }
});
