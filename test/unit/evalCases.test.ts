import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { classifyPath, mineCases, parseNameStatus } from '../../src/eval/cases';
import { mergeRanges, oldRangesOfDiff } from '../../src/eval/diffRanges';
import { cleanCommitMessage, messageSkipReason } from '../../src/eval/messages';
import { resolveDiscoveryOptions } from '../../src/core/discovery';
import type { MiningResult } from '../../src/eval/types';
import { buildHistoryFixture, type HistoryFixture } from './evalFixture';

describe('eval: commit messages as queries', () => {
  describe('cleaning', () => {
    checkAll(
      [
        { name: 'issue number in parentheses', input: 'Add retry to the HTTP client (#12)', expected: 'Add retry to the HTTP client' },
        { name: 'conventional prefix with scope and a fixes reference', input: 'fix(parser): handle escaped quotes (fixes #34)', expected: 'handle escaped quotes' },
        { name: 'breaking-change prefix', input: 'feat!: drop the legacy config loader', expected: 'drop the legacy config loader' },
        { name: 'GH- and cross-repository references', input: 'Validate ports GH-7, see owner/repo#9', expected: 'Validate ports' },
        { name: 'closes phrase in the body, trailers dropped', input: 'Cache parsed configs\n\nCloses #5.\n\nSigned-off-by: A <a@b.c>\nCo-authored-by: B <b@c.d>', expected: 'Cache parsed configs' },
        { name: 'a component name before a colon stays (not a conventional type)', input: 'Engine: segmented index', expected: 'Engine segmented index' },
        { name: 'query syntax and links become spaces', input: 'Support +required and -excluded terms in field:term (https://example.com/x)', expected: 'Support required and excluded terms in field term' },
        { name: 'option names lose their dashes, hyphenated words keep theirs', input: 'search --provider/--regex for built-in rules', expected: 'search provider/ regex for built-in rules' },
        { name: 'body bullets are joined into one line', input: 'Speed up refresh\n\n- skip unchanged files\n- batch reads', expected: 'Speed up refresh skip unchanged files batch reads' },
      ],
      cleanCommitMessage,
    );
    it('caps a long message at 64 words', () => {
      const words = Array.from({ length: 100 }, (_, i) => `word${i}`);
      assert.equal(cleanCommitMessage(`Long change\n\n${words.join(' ')}`).split(' ').length, 64);
    });
  });

  describe('messages that are not tasks', () => {
    checkAll(
      [
        { input: 'Bump version to 1.2.0', expected: 'version-bump' },
        { input: '1.3.0', expected: 'version-bump' },
        { input: 'v2.0.0-rc.1', expected: 'version-bump' },
        { input: 'Release 4.1.0', expected: 'version-bump' },
        { input: 'chore(release): 1.0.1', expected: 'version-bump' },
        { input: 'Bump lodash from 4.17.20 to 4.17.21', expected: 'dependencies' },
        { input: 'chore(deps): update typescript', expected: 'dependencies' },
        { input: 'Update dependencies', expected: 'dependencies' },
        { input: 'Fix typo in the parser comment', expected: 'typo' },
        { input: 'typos', expected: 'typo' },
        { input: 'style: reformat the parser', expected: 'formatting' },
        { input: 'Run prettier on src', expected: 'formatting' },
        { input: 'format code', expected: 'formatting' },
        { input: 'Revert "Add caching"', expected: 'revert' },
        { input: 'wip', expected: 'too-short' },
        { input: 'fix: #12', expected: 'too-short' },
        { name: 'a real task', input: 'Add retry with exponential backoff to the HTTP client (#12)', expected: undefined },
        { name: 'a feature that mentions formats', input: 'Format dates in the report with the user locale', expected: undefined },
        { name: 'a feature about versions', input: 'Update version check to accept prerelease tags', expected: undefined },
        { name: 'a feature about typos in queries', input: 'Tolerate one typo per word in fuzzy queries', expected: undefined },
      ],
      messageSkipReason,
    );
  });
});

