// Keeping the index fresh: saves in the editor, files created and deleted outside it, settings
// that change what is indexed (and ones that must not re-index anything), pause/resume, a
// corrupted store, and the engine thread dying.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { bytes } from '../../../src/vscode/format';
import { api, fixturePath, folder, foundPaths, poll, readCairnLog, ready, recordRefreshes, setSetting, sleep, waitForQuickInput } from './cairnHelpers';
import { click, getText, press, screenshot, typeText, ui, uiAvailable, waitForText } from './ui';

async function symbolFound(name: string): Promise<string | undefined> {
  const a = await api();
  const r = await a.services.engine.search(name, { scope: 'all', limit: 5 });
  return r.results.find((h) => h.symbol === name)?.path;
}

describe('Cairn: indexing', () => {
  before(async function () {
    this.timeout(90000);
    await ready(await api());
  });

  afterEach(async () => {
    const a = await api();
    a.services.engine.resume();
  });

  it('a file edited and saved in the editor is searchable within a second', async function () {
    this.timeout(30000);
    const a = await api();
    const doc = await vscode.workspace.openTextDocument(fixturePath('src/index.ts'));
    const editor = await vscode.window.showTextDocument(doc);
    const append = async (text: string) => {
      const end = doc.lineAt(doc.lineCount - 1).range.end;
      return editor.edit((e) => e.insert(end, text));
    };
    // Warm-up: the first incremental refresh after start-up pays one-time costs (V8 compiling the
    // tree-sitter grammars in the background); a user's saves after that are what is measured.
    const warmUp = recordRefreshes(a);
    await append('\n// warm-up\n');
    await doc.save();
    await poll('the warm-up save to be indexed', () => warmUp.reports.some((r) => r.only?.includes('src/index.ts')), 15000);
    warmUp.dispose();
    await a.client.whenIdle();
    const ok = await append('\n\nexport function freshlySavedHelper(): number {\n  return 42;\n}\n');
    assert.ok(ok, 'the edit was not applied');
    assert.equal(await symbolFound('freshlySavedHelper'), undefined, 'found before saving');
    assert.ok(doc.isDirty, 'the edit did not make the document dirty');
    const started = Date.now();
    const saved = await doc.save();
    // save() also answers false when VS Code's save participants time out (an extension that is
    // slow to answer onWillSaveTextDocument at start-up), though the file was written: what
    // counts is that the edit is on disk.
    const onDisk = fs.readFileSync(doc.uri.fsPath, 'utf8').includes('freshlySavedHelper');
    if (!saved) console.log(`[vscode-test] save() answered false after ${Date.now() - started} ms (dirty: ${doc.isDirty}, on disk: ${onDisk})`);
    assert.ok(onDisk && !doc.isDirty, `the save did not reach the disk (save() answered ${saved}; dirty: ${doc.isDirty})`);
    const savedAt = Date.now();
    const where = await poll('freshlySavedHelper to be found', () => symbolFound('freshlySavedHelper'), 5000, 25);
    const took = Date.now() - savedAt;
    console.log(`[vscode-test] save() took ${savedAt - started} ms; the new symbol was searchable ${took} ms later`);
    assert.equal(where, 'src/index.ts');
    assert.ok(took <= 1000, `took ${took} ms after save`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('with cairn.indexOnSave off, a save is not indexed (nor its file-watcher echo) until a refresh', async function () {
    this.timeout(30000);
    const a = await api();
    const rec = recordRefreshes(a);
    const doc = await vscode.workspace.openTextDocument(fixturePath('src/math/vector.ts'));
    const editor = await vscode.window.showTextDocument(doc);
    try {
      await setSetting('indexOnSave', false);
      const end = doc.lineAt(doc.lineCount - 1).range.end;
      await editor.edit((e) => e.insert(end, '\nexport const savedWithoutIndexing = 1;\n'));
      await doc.save();
      await sleep(2500);
      assert.equal(await symbolFound('savedWithoutIndexing'), undefined, 'indexed although indexOnSave is off');
      assert.deepEqual(rec.reports.filter((r) => r.only?.includes('src/math/vector.ts')), [], 'a refresh ran for the saved file');
      await vscode.commands.executeCommand('cairn.refreshIndex');
      assert.equal(await symbolFound('savedWithoutIndexing'), 'src/math/vector.ts');
    } finally {
      rec.dispose();
      await setSetting('indexOnSave', undefined);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('cairn.languages limits the index to those languages', async function () {
    this.timeout(60000);
    const a = await api();
    try {
      await setSetting('languages', ['py']);
      const st = await poll('only Python to be indexed', () => {
        const s = a.services.engine.states()[0];
        return s?.kind === 'ready' && s.status && Object.keys(s.status.languages).join() === 'python' ? s.status : undefined;
      }, 20000);
      assert.ok(st.files >= 2);
      assert.deepEqual([...new Set(await foundPaths(a, 'Greeter User distance'))].filter((p) => !p.endsWith('.py')), []);
    } finally {
      await setSetting('languages', undefined);
      await poll('every language back', () => (a.services.engine.states()[0]?.status?.languages.typescript ?? 0) > 0, 20000);
      await a.client.whenIdle();
    }
  });

  it('files created and deleted outside the editor are picked up by the watcher, and only they are re-indexed', async function () {
    this.timeout(30000);
    const a = await api();
    const rec = recordRefreshes(a);
    try {
      const file = fixturePath('src/outsideChange.ts');
      fs.writeFileSync(file, 'export function madeOutsideTheEditor(): string {\n  return "outside";\n}\n');
      assert.equal(await poll('the new file to be indexed', () => symbolFound('madeOutsideTheEditor'), 10000), 'src/outsideChange.ts');
      await a.client.whenIdle();
      const added = rec.reports.find((r) => r.only?.includes('src/outsideChange.ts'));
      assert.ok(added, `no refresh limited to the new file: ${JSON.stringify(rec.reports.map((r) => r.only))}`);
      assert.equal(added.report.added, 1);
      assert.equal(added.report.changed + added.report.removed, 0);
      fs.rmSync(file);
      await poll('the deleted file to disappear', async () => (await symbolFound('madeOutsideTheEditor')) === undefined, 10000);
      await a.client.whenIdle();
      const removed = rec.reports.find((r) => r.report.removed === 1 && r.only?.includes('src/outsideChange.ts'));
      assert.ok(removed, 'no refresh removed the file');
    } finally {
      rec.dispose();
    }
  });

  it('a file deleted through VS Code is no longer found', async function () {
    this.timeout(30000);
    const uri = vscode.Uri.file(fixturePath('src/doomed.ts'));
    await vscode.workspace.fs.writeFile(uri, Buffer.from('export class DoomedWidget {}\n'));
    await poll('DoomedWidget to be indexed', () => symbolFound('DoomedWidget'), 10000);
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(uri);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await poll('DoomedWidget to be gone', async () => (await symbolFound('DoomedWidget')) === undefined, 10000);
    assert.ok(!(await foundPaths(await api(), 'DoomedWidget')).includes('src/doomed.ts'));
  });

  it('cairn.exclude leaves docs out and back in, re-indexing only those files', async function () {
    this.timeout(60000);
    const a = await api();
    const docs = () => foundPaths(a, 'installation usage faq');
    assert.ok((await docs()).includes('docs/guide.md'), 'docs/guide.md not found to begin with');
    const rec = recordRefreshes(a);
    try {
      await setSetting('exclude', ['docs/**']);
      await poll('docs/guide.md to be excluded', async () => !(await docs()).includes('docs/guide.md'), 15000);
      await a.client.whenIdle();
      const out = rec.reports.find((r) => r.report.removed > 0);
      assert.ok(out, `no refresh removed anything: ${JSON.stringify(rec.reports.map((r) => r.report))}`);
      assert.deepEqual([out.report.added, out.report.changed, out.report.removed], [0, 0, 1], 'excluding docs/** must remove exactly one file and touch nothing else');
      rec.reports.length = 0;
      await setSetting('exclude', undefined);
      await poll('docs/guide.md to be back', async () => (await docs()).includes('docs/guide.md'), 15000);
      await a.client.whenIdle();
      const back = rec.reports.find((r) => r.report.added > 0);
      assert.ok(back);
      assert.deepEqual([back.report.added, back.report.changed, back.report.removed], [1, 0, 0]);
    } finally {
      rec.dispose();
      await setSetting('exclude', undefined);
    }
  });

  it('search-only settings re-index nothing; chunking settings re-chunk every file', async function () {
    this.timeout(60000);
    const a = await api();
    const rec = recordRefreshes(a);
    try {
      await setSetting('resultLimit', 7);
      await setSetting('search.scope', 'code');
      await sleep(1000);
      assert.equal(rec.reports.length, 0, 'a search-only setting triggered a refresh');
      assert.equal(a.services.settings().resultLimit, 7, 'the setting written is not the setting read');
      assert.equal((await a.services.engine.search('vector')).results.length <= 7, true);
      await setSetting('chunking.strategy', 'lines');
      const files = a.services.engine.states()[0]!.status!.files;
      const rechunked = await poll('a refresh after the chunking change', () => rec.reports.find((r) => r.report.changed > 0), 20000);
      assert.equal(rechunked.report.changed, files, 'every file must be re-chunked');
      assert.ok(rechunked.report.diagnostics.some((d) => d.code === 'config-changed'));
      await a.client.whenIdle();
      const greet = (await a.services.engine.search('greet', { limit: 20 })).results;
      assert.ok(greet.every((h) => h.kind === 'text' || h.kind === 'section' || h.kind === 'key'), `AST kinds after switching to lines: ${[...new Set(greet.map((h) => h.kind))].join(', ')}`);
    } finally {
      rec.dispose();
      await setSetting('resultLimit', undefined);
      await setSetting('search.scope', undefined);
      await setSetting('chunking.strategy', undefined);
      await poll('AST chunks again', async () => (await a.services.engine.findSymbol('createGreeter')).exact, 20000);
      await a.client.whenIdle();
    }
  });

  it('cairn.maxFileSize skips larger files, and the Index view lists them by reason', async function () {
    this.timeout(60000);
    const a = await api();
    const limit = 900;
    const large = fs.readdirSync(fixturePath('src')).filter((f) => {
      const st = fs.statSync(fixturePath(`src/${f}`));
      return st.isFile() && st.size > limit;
    }).map((f) => `src/${f}`);
    assert.ok(large.length > 0, 'the fixture has no file above the limit');
    try {
      await setSetting('maxFileSize', limit);
      const status = await poll('files over the limit to be skipped', () => {
        const st = a.services.engine.states()[0]?.status;
        return st && large.every((p) => st.skipped.some((s) => s.path === p && s.reason === 'too-large')) ? st : undefined;
      }, 20000);
      assert.equal(status.skippedByReason['too-large'], status.skipped.filter((s) => s.reason === 'too-large').length);
      assert.ok(!(await foundPaths(a, 'Greeter greet')).includes('src/greeter.ts'), 'a skipped file is still found');
      if (uiAvailable()) {
        await vscode.commands.executeCommand('workbench.view.extension.cairn');
        await vscode.commands.executeCommand('cairn.index.focus');
        await click({ text: 'Skipped files', exact: true });
        await click({ text: 'Too large', exact: true });
        await waitForText(large[0]!);
        // Sizes as people read them: "1.2 KB (limit 900 B)", not byte counts.
        await waitForText(`${bytes(fs.statSync(fixturePath(large[0]!)).size)} (limit 900 B)`);
        await screenshot('sidebar-index-skipped', { clip: '.part.sidebar' });
        await click({ text: 'Skipped files', exact: true });
      }
    } finally {
      await setSetting('maxFileSize', undefined);
      await poll('the large files to be back', async () => (await foundPaths(a, 'Greeter greet')).includes('src/greeter.ts'), 20000);
      await a.client.whenIdle();
    }
  });

  it('pause keeps changes queued; resume indexes them', async function () {
    this.timeout(30000);
    const a = await api();
    await vscode.commands.executeCommand('cairn.pauseIndexing');
    assert.equal(a.services.engine.paused, true);
    assert.ok(a.services.engine.states().every((s) => s.kind === 'paused'));
    if (uiAvailable()) await waitForText('Cairn paused');
    const file = fixturePath('src/whilePaused.ts');
    fs.writeFileSync(file, 'export const writtenWhilePaused = 1;\n');
    try {
      await sleep(1500);
      assert.equal(await symbolFound('writtenWhilePaused'), undefined, 'indexed while paused');
      if (uiAvailable()) {
        await vscode.commands.executeCommand('workbench.view.extension.cairn');
        await waitForText('Indexing is paused');
        await screenshot('sidebar-paused', { clip: '.part.sidebar' });
      }
      await vscode.commands.executeCommand('cairn.resumeIndexing');
      assert.equal(a.services.engine.paused, false);
      assert.equal(await poll('the queued file after resume', () => symbolFound('writtenWhilePaused'), 10000), 'src/whilePaused.ts');
    } finally {
      fs.rmSync(file, { force: true });
      await poll('cleanup', async () => (await symbolFound('writtenWhilePaused')) === undefined, 10000);
    }
  });

  it('while paused, search and the views say so, the counts are dated, and Resume is one step away', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(60000);
    const a = await api();
    await vscode.commands.executeCommand('cairn.search', { query: 'vector length', target: 'view' });
    await vscode.commands.executeCommand('cairn.pauseIndexing');
    try {
      // The Results view's first row, and the Index view's counts "as of" the last index.
      await vscode.commands.executeCommand('workbench.view.extension.cairn');
      await waitForText('Indexing paused — Resume');
      await waitForText('(paused)');
      const sidebar = await getText('.part.sidebar');
      assert.match(sidebar, /as of .+ \(paused\)/, sidebar);
      await screenshot('sidebar-paused-results', { clip: '.part.sidebar' });
      // The search pick's title, and its Resume item.
      void vscode.commands.executeCommand('cairn.search');
      await waitForQuickInput();
      await typeText('vector length');
      await waitForText('indexing paused');
      // The notice leads the list; the top hit stays the one Enter opens.
      const first = await getText('.quick-input-widget .monaco-list-row[data-index="0"]');
      assert.match(first, /Indexing paused — Resume/, first);
      const active = await getText('.quick-input-widget .monaco-list-row.focused');
      assert.ok(!active.includes('Indexing paused'), `the notice is the active item: ${active}`);
      await screenshot('search-quickpick-paused', { clip: '.quick-input-widget' });
      await click({ selector: '.quick-input-widget .monaco-list-row:has-text("Indexing paused — Resume")' });
      await poll('indexing to resume', () => !a.services.engine.paused, 5000);
      // The pick stays open, and the notice goes.
      await poll('the notice to go', async () => !(await getText('.quick-input-widget .quick-input-list')).includes('Indexing paused'), 5000);
      await press('Escape');
      assert.ok(!(await ui({ waitForText: 'Indexing paused — Resume', timeoutMs: 1000 })).ok, 'the Results view still says indexing is paused');
    } finally {
      a.services.engine.resume();
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  });

  it('a corrupted store is rebuilt, search still answers, and the log says so', async function () {
    this.timeout(60000);
    const a = await api();
    const storeDir = a.services.engine.states()[0]!.status!.storeDir;
    const rec = recordRefreshes(a);
    try {
      fs.writeFileSync(path.join(storeDir, 'manifest.json'), '{"format":"cairn-index", this is not json');
      await vscode.commands.executeCommand('cairn.refreshIndex');
      const r = rec.reports.at(-1);
      assert.ok(r, 'Refresh Index ran no refresh');
      assert.equal(r.report.rebuilt, true);
      assert.ok(r.report.diagnostics.some((d) => d.code === 'store-corrupt'), JSON.stringify(r.report.diagnostics));
      assert.ok((await foundPaths(a, 'Greeter greet')).includes('src/greeter.ts'), 'search does not answer after the rebuild');
      await poll('the log to say it rebuilt', () => /could not be read .*rebuilt it from scratch/.test(readCairnLog(a)), 5000);
    } finally {
      rec.dispose();
    }
  });

  it('Rebuild Index asks first, in a modal dialog, and rebuilds nothing without a yes; then builds from scratch', async function () {
    this.timeout(60000);
    const a = await api();
    const rec = recordRefreshes(a);
    const question = `Rebuild the index of ${folder().name}? Search keeps using the current index until the new one is ready.`;
    try {
      // An extension test host refuses modal dialogs (VS Code's DialogService throws "refused to
      // show dialog in tests. Contents: <message>"): that the refusal names our question shows the
      // command asked in a modal dialog, and no answer must mean no rebuild.
      await vscode.commands.executeCommand('cairn.rebuildIndex');
      await poll('the confirmation to be asked', () => readCairnLog(a).includes(`refused to show dialog in tests. Contents: ${question}`), 5000);
      await sleep(500);
      assert.deepEqual(rec.reports.filter((r) => r.rebuild), [], 'rebuilt without a yes');
      await vscode.commands.executeCommand('cairn.rebuildIndex', { skipConfirmation: true });
      assert.equal(rec.reports.at(-1)?.rebuild, true);
      assert.equal(rec.reports.at(-1)?.report.rebuilt, true);
      assert.ok((await foundPaths(a, 'UserRepository')).includes('app/models.py'));
    } finally {
      rec.dispose();
    }
  });

  it('the engine thread dying shows an error, restarts, and the index answers again', async function () {
    this.timeout(60000);
    const a = await api();
    const before = a.client.host.generation;
    await a.client.host.crashForTesting(6000);
    await poll('the error state', () => a.services.engine.states().every((s) => s.kind === 'error') || a.client.host.state.kind === 'restarting', 5000);
    if (uiAvailable()) {
      await vscode.commands.executeCommand('workbench.view.extension.cairn');
      await waitForText('stopped unexpectedly', { timeoutMs: 3000 });
      await screenshot('statusbar-error', { clip: '.part.statusbar' });
      await screenshot('sidebar-error', { clip: '.part.sidebar' });
    }
    const failed = await a.services.engine.search('Greeter');
    assert.ok(failed.warnings.some((w) => /stopped unexpectedly/.test(w)), `no warning while the engine is down: ${JSON.stringify(failed.warnings)}`);
    await poll('the engine to restart', () => a.client.host.state.kind === 'running' && a.client.host.generation > before, 15000);
    assert.ok((await foundPaths(a, 'Greeter')).includes('src/greeter.ts'));
    assert.match(readCairnLog(a), /stopped unexpectedly/);
  });

  it('keeps the folder labels for every hit (multi-root ready)', async () => {
    const a = await api();
    const r = await a.services.engine.search('Vector');
    assert.ok(r.results.length > 0);
    assert.ok(r.results.every((h) => h.folder === folder().name && h.folderUri === folder().uri.toString()));
  });
});
