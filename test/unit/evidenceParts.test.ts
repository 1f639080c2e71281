// What front ends name as a file's or a span's evidence: localization and history signals only.
import { evidenceParts } from '../../src/core/search/evidenceParts';
import type { ScoreComponent } from '../../src/core/search/types';
import { checkAll } from './check';

const match = (name: string): ScoreComponent => ({ kind: 'match', name, value: 1 });

describe('evidence parts of a breakdown', () => {
  checkAll<ScoreComponent[], string[]>(
    [
      { name: 'keyword parts are not evidence', input: [match('best chunk'), match('3 other matching chunks (damped)'), { kind: 'boost', name: 'file-name', factor: 1.25, value: 1 }], expected: [] },
      { name: 'a frame and a named definition, in order', input: [match('best chunk'), match('traceback-frame: src/app.py:12 in load'), match('definition-named-in-text: Loader.load')], expected: ['traceback-frame: src/app.py:12 in load', 'definition-named-in-text: Loader.load'] },
      { name: 'history signals', input: [match('past-commit-words: actions'), match('similar-past-commit: fix the cache')], expected: ['past-commit-words: actions', 'similar-past-commit: fix the cache'] },
      { name: "a provider's own parts are not evidence", input: [match('ripgrep: 3 matching lines'), match('rrf: index rank 2')], expected: [] },
      { name: 'a part named twice is listed once', input: [match('named-test: test_a calls load'), match('named-test: test_a calls load')], expected: ['named-test: test_a calls load'] },
    ],
    (breakdown) => evidenceParts(breakdown),
  );
});
