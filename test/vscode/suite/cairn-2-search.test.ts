// Searching: the Cairn: Search quick pick driven through the real UI, the Results view (items,
// click-to-open, persistence, screenshots), inline filters, and Go to Symbol.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { hitLine, hitTitle, labelHighlights, spanReference } from '../../../src/vscode/format';
import { hitTooltip, SCORE_TABLE_HEADER } from '../../../src/vscode/views/hitTooltip';
import { symbolTitle } from '../../../src/vscode/views/symbolPicker';
import { caretOf } from '../../../src/vscode/hitLine';
import { parseSearchInput } from '../../../src/vscode/searchQuery';
import { activeSpan, api, closeEditors, poll, ready, sleep, waitForQuickInput } from './cairnHelpers';
import { click, getText, press, screenshot, typeText, uiAvailable, uiOk, waitForText } from './ui';

describe('Cairn: search', () => {
  before(async function () {
    this.timeout(90000);
    await ready(await api());
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('parses inline filters out of the query', () => {
    const p = parseSearchInput('greeting lang:ts kind:function,method path:src/** scope:docs +name');
    assert.equal(p.text, 'greeting +name');
    assert.deepEqual(p.filters, { languages: ['ts'], kinds: ['function', 'method'], paths: ['src/**'], scope: 'docs' });
    assert.equal(parseSearchInput('scope:everything').text, 'scope:everything', 'an unknown scope stays a query term');
  });

  it('answers with folder-labelled hits, and the filters narrow them', async () => {
    const a = await api();
    const all = await a.services.engine.search('vector length', { scope: 'all' });
    assert.ok(all.results.length > 0, 'no results for "vector length"');
    assert.equal(all.results[0]!.path, 'src/math/vector.ts');
    assert.equal(all.results[0]!.folder, vscode.workspace.workspaceFolders![0]!.name);
    const py = await a.services.engine.search('distance', { languages: ['py'] });
    assert.ok(py.results.length > 0 && py.results.every((h) => h.language === 'python'), `lang:py gave ${py.results.map((h) => h.path).join(', ')}`);
    const docs = await a.services.engine.search('vectors', { scope: 'docs' });
    assert.ok(docs.results.length > 0 && docs.results.every((h) => h.path.endsWith('.md')), `scope:docs gave ${docs.results.map((h) => h.path).join(', ')}`);
  });

  it('Cairn: Search — type a query, accept, and the hit opens with the caret on its matched line', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    const a = await api();
    await closeEditors();
    const query = 'greeting for name';
    const expected = (await a.services.engine.search(query, { scope: a.services.settings().search.scope })).results[0];
    assert.ok(expected, `no results for "${query}"`);
    assert.equal(expected.path, 'src/greeter.ts');
    void vscode.commands.executeCommand('cairn.search');
    await waitForQuickInput();
    await typeText(query);
    // The first row shows the top hit's path:line (its matched line) once the debounced search answered.
    await waitForText(`${expected.path}:${hitLine(expected)}`);
    await waitForText('result');
    await screenshot('search-quickpick', { clip: '.quick-input-widget' });
    await press('Enter');
    const opened = await poll('the top hit to open', () => {
      const s = activeSpan();
      return s && s.path === expected.path ? s : undefined;
    });
    // The caret on the matched line, nothing selected (as VS Code's Search opens a match).
    const caret = caretOf(expected)?.line ?? expected.startLine;
    assert.ok(caret >= expected.startLine && caret <= expected.endLine, `caret line ${caret} outside ${spanReference(expected)}`);
    assert.deepEqual(opened, { path: expected.path, startLine: caret, endLine: caret });
    assert.ok(vscode.window.activeTextEditor?.selection.isEmpty, 'the span is not selected');
    await screenshot('editor-span', { clip: '.part.editor' });
    // Accepting also fills the Results view with that search.
    assert.equal(a.lastSearch.current?.query, query);
  });

  it('Cairn: Search — Enter pressed before the answer opens the answer to what is typed, never an earlier query\'s item', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    await closeEditors();
    void vscode.commands.executeCommand('cairn.search');
    await waitForQuickInput();
    // Before any answer: typed and Enter in one step, well inside the debounce.
    await uiOk({ type: 'vector length', press: 'Enter' });
    await poll('vector.ts to open', () => activeSpan()?.path === 'src/math/vector.ts' || undefined);
    await closeEditors();
    // With an earlier query's items on screen: a new query, then Enter at once.
    void vscode.commands.executeCommand('cairn.search');
    await waitForQuickInput();
    await typeText('createGreeter');
    await waitForText('src/greeter.ts:');
    await press('Control+A');
    await uiOk({ type: 'vector length', press: 'Enter' });
    const opened = await poll('a file to open', () => activeSpan());
    assert.equal(opened.path, 'src/math/vector.ts', 'the answer to "vector length" opened, not the greeter hit that was on screen');
  });

  it('Cairn: Search as you type — the last word is a prefix (`createGre` finds createGreeter), exact words first', async function () {
    const a = await api();
    const partial = await a.services.engine.search('createGre', { prefixLast: true });
    assert.equal(partial.results[0]?.symbol, 'createGreeter');
    // One word typed in lower case has no camel-case parts to match on: only the prefix finds it.
    assert.ok(!(await a.services.engine.search('creategre')).results.some((h) => h.symbol === 'createGreeter'), 'without the option a partial word is not a prefix');
    assert.equal((await a.services.engine.search('creategre', { prefixLast: true })).results[0]?.symbol, 'createGreeter');
    if (!uiAvailable()) return;
    await closeEditors();
    void vscode.commands.executeCommand('cairn.search');
    await waitForQuickInput();
    await typeText('createGre');
    await waitForText('src/greeter.ts:');
  });

  it('Go to Symbol: a name still being typed lists the names it starts, without saying "no symbol"', async function () {
    const a = await api();
    const r = await a.services.engine.findSymbol('createGre', { limit: 20 });
    assert.equal(r.exact, false);
    const title = symbolTitle(r, 'createGre');
    assert.match(title, /starting with or abbreviated as "createGre"/);
    assert.doesNotMatch(title, /no symbol/);
    assert.match(symbolTitle(await a.services.engine.findSymbol('Gretr', { limit: 20 }), 'Gretr'), /no symbol named "Gretr"/);
    if (!uiAvailable()) return;
    void vscode.commands.executeCommand('cairn.goToSymbol');
    await waitForQuickInput();
    await typeText('createGre');
    await waitForText('starting with or abbreviated as "createGre"');
  });

  it('Cairn: Search — the copy button on a result copies its `path:start-end`', async function () {
    if (!uiAvailable()) this.skip();
    const a = await api();
    const top = (await a.services.engine.search('vector length', { scope: a.services.settings().search.scope })).results[0]!;
    await vscode.env.clipboard.writeText('');
    void vscode.commands.executeCommand('cairn.search', 'vector length');
    await waitForQuickInput();
    await waitForText(`${top.path}:${hitLine(top)}`);
    await click({ selector: '.quick-input-widget .monaco-list-row.focused .codicon-copy' });
    await poll('the reference on the clipboard', async () => (await vscode.env.clipboard.readText()) === spanReference(top) || undefined, 5000);
    await press('Escape');
  });

  it('Cairn: Search — inline filters typed into the box apply', async function () {
    if (!uiAvailable()) this.skip();
    void vscode.commands.executeCommand('cairn.search');
    await waitForQuickInput();
    await typeText('distance lang:py');
    await waitForText('app/models.py:');
    const title = await getText('.quick-input-widget .quick-input-title');
    assert.match(title, /result/);
    const list = await getText('.quick-input-widget .quick-input-list');
    assert.ok(!list.includes('vector.ts'), `lang:py still lists TypeScript: ${list}`);
    await press('Escape');
  });

  it('Results view: shows files with their chunks, opens a chunk at its matched line, survives as last search', async function () {
    this.timeout(60000);
    const a = await api();
    await closeEditors();
    const query = 'vector length normalize';
    const result = (await vscode.commands.executeCommand('cairn.search', { query, target: 'view' })) as Awaited<ReturnType<typeof a.services.engine.search>>;
    assert.ok(result && result.results.length > 0, 'the search filled nothing');
    assert.equal(a.lastSearch.current?.query, query);
    const saved = a.services.context.workspaceState.get<{ query: string }>('cairn.lastSearch');
    assert.equal(saved?.query, query, 'the last search is not kept in workspace state');
    if (!uiAvailable()) return;
    const top = result.results[0]!;
    await vscode.commands.executeCommand('workbench.view.extension.cairn');
    await waitForText('vector.ts');
    await waitForText(hitTitle(top));
    await waitForText(`for "${query}"`);
    // The words a row matched are highlighted in its label, as VS Code's Search view marks a match.
    assert.ok(labelHighlights(hitTitle(top), top.preview).length > 0, `nothing to highlight in ${hitTitle(top)}`);
    const highlighted = await getText('.part.sidebar .monaco-highlighted-label .highlight');
    assert.ok(query.split(' ').includes(highlighted.trim().toLowerCase()), `highlighted "${highlighted}"`);
    await sleep(300);
    await screenshot('sidebar-results', { clip: '.part.sidebar' });
    await click({ text: hitTitle(top), exact: true });
    const opened = await poll('the clicked chunk to open', () => {
      const s = activeSpan();
      return s && s.path === top.path ? s : undefined;
    });
    const caret = caretOf(top)?.line ?? top.startLine;
    assert.deepEqual(opened, { path: top.path, startLine: caret, endLine: caret });
    // Keyboard: back in the Results view, Ctrl+C copies the selected chunk's reference.
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('cairn.results.focus');
    await press('Control+C');
    await poll('the selected chunk\'s reference on the clipboard', async () => (await vscode.env.clipboard.readText()) === spanReference(top) || undefined, 5000);
  });

  it('Results view: partial matches are said to be partial, above and on each row, never called results', async () => {
    const a = await api();
    const query = 'vector zebraquux';
    const result = (await vscode.commands.executeCommand('cairn.search', { query, target: 'view' })) as Awaited<ReturnType<typeof a.services.engine.search>>;
    assert.ok(result && result.results.length > 0 && result.allTerms === false, JSON.stringify(result?.note));
    assert.match(a.results.view.message ?? '', /^No result has all of: vector, zebraquux; \d+ partial match(es)? \(\d+ shown in \d+ files?\)$/, a.results.view.message);
    const rows = (a.results.provider.getChildren() as Array<{ type: string }>).filter((n) => n.type === 'file').flatMap((f) => a.results.provider.getChildren(f as never));
    assert.ok(rows.length > 0);
    for (const row of rows) assert.match(String(a.results.provider.getTreeItem(row).description), /partial match/);
  });

  it('Results view: a chunk\'s tooltip explains its score in a table that adds up', async () => {
    const a = await api();
    const hit = a.lastSearch.current?.result.results[0];
    assert.ok(hit);
    const md = hitTooltip(hit, false).value;
    assert.ok(md.includes(SCORE_TABLE_HEADER), md);
    // Plain words: no code marks or query notation shown as they are.
    assert.ok(!/`|→/.test(md.replace(/```[\s\S]*?```/g, '')), md);
    assert.ok(md.includes(`**${hit.score.toFixed(3)}**`), md);
    const sum = hit.scoreBreakdown.reduce((n, c) => n + c.value, 0);
    assert.ok(Math.abs(sum - hit.score) < 1e-3 * Math.max(1, hit.score), `breakdown ${sum} != score ${hit.score}`);
    assert.equal(md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith(SCORE_TABLE_HEADER) && !l.startsWith('| **')).length, hit.scoreBreakdown.length);
  });

  it('Results view: copies `path:start-end` from the context menu command', async () => {
    const a = await api();
    const hit = a.lastSearch.current?.result.results[0];
    assert.ok(hit, 'no results to copy from');
    await vscode.env.clipboard.writeText('');
    const copied = await vscode.commands.executeCommand('cairn.copySpanReference', { type: 'hit', hit });
    assert.equal(copied, spanReference(hit));
    assert.equal(await vscode.env.clipboard.readText(), `${hit.path}:${hit.startLine}-${hit.endLine}`);
  });

  it('Add to Context Pack puts the span in the basket once', async () => {
    const a = await api();
    const hit = a.lastSearch.current?.result.results[0];
    assert.ok(hit);
    a.services.basket.remove(hit.docid);
    await vscode.commands.executeCommand('cairn.addToContextPack', { type: 'hit', hit });
    await vscode.commands.executeCommand('cairn.addToContextPack', hit);
    const items = a.services.basket.items.filter((i) => i.docid === hit.docid);
    assert.equal(items.length, 1);
    assert.deepEqual({ path: items[0]!.path, startLine: items[0]!.startLine, endLine: items[0]!.endLine }, { path: hit.path, startLine: hit.startLine, endLine: hit.endLine });
    a.services.basket.remove(hit.docid);
  });

  it('the editor\'s Cairn submenu: its commands run on the editor, given the file as the menu passes it', async function () {
    this.timeout(60000);
    const a = await api();
    const contributes = vscode.extensions.getExtension('cairn-dev.cairn')?.packageJSON.contributes as { menus: Record<string, Array<{ command?: string; submenu?: string }>>; submenus: Array<{ id: string; label: string }> };
    assert.deepEqual(contributes.menus['editor/context']?.map((i) => i.submenu), ['cairn.editorContext']);
    assert.equal(contributes.submenus.find((s) => s.id === 'cairn.editorContext')?.label, 'Cairn');
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src/greeter.ts');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const classLine = editor.document.getText().split('\n').findIndex((l) => l.startsWith('export class Greeter'));
    editor.selection = new vscode.Selection(classLine, 14, classLine + 1, 5);
    const ref = `src/greeter.ts:${classLine + 1}-${classLine + 2}`;
    await vscode.env.clipboard.writeText('');
    assert.equal(await vscode.commands.executeCommand('cairn.copySpanReference', uri), ref);
    assert.equal(await vscode.env.clipboard.readText(), ref);
    a.services.basket.remove(ref);
    await vscode.commands.executeCommand('cairn.addToContextPack', uri);
    assert.ok(a.services.basket.items.some((i) => i.docid === ref), `${ref} not in the basket`);
    a.services.basket.remove(ref);
    editor.selection = new vscode.Selection(classLine, 14, classLine, 14);
    const answer = (await vscode.commands.executeCommand('cairn.findReferences', uri)) as { name: string } | undefined;
    assert.equal(answer?.name, 'Greeter');
    await closeEditors();
  });

  it('Ctrl+Enter: the Results view lists files in the order the search pick showed them', async function () {
    this.timeout(60000);
    const a = await api();
    const before = a.lastSearch.current;
    // "name": models.py holds the best chunk, greeter.ts ranks first as a file; the view once
    // took the files' ranking, so the pick's first file became the view's second.
    const query = 'name';
    const settings = a.services.settings();
    const options = { scope: settings.search.scope, limit: settings.resultLimit, prefixLast: true };
    const picked = (await a.services.engine.search(query, options)).results;
    const pickFiles = [...new Set(picked.map((h) => h.path))];
    const rankedAsFiles = (await a.services.engine.searchFiles(query, options)).files.map((f) => f.path);
    assert.notEqual(rankedAsFiles[0], pickFiles[0], `the fixture no longer tells the two orders apart: ${pickFiles.join(', ')}`);
    void vscode.commands.executeCommand('cairn.search', query);
    await poll('the pick to show results', async () => (await vscode.commands.executeCommand<boolean>('cairn.showSearchInResults')) || undefined);
    assert.deepEqual(a.lastSearch.current?.result.results.map((h) => h.path), picked.map((h) => h.path), 'the view got the pick\'s answer');
    // Anything that would reorder the view arrives after the move: give it time to.
    await sleep(1500);
    const viewFiles = a.results.provider.getChildren().flatMap((n) => (n.type === 'file' ? [n.path] : []));
    assert.deepEqual(viewFiles, pickFiles);
    if (before) a.lastSearch.set(before.query, before.result);
  });

  it('Index view: folders with counts, freshness, languages and skipped files', async function () {
    if (!uiAvailable()) this.skip();
    const a = await api();
    const status = a.services.engine.states()[0]!.status!;
    await vscode.commands.executeCommand('workbench.view.extension.cairn');
    await vscode.commands.executeCommand('cairn.index.focus');
    await waitForText(`${status.files} files · ${status.chunks} chunks`);
    await waitForText('Updated');
    await waitForText('Languages');
    await screenshot('sidebar-index', { clip: '.part.sidebar' });
  });

  it('Clear Search Results empties the view and shows the welcome content', async function () {
    const a = await api();
    const before = a.lastSearch.current;
    await vscode.commands.executeCommand('cairn.clearSearchResults');
    assert.equal(a.lastSearch.current, undefined);
    if (uiAvailable()) {
      await vscode.commands.executeCommand('cairn.results.focus');
      await waitForText('Search this workspace');
      await screenshot('sidebar-empty', { clip: '.part.sidebar' });
    }
    if (before) a.lastSearch.set(before.query, before.result);
  });

  it('default keybindings open Search (Ctrl+Alt+F) and Go to Symbol (Ctrl+Alt+S) from the editor', async function () {
    if (!uiAvailable() || process.platform === 'darwin') this.skip();
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src/greeter.ts'));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await press('Control+Alt+F');
    await waitForText('Cairn: Search');
    await press('Escape');
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await press('Control+Alt+S');
    await waitForText('Cairn: Go to Symbol');
    await press('Escape');
    await closeEditors();
  });

  it('Go to Symbol: exact names first, qualified names and initials, and a note when nothing is exact', async () => {
    const a = await api();
    const exact = await a.services.engine.findSymbol('createGreeter');
    assert.equal(exact.exact, true);
    assert.equal(exact.results[0]?.symbol, 'createGreeter');
    const qualified = await a.services.engine.findSymbol('Greeter.greet');
    assert.equal(qualified.results[0]?.qualifiedName.endsWith('greet'), true, JSON.stringify(qualified.results.slice(0, 3).map((r) => r.qualifiedName)));
    const initials = await a.services.engine.findSymbol('gA');
    assert.ok(initials.results.some((r) => r.symbol === 'greetAll'), `gA found ${initials.results.map((r) => r.symbol).join(', ')}`);
    const miss = await a.services.engine.findSymbol('Gretr');
    assert.equal(miss.exact, false);
    assert.match(miss.note ?? '', /no symbol named "Gretr"/);
  });

  it('Go to Symbol (UI): opens the definition, and says when there is no exact match', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    await closeEditors();
    void vscode.commands.executeCommand('cairn.goToSymbol');
    await waitForQuickInput();
    await typeText('Gretr');
    await waitForText('no symbol named "Gretr"');
    await screenshot('symbol-quickpick-note', { clip: '.quick-input-widget' });
    await press('Escape');
    void vscode.commands.executeCommand('cairn.goToSymbol');
    await waitForQuickInput();
    await typeText('createGreeter');
    await waitForText('src/greeter.ts:');
    await screenshot('symbol-quickpick', { clip: '.quick-input-widget' });
    await press('Enter');
    const editor = await poll('greeter.ts to open', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.path.endsWith('src/greeter.ts') ? e : undefined;
    });
    const defLine = editor.document.getText().split('\n').findIndex((l) => l.startsWith('export function createGreeter'));
    assert.ok(defLine >= 0);
    assert.equal(editor.selection.start.line, defLine, `opened at line ${editor.selection.start.line + 1}, definition at ${defLine + 1}`);
  });

  it('Go to Symbol (UI): the caret lands on the name below the doc comment, nothing selected', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    await closeEditors();
    void vscode.commands.executeCommand('cairn.goToSymbol');
    await waitForQuickInput();
    await typeText('Greeter');
    await waitForText('src/greeter.ts:');
    await press('Enter');
    const editor = await poll('greeter.ts to open', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.path.endsWith('src/greeter.ts') ? e : undefined;
    });
    const lines = editor.document.getText().split('\n');
    const classLine = lines.findIndex((l) => l.startsWith('export class Greeter'));
    assert.ok(classLine > 0 && lines[classLine - 1]!.startsWith('/**'), 'the fixture documents the class');
    assert.ok(editor.selection.isEmpty, 'nothing selected: a typed letter cannot replace the class');
    assert.deepEqual([editor.selection.active.line, editor.selection.active.character], [classLine, 'export class '.length]);
  });
});
