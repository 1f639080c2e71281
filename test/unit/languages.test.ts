import { checkAll } from './check';
import { languageForPath, resolveLanguageFilter, suffixOf } from '../../src/core/languages';
import { makeDocid, parseDocid } from '../../src/core/chunking/ids';

describe('languages', () => {
  describe('languageForPath', () => {
    checkAll(
      [
        { input: 'src/a.ts', expected: 'typescript' },
        { input: 'src/App.TSX', expected: 'tsx' },
        { input: 'lib/x.jsx', expected: 'javascript' },
        { input: 'Dockerfile', expected: 'dockerfile' },
        { input: 'sub/makefile', expected: 'makefile' },
        { input: 'LICENSE', expected: 'text' },
        { input: 'docs/README.md', expected: 'markdown' },
        { input: 'a/b/.eslintrc', expected: undefined },
        { input: 'x.unknownext', expected: undefined },
      ],
      (p) => languageForPath(p)?.id,
    );
  });
  describe('suffixOf', () => {
    checkAll(
      [
        { input: 'a/b.c/d', expected: '' },
        { input: '.env', expected: '' },
        { input: 'x.tar.GZ', expected: '.gz' },
      ],
      suffixOf,
    );
  });
  describe('resolveLanguageFilter', () => {
    checkAll(
      [
        { input: 'ts', expected: ['tsx', 'typescript'] },
        { input: 'Python', expected: ['python'] },
        { input: 'md', expected: ['markdown'] },
        { input: 'cobol', expected: ['cobol'] },
      ],
      resolveLanguageFilter,
    );
  });
  describe('docids', () => {
    checkAll(
      [
        { input: makeDocid('src/a b.ts', 3, 9), expected: { path: 'src/a b.ts', startLine: 3, endLine: 9 } },
        { input: 'weird:name.ts:1-2', expected: { path: 'weird:name.ts', startLine: 1, endLine: 2 } },
        { input: 'a.ts:5-2', expected: undefined },
        { input: 'a.ts', expected: undefined },
      ],
      parseDocid,
    );
  });
});
