// Properties every AST chunking result must have, checked over every fixture at several
// budgets: all non-blank lines covered, nothing over budget but single lines, unique and
// stable ids, docids matching lines (see invariantViolations).
import * as assert from 'node:assert/strict';
import { AstChunker } from '../../src/core/chunking/ast';
import { allFixtures, chunkDoc, fixtureDoc, GRAMMARS_DIR, invariantViolations, policy } from './astChunkerSupport';

const BUDGETS = [2400, 400, 120, 40];

describe('AstChunker properties over all fixtures', function () {
  this.timeout(60000);

  it('has fixtures for every language with a grammar', () => {
    const langs = new Set(allFixtures().map((f) => f.split('/')[0]));
    for (const lang of ['python', 'typescript', 'tsx', 'javascript', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'swift', 'bash', 'css', 'html', 'json']) {
      assert.ok(langs.has(lang), `no fixture for ${lang}`);
    }
  });

  for (const fixture of allFixtures()) {
    describe(fixture, () => {
      for (const budget of BUDGETS) {
        it(`holds its invariants at budget ${budget}`, async () => {
          const doc = fixtureDoc(fixture);
          assert.deepEqual(invariantViolations(doc, await chunkDoc(doc, budget), budget), []);
        });
      }
      it('yields the same chunks and ids from a fresh chunker', async () => {
        const doc = fixtureDoc(fixture);
        const first = await chunkDoc(doc);
        const fresh = await AstChunker.create({ grammarsDir: GRAMMARS_DIR });
        try {
          const second = await fresh.chunk(doc, policy());
          assert.deepEqual(second, first);
        } finally {
          fresh.dispose();
        }
      });
    });
  }
});
