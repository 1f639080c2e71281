// The extension's host-independent pieces: inline search filters, settings → engine options, and
// merging per-folder answers into one multi-root answer (folder labels, score order, exact first).
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { parseSearchInput } from '../../src/vscode/searchQuery';
import { chunkingOptions, discoveryOptions, languageAllowList } from '../../src/vscode/engineOptions';
import { mergeFiles, mergeSearch, mergeSymbols, type FolderAnswer } from '../../src/vscode/mergeResults';
import { caretColumn, caretOf, firstMarkedWord, shownLine, type CaretHints } from '../../src/vscode/hitLine';
import type { CairnSettings } from '../../src/vscode/settings';
import type { FileHit, FileSearchResponse, SearchHit, SearchResponse, SymbolHit, SymbolResponse } from '../../src/core/search/types';

function hit(path: string, score: number, extra: Partial<SymbolHit> = {}): SymbolHit {
  return {
    docid: `${path}:1-2`, path, startLine: 1, endLine: 2, score, scoreBreakdown: [], symbol: extra.symbol ?? 'x', kind: 'function',
    language: 'typescript', context: '', preview: '', id: `${path}#${score}`, match: 'fuzzy', qualifiedName: extra.symbol ?? 'x', ...extra,
  };
}
const index = { files: 1, chunks: 1, fresh: true, generation: 1 };
const search = (hits: SearchHit[], warnings: string[] = []): SearchResponse => ({ query: 'q', results: hits, total: hits.length, tookMs: 1, index, warnings, diagnostics: [] });
const symbols = (hits: SymbolHit[], exact: boolean, note?: string): SymbolResponse => ({ query: 'q', exact, results: hits, tookMs: 1, index, diagnostics: [], ...(note ? { note } : {}) });
const A = { name: 'a', uri: 'file:///a' };
const B = { name: 'b', uri: 'file:///b' };

