// A hit's tooltip: what it is, where, and the score breakdown as a table that adds up.
import * as vscode from 'vscode';
import type { ScoreComponent, SearchHit } from '../../core/api';
import { hitName, hitTitle, kindIcon, languageName, spanReference } from '../format';

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

export function hitTooltip(hit: SearchHit & { folder?: string }, multiRoot: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportThemeIcons = true;
  // The whole name here: the label may be shortened.
  md.appendMarkdown(`$(${kindIcon(hit.kind)}) **${escapeMd(hitName(hit) || hitTitle(hit))}** — ${escapeMd(hit.kind)}\n\n`);
  md.appendMarkdown(`\`${spanReference(hit)}\`${multiRoot && hit.folder ? ` in ${escapeMd(hit.folder)}` : ''} · ${escapeMd(languageName(hit.language))}\n\n`);
  if (hit.signature) md.appendCodeblock(hit.signature, hit.language);
  if (hit.stale) md.appendMarkdown(`$(warning) The file changed since it was indexed (${hit.staleReason ?? 'modified'}); lines may have moved.\n\n`);
  if (hit.crossReferenceFrom) md.appendMarkdown(`Cross-reference from \`${escapeMd(hit.crossReferenceFrom)}\`\n\n`);
  md.appendMarkdown('| Score component | Value |\n|:--|--:|\n');
  for (const c of hit.scoreBreakdown) md.appendMarkdown(`| ${escapeMd(componentName(c))} | ${c.value.toFixed(3)} |\n`);
  md.appendMarkdown(`| **Total** | **${hit.score.toFixed(3)}** |\n`);
  return md;
}
