// Cairn's agent features in a real VS Code: the language-model tools (declared in package.json
// exactly as registered, invoked through vscode.lm.invokeTool against the extension's engine),
// the MCP server definition (its tools reach vscode.lm.tools and answer), and the @cairn chat
// participant answering through the fake language model with anchors to the engine's spans.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { languageModelToolContributions } from '../../../src/vscode/agent/lmToolContributions';
import type { CairnApi } from '../../../src/vscode/extension';
import { cairnApi, indexWithRegistryEntry, poll, REGISTRY_ENTRY_ID, removeFromWorkspace, workspaceFolder } from './packHelpers';
import { click, getText, screenshot, ui, uiAvailable, waitForText } from './ui';

async function invoke(name: string, input: Record<string, unknown>): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
}

async function invokeFails(name: string, input: Record<string, unknown>, expected: RegExp): Promise<void> {
  await assert.rejects(invoke(name, input), (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    assert.match(message, expected);
    return true;
  });
}

interface FakeLm {
  requests: Array<{ messages: vscode.LanguageModelChatMessage[] }>;
  setResponder(fn: ((messages: vscode.LanguageModelChatMessage[]) => unknown[]) | undefined): void;
}

/** How the chat view shows an anchor to a span: its file name and lines (one line: just that line). */
const pill = (s: { path: string; startLine: number; endLine: number }): string =>
  `${s.path.split('/').pop()}:${s.startLine}${s.endLine > s.startLine ? `-${s.endLine}` : ''}`;

const WELCOME_PATH = 'app/welcome.py';
const WELCOME = ['from .models import User', '', '', 'def welcome(user: User) -> str:', '    return "Welcome, " + user.display_name()', ''].join('\n');

/** The lines of the last chat answer that starts with `header`, up to its summary. */
async function chatAnswer(header: string): Promise<string[]> {
  const text = await getText('.interactive-list');
  const from = text.lastIndexOf(`\n${header}`);
  assert.ok(from >= 0, text);
  const to = text.indexOf('\nSummary', from);
  return text.slice(from, to < 0 ? undefined : to).split('\n').map((l) => l.trim()).filter(Boolean);
}

/** The active editor's caret, 1-based, once the editor shows `path`. */
async function activeCaret(path: string): Promise<[number, number]> {
  const editor = await poll(`${path} to open`, () => {
    const e = vscode.window.activeTextEditor;
    return e && vscode.workspace.asRelativePath(e.document.uri, false) === path ? e : undefined;
  });
  return [editor.selection.active.line + 1, editor.selection.active.character + 1];
}

const textOf = (m: vscode.LanguageModelChatMessage): string => m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