describe('vscode adapter', () => {
  describe('parseSearchInput', () => {
    checkAll(
      [
        { input: 'greet', expected: { text: 'greet', filters: {}, labels: [] } },
        { input: 'greet lang:ts', expected: { text: 'greet', filters: { languages: ['ts'] }, labels: ['lang:ts'] } },
        { input: 'language:Python,go x', expected: { text: 'x', filters: { languages: ['python', 'go'] }, labels: ['lang:Python,go'] } },
        { input: 'kind:Function kind:method a', expected: { text: 'a', filters: { kinds: ['function', 'method'] }, labels: ['kind:Function', 'kind:method'] } },
        { input: 'path:src/** -test scope:docs', expected: { text: '-test', filters: { paths: ['src/**'], scope: 'docs' }, labels: ['path:src/**', 'scope:docs'] } },
        { input: 'scope:nowhere symbol:greet', expected: { text: 'scope:nowhere symbol:greet', filters: {}, labels: [] } },
      ],
      parseSearchInput,
    );
  });

  describe('opening a hit: where the caret goes (undefined: the first line of the span)', () => {
    const span = { startLine: 10, endLine: 30 };
    checkAll<CaretHints, ReturnType<typeof caretOf>>(
      [
        { name: 'a search hit: the preview\'s matched line', input: { ...span, previewLine: 14, matchLines: [12, 14, 20] }, expected: { line: 14 } },
        { name: 'a search hit whose preview line did not match: the first matching line', input: { ...span, previewLine: 11, matchLines: [12, 20] }, expected: { line: 12 } },
        { name: 'a search hit with no matching line (fuzzy, path-only): the preview line', input: { ...span, previewLine: 11, matchLines: [] }, expected: { line: 11 } },
        { name: 'an explicit position (a symbol\'s name) wins', input: { ...span, at: { line: 13, column: 16 }, previewLine: 14, matchLines: [14] }, expected: { line: 13, column: 16 } },
        { name: 'a symbol hit: its name, not the doc comment its range starts with', input: { ...span, nameLine: 13, nameColumn: 17, previewLine: 13 }, expected: { line: 13, column: 16 } },
        { name: 'a plain span (a context-pack item, a cross-reference): none', input: { ...span, previewLine: 10 }, expected: undefined },
      ],
      caretOf,
    );

    checkAll(
      [
        { name: 'before the first marked word of the preview', input: { line: '  return retryRequest(x);', preview: '  return «retryRequest»(x);\n}' }, expected: 9 },
        { name: 'the whole word, not a word that contains it', input: { line: 'const users = user;', preview: 'const users = «user»;' }, expected: 14 },
        { name: 'a ripgrep preview, numbered', input: { line: '// TODO(alice): retry', preview: '3: // «TODO(alice)»: retry' }, expected: 3 },
        { name: 'nothing marked: the first non-blank character', input: { line: '    name: ci', preview: 'name: ci' }, expected: 4 },
      ],
      ({ line, preview }) => caretColumn(line, firstMarkedWord(preview)),
    );
  });

  describe('the line a view shows for a hit', () => {
    checkAll(
      [
        { name: 'the preview\'s line and number, markers removed', input: { preview: '  return «retryRequest»(x);\n}', previewLine: 16, startLine: 11 }, expected: { line: 16, text: 'return retryRequest(x);' } },
        { name: 'a ripgrep preview keeps its own numbers', input: { preview: '3: // «TODO»: retry\n9: «TODO» again', previewLine: 3, startLine: 1 }, expected: { line: 3, text: '// TODO: retry' } },
        { name: 'an older hit without a preview line: its first line', input: { preview: 'export function a() {', startLine: 7 }, expected: { line: 7, text: 'export function a() {' } },
        { name: 'no preview', input: { preview: '', startLine: 7 }, expected: { line: 7, text: '' } },
      ],
      shownLine,
    );
  });

  describe('settings → engine options', () => {
    const settings: CairnSettings = {
      include: ['src/**'], exclude: ['docs/**'], maxFileSize: 1000, languages: [],
      chunking: { strategy: 'lines', lineChunkChars: { code: 900, prose: 800, config: 700 }, astMaxChars: 2000 },
      indexOnSave: true, resultLimit: 10, search: { scope: 'all' }, registry: { dir: '' }, references: { languageServerTimeout: 4000 }, agent: { usageCounters: true, serveTerminal: true },
    };
    it('maps include/exclude/size and leaves the language allow-list to the engine when every language is on', () => {
      assert.deepEqual(discoveryOptions(settings), { include: ['src/**'], exclude: ['docs/**'], maxFileBytes: 1000 });
    });
    it('turns enabled languages (ids or aliases) into suffixes and file names from the language table', () => {
      const ts = languageAllowList(['ts']);
      assert.ok(ts);
      assert.deepEqual(ts.extensions, ['.cts', '.mts', '.ts', '.tsx']);
      assert.deepEqual(ts.filenames, []);
      const docker = languageAllowList(['dockerfile', 'md']);
      assert.ok(docker?.filenames.includes('dockerfile') && docker.extensions.includes('.md'));
      assert.equal(languageAllowList([]), undefined);
    });
    it('maps chunking settings to the engine policy', () => {
      assert.deepEqual(chunkingOptions(settings), { strategy: 'lines', policy: { lineChunkChars: { code: 900, prose: 800, config: 700 }, astMaxChars: 2000 } });
    });
  });

  describe('mergeSearch', () => {
    it('labels hits with their folder and orders by score, stable across folders', () => {
      const answers: Array<FolderAnswer<SearchResponse>> = [
        { folder: A, response: search([hit('a1', 5), hit('a2', 3)]) },
        { folder: B, response: search([hit('b1', 5), hit('b2', 4)], ['partial']) },
      ];
      const m = mergeSearch(answers, 3);
      assert.deepEqual(m.results.map((h) => [h.folder, h.path]), [['a', 'a1'], ['b', 'b1'], ['b', 'b2']]);
      assert.equal(m.results[0]!.folderUri, 'file:///a');
      assert.equal(m.total, 4);
      assert.deepEqual(m.warnings, ['b: partial']);
    });
    it('keeps answering when one folder fails, and says which', () => {
      const m = mergeSearch([{ folder: A, error: 'engine down' }, { folder: B, response: search([hit('b1', 1)]) }], 10);
      assert.deepEqual(m.results.map((h) => h.path), ['b1']);
      assert.deepEqual(m.warnings, ['a: engine down']);
    });
    it('partial only when no folder has a full match: the note counts every folder\'s partial matches', () => {
      const partial = (hits: SearchHit[], total: number): SearchResponse => ({ ...search(hits.map((h) => ({ ...h, partial: true as const }))), total, allTerms: false, note: `No result has all of: fooBar; ${total} partial matches` });
      const both = mergeSearch([{ folder: A, response: partial([hit('a1', 2)], 7) }, { folder: B, response: partial([hit('b1', 1)], 5) }], 10);
      assert.equal(both.allTerms, false);
      assert.equal(both.note, 'No result has all of: fooBar; 12 partial matches');
      const one = mergeSearch([{ folder: A, response: partial([hit('a1', 2)], 7) }, { folder: B, response: search([hit('b1', 1)]) }], 10);
      assert.equal(one.allTerms, undefined, 'a full match in another folder is a result');
      assert.equal(one.note, undefined);
    });
    it('does not prefix warnings in a single-folder workspace', () => {
      assert.deepEqual(mergeSearch([{ folder: A, response: search([], ['no index yet']) }], 5).warnings, ['no index yet']);
    });
  });

  describe('mergeFiles', () => {
    const file = (path: string, score: number): FileHit => ({ path, score, scoreBreakdown: [{ kind: 'match', name: 'best chunk', value: score }], spans: [hit(path, score)], matchedChunks: 1, language: 'typescript' });
    const files = (list: FileHit[]): FileSearchResponse => ({ query: 'q', files: list, total: list.length, tookMs: 1, index, warnings: [], diagnostics: [] });
    it('ranks every folder\'s files by score, stable across folders, spans labelled too', () => {
      const m = mergeFiles([{ folder: A, response: files([file('a1', 5), file('a2', 2)]) }, { folder: B, response: files([file('b1', 5), file('b2', 3)]) }], 3);
      assert.deepEqual(m.files.map((f) => [f.folder, f.path]), [['a', 'a1'], ['b', 'b1'], ['b', 'b2']]);
      assert.equal(m.files[1]!.spans[0]!.folderUri, 'file:///b');
      assert.equal(m.total, 4);
    });
  });

  describe('mergeSymbols', () => {
    it('puts exact matches first whatever their score or folder', () => {
      const m = mergeSymbols(
        [
          { folder: A, response: symbols([hit('a', 9, { symbol: 'greetAll', match: 'prefix' })], false, 'no symbol named "greet"; closest: greetAll') },
          { folder: B, response: symbols([hit('b', 2, { symbol: 'greet', match: 'exact' })], true) },
        ],
        10,
      );
      assert.deepEqual(m.results.map((h) => h.symbol), ['greet', 'greetAll']);
      assert.equal(m.exact, true);
      assert.equal(m.note, undefined);
    });
    it('passes the engine\'s note on when nothing matches exactly', () => {
      const m = mergeSymbols([{ folder: A, response: symbols([], false, 'no symbol named "Gretr" and nothing close') }], 10);
      assert.equal(m.exact, false);
      assert.equal(m.note, 'no symbol named "Gretr" and nothing close');
    });
  });
});
