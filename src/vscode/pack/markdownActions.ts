// "Copy as Markdown" and "put it into the editor": the pack exactly as renderPackMarkdown
// writes it for agents (the same text the CLI and MCP server return).
import * as vscode from 'vscode';
import { estimateTokens, renderPackMarkdown } from '../../core/pack/markdown';
import type { ContextPack } from '../../core/pack/types';
import type { InsertTarget } from '../../webview/pack/protocol';

export async function copyPackMarkdown(pack: ContextPack): Promise<string> {
  const markdown = renderPackMarkdown(pack);
  await vscode.env.clipboard.writeText(markdown);
  return `Copied the pack as Markdown (about ${estimateTokens(markdown)} tokens).`;
}

/**
 * Inserts the pack. `newDocument`: an untitled Markdown document beside the panel's editor group.
 * `cursor`: at the cursor of the last active text editor, replacing its selection (as a paste does).
 */
export async function insertPackMarkdown(pack: ContextPack, target: InsertTarget, editor: vscode.TextEditor | undefined): Promise<string> {
  const markdown = renderPackMarkdown(pack);
  if (target === 'newDocument') {
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
    await vscode.window.showTextDocument(doc, { viewColumn: editor?.viewColumn ?? vscode.ViewColumn.Beside, preview: false });
    return 'Opened the pack in a new Markdown document.';
  }
  if (!editor) throw new Error('No text editor to insert into: click into a file first, or use “New Markdown document”.');
  // A WorkspaceEdit works whether or not the editor is visible right now (the panel may cover it).
  const selection = editor.selection;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(editor.document.uri, selection, markdown);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not edit ${vscode.workspace.asRelativePath(editor.document.uri)}.`);
  const start = selection.start;
  const lines = markdown.split('\n');
  const end = new vscode.Position(start.line + lines.length - 1, (lines.length === 1 ? start.character : 0) + (lines.at(-1)?.length ?? 0));
  await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn ?? vscode.ViewColumn.Active, selection: new vscode.Selection(end, end), preview: false });
  return `Inserted the pack into ${vscode.workspace.asRelativePath(editor.document.uri)} at line ${start.line + 1}.`;
}