describe('eval: diff ranges', () => {
  checkAll(
    [
      { name: 'rewrite of two lines', input: '@@ -8,2 +8,3 @@\n-a\n-b\n+c\n+d\n+e', expected: [{ start: 8, end: 9 }] },
      { name: 'count omitted means one line', input: '@@ -8 +8,3 @@', expected: [{ start: 8, end: 8 }] },
      { name: 'pure addition maps to the lines around the insertion', input: '@@ -5,0 +6 @@', expected: [{ start: 5, end: 6 }] },
      { name: 'addition at the top of a file', input: '@@ -0,0 +1,2 @@', expected: [{ start: 1, end: 1 }] },
      { name: 'deletion', input: '@@ -3,4 +2,0 @@', expected: [{ start: 3, end: 6 }] },
      { name: 'touching hunks merge', input: '@@ -5,0 +6 @@\n@@ -7,2 +8 @@\n@@ -20 +21 @@', expected: [{ start: 5, end: 8 }, { start: 20, end: 20 }] },
      { name: 'lines that only look like hunk headers inside content are ignored', input: 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-@@ -9,9 +9,9 @@\n+x', expected: [{ start: 1, end: 1 }] },
    ],
    oldRangesOfDiff,
  );
  it('mergeRanges sorts and merges overlaps', () => {
    assert.deepEqual(mergeRanges([{ start: 10, end: 12 }, { start: 1, end: 3 }, { start: 11, end: 15 }, { start: 4, end: 4 }]), [{ start: 1, end: 4 }, { start: 10, end: 15 }]);
  });
  it('parses name-status -z output, renames with both paths', () => {
    assert.deepEqual(parseNameStatus('M\0src/a.ts\0R087\0old name.ts\0new name.ts\0A\0b.ts\0D\0c.ts\0'), [
      { status: 'M', oldPath: 'src/a.ts', newPath: 'src/a.ts' },
      { status: 'R', oldPath: 'old name.ts', newPath: 'new name.ts' },
      { status: 'A', newPath: 'b.ts' },
      { status: 'D', oldPath: 'c.ts' },
    ]);
  });
  it('classifies changed paths', () => {
    const d = resolveDiscoveryOptions();
    assert.deepEqual(
      ['src/a.ts', 'test/a.test.ts', 'src/a.spec.ts', 'README.md', 'package-lock.json', 'logo.png', 'config/app.yaml', 'node_modules/x/index.js'].map((p) => classifyPath(p, d)),
      ['source', 'test', 'test', 'docs', 'other', 'other', 'source', 'other'],
    );
  });
});

describe('eval: mining the history of a fixture repository', function () {
  this.timeout(60000);
  let fixture: HistoryFixture;
  let mined: MiningResult;

  before(async () => {
    fixture = buildHistoryFixture();
    mined = await mineCases(fixture.dir, { maxCases: 50 });
  });
  after(() => fixture.dispose());

  it('keeps the four task commits, oldest first, with their parents', () => {
    const c = fixture.commits;
    assert.deepEqual(
      mined.cases.map((x) => [x.commit, x.parent]),
      [
        [c.retry, c.root],
        [c.escapes, c.retry],
        [c.median, c.docs],
        [c.port, c.merge],
      ],
    );
    assert.equal(mined.scanned, 15);
  });

  it('skips each other commit for its reason', () => {
    assert.deepEqual(mined.skipped, {
      root: 1,
      merge: 1,
      'version-bump': 2,
      typo: 1,
      'tests-or-docs-only': 1,
      'too-many-files': 1,
      'only-new-files': 1,
      formatting: 1,
      'whitespace-only': 1,
      dependencies: 1,
    });
    const c = fixture.commits;
    const reasonOf = (sha: string | undefined) => mined.skippedCommits.find((s) => s.commit === sha)?.reason;
    assert.deepEqual(
      ['root', 'bump', 'typo', 'docs', 'merge', 'rename', 'newfile', 'release', 'style', 'tidy', 'deps'].map((label) => reasonOf(c[label])),
      ['root', 'version-bump', 'typo', 'tests-or-docs-only', 'merge', 'too-many-files', 'only-new-files', 'version-bump', 'formatting', 'whitespace-only', 'dependencies'],
    );
  });

  it('cleans the messages into queries', () => {
    assert.deepEqual(mined.cases.map((x) => x.query), [
      'Add retry with exponential backoff to the HTTP client',
      'handle escaped quotes in string literals A backslash before a quote no longer ends the string',
      'Add a median helper next to mean and sum',
      'Validate the port number when loading the server config',
    ]);
  });

  it('locates the changed lines in the parent (tests are not ground truth)', () => {
    assert.deepEqual(mined.cases.map((x) => x.truth), [
      // one line inserted after line 5; lines 11-14 (try ... clearTimeout) rewritten
      [{ path: 'src/http/client.ts', ranges: [{ start: 5, end: 6 }, { start: 11, end: 14 }] }],
      // lines 8-9 of readString rewritten; the test file changed too but is not an answer
      [{ path: 'src/parser.ts', ranges: [{ start: 8, end: 9 }] }],
      // a function appended after the last line (7) of a 7-line file
      [{ path: 'src/math.ts', ranges: [{ start: 7, end: 8 }] }],
      [{ path: 'src/config.ts', ranges: [{ start: 8, end: 8 }] }],
    ]);
  });

  it('stops at maxCases, keeping the newest, and honours --since', async () => {
    const newest = await mineCases(fixture.dir, { maxCases: 2 });
    assert.deepEqual(newest.cases.map((x) => x.commit), [fixture.commits.median, fixture.commits.port]);
    const recent = await mineCases(fixture.dir, { maxCases: 50, since: '2026-01-07T00:00:00Z' });
    assert.deepEqual(recent.cases.map((x) => x.commit), [fixture.commits.median, fixture.commits.port]);
  });

  it('a larger file limit lets the giant refactor in', async () => {
    const loose = await mineCases(fixture.dir, { maxCases: 50, maxFiles: 6 });
    assert.ok(loose.cases.some((x) => x.commit === fixture.commits.rename));
    assert.equal(loose.skipped['too-many-files'], undefined);
  });
});
