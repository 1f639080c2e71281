// Which words a full match holds (stop words and excluded words left out), and the note an
// answer of partial matches carries.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { compileQuery } from '../../src/core/search/compiled';
import { isPartial, partialNote, wordsNeeded } from '../../src/core/search/allWords';

describe('all the query words', () => {
  describe('wordsNeeded: the words a full match holds', () => {
    checkAll(
      [
        { input: 'getDefinedMessageData', expected: ['getDefinedMessageData'] },
        { input: 'register blueprint zebra', expected: ['register', 'blueprint', 'zebra'] },
        { name: 'stop words are not needed', input: 'how to parse the config', expected: ['parse', 'config'] },
        { name: 'excluded words are not needed', input: 'parse -config', expected: ['parse'] },
        { name: 'a wildcard is a word', input: 'renderProf* user', expected: ['renderProf*', 'user'] },
      ],
      (q) => wordsNeeded(compileQuery(q)).words,
    );
  });

  it('searched as you type, the word being typed is needed once, and its prefix holds it (createGre finds createGreeter in full)', () => {
    const compiled = compileQuery('vector createGre', { prefixLast: true });
    const needed = wordsNeeded(compiled);
    assert.deepEqual(needed.words, ['vector', 'createGre']);
    const prefixBit = compiled.clauses.find((c) => c.wildcard)?.wildcard?.bit as number;
    const vectorBit = compiled.clauses[0]?.words[0]?.bit as number;
    assert.equal(isPartial(needed, (1 << vectorBit) | (1 << prefixBit)), false, 'holding the prefix only is holding the word');
    assert.equal(isPartial(needed, 1 << vectorBit), true);
  });

  it('a chunk missing a word (or holding only parts of a name) is partial', () => {
    const needed = wordsNeeded(compileQuery('register blueprint'));
    assert.equal(isPartial(needed, needed.bits), false);
    assert.equal(isPartial(needed, needed.bits & 1), true);
    assert.equal(isPartial(needed, 0), true, 'parts set no presence bit');
    assert.equal(isPartial(wordsNeeded(compileQuery('the')), 0), false, 'nothing needed: nothing partial');
  });

  checkAll(
    [
      { input: { words: ['a', 'b'], total: 12, lower: false }, expected: 'No result has all of: a, b; 12 partial matches' },
      { input: { words: ['fooBar'], total: 1, lower: false }, expected: 'No result has all of: fooBar; 1 partial match' },
      { input: { words: ['x'], total: 1000, lower: true }, expected: 'No result has all of: x; 1000+ partial matches' },
    ],
    ({ words, total, lower }) => partialNote(words, total, lower),
  );
});
