// The extension starts cheaply, exposes its parts, indexes the fixture workspace in the
// background and says so in the status bar.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, folder, readCairnLog, ready } from './cairnHelpers';
import { click, press, screenshot, uiAvailable, waitForText } from './ui';

// Keep the extension's own log with the run's artifacts (root-level hook: after every suite).
after(async () => {
  const dir = process.env.VSCODE_TEST_ARTIFACTS;
  if (dir) fs.writeFileSync(path.join(dir, 'cairn.log'), readCairnLog(await api()));
});

describe('Cairn: activation', () => {
  it('activates in a few milliseconds and registers every contributed command', async () => {
    const a = await api();
    console.log(`[vscode-test] activate() took ${a.activationMs} ms wall, ${a.activationCpuMs ?? '?'} ms CPU`);
    // CPU time of the extension host thread: wall time also counts the OS running other processes.
    const spent = a.activationCpuMs ?? a.activationMs;
    assert.ok(spent < 50, `activation used ${spent} ms; it must only assemble objects`);
    const ext = vscode.extensions.getExtension('cairn-dev.cairn');
    const contributed = (ext?.packageJSON.contributes.commands as Array<{ command: string }>).map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    // Every command contributed must exist once activation returned (including the pack/agent ones).
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
    for (const id of ['cairn.search', 'cairn.goToSymbol', 'cairn.pauseIndexing', 'cairn.resumeIndexing', 'cairn.rebuildIndex', 'cairn.showIndexStatus', 'cairn.refreshIndex', 'cairn.copySpanReference', 'cairn.addToContextPack', 'cairn.clearSearchResults', 'cairn.showLog']) {
      assert.ok(contributed.includes(id), `${id} is not contributed`);
    }
  });

  it('indexes the fixture workspace in the background until it is ready', async () => {
    const a = await api();
    await ready(a);
    const [state] = a.services.engine.states();
    assert.ok(state);
    assert.equal(state.folder.uri.toString(), folder().uri.toString());
    const status = state.status!;
    assert.ok(status.files >= 7, `only ${status.files} files indexed`);
    assert.ok(status.chunks > status.files, `${status.chunks} chunks for ${status.files} files`);
    for (const lang of ['typescript', 'python', 'markdown']) assert.ok(status.languages[lang], `no ${lang} files in ${JSON.stringify(status.languages)}`);
    // The store lives in the workspace's storage, not in the workspace.
    assert.ok(status.storeDir.startsWith(a.services.context.storageUri!.fsPath), `store ${status.storeDir} is not in workspace storage`);
  });

  it('shows "up to date" with counts in the status bar', async function () {
    if (!uiAvailable()) this.skip();
    const a = await api();
    await ready(a);
    const files = a.services.engine.states()[0]!.status!.files;
    await waitForText(`Cairn ${files} files`);
    await screenshot('statusbar', { clip: '.part.statusbar' });
  });

  it('clicking the status bar item opens the status and commands', async function () {
    if (!uiAvailable()) this.skip();
    const a = await api();
    await ready(a);
    const files = a.services.engine.states()[0]!.status!.files;
    await click({ text: `Cairn ${files} files` });
    await waitForText('Cairn: Index Status');
    await waitForText('Rebuild Index');
    await screenshot('status-quickpick', { clip: '.quick-input-widget' });
    await press('Escape');
  });
});
