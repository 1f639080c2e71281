// Getting to code and back by keyboard: every way of opening a span leaves one caret and no
// selection; Ctrl+Alt+F opens Cairn: Search wherever focus is; Ctrl+C in the Results view copies
// the focused row; Ctrl+Enter moves a search into the Results view. And the rows say what people
// need: matches per file, headings as text, unnamed chunks by what encloses them, numbers,
// sizes and languages as people write them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { SearchHit } from '../../../src/core/search/types';
import { hitLine, hitTitle, spanReference } from '../../../src/vscode/format';
import { caretOf } from '../../../src/vscode/hitLine';
import type { FolderHit } from '../../../src/vscode/services';
import { api, closeEditors, fixturePath, poll, ready, sleep, waitForQuickInput } from './cairnHelpers';
import { click, getText, press, screenshot, typeText, ui, uiAvailable, waitForText } from './ui';

type Result = { results: Array<FolderHit<SearchHit>> };

/** A screenshot of the workbench when a UI test failed, named after the test. */
async function screenshotOnFailure(this: Mocha.Context): Promise<void> {
  const t = this.currentTest;
  if (t?.state === 'failed' && uiAvailable()) await ui({ screenshot: `failed-${t.title.replace(/[^\w]+/g, '-').slice(0, 60)}` });
}

/** The active editor once it shows `path`: its selections, and where its caret is (1-based line). */
async function openedAt(path: string): Promise<{ selections: readonly vscode.Selection[]; line: number; character: number }> {
  const editor = await poll(`${path} to open`, () => {
    const e = vscode.window.activeTextEditor;
    return e && vscode.workspace.asRelativePath(e.document.uri, false) === path ? e : undefined;
  });
  await sleep(100); // the opener sets the caret right after showing the editor
  const { selections } = editor;
  return { selections, line: editor.selection.active.line + 1, character: editor.selection.active.character };
}

/** One caret, nothing selected: a typed key cannot replace the span. */
function assertSingleCaret(what: string, at: { selections: readonly vscode.Selection[] }): void {
  assert.equal(at.selections.length, 1, `${what}: ${at.selections.length} cursors`);
  const s = at.selections[0]!;
  assert.ok(s.isEmpty, `${what}: lines ${s.start.line + 1}-${s.end.line + 1} are selected`);
}

async function searchIntoView(query: string): Promise<Result> {
  const result = (await vscode.commands.executeCommand('cairn.search', { query, target: 'view' })) as Result | undefined;
  assert.ok(result && result.results.length > 0, `no results for "${query}"`);
  return result;
}

