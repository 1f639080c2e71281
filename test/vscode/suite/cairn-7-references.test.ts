// References inside VS Code: the index's, merged with the language server's where the file's
// language has one (TypeScript's is built in), each marked with its source; the Results view's
// "References of X", the language-model tool, and a language without a server (Python here).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { MergedReferences } from '../../../src/vscode/references/findReferences';
import type { RefFileNode, RefNode } from '../../../src/vscode/views/referenceNodes';
import { api, closeEditors, fixturePath, folder, poll, ready, referencesAt, setSetting, sleep } from './cairnHelpers';
import { screenshot, uiAvailable, waitForText } from './ui';

/** Another class's `length`, used in another file: the same name, not Vector's method. */
const RULER = ['export class Ruler {', '  length(): number {', '    return 30;', '  }', '}', '', 'export function rulerLength(r: Ruler): number {', '  return r.length();', '}', ''].join('\n');
const RULER_PATH = 'src/refs/ruler.ts';

const at = (a: MergedReferences, path: string, line: number) => a.references.find((r) => r.path === path && r.line === line);

async function invoke(name: string, input: Record<string, unknown>): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
}

describe('Cairn: references', function () {
  this.timeout(120000);

  before(async function () {
    this.timeout(150000);
    const a = await api();
    await ready(a);
    fs.mkdirSync(fixturePath('src/refs'), { recursive: true });
    fs.writeFileSync(fixturePath(RULER_PATH), RULER);
    await a.services.engine.refresh(folder());
    await ready(a);
    // tsserver loads the project on the first request: wait until it answers for Vector.length.
    const uri = vscode.Uri.joinPath(folder().uri, 'src', 'math', 'vector.ts');
    await poll(
      'the TypeScript language server to answer',
      async () => ((await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri, new vscode.Position(18, 2))) ?? []).length >= 3,
      90000,
      500,
    );
  });

  after(async () => {
    await closeEditors();
    fs.rmSync(fixturePath('src/refs'), { recursive: true, force: true });
    const a = await api();
    await a.services.engine.refresh(folder());
  });

  it('TypeScript: the language server confirms the uses of Vector.length; another class’s length stays a name match', async () => {
    const a = await api();
    const started = performance.now();
    const answer = (await vscode.commands.executeCommand('cairn.findReferences', 'Vector.length')) as MergedReferences;
    console.log(`[vscode-test] merged references of Vector.length in ${Math.round(performance.now() - started)} ms (index alone ${answer.tookMs} ms)`);
    assert.match(answer.sources, /^typescript language server for 1 definition/, answer.sources);
    const describe = (path: string, line: number) => {
      const r = at(answer, path, line);
      return r && `${r.certainty} ${r.source}`;
    };
    // The index alone calls both uses name matches (`this.length()`, `a.add(…).length()`): the server resolves them.
    assert.equal(describe('src/math/vector.ts', 24), 'certain language server', JSON.stringify(answer.references));
    assert.equal(describe('src/math/vector.ts', 38), 'certain language server');
    assert.equal(describe(RULER_PATH, 8), 'name-match index', JSON.stringify(answer.references));
    assert.equal(at(answer, 'src/math/vector.ts', 24)?.column, 22);

    // The Results view shows them grouped by file, source in each row's description.
    const results = a.results;
    assert.equal(results.view.description, 'References of Vector.length');
    const files = results.provider.getChildren() as RefFileNode[];
    assert.deepEqual(files.map((f) => f.path).sort(), [RULER_PATH, 'src/math/vector.ts'].sort());
    const vectorFile = files.find((f) => f.path === 'src/math/vector.ts')!;
    const rows = results.provider.getChildren(vectorFile) as RefNode[];
    const row = rows.find((r) => r.ref.line === 24)!;
    const item = results.provider.getTreeItem(row);
    assert.match(String(item.description), /^24:22 {2}certain · language server$/);
    const rulerRow = (results.provider.getChildren(files.find((f) => f.path === RULER_PATH)!) as RefNode[]).find((r) => r.ref.line === 8)!;
    assert.match(String(results.provider.getTreeItem(rulerRow).description), /name match · index/);

    if (uiAvailable()) {
      await waitForText('const len = this.length();');
      await screenshot('references-view', { clip: '.part.sidebar' });
    }

    // A row opens path:line:column, one caret at the name.
    const command = item.command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const editor = await poll('vector.ts to open', () => {
      const e = vscode.window.activeTextEditor;
      return e && vscode.workspace.asRelativePath(e.document.uri, false) === 'src/math/vector.ts' ? e : undefined;
    });
    await sleep(100);
    assert.deepEqual([editor.selection.active.line + 1, editor.selection.active.character + 1, editor.selection.isEmpty], [24, 22, true]);
  });

  it('the command takes the name at the cursor', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder().uri, 'src', 'index.ts'));
    const editor = await vscode.window.showTextDocument(doc);
    const line = doc.lineAt(4).text;
    const column = line.indexOf('createGreeter') + 3;
    editor.selection = new vscode.Selection(4, column, 4, column);
    const answer = (await vscode.commands.executeCommand('cairn.findReferences')) as MergedReferences;
    assert.equal(answer.name, 'createGreeter');
    assert.ok(answer.references.some((r) => r.path === 'src/index.ts' && r.line === 5 && r.certainty === 'certain'), JSON.stringify(answer.references));
  });

  /** Runs Find References with the caret at `line:column` (1-based) of a file, as a user does. */
  /** The files of an answer's certain references. */
  const certainIn = (a: MergedReferences) => [...new Set(a.references.filter((r) => r.certainty === 'certain').map((r) => r.path))].sort();

  it('from the cursor on a definition: only what resolves to that one (Ruler.length, not Vector.length)', async () => {
    const answer = await referencesAt(RULER_PATH, 2, 'length');
    assert.deepEqual(answer.definitions.map((d) => `${d.path}:${d.line}`), [`${RULER_PATH}:2`]);
    assert.deepEqual(certainIn(answer), [RULER_PATH], JSON.stringify(answer.references));
    assert.equal(at(answer, RULER_PATH, 8)?.certainty, 'certain', JSON.stringify(answer.references));
    // Vector's definition and its use through `this` are another definition's; a receiver of unknown type stays, a name match.
    assert.deepEqual([at(answer, 'src/math/vector.ts', 19), at(answer, 'src/math/vector.ts', 24)], [undefined, undefined], JSON.stringify(answer.references));
    assert.equal(at(answer, 'src/math/vector.ts', 38)?.certainty, 'name-match');
    assert.equal((await api()).results.view.description, 'References of Ruler.length');
  });

  it('from the cursor on a use the index resolves: the references of the definition it names', async () => {
    const ruler = await referencesAt(RULER_PATH, 8, 'length');
    assert.deepEqual(ruler.definitions.map((d) => `${d.path}:${d.line}`), [`${RULER_PATH}:2`]);
    assert.deepEqual(certainIn(ruler), [RULER_PATH], JSON.stringify(ruler.references));
    assert.equal(at(ruler, 'src/math/vector.ts', 24), undefined, JSON.stringify(ruler.references));
    const vector = await referencesAt('src/math/vector.ts', 24, 'length');
    assert.deepEqual(vector.definitions.map((d) => `${d.path}:${d.line}`), ['src/math/vector.ts:19']);
    assert.ok(vector.references.every((r) => r.path === 'src/math/vector.ts'), JSON.stringify(vector.references));
    assert.ok(at(vector, 'src/math/vector.ts', 38), JSON.stringify(vector.references));
  });

  it('shows the index’s answer at once, and the language server’s when it comes, never waiting for its timeout', async () => {
    const a = await api();
    let release: (locations: vscode.Location[]) => void = () => undefined;
    const answered = new Promise<vscode.Location[]>((resolve) => (release = resolve));
    const provider = vscode.languages.registerReferenceProvider({ language: 'python' }, { provideReferences: () => answered });
    await setSetting('references.languageServerTimeout', 60000);
    try {
      let done = false;
      const started = performance.now();
      const command = Promise.resolve(vscode.commands.executeCommand('cairn.findReferences', 'User')).then((x) => ((done = true), x as MergedReferences));
      await poll('the index’s references in the Results view', () => /asking the python language server/.test(a.results.view.message ?? ''), 15000, 20);
      const shownAfter = performance.now() - started;
      assert.equal(done, false, 'the command waited for the language server before showing anything');
      assert.equal(a.results.view.description, 'References of User');
      assert.ok((a.results.provider.getChildren() as RefFileNode[]).some((f) => f.path === 'app/models.py'));
      const models = vscode.Uri.joinPath(folder().uri, 'app', 'models.py');
      release([new vscode.Location(models, new vscode.Position(9, 6)), new vscode.Location(models, new vscode.Position(42, 24))]);
      const answer = await command;
      assert.ok(shownAfter < 10000, `shown after ${Math.round(shownAfter)} ms`);
      assert.match(answer.sources, /^python language server for 1 definition/, answer.sources);
      assert.equal(at(answer, 'app/models.py', 43)?.source, 'language server', JSON.stringify(answer.references));
      assert.match(a.results.view.message ?? '', /python language server for 1 definition/);
    } finally {
      provider.dispose();
      await setSetting('references.languageServerTimeout', undefined);
    }
  });

  it('the language-model tool answers with the merged references, each marked with its source', async () => {
    // What is checked is the merge: on a loaded machine TypeScript's server can take longer than
    // the default wait to answer, which the tool would rightly report as "no language server".
    await setSetting('references.languageServerTimeout', 60000);
    try {
      const text = await invoke('cairn_find_references', { name: 'Vector.length' });
      assert.match(text, /^sources: typescript language server for 1 definition/m, text);
      assert.match(text, /^ {2}24:22 {2}\[certain, language server\] {2}Vector\.normalize {2}const len = this\.length\(\);$/m, text);
      assert.match(text, /^ {2}8:12 {2}\[name\] {2}rulerLength {2}return r\.length\(\);$/m, text);
    } finally {
      await setSetting('references.languageServerTimeout', undefined);
    }
  });

  it('cairn.references.languageServerTimeout 0: the command and the tool ask no language server, and say so', async () => {
    await setSetting('references.languageServerTimeout', 0);
    try {
      const answer = (await vscode.commands.executeCommand('cairn.findReferences', 'Vector.length')) as MergedReferences;
      assert.equal(answer.sources, 'the index only (language servers not asked: cairn.references.languageServerTimeout is 0)');
      assert.ok(answer.references.every((r) => r.source === 'index'), JSON.stringify(answer.references));
      // `this.length()` inside Vector: the index resolves it by itself, no server needed.
      assert.equal(at(answer, 'src/math/vector.ts', 24)?.certainty, 'certain');
      const text = await invoke('cairn_find_references', { name: 'Vector.length' });
      assert.match(text, /^sources: the index only \(language servers not asked/m, text);
      assert.doesNotMatch(text, /language server\]/, text);
    } finally {
      await setSetting('references.languageServerTimeout', undefined);
    }
  });

  it('Python (no language server in this host): the index’s references, marked index, and the answer says so', async () => {
    const answer = (await vscode.commands.executeCommand('cairn.findReferences', 'User')) as MergedReferences;
    assert.match(answer.sources, /the index only for python \(no language server answered\)/, answer.sources);
    assert.ok(answer.references.length >= 3, JSON.stringify(answer.references));
    assert.ok(answer.references.every((r) => r.source === 'index' && r.path === 'app/models.py'));
    assert.ok(at(answer, 'app/models.py', 43)?.certainty === 'certain');
    const a = await api();
    assert.equal(a.results.view.description, 'References of User');
    assert.match(a.results.view.message ?? '', /4 references \(4 certain\) in 1 file — the index only for python/);
  });
});
