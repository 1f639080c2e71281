// One index state across the views: a file skipped by a refresh of some paths is listed under
// Skipped files at once (no manual Refresh), and after Pause → Resume the search shown in the
// Results view runs again once the queued changes are indexed (no retyping).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, fixturePath, poll, ready, setSetting } from './cairnHelpers';
import { click, screenshot, uiAvailable, waitForText } from './ui';

/** The largest file of the fixture, in bytes (walks it; the store lives outside it). */
function largestFixtureFile(dir = fixturePath('.')): number {
  let max = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) max = Math.max(max, largestFixtureFile(p));
    else if (e.isFile()) max = Math.max(max, fs.statSync(p).size);
  }
  return max;
}

describe('Cairn: one state across the views', () => {
  before(async function () {
    this.timeout(90000);
    await ready(await api());
  });

  afterEach(async () => {
    (await api()).services.engine.resume();
  });

  it('a file that grows past cairn.maxFileSize is listed under Skipped files without a Refresh', async function () {
    this.timeout(60000);
    const a = await api();
    const limit = largestFixtureFile() + 1000;
    const rel = 'src/grownTooLarge.ts';
    const file = fixturePath(rel);
    const skipped = () => a.services.engine.states()[0]?.status?.skipped ?? [];
    try {
      await setSetting('maxFileSize', limit);
      await poll('the refresh for the new limit', () => a.services.engine.states()[0]?.status?.lastRefresh !== undefined && skipped().length === 0, 20000);
      await a.client.whenIdle();
      fs.writeFileSync(file, 'export const grownTooLarge = 1;\n');
      await poll('the new file to be indexed', async () => (await a.services.engine.search('grownTooLarge', { scope: 'all' })).results.some((h) => h.path === rel), 15000);
      fs.writeFileSync(file, `export const grownTooLarge = 1;\n// ${'x'.repeat(limit)}\n`);
      await poll('the grown file under Skipped files', () => skipped().some((s) => s.path === rel && s.reason === 'too-large'), 15000);
      if (uiAvailable()) {
        await vscode.commands.executeCommand('workbench.view.extension.cairn');
        await vscode.commands.executeCommand('cairn.index.focus');
        await click({ text: 'Skipped files', exact: true });
        await click({ text: 'Too large', exact: true });
        await waitForText(rel);
        await screenshot('sidebar-index-skipped-at-once', { clip: '.part.sidebar' });
        await click({ text: 'Skipped files', exact: true });
      }
    } finally {
      fs.rmSync(file, { force: true });
      await setSetting('maxFileSize', undefined);
      await poll('the grown file to leave the list', () => !skipped().some((s) => s.path === rel), 20000);
      await a.client.whenIdle();
    }
  });

  it('after Pause and Resume, the search shown in the Results view runs again once the queued changes are indexed', async function () {
    this.timeout(60000);
    const a = await api();
    const rel = 'src/afterResume.ts';
    const file = fixturePath(rel);
    const shown = () => a.lastSearch.current?.result.results.map((h) => h.path) ?? [];
    try {
      await vscode.commands.executeCommand('cairn.search', { query: 'resumedRerunMarker', target: 'view' });
      assert.deepEqual(shown(), [], 'found before the file exists');
      await vscode.commands.executeCommand('cairn.pauseIndexing');
      fs.writeFileSync(file, 'export function resumedRerunMarker(): number {\n  return 1;\n}\n');
      await new Promise((r) => setTimeout(r, 1500));
      await vscode.commands.executeCommand('cairn.resumeIndexing');
      await poll('the Results view to show the file indexed after Resume', () => shown().includes(rel), 15000);
      assert.equal(a.lastSearch.current?.query, 'resumedRerunMarker');
      if (uiAvailable()) {
        await vscode.commands.executeCommand('workbench.view.extension.cairn');
        await waitForText('afterResume.ts');
        await screenshot('sidebar-results-after-resume', { clip: '.part.sidebar' });
      }
    } finally {
      fs.rmSync(file, { force: true });
      await vscode.commands.executeCommand('cairn.clearSearchResults');
      await a.client.whenIdle();
    }
  });
});
