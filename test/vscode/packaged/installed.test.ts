// Runs against the .vsix that `npm run package` built, installed into a fresh extensions folder
// with code-server's --install-extension: the shipped bundle (not the repo) activates, indexes
// the fixture workspace and answers a search.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalReport } from '../../../src/eval/types';
import type { CairnApi } from '../../../src/vscode/extension';
import { buildHistoryFixture } from '../../unit/evalFixture';
import { screenshot, uiAvailable, waitForText } from '../suite/ui';

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('Cairn packaged (.vsix installed)', () => {
  it('is the installed build: only the shipped files, no sources or source maps', () => {
    const ext = vscode.extensions.getExtension<CairnApi>('cairn-dev.cairn');
    assert.ok(ext, 'cairn-dev.cairn is not installed');
    const root = ext.extensionPath;
    console.log(`[vscode-test] installed at ${root}`);
    assert.ok(!fs.existsSync(path.join(root, 'src')), 'the installed extension contains src/');
    assert.ok(!fs.existsSync(path.join(root, 'node_modules')), 'the installed extension contains node_modules/');
    for (const f of ['dist/extension.js', 'dist/engineWorker.js', 'dist/chunkWorker.js', 'dist/indexWorker.js', 'grammars/tree-sitter.wasm', 'grammars/tree-sitter-typescript.wasm', 'media/cairn.svg', 'LICENSE.txt']) {
      assert.ok(fs.existsSync(path.join(root, f)), `${f} is missing from the installed extension`);
    }
    const dist = fs.readdirSync(path.join(root, 'dist'));
    assert.deepEqual(dist.filter((f) => f.endsWith('.map') || f === 'bench.js'), [], `dist/ ships ${dist.join(', ')}`);
  });

  it('activates, indexes the workspace and answers a search', async function () {
    this.timeout(120000);
    const ext = vscode.extensions.getExtension<CairnApi | undefined>('cairn-dev.cairn')!;
    const api = ext.isActive ? ext.exports : await ext.activate();
    assert.ok(api, 'the installed extension did not activate');
    await until('the index', () => {
      const states = api.services.engine.states();
      return states.length > 0 && states.every((s) => s.kind === 'ready' && s.status?.exists);
    });
    const result = (await vscode.commands.executeCommand('cairn.search', { query: 'greeting for name', target: 'view' })) as Awaited<ReturnType<CairnApi['services']['engine']['search']>>;
    assert.ok(result.results.some((h) => h.path === 'src/greeter.ts'), `no greeter.ts in ${result.results.map((h) => h.path).join(', ')}`);
    const symbol = await api.services.engine.findSymbol('createGreeter');
    assert.equal(symbol.exact, true);
    if (uiAvailable()) {
      await vscode.commands.executeCommand('workbench.view.extension.cairn');
      await waitForText('greeter.ts');
      await screenshot('packaged-sidebar', { clip: '.part.sidebar' });
    }
  });

  it("serves the folder watched by VS Code's own file watcher: the installed extension ships none of its own", async function () {
    this.timeout(120000);
    const ext = vscode.extensions.getExtension<CairnApi | undefined>('cairn-dev.cairn')!;
    const api = (ext.isActive ? ext.exports : await ext.activate())!;
    const config = vscode.workspace.getConfiguration('cairn');
    await config.update('agent.serveTerminal', true, vscode.ConfigurationTarget.Workspace);
    try {
      await until('the served folder to be watched', () => api.services.engine.states().every((s) => s.watching === true), 60000);
      // Watched, a new definition is indexed without a save or a refresh command.
      const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      const file = path.join(folder, 'src', 'watchedByVscode.ts');
      fs.writeFileSync(file, 'export function watchedByVscodeMarker() {\n  return 1;\n}\n');
      try {
        await until('the watcher to index a new file', async () => (await api.services.engine.findSymbol('watchedByVscodeMarker')).exact, 30000);
      } finally {
        fs.rmSync(file, { force: true });
      }
    } finally {
      await config.update('agent.serveTerminal', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("evaluates retrieval quality with VS Code's ripgrep: the installed extension ships none of its own", async function () {
    this.timeout(120000);
    const history = buildHistoryFixture();
    try {
      const report = await vscode.commands.executeCommand<EvalReport | undefined>('cairn.evaluateRetrieval', history.dir);
      assert.ok(report, 'the evaluation failed (see the Cairn log)');
      assert.deepEqual(report.warnings.filter((w) => /ripgrep/.test(w)), []);
      assert.ok(report.systems.some((s) => s.system === 'rg-words'), report.systems.map((s) => s.name).join(', '));
    } finally {
      history.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
