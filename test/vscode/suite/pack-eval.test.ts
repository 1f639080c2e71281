// `Cairn: Evaluate Retrieval Quality` in a real VS Code: `cairn eval` runs in a child process on
// a small git history and its table shows in a webview; a folder without history shows an error.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { buildHistoryFixture, type HistoryFixture } from '../../unit/evalFixture';
import type { EvalReport } from '../../../src/core/eval/types';
import { getText, screenshot, ui, uiAvailable, waitForText } from './ui';
import { workspaceFolder } from './packHelpers';

describe('Retrieval quality view', function () {
  this.timeout(120000);
  let history: HistoryFixture;

  before(() => {
    history = buildHistoryFixture();
  });

  after(async () => {
    history?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && uiAvailable()) await ui({ screenshot: `eval-failed-${this.currentTest.title.replace(/\W+/g, '-').slice(0, 40)}` });
  });

  it('runs cairn eval on a git history and shows the table', async function () {
    const report = await vscode.commands.executeCommand<EvalReport | undefined>('cairn.evaluateRetrieval', history.dir);
    assert.ok(report, 'the command returned no report (see the Cairn log)');
    assert.ok(report.evaluated > 0, `no case evaluated: ${JSON.stringify(report.mining)}`);
    const names = report.systems.map((s) => s.name);
    assert.ok(names.some((n) => n.startsWith('cairn pack')) && names.some((n) => n.startsWith('bm25')), names.join(', '));
    if (!uiAvailable()) this.skip();
    await waitForText('Retrieval quality:', { frame: 'webview' });
    const table = await getText({ selector: '#eval-table', frame: 'webview' });
    for (const name of names) assert.ok(table.includes(name), `${name} missing from the table:\n${table}`);
    const pack = report.systems.find((s) => s.system === 'pack');
    assert.ok(pack?.metrics, 'the pack system has no metrics');
    assert.ok(table.includes(pack.metrics.recallAt1.toFixed(3)), table);
    await screenshot('eval-table', { clip: 'iframe.webview' });
  });

  it('says why when the folder has no git history', async function () {
    const report = await vscode.commands.executeCommand<EvalReport | undefined>('cairn.evaluateRetrieval', workspaceFolder().uri.fsPath);
    assert.equal(report, undefined);
    if (!uiAvailable()) this.skip();
    await waitForText('Could not evaluate', { frame: 'webview' });
    const error = await getText({ selector: '#eval-error', frame: 'webview' });
    assert.match(error, /git repository/);
    await screenshot('eval-error', { clip: 'iframe.webview' });
  });
});
