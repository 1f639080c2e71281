// `lang:`, `kind:` and `scope:` typed in a query are filters for every front end; the editor's
// search box also reads `path:` as a glob.
import * as assert from 'node:assert/strict';
import { liftInlineFilters } from '../../src/core/search/inlineFilters';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

describe('inline filters: what a query lifts out of its text', () => {
  checkAll<[string, boolean], unknown>(
    [
      { name: 'a language and a kind', input: ['retry lang:ts kind:function', false], expected: { text: 'retry', filters: { languages: ['ts'], kinds: ['function'] }, labels: ['lang:ts', 'kind:function'] } },
      { name: 'lists and a scope', input: ['lang:py,go scope:docs install', false], expected: { text: 'install', filters: { languages: ['py', 'go'], scope: 'docs' }, labels: ['lang:py,go', 'scope:docs'] } },
      { name: 'path: stays a field for the engine', input: ['path:src/api handler', false], expected: { text: 'path:src/api handler', filters: {}, labels: [] } },
      { name: 'path: is a glob for the search box', input: ['path:src/** handler', true], expected: { text: 'handler', filters: { paths: ['src/**'] }, labels: ['path:src/**'] } },
      { name: 'an unknown scope stays text', input: ['scope:everything x', false], expected: { text: 'scope:everything x', filters: {}, labels: [] } },
      { name: 'other word:word is text', input: ['eslint:recommended node:fs', false], expected: { text: 'eslint:recommended node:fs', filters: {}, labels: [] } },
    ],
    ([input, paths]) => liftInlineFilters(input, { paths }),
  );
});

describe('inline filters: through the engine, as the CLI and MCP ask', () => {
  let ws: TempWorkspace;
  before(async () => {
    ws = new TempWorkspace({
      'src/retry.ts': 'export function retryRequest(times: number) {\n  return times;\n}\n',
      'src/retry.py': 'def retry_request(times):\n    return times\n',
      'docs/retry.md': '# Retry\n\nHow requests retry.\n',
    });
    await ws.engine().refresh();
  });
  after(() => ws.dispose());

  it('lang: keeps one language, and says nothing about the query', async () => {
    const r = await ws.engine().search('retry lang:py', { refresh: 'never' });
    assert.deepEqual([...new Set(r.results.map((h) => h.path))], ['src/retry.py']);
    assert.deepEqual(r.warnings, []);
  });

  it('scope:docs in the query ranks files like the option does', async () => {
    const typed = await ws.engine().searchFiles('retry scope:docs', { refresh: 'never' });
    const option = await ws.engine().searchFiles('retry', { refresh: 'never', scope: 'docs' });
    assert.deepEqual(typed.files.map((f) => f.path), option.files.map((f) => f.path));
    assert.equal(typed.files[0]?.path, 'docs/retry.md');
  });
});