describe('Cairn: navigation', () => {
  before(async function () {
    this.timeout(90000);
    await ready(await api());
  });
  afterEach(async function () {
    await screenshotOnFailure.call(this);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('no way of opening a span leaves a selection: one caret on the definition\'s name or the matched line', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(90000);
    const a = await api();
    const scope = a.services.settings().search.scope;

    // Cairn: Search, accepted with Enter: the top hit (a multi-line method) at its matched line.
    await closeEditors();
    const query = 'vector length normalize';
    const top = (await a.services.engine.search(query, { scope })).results[0]!;
    assert.ok(top.endLine > top.startLine, 'the top hit should span several lines');
    void vscode.commands.executeCommand('cairn.search');
    await waitForQuickInput();
    await typeText(query);
    await waitForText(`${top.path}:${hitLine(top)}`);
    await press('Enter');
    let at = await openedAt(top.path);
    assertSingleCaret('Cairn: Search', at);
    assert.equal(at.line, caretOf(top)!.line, 'Cairn: Search: the caret is not on the matched line');

    // A Results view row, clicked.
    await closeEditors();
    const result = await searchIntoView('distance between points');
    // A multi-line chunk whose label no other row has, so the click lands on it.
    const row = result.results.find((h) => h.endLine > h.startLine && result.results.filter((o) => hitTitle(o) === hitTitle(h)).length === 1)!;
    assert.ok(row, 'no multi-line row with a label of its own');
    await vscode.commands.executeCommand('workbench.view.extension.cairn');
    await click({ text: hitTitle(row), exact: true });
    at = await openedAt(row.path);
    assertSingleCaret('a Results view row', at);
    assert.equal(at.line, caretOf(row)!.line, 'a Results view row: the caret is not on the matched line');

    // Cairn: Go to Symbol, accepted with Enter: the caret on the class name, below its doc comment.
    await closeEditors();
    void vscode.commands.executeCommand('cairn.goToSymbol');
    await waitForQuickInput();
    await typeText('Greeter');
    await waitForText('src/greeter.ts:');
    await press('Enter');
    at = await openedAt('src/greeter.ts');
    assertSingleCaret('Go to Symbol', at);
    const lines = fs.readFileSync(fixturePath('src/greeter.ts'), 'utf8').split('\n');
    assert.deepEqual([at.line, at.character], [lines.findIndex((l) => l.startsWith('export class Greeter')) + 1, 'export class '.length]);

    // cairn.openSpan with a plain span (a context-pack link, an agent's reference): its first line.
    await closeEditors();
    const classStart = lines.findIndex((l) => l.startsWith('/** Builds greetings')) + 1;
    await vscode.commands.executeCommand('cairn.openSpan', { path: 'src/greeter.ts', startLine: classStart, endLine: classStart + 20 });
    at = await openedAt('src/greeter.ts');
    assertSingleCaret('cairn.openSpan with a plain span', at);
    assert.equal(at.line, classStart);

    // cairn.openSpan with a search hit (what a Results row's command passes).
    await closeEditors();
    await vscode.commands.executeCommand('cairn.openSpan', top);
    at = await openedAt(top.path);
    assertSingleCaret('cairn.openSpan with a hit', at);
    assert.equal(at.line, caretOf(top)!.line);
    await screenshot('editor-caret', { clip: '.part.editor' });
  });
});

describe('Cairn: keyboard', () => {
  before(async function () {
    this.timeout(90000);
    await ready(await api());
  });
  afterEach(async function () {
    await screenshotOnFailure.call(this);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('Ctrl+Alt+F opens Cairn: Search while a tree has focus (not the tree\'s filter)', async function () {
    if (!uiAvailable() || process.platform === 'darwin') this.skip();
    await searchIntoView('vector length');
    await vscode.commands.executeCommand('cairn.results.focus');
    await press('Control+Alt+F');
    await waitForText('Cairn: Search');
    await waitForQuickInput();
    await press('Escape');
    await vscode.commands.executeCommand('workbench.explorer.fileView.focus');
    await press('Control+Alt+F');
    await waitForText('Cairn: Search');
    await press('Escape');
  });

  it('Ctrl+C in the Results view copies the row the keyboard is on, not the one selected earlier', async function () {
    if (!uiAvailable() || process.platform === 'darwin') this.skip();
    this.timeout(60000);
    const result = await searchIntoView('vector length normalize');
    const [first, second] = groupedRows(result);
    assert.ok(first && second, 'need two chunk rows');
    await vscode.commands.executeCommand('workbench.view.extension.cairn');
    // Select the first chunk with a click (the list scrolled to its top first, where the row is not
    // under the sticky file row), then move the keyboard focus one row down.
    await vscode.commands.executeCommand('cairn.results.focus');
    await press('Home');
    await click({ text: hitTitle(first), exact: true });
    await vscode.commands.executeCommand('cairn.results.focus');
    await press('ArrowDown');
    const focused = await getText('.part.sidebar .pane-body .monaco-list-row.focused');
    assert.ok(focused.startsWith(hitTitle(second)), `the focus is on "${focused}", expected ${hitTitle(second)}`);
    await vscode.env.clipboard.writeText('');
    await press('Control+C');
    const copied = await poll('a reference on the clipboard', async () => (await vscode.env.clipboard.readText()) || undefined, 5000);
    assert.equal(copied, spanReference(second));
    // On a file row: its path.
    await press('Home');
    await vscode.env.clipboard.writeText('');
    await press('Control+C');
    assert.equal(await poll('the path on the clipboard', async () => (await vscode.env.clipboard.readText()) || undefined, 5000), first.path);
  });

  it('the editor\'s context menu offers Copy Span Reference in its Cairn submenu, without advertising the Results view\'s Ctrl+C', async function () {
    if (!uiAvailable()) this.skip();
    const doc = await vscode.workspace.openTextDocument(fixturePath('src/greeter.ts'));
    await vscode.window.showTextDocument(doc);
    await click({ selector: '.part.editor .monaco-editor .view-lines', button: 'right' });
    // Cairn's items say whose they are: they sit in a "Cairn" submenu, not among VS Code's own.
    await click({ selector: '.monaco-menu .action-item:has-text("Cairn")' });
    const item = await getText({ selector: '.monaco-menu .action-item:has-text("Copy Span Reference")' });
    await screenshot('editor-context-menu', { clip: '.monaco-menu' });
    await press('Escape');
    assert.match(item, /Copy Span Reference/);
    assert.doesNotMatch(item, /Ctrl\+C|⌘C/, `the menu item reads "${item}"`);
  });

  it('Ctrl+Enter (and the last item) of Cairn: Search moves the results into the Results view', async function () {
    if (!uiAvailable() || process.platform === 'darwin') this.skip();
    this.timeout(60000);
    const a = await api();
    await closeEditors();
    const query = 'greeting for name';
    const settings = a.services.settings();
    // As the pick asks: the last word typed is also a prefix.
    const expected = (await a.services.engine.search(query, { scope: settings.search.scope, limit: settings.resultLimit, prefixLast: true })).results;
    void vscode.commands.executeCommand('cairn.search');
    await waitForQuickInput();
    await typeText(query);
    await waitForText(`${expected[0]!.path}:${hitLine(expected[0]!)}`);
    // The last item says it, and the key (the list is virtual: the last item shows once reached).
    await press('Control+End');
    await waitForText(`Show all ${expected.length} results in the Results view`);
    await waitForText('Ctrl+Enter');
    await screenshot('search-quickpick-show-all', { clip: '.quick-input-widget' });
    // Back on the top hit: Ctrl+Enter moves the results, it does not open the hit.
    await press('Control+Home');
    await press('Control+Enter');
    await poll('the search in the Results view', () => a.lastSearch.current?.query === query, 5000);
    await poll('the quick pick to close', async () => !(await ui({ waitForSelector: '.quick-input-widget', timeoutMs: 1 })).ok, 5000, 300);
    await waitForText(`for "${query}"`);
    assert.equal(vscode.window.activeTextEditor, undefined, 'Ctrl+Enter opened a result');
  });
});

/** Chunk rows in the order the Results view lists them: files in view order, chunks in line order. */
function groupedRows(result: Result): Array<FolderHit<SearchHit>> {
  const files = new Map<string, Array<FolderHit<SearchHit>>>();
  for (const h of result.results) files.set(h.path, [...(files.get(h.path) ?? []), h]);
  return [...files.values()].flatMap((hits) => hits.sort((x, y) => x.startLine - y.startLine));
}

describe('Cairn: result rows and numbers', () => {
  before(async function () {
    this.timeout(90000);
    await ready(await api());
  });
  afterEach(async function () {
    await screenshotOnFailure.call(this);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('file rows count their matches; a Markdown heading reads as text; a chunk without a name is called after its class', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    const a = await api();
    // A class whose defaults fill a chunk of their own, between two methods.
    const file = fixturePath('app/settings.py');
    const options = Array.from({ length: 40 }, (_, i) => `        "OPTION_NUMBER_${i}": "value for the option number ${i} with a long explanation",`);
    fs.writeFileSync(file, ['class Settings:', '    """Application settings."""', '', '    def load(self, path: str) -> None:', '        self.path = path', '', '    default_options = {', ...options, '    }', '', '    def save(self) -> None:', '        pass', ''].join('\n'));
    try {
      const unnamed = await poll('the settings chunk to be indexed', async () => (await a.services.engine.search('OPTION_NUMBER_7 explanation', { scope: 'all' })).results.find((h) => h.path === 'app/settings.py' && !h.symbol), 15000);
      assert.equal(unnamed.context, 'Settings');
      // A heading's section: its file row counts the file's matches; its matched line is the heading without ###.
      const result = await searchIntoView('why is the greeting empty');
      await vscode.commands.executeCommand('workbench.view.extension.cairn');
      const guide = result.results.filter((h) => h.path === 'docs/guide.md');
      assert.ok(guide.length > 0, 'docs/guide.md is not among the results');
      await waitForText(`docs · ${guide.length}`);
      const faq = guide.find((h) => h.symbol === 'Why is the greeting empty?')!;
      assert.ok(faq, 'no hit for the FAQ heading');
      await waitForText(`${hitLine(faq)}: Why is the greeting empty?`);
      const sidebar = await getText('.part.sidebar');
      assert.ok(!sidebar.includes('###'), `a heading shows its marks:\n${sidebar}`);
      await screenshot('sidebar-result-rows', { clip: '.part.sidebar' });
      // The unnamed chunk is called after its class, never by its lines.
      const settings = await searchIntoView('OPTION_NUMBER_7 explanation');
      const rows = settings.results.filter((h) => h.path === 'app/settings.py' && !h.symbol);
      assert.ok(rows.length > 0 && rows.every((h) => hitTitle(h) === 'Settings'), JSON.stringify(rows.map((h) => hitTitle(h))));
      await waitForText(`settings.py`);
      await waitForText(`app · ${settings.results.filter((h) => h.path === 'app/settings.py').length}`);
      const listed = await getText('.part.sidebar');
      assert.ok(!/lines \d+–\d+/.test(listed), `a row is named by its lines:\n${listed}`);
      assert.ok(listed.includes('Settings'), `no row is called Settings:\n${listed}`);
      await screenshot('sidebar-result-rows-unnamed', { clip: '.part.sidebar' });
    } finally {
      fs.rmSync(file, { force: true });
      await poll('the settings file to be gone', async () => !(await a.services.engine.search('OPTION_NUMBER_7', { scope: 'all' })).results.some((h) => h.path === 'app/settings.py'), 15000);
    }
  });

  it('a long heading path is shortened in the quick pick, keeping the nearest headings and the path', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    const a = await api();
    const file = fixturePath('docs/deep.md');
    fs.writeFileSync(file, '# Operating the Cairn Index in Large Monorepositories\n\n## Configuring the Watchers for Network Drives\n\n### Polling intervals\n\nThe watcher polls every zanzibarish second.\n');
    try {
      const hit = await poll('the deep heading to be indexed', async () => (await a.services.engine.search('zanzibarish', { scope: 'all' })).results.find((h) => h.path === 'docs/deep.md'), 15000);
      assert.ok(hit.context.length > 48, hit.context);
      const title = hitTitle(hit);
      assert.ok(title.startsWith('… > ') && title.endsWith('Polling intervals') && title.length <= 48, title);
      void vscode.commands.executeCommand('cairn.search');
      await waitForQuickInput();
      await typeText('zanzibarish scope:all');
      await waitForText(`docs/deep.md:${hitLine(hit)}`);
      const row = await getText('.quick-input-widget .monaco-list-row.focused');
      assert.ok(row.includes(title) && row.includes('docs/deep.md:'), row);
      await screenshot('search-quickpick-short-title', { clip: '.quick-input-widget' });
      await press('Escape');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('the Index view names languages, counts with separators, and says what the last refresh did in words', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    const a = await api();
    // Something for the last refresh to have done.
    const file = fixturePath('src/counted.ts');
    fs.writeFileSync(file, 'export const counted = 1;\n');
    try {
      await poll('the new file to be indexed', () => a.services.engine.states()[0]?.status?.lastRefresh?.added === 1, 15000);
      await a.client.whenIdle();
      await vscode.commands.executeCommand('workbench.view.extension.cairn');
      await vscode.commands.executeCommand('cairn.index.focus');
      await waitForText('1 added, 0 changed, 0 removed');
      await click({ text: 'Languages', exact: true });
      for (const name of ['TypeScript', 'Python', 'Markdown']) await waitForText(name);
      const sidebar = await getText('.part.sidebar');
      assert.ok(!/\+\d+ ~\d+ −\d+/.test(sidebar), `the refresh line is in symbols:\n${sidebar}`);
      assert.ok(!/^typescript$/m.test(sidebar), `a language by its id:\n${sidebar}`);
      await screenshot('sidebar-index-languages', { clip: '.part.sidebar' });
      await click({ text: 'Languages', exact: true });
    } finally {
      fs.rmSync(file, { force: true });
      await poll('the file to be gone', () => a.services.engine.states()[0]?.status?.lastRefresh?.removed === 1, 15000);
    }
  });
});
