// The bridge from message words to files (src/core/history/messageWordFiles.ts): a word of a
// text's subject that past commits reliably used when changing a file points at that file,
// even when no past message as a whole is like the text. A word seen too rarely, a file
// everything changes, the body below the subject, tests and prose say nothing.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import type { CommitLog } from '../../src/core/history/commitLog';
import { messageWords } from '../../src/core/history/messageWords';
import { hasSubjectWords, pastWordEvidence, subjectWords } from '../../src/core/history/messageWordFiles';

const commit = (subject: string, files: string[]) => ({ subject, words: messageWords(subject), files });
const LOG: CommitLog = {
  head: 'b'.repeat(40),
  commits: [
    commit('lint: enable gocritic', ['.golangci.yml', 'src/a.go']),
    commit('fix lint findings', ['.golangci.yml', 'src/b.go']),
    commit('lint with the new linter version', ['.golangci.yml']),
    commit('route requests by path', ['src/router.go', 'src/app.go']),
    commit('router: match trailing slashes', ['src/router.go', 'src/app.go', 'tests/router_test.go']),
    commit('router: allow wildcard routes', ['src/router.go', 'src/app.go', 'docs/routing.md']),
    commit('document the router', ['docs/routing.md']),
    commit('speed up the app', ['src/app.go']),
    commit('release 1.2', ['src/app.go', 'CHANGES.md']),
    ...Array.from({ length: 11 }, (_, i) => commit(`tweak ${['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'omega'][i]}`, i < 4 ? [`src/other${i}.go`, 'src/app.go'] : [`src/other${i}.go`])),
  ],
};
const counts = (p: string) => !p.startsWith('tests/') && !p.endsWith('.md');
const evidence = (text: string): Array<[string, number, string]> => pastWordEvidence(LOG, text, counts).map((e) => [e.path, Math.round(e.strength * 100) / 100, e.what]);

describe('message words that past commits used when changing a file', () => {
  checkAll<string, Array<[string, number, string]>>(
    [
      { name: 'a word every past lint change used points at the linter config, though no message is like the text', input: 'bump golangci-lint to v2', expected: [['.golangci.yml', 1, 'lint']] },
      // `router` went with src/router.go in two of its three commits (against 3 in 20 at large);
      // with src/app.go too, but app.go changes in nearly half of all commits, so two in three is
      // not telling for it. `match`, rarer, goes with no file: the strength is weighed against it.
      { name: 'a file everything changes is not pointed at; a rarer word the history knows weighs against', input: 'router: match the host too', expected: [['src/router.go', 0.43, 'router']] },
      { name: 'the same word as the rarest of its subject: how much more often than at large it went with the file', input: 'router: the host too', expected: [['src/router.go', 0.61, 'router']] },
      { name: 'a word seen in fewer than three commits says nothing', input: 'speed up the app', expected: [] },
      { name: 'only the subject counts: a body of words the history knows is not read', input: 'lint the config\n\nrouter router wildcard routes', expected: [['.golangci.yml', 1, 'lint']] },
      { name: 'words the history never saw', input: 'TypeError in the template loader', expected: [] },
      { name: 'one word is a name, not a subject: nothing', input: 'lint', expected: [] },
      { name: 'an empty text', input: '', expected: [] },
    ],
    evidence,
  );

  it("a subject is the first line that isn't blank, its words once each", () => {
    assert.deepEqual(subjectWords('\n\n  Lint the lint config\nrouter'), ['lint', 'config']);
  });

  it('a one-word query does not read the log at all; two words do', () => {
    assert.deepEqual([hasSubjectWords('lint'), hasSubjectWords('lint\n\nthe config'), hasSubjectWords('lint the config')], [false, false, true]);
  });

  it('tests and prose never count, whatever the words', () => {
    const all = pastWordEvidence(LOG, 'router document', () => true).map((e) => e.path);
    const counted = pastWordEvidence(LOG, 'router document', counts).map((e) => e.path);
    assert.ok(all.includes('docs/routing.md'), JSON.stringify(all));
    assert.deepEqual(counted, ['src/router.go']);
  });
});
