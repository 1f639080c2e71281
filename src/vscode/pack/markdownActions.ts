// "Copy as Markdown" and "put it into the editor": the pack exactly as renderPackMarkdown
// writes it for agents (the same text the CLI and MCP server return).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { estimateTokens, renderPackMarkdown } from '../../core/clientApi';
import type { ContextPack } from '../../core/api';
import type { InsertTarget } from '../../webview/pack/protocol';

export async function copyPackMarkdown(pack: ContextPack): Promise<string> {
  const markdown = renderPackMarkdown(pack);
  await vscode.env.clipboard.writeText(markdown);
  return `Copied the pack as Markdown (about ${estimateTokens(markdown).toLocaleString('en-US')} tokens).`;
}

/** Documents a pack belongs in without asking: prose. Anything else is someone's code or data. */
const PROSE_LANGUAGES = new Set(['markdown', 'plaintext']);

/** The questions an insert asks the user. */
export interface InsertDialogs {
  /** Asked before writing into a file that is not Markdown or plain text: true to go ahead. */
  confirmInsert(fileName: string): Thenable<boolean>;
  /** Shown after an insert, offering to undo it: true when the user chose Undo. */
  offerUndo(message: string): Thenable<boolean>;
  /** Tells the user something went wrong after the fact (an undo that could not be done). */
  warn(message: string): void;
}

/** The dialogs every insert uses: VS Code's own. The extension's API hands this object to tests, which may answer in its place. */
export const insertDialogs: InsertDialogs = {
  confirmInsert: (fileName) =>
    vscode.window
      .showWarningMessage(`Insert into ${fileName}?`, { modal: true, detail: `${fileName} is not a Markdown document. The pack is Markdown text; it is inserted at the cursor, and nothing selected is replaced.` }, 'Insert')
      .then((choice) => choice === 'Insert'),
  offerUndo: (message) => vscode.window.showInformationMessage(message, 'Undo').then((choice) => choice === 'Undo'),
  warn: (message) => void vscode.window.showWarningMessage(message),
};

/** What an insert at the cursor did (or why it did nothing), and, once settled, what became of the offer to undo it. */
export interface InsertOutcome {
  message: string;
  /** Resolves when the Undo offer is settled: true if the insert was undone. */
  undone?: Promise<boolean>;
}

/** The end of `text` inserted at `start` (line breaks of any kind; VS Code writes them in the document's own). */
function endAfter(start: vscode.Position, text: string): vscode.Position {
  const lines = text.split(/\r\n|\r|\n/);
  const last = lines.at(-1)?.length ?? 0;
  return lines.length === 1 ? start.translate(0, last) : new vscode.Position(start.line + lines.length - 1, last);
}

/**
 * Follows a range of a document through later edits: edits before it move it, edits after it
 * leave it, an edit touching it ends it (the text is no longer only what was inserted).
 */
function trackRange(doc: vscode.TextDocument, range: vscode.Range): { range(): vscode.Range | undefined; dispose(): void } {
  let start: number | undefined = doc.offsetAt(range.start);
  const length = doc.offsetAt(range.end) - start;
  const subscription = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document !== doc || start === undefined) return;
    // Every change's offsets are against the document before the event.
    const before = start;
    let shift = 0;
    for (const c of e.contentChanges) {
      if (c.rangeOffset + c.rangeLength <= before) shift += c.text.length - c.rangeLength;
      else if (c.rangeOffset < before + length) {
        start = undefined;
        return;
      }
    }
    start = before + shift;
  });
  return {
    range: () => (start === undefined ? undefined : new vscode.Range(doc.positionAt(start), doc.positionAt(start + length))),
    dispose: () => subscription.dispose(),
  };
}

const sameText = (a: string, b: string): boolean => a.replace(/\r\n?/g, '\n') === b.replace(/\r\n?/g, '\n');

/**
 * Inserts the pack. `newDocument`: an untitled Markdown document beside the panel's editor group.
 * `cursor`: at the caret of the last active text editor. A selection is never replaced: the
 * caret is where the user last clicked or typed, while a selection in an editor the user left
 * for the panel is easily forgotten (replacing it turned a whole function into the pack). Into
 * anything but Markdown or plain text it asks first. Afterwards a notification offers Undo,
 * which removes exactly the inserted text.
 */
export async function insertPackMarkdown(pack: ContextPack, target: InsertTarget, editor: vscode.TextEditor | undefined, dialogs: InsertDialogs = insertDialogs): Promise<InsertOutcome> {
  const markdown = renderPackMarkdown(pack);
  if (target === 'newDocument') {
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
    await vscode.window.showTextDocument(doc, { viewColumn: editor?.viewColumn ?? vscode.ViewColumn.Beside, preview: false });
    return { message: 'Opened the pack in a new Markdown document.' };
  }
  if (!editor) throw new Error('No text editor to insert into: click into a file first, or use “New Markdown document”.');
  const doc = editor.document;
  const fileName = path.posix.basename(doc.uri.path) || vscode.workspace.asRelativePath(doc.uri);
  if (!PROSE_LANGUAGES.has(doc.languageId) && !(await dialogs.confirmInsert(fileName))) return { message: `Nothing was inserted into ${fileName}.` };
  if (doc.isClosed) throw new Error(`${fileName} was closed; nothing was inserted.`);
  // The caret (the selection's active end), read after the question: the user may have moved it meanwhile.
  const start = editor.selection.active;
  const edit = new vscode.WorkspaceEdit();
  // A WorkspaceEdit works whether or not the editor is visible right now (the panel may cover it).
  edit.insert(doc.uri, start, markdown);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not edit ${vscode.workspace.asRelativePath(doc.uri)}.`);
  const inserted = new vscode.Range(start, endAfter(start, markdown));
  await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn ?? vscode.ViewColumn.Active, selection: new vscode.Selection(inserted.end, inserted.end), preview: false });
  const message = `Inserted the pack into ${fileName} at line ${start.line + 1}.`;
  const tracked = trackRange(doc, inserted);
  const undone = Promise.resolve(dialogs.offerUndo(message))
    .then(async (undo) => {
      if (!undo) return false;
      const range = tracked.range();
      if (!range || doc.isClosed || !sameText(doc.getText(range), markdown)) {
        dialogs.warn(`The pack in ${fileName} was edited since it was inserted; nothing was undone.`);
        return false;
      }
      const removal = new vscode.WorkspaceEdit();
      removal.delete(doc.uri, range);
      return vscode.workspace.applyEdit(removal);
    })
    .finally(() => tracked.dispose());
  return { message, undone };
}
