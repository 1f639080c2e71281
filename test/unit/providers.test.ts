import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TempWorkspace } from './helpers/workspace';
import { exactNames } from '../../src/core/providers/providers';
import { checkAll } from './check';

const RG = path.resolve(__dirname, '../../../node_modules/@vscode/ripgrep-linux-x64/bin/rg');

describe('retrieval providers', function () {
  this.timeout(20000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace({
      'src/api/client.ts': [
        'export class ApiClient {',
        '  fetchUser(id: string) {',
        "    // TODO(alice): retry on 503",
        '    return http.get(`/users/${id}`);',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/api/cache.ts': 'export function cacheUser(u) {\n  // mentions fetchUser fetchUser fetchUser fetchUser\n  return store.put(u);\n}\n',
      'docs/notes.md': '# Notes\n\nThe TODO(alice) items are tracked in the client.\n',
    });
  });
  afterEach(() => ws.dispose());

  it('ripgrep finds literals the tokenizer drops and maps them onto chunks', async () => {
    const e = ws.engine({ strategy: 'lines', ripgrepPath: RG });
    const r = await e.search('TODO(alice)', { provider: 'ripgrep' });
    assert.deepEqual(r.results.map((h) => h.path).sort(), ['docs/notes.md', 'src/api/client.ts']);
    const hit = r.results.find((h) => h.path === 'src/api/client.ts')!;
    assert.ok(hit.startLine <= 3 && hit.endLine >= 3, 'the span contains the matching line');
    assert.match(hit.preview, /3: \/\/ «TODO\(alice\)»: retry on 503/);
    assert.equal(hit.scoreBreakdown[0]?.kind, 'match');
  });

  it('ripgrep takes regular expressions and reports bad ones', async () => {
    const e = ws.engine({ strategy: 'lines', ripgrepPath: RG });
    const r = await e.search('retry on \\d{3}', { provider: 'ripgrep', regex: true });
    assert.deepEqual(r.results.map((h) => h.path), ['src/api/client.ts']);
    const bad = await e.search('retry on (', { provider: 'ripgrep', regex: true });
    assert.deepEqual(bad.results, []);
    assert.equal(bad.diagnostics[0]?.code, 'ripgrep-bad-pattern');
  });

  it('degrades with a clear diagnostic when the binary is missing', async () => {
    const e = ws.engine({ strategy: 'lines', ripgrepPath: '/nonexistent/rg' });
    const r = await e.search('TODO', { provider: 'ripgrep' });
    assert.deepEqual(r.results, []);
    assert.equal(r.diagnostics[0]?.code, 'ripgrep-missing');
    const hybrid = await e.search('TODO', { provider: 'hybrid' });
    assert.ok(hybrid.results.length > 0, 'hybrid still answers from the index');
    assert.equal(hybrid.diagnostics[0]?.code, 'ripgrep-missing');
  });

  describe('ripgrep answers only from files discovery indexes', () => {
    // Each file holds the needle; only the last is one discovery would index.
    const refused: Record<string, string> = {
      '.cairnignore': 'ignored/\n',
      'ignored/notes.ts': 'export const needleword = 1;\n',
      'id_rsa': 'needleword\n',
      'config/credentials.json': '{"needleword": 1}\n',
      'big/huge.txt': `${'filler line\n'.repeat(100000)}needleword\n`,
      'src/kept.ts': 'export const needleword = 2;\n',
    };
    checkAll(
      [
        { name: 'ripgrep provider', input: 'ripgrep' as const, expected: ['src/kept.ts'] },
        { name: 'hybrid provider (a one-word literal)', input: 'hybrid' as const, expected: ['src/kept.ts'] },
      ],
      async (provider) => {
        for (const [p, text] of Object.entries(refused)) ws.write(p, text);
        const e = ws.engine({ strategy: 'lines', ripgrepPath: RG, discovery: { maxFileBytes: 64 * 1024 } });
        const r = await e.search('needleword', { provider, limit: 50 });
        return [...new Set(r.results.map((h) => h.path))].sort();
      },
    );

    it('the hybrid words search leaves them out too', async () => {
      for (const [p, text] of Object.entries(refused)) ws.write(p, text);
      const e = ws.engine({ strategy: 'lines', ripgrepPath: RG, discovery: { maxFileBytes: 64 * 1024 } });
      const r = await e.search('where is the needleword defined', { provider: 'hybrid', limit: 50 });
      assert.deepEqual([...new Set(r.results.map((h) => h.path))].sort(), ['src/kept.ts']);
    });
  });

  describe('no provider shows the text of an indexed file that discovery would no longer read', () => {
    // ripgrep reads the working tree as it is now, while the index still holds the old file.
    const changes: Record<string, () => void> = {
      'it became a hard link to .env': () => {
        ws.remove('src/notes.ts');
        fs.linkSync(path.join(ws.root, '.env'), path.join(ws.root, 'src/notes.ts'));
      },
      'it grew past the size cap': () => ws.write('src/notes.ts', `${'const filler = 0;\n'.repeat(5000)}// needleword hunter2\n`),
    };
    checkAll(
      Object.keys(changes).flatMap((change) => (['ripgrep', 'hybrid'] as const).map((provider) => ({ name: `${provider}: ${change}`, input: { change, provider }, expected: [] as string[] }))),
      async ({ change, provider }) => {
        ws.write('.env', 'needleword=hunter2\n');
        ws.write('src/notes.ts', 'export const needleword = 1;\n');
        const e = ws.engine({ strategy: 'lines', ripgrepPath: RG, discovery: { maxFileBytes: 64 * 1024 } });
        await e.refresh();
        (changes[change] as () => void)();
        const r = await e.search('needleword', { provider, limit: 50, refresh: 'never' });
        // The index may still list the file (as changed); no answer may show the new text.
        return r.results.filter((h) => /hunter2/.test(`${h.preview}\n${h.context}`)).map((h) => `${h.path}: ${h.preview}`);
      },
    );
  });

  it('hybrid gives an exact definition a guaranteed place even against noisy mentions', async () => {
    ws.write('src/many.ts', Array.from({ length: 30 }, (_, i) => `// fetchUser mention ${i}`).join('\n'));
    const e = ws.engine({ ripgrepPath: RG });
    const r = await e.search('fetchUser', { provider: 'hybrid', limit: 5 });
    assert.equal(r.results[0]?.symbol, 'fetchUser', JSON.stringify(r.results.map((h) => [h.docid, h.score])));
    assert.match(r.results[0]!.scoreBreakdown[0]!.kind === 'match' ? (r.results[0]!.scoreBreakdown[0] as { name: string }).name : '', /guaranteed place/);
    const sum = r.results[0]!.scoreBreakdown.reduce((s, p) => s + p.value, 0);
    assert.ok(Math.abs(sum - r.results[0]!.score) < 1e-5);
  });

  describe('names that earn a guaranteed place', () => {
    checkAll(
      [
        { input: 'fetchUser', expected: ['fetchUser'] },
        { input: 'how does fetchUser retry', expected: ['fetchUser'] },
        { input: 'ApiClient.fetchUser errors', expected: ['ApiClient.fetchUser'] },
        { input: 'parse config', expected: [] },
        { input: 'symbol:load_config', expected: ['load_config'] },
      ],
      exactNames,
    );
  });
});
