// Small presentation helpers shared by the views, pickers and status bar.
import * as vscode from 'vscode';
import type { RefreshProgress } from '../core/engine/indexer';
import type { ScoreComponent, SearchHit } from '../core/search/types';
import { shownLine } from './hitLine';

/** `path:start-end`, the reference users paste into chats and agents. */
export function spanReference(hit: { path: string; startLine: number; endLine: number }): string {
  return `${hit.path}:${hit.startLine}-${hit.endLine}`;
}

/** "just now", "2 min ago", "3 h ago", "5 days ago". */
export function relativeTime(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** 1234567 → "1,234,567" (without Intl: its first use costs milliseconds at activation). */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${thousands(n)} ${n === 1 ? noun : plural}`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Percent done of a refresh (reading and chunking is the bulk of the work). */
export function progressPercent(p: RefreshProgress | undefined): number | undefined {
  if (!p) return undefined;
  if ((p.phase === 'read' || p.phase === 'chunk') && p.total > 0) return Math.min(99, Math.floor((p.done / p.total) * 100));
  if (p.phase === 'write' || p.phase === 'merge') return 99;
  return 0;
}

export function progressText(p: RefreshProgress | undefined): string {
  if (!p) return 'starting';
  switch (p.phase) {
    case 'wait':
      return p.message ?? 'waiting for another writer';
    case 'discover':
      return 'listing files';
    case 'read':
      return `reading ${thousands(p.done)}/${thousands(p.total)} files`;
    case 'chunk':
      return `indexing ${thousands(p.done)}/${thousands(p.total)} files`;
    case 'write':
      return 'writing the index';
    case 'merge':
      return 'merging segments';
  }
}

const KIND_ICONS: Record<string, string> = {
  function: 'symbol-function',
  method: 'symbol-method',
  constructor: 'symbol-constructor',
  class: 'symbol-class',
  interface: 'symbol-interface',
  type: 'symbol-type-parameter',
  enum: 'symbol-enum',
  struct: 'symbol-structure',
  union: 'symbol-structure',
  trait: 'symbol-interface',
  impl: 'symbol-class',
  module: 'symbol-module',
  namespace: 'symbol-namespace',
  constant: 'symbol-constant',
  variable: 'symbol-variable',
  property: 'symbol-property',
  macro: 'symbol-operator',
  rule: 'symbol-ruler',
  element: 'symbol-misc',
  key: 'symbol-key',
  section: 'symbol-text',
  code: 'code',
  text: 'symbol-text',
};

export function kindIcon(kind: string): string {
  return KIND_ICONS[kind] ?? 'symbol-misc';
}

/** What a hit is called: its symbol or breadcrumb, else its line range. */
export function hitTitle(hit: Pick<SearchHit, 'symbol' | 'context' | 'startLine' | 'endLine' | 'kind'>): string {
  if (hit.symbol) return hit.context && hit.context.endsWith(hit.symbol) && hit.context.length > hit.symbol.length ? hit.context : hit.symbol;
  if (hit.context) return hit.context;
  return hit.startLine === hit.endLine ? `line ${hit.startLine}` : `lines ${hit.startLine}–${hit.endLine}`;
}

/** The first non-empty preview line (the chunk's best match), without the «match» markers. */
export function previewLine(hit: Pick<SearchHit, 'preview' | 'previewLine' | 'startLine'>): string {
  return shownLine(hit).text;
}

/** `LINE: text` of the line a hit's preview shows, as VS Code's Search view lists a match; '' without a preview. */
export function matchedLine(hit: Pick<SearchHit, 'preview' | 'previewLine' | 'startLine'>): string {
  const shown = shownLine(hit);
  return shown.text ? `${shown.line}: ${shown.text}` : '';
}

/** The line a hit opens at and names: its preview's line, else its first line. */
export function hitLine(hit: Pick<SearchHit, 'preview' | 'previewLine' | 'startLine'>): number {
  return hit.preview ? shownLine(hit).line : hit.startLine;
}

function componentName(c: ScoreComponent): string {
  switch (c.kind) {
    case 'field':
      return `\`${c.term}\` in ${c.field}`;
    case 'boost':
      return `${c.name} ×${c.factor}`;
    case 'match':
      return c.name;
  }
}

const escapeMd = (s: string): string => s.replace(/[|\\`*_[\]<>]/g, (ch) => `\\${ch}`);

/** Tooltip for a hit: what it is, where, and the score breakdown as a table that adds up. */
export function hitTooltip(hit: SearchHit & { folder?: string }, multiRoot: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportThemeIcons = true;
  md.appendMarkdown(`$(${kindIcon(hit.kind)}) **${escapeMd(hitTitle(hit))}** — ${escapeMd(hit.kind)}\n\n`);
  md.appendMarkdown(`\`${spanReference(hit)}\`${multiRoot && hit.folder ? ` in ${escapeMd(hit.folder)}` : ''} · ${escapeMd(hit.language)}\n\n`);
  if (hit.signature) md.appendCodeblock(hit.signature, hit.language);
  if (hit.stale) md.appendMarkdown(`$(warning) The file changed since it was indexed (${hit.staleReason ?? 'modified'}); lines may have moved.\n\n`);
  if (hit.crossReferenceFrom) md.appendMarkdown(`Cross-reference from \`${escapeMd(hit.crossReferenceFrom)}\`\n\n`);
  md.appendMarkdown('| Score component | Value |\n|:--|--:|\n');
  for (const c of hit.scoreBreakdown) md.appendMarkdown(`| ${escapeMd(componentName(c))} | ${c.value.toFixed(3)} |\n`);
  md.appendMarkdown(`| **Total** | **${hit.score.toFixed(3)}** |\n`);
  return md;
}
