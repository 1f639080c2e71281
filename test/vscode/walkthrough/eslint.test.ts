// The walkthrough of issue #38's list on a real ESLint checkout, in a real VS Code: each problem a
// new user met there, asked again through the same commands and views. Run it with the ESLint
// working tree as the workspace (test/vscode/walkthrough/README.md); each case prints what it saw.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { SearchHit } from '../../../src/core/api';
import { hitTitle } from '../../../src/vscode/format';
import { api, closeEditors, fixturePath, folder, poll, ready, referencesAt, sleep } from '../suite/cairnHelpers';
import { click, getText, press, screenshot, uiAvailable } from '../suite/ui';

const saw = (what: string) => console.log(`      saw: ${what}`);

/** The line (1-based) of the first line of `rel` matching `pattern`. */
function lineOf(rel: string, pattern: RegExp): number {
  const lines = fs.readFileSync(fixturePath(rel), 'utf8').split('\n');
  const i = lines.findIndex((l) => pattern.test(l));
  assert.ok(i >= 0, `${rel} has no line matching ${pattern}`);
  return i + 1;
}

describe('walkthrough: issue #38 on ESLint', function () {
  this.timeout(300_000);
  let search: (query: string) => Promise<SearchHit[]>;

  before(async function () {
    this.timeout(900_000);
    assert.ok(fs.existsSync(fixturePath('lib/rules/utils/ast-utils.js')), 'the workspace is an ESLint checkout');
    const a = await api();
    await ready(a, 900_000);
    const settings = a.services.settings();
    search = async (query) => (await a.services.engine.search(query, { scope: settings.search.scope, limit: settings.resultLimit, prefixLast: true })).results;
  });
  after(closeEditors);

  it('references of isFunction: none certain in tests/bench/large.js, which defines its own', async () => {
    const line = lineOf('lib/rules/utils/ast-utils.js', /^function isFunction\(/);
    const started = Date.now();
    const answer = await referencesAt('lib/rules/utils/ast-utils.js', line, 'isFunction');
    const ms = Date.now() - started;
    const certain = answer.references.filter((r) => r.certainty === 'certain');
    const inLarge = answer.references.filter((r) => r.path === 'tests/bench/large.js');
    saw(`${answer.references.length} references in ${ms} ms, ${certain.length} certain; in large.js: ${inLarge.length} (${inLarge.filter((r) => r.certainty === 'certain').length} certain); definitions ${answer.definitions.map((d) => `${d.path}:${d.line}`).join(', ')}`);
    assert.deepEqual(answer.definitions.map((d) => `${d.path}:${d.line}`), [`lib/rules/utils/ast-utils.js:${line}`]);
    assert.equal(inLarge.filter((r) => r.certainty === 'certain').length, 0, JSON.stringify(inLarge));
    for (const r of certain) assert.ok(r.path !== 'tests/bench/large.js');
    if (uiAvailable()) await screenshot('walkthrough-isFunction-references');
  });

  it('getDefinedMessageData: the definition first, its row named, not "lines N–M"', async () => {
    const hits = await search('getDefinedMessageData');
    const first = hits[0];
    assert.ok(first, 'a hit');
    const defLine = lineOf('lib/rules/no-unused-vars.js', /function getDefinedMessageData\(/);
    saw(`first: ${first.path}:${first.startLine}-${first.endLine} "${hitTitle(first)}"`);
    assert.equal(first.path, 'lib/rules/no-unused-vars.js');
    assert.ok(first.startLine <= defLine && defLine <= first.endLine, `${first.startLine}-${first.endLine} holds line ${defLine}`);
    assert.doesNotMatch(hitTitle(first), /^lines? \d/);
  });

  it('no-unused-vars: the rule file above its docs', async () => {
    const hits = await search('no-unused-vars');
    const rule = hits.findIndex((h) => h.path === 'lib/rules/no-unused-vars.js');
    const docs = hits.findIndex((h) => h.path.startsWith('docs/'));
    saw(`rule at ${rule + 1}, first docs hit at ${docs + 1}: ${hits.slice(0, 5).map((h) => h.path).join(', ')}`);
    assert.ok(rule >= 0 && (docs < 0 || rule < docs));
  });

  it('visitor functions name their chunks: Program:exit finds the exit visitors, each named', async () => {
    const hits = await search('Program:exit');
    const titles = hits.slice(0, 10).map(hitTitle);
    saw(titles.join(' | '));
    assert.ok(titles.length > 0);
    for (const t of titles) assert.doesNotMatch(t, /^lines? \d/);
    assert.ok(titles.slice(0, 5).every((t) => /Program:exit"?$/.test(t)), titles.join(' | '));
  });

  it('one ranking: the Results view lists the files in the order the pick showed them', async () => {
    const a = await api();
    const query = 'report unused variables';
    const picked = await search(query);
    const pickFiles = [...new Set(picked.map((h) => h.path))];
    void vscode.commands.executeCommand('cairn.search', query);
    await poll('the pick to show results', async () => (await vscode.commands.executeCommand<boolean>('cairn.showSearchInResults')) || undefined);
    await sleep(1500);
    const viewFiles = a.results.provider.getChildren().flatMap((n) => (n.type === 'file' ? [n.path] : []));
    saw(`pick ${pickFiles.slice(0, 4).join(', ')} … view ${viewFiles.slice(0, 4).join(', ')} …`);
    assert.deepEqual(viewFiles, pickFiles);
    if (uiAvailable()) await screenshot('walkthrough-results-view');
  });

  it('config names and node: imports are words, not fields, and no message names an internal field', async () => {
    for (const query of ['eslint:recommended', 'plugin:react/recommended', 'node:fs']) {
      const a = await api();
      const r = await a.services.engine.search(query, { limit: 10 });
      const said = [...r.warnings, r.note ?? ''].join(' ');
      saw(`${query}: ${r.results.length} hits (${r.results.slice(0, 2).map((h) => h.path).join(', ')}); said "${said.trim()}"`);
      assert.ok(r.results.length > 0, query);
      assert.doesNotMatch(said, /\b(symbol|context|body|doc|prose|path|name)s?:/i);
    }
  });

  it('a name that exists nowhere: said so, its partial matches marked, never "50 of 100 results"', async () => {
    const a = await api();
    for (const query of ['zqxwvUnheardOfName', 'zqxwvunheard']) {
      await vscode.commands.executeCommand('cairn.search', { query, target: 'view' });
      const roots = a.results.provider.getChildren();
      const rows = roots.filter((n) => n.type === 'file').flatMap((f) => a.results.provider.getChildren(f));
      const label = String(roots[0] ? a.results.provider.getTreeItem(roots[0]).label : '');
      saw(`${query}: ${a.results.view.message ?? label}; ${rows.length} rows`);
      if (rows.length === 0) assert.equal(label, `No results for "${query}"`);
      else {
        assert.match(a.results.view.message ?? '', new RegExp(`^No result has all of: ${query}; [\\d,]+\\+? partial match`));
        for (const row of rows) assert.match(String(a.results.provider.getTreeItem(row).description), /partial match/);
      }
    }
    if (uiAvailable()) await screenshot('walkthrough-no-results');
  });

  it("the editor's menu: Cairn's items sit in a Cairn submenu", async function () {
    if (!uiAvailable()) this.skip();
    const doc = await vscode.workspace.openTextDocument(fixturePath('lib/rules/no-unused-vars.js'));
    await vscode.window.showTextDocument(doc);
    await click({ selector: '.part.editor .monaco-editor .view-lines', button: 'right' });
    const top = await getText({ selector: '.monaco-menu' });
    await click({ selector: '.monaco-menu .action-item:has-text("Cairn")' });
    const sub = await getText({ selector: '.monaco-menu .action-item:has-text("Copy Span Reference")' });
    await screenshot('walkthrough-editor-menu');
    await press('Escape');
    await press('Escape');
    saw(`top level: ${top.split('\n').filter((l) => /cairn|span|context pack/i.test(l)).join(' | ')}; submenu item: ${sub.trim()}`);
    assert.doesNotMatch(top, /Copy Span Reference|Add to Context Pack/);
  });

  it('one state during a checkout: the Index view never says "up to date" while the status bar counts', async function () {
    if (!uiAvailable()) this.skip();
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.cairn');
    const git = (...args: string[]) => execFileSync('git', ['-C', folder().uri.fsPath, ...args], { stdio: 'ignore' });
    const disagreements: string[] = [];
    let samples = 0;
    let busy = 0;
    git('checkout', 'HEAD~300', '--', 'lib', 'docs');
    try {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const bar = await getText({ selector: '.part.statusbar .statusbar-item:has-text("Cairn")' }).catch(() => '');
        const row = await getText({ selector: '.pane-body .monaco-list-row:has-text("walk-eslint")' }).catch(() => '');
        samples++;
        if (/\d+\s*%/.test(bar) || /refreshing|indexing/i.test(bar)) {
          busy++;
          if (/up to date/i.test(row)) disagreements.push(`bar "${bar}" / view "${row}"`);
        }
        const s = a.indexState.current;
        if (busy > 0 && s.folders.every((f) => f.state.kind === 'ready')) break;
        await sleep(150);
      }
    } finally {
      git('checkout', 'HEAD', '--', 'lib', 'docs');
    }
    await ready(a, 120_000);
    saw(`${samples} samples, ${busy} with the status bar counting, ${disagreements.length} disagreeing`);
    assert.deepEqual(disagreements, []);
  });

  it('labels are plain text: no HTML anchors or Markdown marks in docs hits', async () => {
    const offending: string[] = [];
    for (const query of ['codemod', 'flat config migration', 'rule deprecated']) {
      for (const h of (await search(query)).slice(0, 20)) {
        const title = hitTitle(h);
        if (/<a\s|\*\*|`/.test(title)) offending.push(`${h.path}: ${title}`);
      }
    }
    saw(offending.length ? offending.join(' | ') : 'no markup in 60 titles');
    assert.deepEqual(offending, []);
  });
});
