// Checks of the test host itself (not of Cairn's features): the repo is loaded as the extension under
// development, the fixture workspace is open, and the UI bridge reaches the workbench.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { screenshot, uiAvailable, waitForText } from './ui';

describe('VS Code test host', () => {
  it('loads this repo as the extension under development', () => {
    const ext = vscode.extensions.getExtension('cairn-dev.cairn');
    assert.ok(ext, 'cairn-dev.cairn is not among the loaded extensions');
    assert.equal(ext.packageJSON.name, 'cairn');
    console.log(`[vscode-test] host: VS Code ${vscode.version} (${vscode.env.appName}, ${vscode.UIKind[vscode.env.uiKind]}), Node ${process.versions.node}`);
  });

  it('opens a fresh copy of the fixture workspace', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder is open');
    const files = (await vscode.workspace.findFiles('**/*', '**/node_modules/**'))
      .map((u) => vscode.workspace.asRelativePath(u, false))
      .sort();
    for (const f of ['src/greeter.ts', 'src/math/vector.ts', 'app/models.py', 'docs/guide.md']) {
      assert.ok(files.includes(f), `${f} missing from the workspace (${files.join(', ')})`);
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'src/greeter.ts'));
    const editor = await vscode.window.showTextDocument(doc);
    const line = doc.getText().split('\n').findIndex((l) => /^\s+greet\(name: string\)/.test(l));
    assert.ok(line > 0, 'Greeter.greet not found in src/greeter.ts');
    editor.selection = new vscode.Selection(line, 2, line, 7);
    assert.equal(doc.getText(editor.selection), 'greet');
  });

  it('offers the fake language model from test/vscode/extensions/fake-lm', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'cairn-test', id: 'fake-echo' });
    assert.ok(model, 'fake language model (cairn-test.fake-lm) not available');
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('ping')]);
    let text = '';
    for await (const chunk of response.text) text += chunk;
    assert.equal(text, 'echo: ping');
  });

  it('shows the workspace in the explorer (UI bridge)', async function () {
    if (!uiAvailable()) this.skip();
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitForText('README.md');
    const shot = await screenshot('explorer', { clip: '.part.sidebar' });
    assert.ok(shot.screenshot && shot.screenshot.endsWith('explorer.png'));
  });
});
