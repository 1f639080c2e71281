// The measurement half of scripts/refs-ls-check.mjs, run inside VS Code with the measured
// repository as the workspace: for each name in $CAIRN_REFS_LS_NAMES (Cairn's one definition of
// it), the language server's references at the definition's name, written to
// $CAIRN_REFS_LS_ANSWERS, and its go-to-definition at each of Cairn's certain references those
// do not hold. The script scores them against Cairn's (src/eval/lsRefs.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DefinitionPlace } from '../../../src/eval/refsCheck';
import { unconfirmedCertain, type LsAnswer, type LsDefinitionsAt, type LsLocation } from '../../../src/eval/lsRefs';
import type { CairnReference } from '../../../src/eval/refsCheck';

interface NameToAsk {
  name: string;
  definition: DefinitionPlace;
  /** Cairn's certain references. */
  certain: CairnReference[];
}

/**
 * Every TS/JS file is kept open, so the server loads every project of the repository: it looks
 * for references only in the projects it has loaded that hold the file, and a src file's project
 * need not hold the tests (hono's tests are in tsconfig.spec.json, which tsconfig.build.json
 * does not reference). VS Code closes a document no editor shows three minutes after it was last
 * opened, so they are opened again every minute.
 */
const SOURCES = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';
const REOPEN_MS = 60_000;
/** How long the first answer may take: tsserver loads the whole project for it. */
const FIRST_ANSWER_MS = 240_000;
/** Tries for a later name whose answer is empty (a project of another tsconfig loading). */
const RETRIES = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function locationOf(folder: vscode.Uri, loc: vscode.Location): LsLocation | undefined {
  if (loc.uri.scheme !== 'file') return undefined;
  const rel = path.relative(folder.fsPath, loc.uri.fsPath);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const r = loc.range;
  return { path: rel.split(path.sep).join('/'), line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** Go-to-definition at a place: its targets' name ranges where the server gives them. */
async function definitionsAt(folder: vscode.Uri, at: { path: string; line: number; column: number }): Promise<LsDefinitionsAt> {
  const found = (await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink> | undefined>('vscode.executeDefinitionProvider', vscode.Uri.joinPath(folder, at.path), new vscode.Position(at.line - 1, at.column - 1))) ?? [];
  const locations = found
    .map((l) => locationOf(folder, 'targetUri' in l ? new vscode.Location(l.targetUri, l.targetSelectionRange ?? l.targetRange) : l))
    .filter((l): l is LsLocation => l !== undefined);
  return { path: at.path, line: at.line, column: at.column, locations };
}

async function referencesAt(uri: vscode.Uri, d: DefinitionPlace): Promise<vscode.Location[]> {
  return (await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, new vscode.Position(d.line - 1, d.column - 1))) ?? [];
}

describe('Language server references of sampled names (measurement)', function () {
  this.timeout(0);

  it('asks the language server for the references of every name', async () => {
    const input = process.env.CAIRN_REFS_LS_NAMES;
    const output = process.env.CAIRN_REFS_LS_ANSWERS;
    assert.ok(input && output, 'CAIRN_REFS_LS_NAMES and CAIRN_REFS_LS_ANSWERS must name the input and output files');
    const names = JSON.parse(fs.readFileSync(input, 'utf8')) as NameToAsk[];
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'no workspace folder');
    const answers: LsAnswer[] = [];
    const save = () => fs.writeFileSync(output, JSON.stringify(answers, null, 1));
    const sources = await vscode.workspace.findFiles(SOURCES, '**/node_modules/**');
    let opened = 0;
    const openAll = async () => {
      for (const uri of sources) await vscode.workspace.openTextDocument(uri).then(undefined, () => undefined);
      opened = performance.now();
    };
    await openAll();
    console.log(`[vscode-test] ${sources.length} TS/JS files open`);
    let warm = false;
    for (const [i, n] of names.entries()) {
      if (performance.now() - opened > REOPEN_MS) await openAll();
      const uri = vscode.Uri.joinPath(folder, n.definition.path);
      const started = performance.now();
      let found: vscode.Location[] = [];
      let error: string | undefined;
      try {
        await vscode.workspace.openTextDocument(uri);
        const deadline = started + (warm ? 0 : FIRST_ANSWER_MS);
        for (let attempt = 0; ; attempt++) {
          found = await referencesAt(uri, n.definition);
          if (found.length > 0 || (warm ? attempt >= RETRIES : performance.now() > deadline)) break;
          await sleep(warm ? 1000 : 2000);
        }
        if (found.length > 0) warm = true;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const locations = found.map((l) => locationOf(folder, l)).filter((l): l is LsLocation => l !== undefined);
      const checked: LsDefinitionsAt[] = [];
      if (locations.length > 0) for (const r of unconfirmedCertain(n.name, n.definition, n.certain, locations)) checked.push(await definitionsAt(folder, r).catch(() => ({ ...r, locations: [] })));
      answers.push({ name: n.name, definition: n.definition, locations, outside: found.length - locations.length, definitionsAt: checked, ...(error ? { error } : {}), ms: Math.round(performance.now() - started) });
      if (i % 20 === 0) {
        console.log(`[vscode-test] ${i + 1}/${names.length} ${n.name}: ${found.length} locations in ${Math.round(performance.now() - started)} ms`);
        save();
      }
    }
    save();
    assert.ok(warm, 'the language server never answered');
  });
});