describe('Agent features', function () {
  this.timeout(120000);
  let api: CairnApi;
  let folder: vscode.WorkspaceFolder;

  before(async () => {
    api = await cairnApi();
    folder = workspaceFolder();
    // A caller of `User.display_name` (Python: no language server in this host).
    fs.writeFileSync(vscode.Uri.joinPath(folder.uri, ...WELCOME_PATH.split('/')).fsPath, WELCOME);
    await indexWithRegistryEntry(api, folder);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (api && folder) await removeFromWorkspace(api, folder, ['.agent-context', 'src/extra.ts', WELCOME_PATH]);
  });

  describe('language-model tools', () => {
    it('are declared in package.json exactly as registered, with the MCP descriptions and schemas', () => {
      const declared = (vscode.extensions.getExtension('cairn-dev.cairn')!.packageJSON as { contributes: { languageModelTools: unknown } }).contributes.languageModelTools;
      assert.deepEqual(declared, languageModelToolContributions());
      for (const name of ['search_code', 'find_symbol', 'find_references', 'get_context_pack', 'read_span', 'context_search', 'context_get', 'index_status', 'refresh_index']) {
        const tool = vscode.lm.tools.find((t) => t.name === `cairn_${name}`);
        assert.ok(tool, `cairn_${name} is not in vscode.lm.tools`);
        assert.ok(tool.inputSchema && tool.description.length > 50, `cairn_${name} has no schema or description`);
      }
    });

    it('search_code answers from the extension index', async () => {
      const text = await invoke('cairn_search_code', { query: 'greet punctuation salutation' });
      assert.match(text, /results for "greet punctuation salutation"/);
      assert.ok(text.includes('src/greeter.ts:'), text);
    });

    it('find_symbol finds exact definitions and says when there are none', async () => {
      const expected = (await api.services.engine.findSymbol('Greeter', { folder })).results.find((h) => h.match === 'exact');
      assert.ok(expected);
      const text = await invoke('cairn_find_symbol', { name: 'Greeter' });
      assert.match(text, /^exact match for "Greeter"/);
      assert.ok(text.includes(expected.docid), text);
      const none = await invoke('cairn_find_symbol', { name: 'Greetr' });
      assert.match(none, /^no exact match for "Greetr"/);
    });

    it('get_context_pack returns the pack as Markdown', async () => {
      const task = 'add a distance helper next to Vector.length';
      const pack = await api.services.engine.buildPack(task, { folder, budgetTokens: 3000 });
      const text = await invoke('cairn_get_context_pack', { task, budgetTokens: 3000 });
      assert.ok(text.startsWith('# Context pack'), text.slice(0, 200));
      for (const item of pack.mustInspect) assert.ok(text.includes(item.path), `${item.docid} missing`);
    });

    it('read_span reads the working tree, confined to the workspace folder', async () => {
      const dot = (await api.services.engine.findSymbol('dot', { folder })).results.find((h) => h.match === 'exact');
      assert.ok(dot);
      const text = await invoke('cairn_read_span', { span: dot.docid });
      assert.ok(text.includes(`${dot.startLine}| export function dot(a: Vector, b: Vector): number`), text);
      await invokeFails('cairn_read_span', { span: '../outside.ts:1-3' }, /outside|root/i);
      await invokeFails('cairn_read_span', { path: '/etc/passwd' }, /absolute|outside|root/i);
    });

    it('reject bad input with a message the model can act on', async () => {
      await invokeFails('cairn_search_code', { query: 5 }, /invalid arguments for search_code: query/);
      await invokeFails('cairn_find_symbol', { name: 'Greeter', bogus: true }, /invalid arguments/);
      await invokeFails('cairn_search_code', { query: 'greet', folder: 'no-such-folder' }, /no workspace folder named "no-such-folder"/);
    });

    it('context_search and context_get return advisory registry content', async () => {
      const found = await invoke('cairn_context_search', { query: 'greeting punctuation' });
      assert.ok(found.includes(REGISTRY_ENTRY_ID), found);
      const entry = await invoke('cairn_context_get', { id: REGISTRY_ENTRY_ID });
      assert.ok(entry.includes('Pass `punctuation` in `GreeterOptions`'), entry);
      assert.match(entry, /UNTRUSTED/);
      assert.match(entry, /advisory/i);
      await invokeFails('cairn_context_get', { id: 'no/such-entry' }, /no\/such-entry/);
    });

    it('index_status and refresh_index go through the extension engine', async () => {
      const status = await invoke('cairn_index_status', {});
      assert.match(status, /files/);
      fs.writeFileSync(vscode.Uri.joinPath(folder.uri, 'src', 'extra.ts').fsPath, 'export function brandNewHelperForTools(): number {\n  return 42;\n}\n');
      const refreshed = await invoke('cairn_refresh_index', { paths: ['src/extra.ts'] });
      assert.match(refreshed, /index \(src\/extra\.ts\) (refreshed|checked|built) just now/);
      const found = await invoke('cairn_find_symbol', { name: 'brandNewHelperForTools' });
      assert.match(found, /^exact match for "brandNewHelperForTools"/);
      assert.ok(found.includes('src/extra.ts:1-3'), found);
    });
  });

  describe('MCP server definition provider', () => {
    it('offers cairn mcp for the folder; its tools reach vscode.lm.tools and answer', async () => {
      // VS Code starts MCP servers on demand (a chat request); start ours now and wait for its tools.
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
      const tool = await poll(
        'the Cairn MCP server tools in vscode.lm.tools',
        () => vscode.lm.tools.find((t) => t.name.startsWith('mcp_') && t.name.endsWith('search_code') && /cairn/i.test(t.name)),
        60000,
      ).catch((e: unknown) => {
        throw new Error(`${e instanceof Error ? e.message : String(e)}; tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
      });
      const text = await invoke(tool.name, { query: 'Vector normalize' });
      assert.ok(text.includes('src/math/vector.ts:'), text);
    });
  });

  describe('@cairn chat participant', () => {
    let lm: FakeLm;

    before(async function () {
      if (!uiAvailable()) this.skip();
      const ext = vscode.extensions.getExtension<FakeLm>('cairn-test.fake-lm');
      assert.ok(ext, 'the fake language model extension is not loaded');
      lm = ext.isActive ? ext.exports : await ext.activate();
      // The extension host learns the models lazily; a chat request fails with "Language model unavailable" until then.
      const [model] = await vscode.lm.selectChatModels({ vendor: 'cairn-test', id: 'fake-echo' });
      assert.ok(model, 'the fake language model is not available');
    });

    afterEach(async function () {
      lm?.setResponder(undefined);
      if (this.currentTest?.state === 'failed' && uiAvailable()) await ui({ screenshot: `agent-failed-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 40)}` });
    });

    it('answers "where is" with anchors to the definition and a summary from the model', async () => {
      const greeter = (await api.services.engine.findSymbol('Greeter', { folder })).results.find((h) => h.match === 'exact');
      assert.ok(greeter);
      lm.setResponder(() => [new vscode.LanguageModelTextPart('FAKE-SUMMARY: Greeter lives in greeter.ts.')]);
      const before = lm.requests.length;
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@cairn where is Greeter defined?' });
      await waitForText('FAKE-SUMMARY: Greeter lives in greeter.ts.');
      await waitForText('is defined in one place');
      // Anchors render as `<file name>:<lines>` pills.
      await waitForText(pill(greeter));
      // The model was asked to phrase the engine's spans, nothing else.
      const asked = lm.requests.slice(before).map((r) => r.messages.map(textOf).join('\n')).join('\n');
      assert.ok(asked.includes(greeter.docid), asked);
      await screenshot('agent-chat-where');
    });

    it('answers /refs NAME with an anchor per reference at its line, each marked certain and with its source', async () => {
      // tsserver loads the project on its first request: wait for it, so its answer is in the chat's.
      const uri = vscode.Uri.joinPath(folder.uri, 'src', 'greeter.ts');
      await poll('the TypeScript language server to answer', async () => ((await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri, new vscode.Position(15, 2))) ?? []).length >= 2, 90000, 500);
      lm.setResponder(() => [new vscode.LanguageModelTextPart('FAKE-REFS-SUMMARY')]);
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@cairn /refs greet' });
      await waitForText('FAKE-REFS-SUMMARY');
      assert.deepEqual(await chatAnswer('greet: '), [
        'greet: 2 references (2 certain) in 1 file — typescript language server for 1 definition',
        'src/greeter.ts',
        'greeter.ts:16 — certain, language server in Greeter.greet',
        'greeter.ts:24 — certain, language server in Greeter.greetAll',
      ]);
      await screenshot('agent-chat-refs');
      // The anchor opens the reference's file at its line and column.
      await click({ text: 'greeter.ts:24', exact: true });
      assert.deepEqual(await activeCaret('src/greeter.ts'), [24, 34]);
    });

    it('answers "who calls NAME" from the index where the language has no server, and says so', async () => {
      lm.setResponder(() => [new vscode.LanguageModelTextPart('FAKE-CALLERS-SUMMARY')]);
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@cairn who calls display_name?' });
      await waitForText('FAKE-CALLERS-SUMMARY');
      assert.deepEqual(await chatAnswer('display_name: '), [
        'display_name: 2 references (2 certain) in 2 files — the index only for python (no language server answered)',
        'app/models.py',
        'models.py:19 — certain, index in User.display_name',
        'app/welcome.py',
        // The receiver's type comes from its annotation (`user: User`): certain without a server.
        'welcome.py:5 — certain, index in welcome',
      ]);
      await click({ text: 'welcome.py:5', exact: true });
      assert.deepEqual(await activeCaret(WELCOME_PATH), [5, 31]);
    });

    it('answers "what do I need to read to" with the context pack spans', async () => {
      const task = 'make the greeting punctuation configurable';
      const pack = await api.services.engine.buildPack(task, { folder });
      lm.setResponder(() => [new vscode.LanguageModelTextPart('FAKE-PACK-SUMMARY')]);
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@cairn what do I need to read to ${task}?` });
      await waitForText('FAKE-PACK-SUMMARY');
      await waitForText('Read these first');
      for (const item of pack.mustInspect) await waitForText(pill(item));
      await waitForText('Open in the Context Pack view');
      await screenshot('agent-chat-pack');
    });
  });
});
