// The context-pack webview in a real VS Code: it opens focused on an empty state, renders the
// engine's real pack for a task, opens items, copies and inserts the pack as Markdown, keeps its
// state when hidden, names basket spans in the task, shows registry guidance as advisory, and
// has an intentional error state. Runs in order: later steps use the pack the first one built.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderPackMarkdown } from '../../../src/core/pack/markdown';
import type { ContextPack } from '../../../src/core/pack/types';
import type { CairnApi } from '../../../src/vscode/extension';
import { cairnApi, indexWithRegistryEntry, poll, REGISTRY_ENTRY_ID, removeFromWorkspace, workspaceFolder } from './packHelpers';
import { click, getText, press, screenshot, typeText, ui, uiAvailable, waitForText } from './ui';

const TASK = 'make the greeting punctuation configurable in Greeter.greet';
const BUDGET = 6000;
const W = { frame: 'webview' as const };

function packTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('cairn.contextPack'));
}

async function showPack(arg?: unknown): Promise<void> {
  await vscode.commands.executeCommand('cairn.openContextPack', arg);
  await poll('the context pack panel to be active', () => packTab()?.isActive);
}

describe('Context pack webview', function () {
  this.timeout(120000);
  let api: CairnApi;
  let folder: vscode.WorkspaceFolder;
  let expected: ContextPack & { folder: string };

  before(async function () {
    if (!uiAvailable()) this.skip();
    api = await cairnApi();
    folder = workspaceFolder();
    // The registry entry is indexed too (it is Markdown in the folder), so every pack below sees the same index.
    await indexWithRegistryEntry(api, folder);
    api.services.basket.clear();
    expected = await api.services.engine.buildPack(TASK, { budgetTokens: BUDGET, folder });
    assert.ok(expected.mustInspect.length > 0, `the fixture has nothing to inspect for "${TASK}"`);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && uiAvailable()) await ui({ screenshot: `pack-failed-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 40)}` });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    api?.services.basket.clear();
    if (api && folder) await removeFromWorkspace(api, folder, ['.agent-context', 'notes.md']);
  });

  it('opens focused on the task input with an empty state', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await showPack();
    await waitForText('What are you working on?', W);
    await screenshot('pack-empty', { clip: 'iframe.webview' });
    // The task input has focus: typing and Enter build the pack without clicking anything.
    await typeText(TASK);
    await press('Enter');
    await waitForText(expected.mustInspect[0]!.docid, W);
  });

  it('renders the real pack: must inspect, related, left out, budget meter', async () => {
    const must = await getText({ selector: '#must-inspect', frame: 'webview' });
    for (const item of expected.mustInspect) assert.ok(must.includes(item.docid), `${item.docid} missing from Must inspect:\n${must}`);
    assert.ok(must.includes(expected.mustInspect[0]!.reason.replace(/`/g, '')), 'the first item has no reason');
    const meter = await getText({ selector: '#meter', frame: 'webview' });
    assert.ok(meter.includes(`${expected.usedTokens.toLocaleString('en-US')} / ${BUDGET.toLocaleString('en-US')} tokens`), `budget meter: ${meter}`);
    if (expected.relatedFiles.length) assert.ok((await getText({ selector: '#related', frame: 'webview' })).includes(expected.relatedFiles[0]!.docid ?? expected.relatedFiles[0]!.path));
    if (expected.rejectedFiles.length) await getText({ selector: '#left-out', frame: 'webview' });
    // Score breakdown: expandable, and its parts add up to the score shown.
    const first = expected.mustInspect[0]!;
    await click({ selector: `details[data-key="why:${first.docid}"] > summary`, frame: 'webview' });
    const why = await getText({ selector: `details[open][data-key="why:${first.docid}"]`, frame: 'webview' });
    assert.ok(why.includes('total'), why);
    // Each card's text agrees with its place in the list: no search rank on it.
    assert.doesNotMatch(must, /\brank \d+/);
    // Code: coloured tokens, numbered with the file's own lines.
    await click({ selector: `details[data-key="code:${first.docid}"] > summary`, frame: 'webview' });
    const code = `details[open][data-key="code:${first.docid}"] pre.code-block`;
    await getText({ selector: `${code} .line[data-line="${first.startLine}"]`, frame: 'webview' });
    await getText({ selector: `${code} .line[data-line="${first.endLine}"]`, frame: 'webview' });
    assert.match(await getText({ selector: `${code} .tok-keyword`, frame: 'webview' }), /^(this|const|let|return|function|class|export|new)$/);
    await screenshot('pack-result', { clip: 'iframe.webview' });
    await ui({ screenshot: 'pack-window' });
  });

  it('changes the budget and rebuilds within it', async () => {
    await click({ selector: '#budget', frame: 'webview', clickCount: 3 });
    await typeText('1000');
    await press('Tab');
    await waitForText('/ 1,000 tokens', W);
    const smaller = await api.services.engine.buildPack(TASK, { budgetTokens: 1000, folder });
    const meter = await getText({ selector: '#meter', frame: 'webview' });
    assert.ok(meter.includes(`${smaller.usedTokens.toLocaleString('en-US')} / 1,000 tokens`), meter);
    assert.ok(smaller.usedTokens <= 1000);
    // Back to the default for the next steps.
    await click({ selector: '#budget', frame: 'webview', clickCount: 3 });
    await typeText(String(BUDGET));
    await press('Tab');
    await waitForText(`/ ${BUDGET.toLocaleString('en-US')} tokens`, W);
  });

  it('opens an item in an editor at its span', async () => {
    const item = expected.mustInspect[0]!;
    await click({ selector: `button[data-open="${item.docid}"]`, frame: 'webview' });
    const editor = await poll('the span to open', () => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath.endsWith(path.join(...item.path.split('/'))) && e.selection.start.line === item.startLine - 1 ? e : undefined;
    });
    // One caret on the span's first line, nothing selected (a typed key must not replace the span).
    assert.ok(editor.selections.length === 1 && editor.selection.isEmpty, 'the span opened selected');
    // Opened beside the pack, not over it.
    assert.ok(packTab(), 'the pack panel was closed');
  });

  it('copies the pack as Markdown', async () => {
    await showPack();
    await vscode.env.clipboard.writeText('');
    await click({ selector: '[data-action="copy"]', frame: 'webview' });
    const text = await poll('the clipboard to hold the pack', async () => (await vscode.env.clipboard.readText()) || undefined);
    assert.equal(text, renderPackMarkdown(expected));
    assert.ok(text.startsWith('# Context pack'));
    await waitForText('Copied the pack as Markdown', W);
  });

  it('puts the pack into a new Markdown document', async () => {
    await click({ selector: '[data-action="new-document"]', frame: 'webview' });
    const doc = await poll('an untitled Markdown document with the pack', () =>
      vscode.workspace.textDocuments.find((d) => d.isUntitled && d.languageId === 'markdown' && d.getText().includes('# Context pack')),
    );
    assert.ok(doc.getText().includes(expected.mustInspect[0]!.docid));
    assert.equal(doc.getText(), renderPackMarkdown(expected));
    // Close it unsaved, so no save prompt waits for the suites after this one.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('inserts the pack at the cursor of the last active editor', async () => {
    const notes = vscode.Uri.joinPath(folder.uri, 'notes.md');
    fs.writeFileSync(notes.fsPath, '# Notes\n\nbefore\nafter\n');
    const doc = await vscode.workspace.openTextDocument(notes);
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    editor.selection = new vscode.Selection(3, 0, 3, 0); // start of "after"
    await showPack();
    await answeringInsert(false, async (asked) => {
      await click({ selector: '[data-action="insert-cursor"]', frame: 'webview' });
      await poll('the pack in notes.md', () => doc.getText().includes('# Context pack'));
      assert.deepEqual(asked, [], 'Markdown takes the pack without a question');
    });
    const text = doc.getText();
    assert.ok(text.startsWith(`# Notes\n\nbefore\n${renderPackMarkdown(expected)}after\n`), text.slice(0, 300));
    await doc.save();
  });

  /** Answers "Insert into …?" in place of the modal dialog (VS Code refuses modal dialogs under test), recording each question. */
  async function answeringInsert<T>(answer: boolean, run: (asked: string[]) => Promise<T>): Promise<T> {
    const dialogs = api.insertDialogs;
    const real = dialogs.confirmInsert;
    const asked: string[] = [];
    dialogs.confirmInsert = async (fileName) => (asked.push(fileName), answer);
    try {
      return await run(asked);
    } finally {
      dialogs.confirmInsert = real;
    }
  }

  it('inserts into code only when asked, at the caret, never over a selection, and Undo restores the file byte for byte', async () => {
    const file = vscode.Uri.joinPath(folder.uri, 'src', 'greeter.ts');
    const original = fs.readFileSync(file.fsPath);
    const doc = await vscode.workspace.openTextDocument(file);
    const before = doc.getText();
    assert.ok(doc.lineCount > 12, 'greeter.ts is too short for a multi-line selection');
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    // A whole block selected, caret (active end) at the start of line 11.
    editor.selection = new vscode.Selection(2, 0, 10, 0);
    const selected = doc.getText(editor.selection);
    await vscode.commands.executeCommand('notifications.clearAll');
    await showPack();
    await answeringInsert(true, async (asked) => {
      await click({ selector: '[data-action="insert-cursor"]', frame: 'webview' });
      await poll('the pack in greeter.ts', () => doc.getText().includes('# Context pack'));
      assert.deepEqual(asked, ['greeter.ts'], 'it asks before writing into a TypeScript file');
    });
    const caret = doc.offsetAt(new vscode.Position(10, 0));
    assert.equal(doc.getText(), before.slice(0, caret) + renderPackMarkdown(expected) + before.slice(caret), 'the pack is inserted at the caret, nothing else changes');
    assert.ok(doc.getText().includes(selected), 'the selected code is still there');
    // The notification offers Undo; it removes exactly the insert.
    await vscode.commands.executeCommand('notifications.showList');
    await waitForText('Inserted the pack into greeter.ts at line 11.', { frame: 'main' });
    await screenshot('pack-insert-undo');
    await click({ selector: '.notifications-list-container .monaco-button:text-is("Undo")', frame: 'main' });
    await poll('the insert to be undone', () => doc.getText() === before);
    await doc.save();
    assert.ok(fs.readFileSync(file.fsPath).equals(original), 'greeter.ts on disk differs from the original');
    await vscode.commands.executeCommand('notifications.hideList');
  });

  it('inserts nothing into code when the question is answered no', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'src', 'greeter.ts'));
    const before = doc.getText();
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    editor.selection = new vscode.Selection(4, 0, 4, 0);
    await showPack();
    await answeringInsert(false, async (asked) => {
      await click({ selector: '[data-action="insert-cursor"]', frame: 'webview' });
      await waitForText('Nothing was inserted into greeter.ts.', W);
      assert.deepEqual(asked, ['greeter.ts']);
    });
    assert.equal(doc.getText(), before);
    assert.equal(doc.isDirty, false);
  });

  it('asks with a modal "Insert into greeter.ts?" (which the test host refuses to show), and inserts nothing without an answer', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'src', 'greeter.ts'));
    const before = doc.getText();
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    await showPack();
    await click({ selector: '[data-action="insert-cursor"]', frame: 'webview' });
    // VS Code's dialog service in a test run refuses every modal dialog and says what it would have asked.
    await waitForText('Contents: Insert into greeter.ts?', W);
    assert.equal(doc.getText(), before);
  });

  it('keeps its state when hidden and shown again', async () => {
    await showPack();
    const first = expected.mustInspect[0]!;
    await getText({ selector: `details[open][data-key="why:${first.docid}"]`, frame: 'webview' });
    // Hide it: another editor takes over its group, which destroys the webview (no retainContextWhenHidden).
    const column = packTab()!.group.viewColumn;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'README.md')), { viewColumn: column, preview: false });
    await poll('the pack tab to be hidden', () => packTab() && !packTab()!.isActive);
    await showPack();
    await waitForText(first.docid, W);
    // The pack, the open breakdown and the task came back from the webview state.
    await getText({ selector: `details[open][data-key="why:${first.docid}"]`, frame: 'webview' });
    const must = await getText({ selector: '#must-inspect', frame: 'webview' });
    for (const item of expected.mustInspect) assert.ok(must.includes(item.docid));
  });

  it('names basket spans in the task so they are must-inspect', async () => {
    const dot = (await api.services.engine.findSymbol('distance', { folder })).results.find((h) => h.match === 'exact');
    assert.ok(dot, 'distance() not found in the fixture');
    api.services.basket.add({ folder: folder.name, docid: dot.docid, path: dot.path, startLine: dot.startLine, endLine: dot.endLine, symbol: dot.symbol, kind: dot.kind });
    await waitForText('Your spans', W);
    await click({ selector: '#build', frame: 'webview' });
    await waitForText(`the task names ${dot.docid}`, W);
    const must = await getText({ selector: '#must-inspect', frame: 'webview' });
    assert.ok(must.includes(dot.docid), must);
    await screenshot('pack-basket', { clip: 'iframe.webview' });
    // Removing it from the webview empties the basket.
    await click({ selector: `button[aria-label="Remove ${dot.docid} from the pack"]`, frame: 'webview' });
    await poll('the basket to be empty', () => api.services.basket.items.length === 0);
  });

  it('shows registry guidance as advisory, with untrusted commands', async () => {
    await waitForText('Guidance from the context registry', W);
    const entrySelector = `details[data-guidance="${REGISTRY_ENTRY_ID}"]`;
    await click({ selector: `${entrySelector} > summary`, frame: 'webview' });
    // (The same text is also in the pack's collapsed code blocks: look inside the entry only.)
    const commands = await getText({ selector: `${entrySelector} .commands`, frame: 'webview' });
    assert.ok(commands.includes('npm run greet -- --punctuation "?"'), commands);
    const entry = await getText({ selector: entrySelector, frame: 'webview' });
    assert.ok(entry.includes('UNTRUSTED'), entry);
    assert.ok(entry.includes('community'), entry);
    assert.ok(/advisory/i.test(entry), entry);
    assert.ok(!entry.includes('createGreeter('), 'entry mode returned the companion file');
    // No control runs a command: nothing clickable inside the commands list.
    const { ok } = await ui({ waitForSelector: '.commands button', frame: 'webview', timeoutMs: 1000 });
    assert.equal(ok, false, 'a suggested command has a button');
    await click({ text: 'Show all files', frame: 'webview' });
    await poll('the companion file in the entry', async () => (await getText({ selector: entrySelector, frame: 'webview' })).includes("createGreeter('Hi')"));
    await screenshot('pack-guidance', { clip: 'iframe.webview' });
  });

  it('follows the colour theme (dark)', async () => {
    const config = vscode.workspace.getConfiguration('workbench');
    const before = config.inspect<string>('colorTheme')?.globalValue;
    await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    try {
      await showPack();
      await waitForText(expected.mustInspect[0]!.docid, W);
      // Back to the top, where the first card's code is open (from the step that rendered the pack).
      await click({ selector: '#meter', frame: 'webview' });
      await press('Home');
      await screenshot('pack-dark', { clip: 'iframe.webview' });
    } finally {
      await config.update('colorTheme', before, vscode.ConfigurationTarget.Global);
    }
  });

  it('shows an intentional error state', async () => {
    await showPack({ task: 'anything', folder: 'no-such-folder' });
    await waitForText('There is no workspace folder named no-such-folder', W);
    await screenshot('pack-error', { clip: 'iframe.webview' });
    // Copy/insert are off while there is no pack to copy.
    const { ok } = await ui({ waitForSelector: '[data-action="copy"]:not([disabled])', frame: 'webview', timeoutMs: 1000 });
    assert.equal(ok, false, 'copy stays enabled without a pack');
  });
});
