// "References of X" in the Results view: the merged references (index and language server)
// grouped by file, each row opening `path:line:column`, certain or name match and the source
// in its description and tooltip.
import * as vscode from 'vscode';
import { displayBreadcrumb, type SourcedReferenceHit } from '../../core/api';
import type { MergedReferences } from '../references/findReferences';
import { count, formatNumber } from '../format';

/** What the view shows: the answer, for which name, in which folder. */
export interface ShownReferences {
  name: string;
  folderUri: string;
  answer: MergedReferences;
}

export interface RefFileNode {
  type: 'refFile';
  folder: string;
  folderUri: string;
  path: string;
  refs: SourcedReferenceHit[];
  certain: number;
  rank: number;
}

export interface RefNode {
  type: 'ref';
  folder: string;
  folderUri: string;
  ref: SourcedReferenceHit;
}

const EXPANDED_FILES = 8;

/** Files in the order their first reference comes (certain ones first), references by line. */
export function groupReferences(shown: ShownReferences): RefFileNode[] {
  const files = new Map<string, RefFileNode>();
  for (const ref of shown.answer.references) {
    let node = files.get(ref.path);
    if (!node) files.set(ref.path, (node = { type: 'refFile', folder: shown.answer.folder, folderUri: shown.folderUri, path: ref.path, refs: [], certain: 0, rank: files.size }));
    node.refs.push(ref);
    if (ref.certainty === 'certain') node.certain++;
  }
  for (const f of files.values()) f.refs.sort((a, b) => a.line - b.line || a.column - b.column);
  return [...files.values()];
}

/** `certain · language server` / `name match · index`, and the role when it is not a plain use. */
export function referenceDescription(ref: SourcedReferenceHit): string {
  return [ref.certainty === 'certain' ? 'certain' : 'name match', ref.source, ...(ref.role === 'import' || ref.role === 'definition' ? [ref.role] : [])].join(' · ');
}

/** The view's message: `5 references (3 certain) in 2 files`, and who answered. */
export function referencesMessage(shown: ShownReferences): string {
  const a = shown.answer;
  const what = a.total === 0 ? (a.note ?? `No references to ${shown.name} in code`) : `${count(a.total, 'reference')} (${formatNumber(a.certain)} certain) in ${count(a.byFile.length, 'file')}`;
  return `${what} — ${a.sources}`;
}

export function refFileItem(node: RefFileNode, multi: boolean): vscode.TreeItem {
  const slash = node.path.lastIndexOf('/');
  const item = new vscode.TreeItem(node.path.slice(slash + 1), node.rank < EXPANDED_FILES ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `refFile:${node.folderUri}:${node.path}`;
  item.resourceUri = vscode.Uri.joinPath(vscode.Uri.parse(node.folderUri), ...node.path.split('/'));
  item.iconPath = vscode.ThemeIcon.File;
  item.description = [multi ? node.folder : '', slash >= 0 ? node.path.slice(0, slash) : '', `${formatNumber(node.refs.length)} (${formatNumber(node.certain)} certain)`].filter(Boolean).join(' · ');
  item.tooltip = `${node.path} — ${count(node.refs.length, 'reference')}, ${formatNumber(node.certain)} certain`;
  item.contextValue = 'cairn.refFile';
  return item;
}

export function refItem(node: RefNode): vscode.TreeItem {
  const { ref } = node;
  const item = new vscode.TreeItem(ref.text || `${ref.path}:${ref.line}`, vscode.TreeItemCollapsibleState.None);
  item.id = `ref:${node.folderUri}:${ref.path}:${ref.line}:${ref.column}`;
  item.iconPath = new vscode.ThemeIcon(ref.certainty === 'certain' ? 'references' : 'question');
  item.description = `${ref.line}:${ref.column}  ${referenceDescription(ref)}`;
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(`${ref.path}:${ref.line}:${ref.column}${ref.context ? ` in ${displayBreadcrumb(ref.context, ref.language)}` : ''}\n`);
  tooltip.appendText(`${ref.certainty === 'certain' ? 'Certain' : 'Name match'} (${ref.reason}); from the ${ref.source}.`);
  if (ref.resolvesTo) tooltip.appendText(`\nResolves to the definition at ${ref.resolvesTo.path}:${ref.resolvesTo.line}.`);
  item.tooltip = tooltip;
  item.contextValue = 'cairn.ref';
  // One caret at the name, nothing selected (as every Cairn result opens).
  item.command = { command: 'cairn.openSpan', title: 'Open', arguments: [{ folderUri: node.folderUri, path: ref.path, startLine: ref.line, endLine: ref.line, at: { line: ref.line, column: ref.column - 1 } }] };
  item.accessibilityInformation = { label: `${ref.path} line ${ref.line}, ${referenceDescription(ref)}: ${ref.text}` };
  return item;
}
