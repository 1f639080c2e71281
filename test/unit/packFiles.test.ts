import * as assert from 'node:assert/strict';
import { TempWorkspace } from './helpers/workspace';
import type { Engine } from '../../src/core/engine/engine';

// A pack's must-inspect spans are the best functions of the best files: its files come in the
// order `search --group file` gives for the same text (issue #37).

/** A handler module mentioning the retry words `n` times, so file search ranks them by `n`. */
const handler = (i: number, n: number) =>
  [
    'from ..retry import retry_request',
    '',
    `def handle_${i}(request):`,
    ...Array.from({ length: n }, (_, k) => `    # retry the request ${k} with backoff when the delay expires`),
    `    return retry_request(request, attempts=${i})`,
    '',
  ].join('\n');

const repo: Record<string, string> = {
  'src/net/retry.py': [
    'from .clock import sleep_for',
    '',
    'class RetryError(Exception):',
    '    pass',
    '',
    'def compute_backoff(attempt, delay):',
    '    # exponential backoff: the delay doubles with each retry',
    '    return delay * (2 ** attempt)',
    '',
    'def retry_request(request, attempts=3, delay=0.5):',
    '    for attempt in range(attempts):',
    '        try:',
    '            return request.send()',
    '        except IOError:',
    '            sleep_for(compute_backoff(attempt, delay))',
    '    raise RetryError("gave up after %d retries" % attempts)',
    '',
  ].join('\n'),
  'src/net/clock.py': 'import time\n\ndef sleep_for(seconds):\n    time.sleep(seconds)\n',
  'src/net/client.py': [
    'from .retry import retry_request',
    '',
    'class Client:',
    '    def send(self, request):',
    '        return retry_request(request, attempts=self.attempts)',
    '',
  ].join('\n'),
  'tests/test_retry.py': [
    'from src.net.retry import retry_request, compute_backoff',
    '',
    'def test_retry_backoff_delay():',
    '    # the retry backoff delay doubles',
    '    assert compute_backoff(2, 1) == 4',
    '',
  ].join('\n'),
  'docs/retries.md': '# Retries\n\nFailed requests retry with exponential backoff; the delay doubles.\n',
};
for (let i = 1; i <= 12; i++) repo[`src/net/handlers/h${i}.py`] = handler(i, 1 + (i % 5));
// Modules of two long functions each: a budget cannot show all of them whole.
for (let i = 0; i < 6; i++) {
  const lines = (n: number, line: (k: number) => string) => Array.from({ length: n }, (_, k) => line(k)).join('\n');
  repo[`src/limits/t${i}.py`] = `def throttle_${i}(x):\n${lines(40 - 3 * i, (k) => `    throttle window step ${k} of ${i} = compute(x, ${k})`)}\n\ndef window_${i}(y):\n${lines(30, (k) => `    window again ${k}`)}\n`;
}

const traceback = [
  'Sending a request gives up too early:',
  '',
  'Traceback (most recent call last):',
  '  File "src/net/client.py", line 5, in send',
  '    return retry_request(request, attempts=self.attempts)',
  '  File "src/net/retry.py", line 16, in retry_request',
  '    raise RetryError("gave up after %d retries" % attempts)',
  'RetryError: gave up after 0 retries',
].join('\n');

const diff = [
  'diff --git a/src/net/retry.py b/src/net/retry.py',
  '--- a/src/net/retry.py',
  '+++ b/src/net/retry.py',
  '@@ -6,3 +6,3 @@ def compute_backoff(attempt, delay):',
  '     # exponential backoff: the delay doubles with each retry',
  '-    return delay * (2 ** attempt)',
  '+    return min(delay * (2 ** attempt), 30)',
].join('\n');

/** Each file once, in the order of its first span. */
const filesOf = (items: ReadonlyArray<{ path: string }>) => [...new Set(items.map((i) => i.path))];

describe('context packs: the files come in the order file search ranks them', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  let engine: Engine;
  before(async () => {
    ws = new TempWorkspace(repo);
    engine = ws.engine();
    await engine.refresh();
  });
  after(() => ws.dispose());
  /** `search --group file`'s first ten files for the text, of a full result list. */
  const fileOrder = async (text: string) => (await engine.searchFiles(text, { limit: 100, previewLines: 0, refresh: 'never' })).files.slice(0, 10).map((f) => f.path);

  const cases: Array<{ name: string; text: string; minFiles: number }> = [
    { name: 'a plain query', text: 'retry backoff delay', minFiles: 10 },
    { name: 'a traceback', text: traceback, minFiles: 10 },
    { name: 'a diff', text: diff, minFiles: 10 },
  ];
  for (const c of cases) {
    it(`${c.name}: the pack's files are search --group file's, in its order`, async () => {
      const grouped = await fileOrder(c.text);
      assert.ok(grouped.length >= c.minFiles, `file search ranks ${grouped.length} files: ${grouped}`);
      const pack = await engine.buildPack(c.text, { refresh: 'never' });
      assert.deepEqual(filesOf(pack.mustInspect).slice(0, grouped.length), grouped);
    });
  }

  it('a tight budget keeps one span of each top file before a second of any', async () => {
    const grouped = await fileOrder('throttle window');
    assert.equal(grouped.length, 6);
    const pack = await engine.buildPack('throttle window', { refresh: 'never', budgetTokens: 1500 });
    const paths = pack.mustInspect.map((i) => i.path);
    const shown = filesOf(pack.mustInspect);
    assert.deepEqual(shown, grouped.slice(0, shown.length), `${paths}`);
    // Every file keeps a span (cut to fit), none gets a second: a fill in score order would
    // spend the budget on the first file's two functions.
    assert.deepEqual(paths, grouped, JSON.stringify(pack.cut));
    assert.ok(pack.usedTokens <= 1500);
  });

  it("with room to spare, a file's spans are read together, files in file search's order", async () => {
    const grouped = await fileOrder('throttle window');
    const pack = await engine.buildPack('throttle window', { refresh: 'never', budgetTokens: 20000 });
    const paths = pack.mustInspect.map((i) => i.path);
    assert.deepEqual(filesOf(pack.mustInspect), grouped);
    assert.ok(paths.length > grouped.length, `some file has a second span: ${paths}`);
    assert.deepEqual(paths, [...paths].sort((a, b) => grouped.indexOf(a) - grouped.indexOf(b)));
  });
});
