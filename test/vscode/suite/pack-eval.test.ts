// `Cairn: Evaluate Retrieval Quality` in a real VS Code: `cairn eval` runs in a child process on
// a small git history and its table shows in a webview; a folder without history shows an error.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { buildHistoryFixture, type HistoryFixture } from '../../unit/evalFixture';
import type { EvalReport } from '../../../src/eval/types';
import { getText, screenshot, ui, uiAvailable, waitForText } from './ui';
import { cairnApi, workspaceFolder } from './packHelpers';
import { readCairnLog } from './cairnHelpers';
import { locateVscodeRipgrep } from '../../../src/vscode/assets';

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
    // VS Code's own ripgrep runs the grep baseline: the installed extension has no other.
    const rg = locateVscodeRipgrep(vscode.env.appRoot);
    assert.ok(rg, `this VS Code ships no ripgrep under ${vscode.env.appRoot}`);
    assert.ok(readCairnLog(await cairnApi()).includes(`eval of ${history.dir}: ripgrep ${rg}`), 'the evaluation was not handed VS Code\'s ripgrep');
    assert.ok(report.systems.some((s) => s.system === 'rg-words'), names.join(', '));
    assert.deepEqual(report.warnings.filter((w) => /ripgrep/.test(w)), []);
    if (!uiAvailable()) this.skip();
    await waitForText('Retrieval quality:', { frame: 'webview' });
    // Plain words above the expert table: how often a changed file was Cairn's first result.
    const summary = await getText({ selector: '#eval-summary', frame: 'webview' });
    assert.match(summary, new RegExp(`For \\d+ of ${report.evaluated} past changes .* Cairn's first result`), summary);
    // The table sits in a box of its own that scrolls sideways when the view is narrow.
    const table = await getText({ selector: '.table-scroll > #eval-table', frame: 'webview' });
    for (const name of names) assert.ok(table.includes(name), `${name} missing from the table:\n${table}`);
    const pack = report.systems.find((s) => s.system === 'pack');
    assert.ok(pack?.metrics, 'the pack system has no metrics');
    assert.ok(table.includes(pack.metrics.recallAt1.toFixed(3)), table);
    // Every cell names its column, so a narrow view can stack a row's cells and keep them readable.
    assert.equal(await getText({ selector: '#eval-table tr.cairn-row td[data-label="MRR"]', frame: 'webview' }), report.systems[0]!.metrics!.mrr.toFixed(3));
    await screenshot('eval-table', { clip: 'iframe.webview' });
    // Narrow: the table scrolls inside its frame instead of being cut off.
    await vscode.commands.executeCommand('workbench.action.splitEditorRight');
    await vscode.commands.executeCommand('workbench.action.splitEditorRight');
    await screenshot('eval-table-narrow');
    await vscode.commands.executeCommand('workbench.action.joinAllGroups');
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
