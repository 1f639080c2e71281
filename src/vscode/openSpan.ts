// Opens `path:start-end` of a workspace folder with a single caret, never a selection (a typed
// key must not replace the span): a search hit's caret on its matched line (VS Code's Search view
// opens a match so), a definition's on its name, a plain span's (a context-pack item) on its first
// line. The span is revealed and highlighted briefly so the eye finds it, then the highlight fades.
import * as vscode from 'vscode';
import { caretColumn, caretOf, matchColumn, type CaretHints } from './hitLine';

export interface SpanTarget extends CaretHints {
  folderUri?: string;
  folder?: string;
  path: string;
  startLine: number;
  endLine: number;
}

/** The caret's line (or a plain span) stands out this long, then the span stays faint until FADE_MS: 1.5 s in all. */
const STRONG_MS = 900;
const FADE_MS = 600;

/** The workspace folder a span belongs to: by URI, by name, else the only/first folder. */
export function folderOf(target: { folderUri?: string; folder?: string }): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return (
    (target.folderUri && folders.find((f) => f.uri.toString() === target.folderUri)) ||
    (target.folder && folders.find((f) => f.name === target.folder)) ||
    folders[0]
  );
}

export function spanUri(target: SpanTarget): vscode.Uri {
  const folder = folderOf(target);
  if (!folder) throw new Error(`no workspace folder for ${target.path}`);
  return vscode.Uri.joinPath(folder.uri, ...target.path.split('/'));
}

export class SpanOpener implements vscode.Disposable {
  private readonly strong = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly faint = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });
  private timers: NodeJS.Timeout[] = [];

  async open(target: SpanTarget): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(spanUri(target));
    const last = Math.max(0, doc.lineCount - 1);
    const start = Math.min(Math.max(target.startLine - 1, 0), last);
    const end = Math.min(Math.max(target.endLine - 1, start), last);
    const range = new vscode.Range(start, 0, end, doc.lineAt(end).text.length);
    const editor = await vscode.window.showTextDocument(doc, { preview: true });
    // Without a line to point at (a plain span), the caret goes to the span's first line.
    const pointed = caretOf(target);
    const caret = pointed ?? { line: start + 1 };
    const line = Math.min(Math.max(caret.line - 1, 0), last);
    const text = doc.lineAt(line).text;
    const column = Math.min(Math.max(caret.column ?? (line === (target.previewLine ?? 0) - 1 ? matchColumn(text, target.preview) : caretColumn(text, undefined)), 0), text.length);
    const at = new vscode.Position(line, column);
    editor.selections = [new vscode.Selection(at, at)];
    // The span in view where it fits, and the caret's line in view whatever the span's length.
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.highlight(editor, pointed ? doc.lineAt(line).range : range, range);
    return editor;
  }

  /** `strong` (the caret's line, or the whole span) stands out at first; the span stays faint a little longer. */
  private highlight(editor: vscode.TextEditor, strong: vscode.Range, span: vscode.Range): void {
    for (const t of this.timers.splice(0)) clearTimeout(t);
    for (const e of vscode.window.visibleTextEditors) {
      e.setDecorations(this.strong, []);
      e.setDecorations(this.faint, []);
    }
    editor.setDecorations(this.strong, [strong]);
    editor.setDecorations(this.faint, strong.isEqual(span) ? [] : [span]);
    this.timers.push(
      setTimeout(() => {
        editor.setDecorations(this.strong, []);
        editor.setDecorations(this.faint, [span]);
      }, STRONG_MS),
      setTimeout(() => editor.setDecorations(this.faint, []), STRONG_MS + FADE_MS),
    );
  }

  dispose(): void {
    for (const t of this.timers.splice(0)) clearTimeout(t);
    this.strong.dispose();
    this.faint.dispose();
  }
}
