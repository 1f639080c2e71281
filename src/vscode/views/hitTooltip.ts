// A hit's tooltip: what it is, where, and why it ranks where it does, in plain words (the score's
// parts as a table that adds up; no query notation or field names of the index).
import * as vscode from 'vscode';
import type { SearchHit } from '../../core/api';
import { hitName, hitTitle, kindIcon, languageName, spanReference } from '../format';
import { scoreWords } from '../plainText';

const escapeMd = (s: string): string => s.replace(/[|\\`*_[\]<>#]/g, (ch) => `\\${ch}`);

/** The heading of the score table, as the in-host suite and people find it. */
export const SCORE_TABLE_HEADER = '| Why it ranks here | Points |';

export function hitTooltip(hit: SearchHit & { folder?: string }, multiRoot: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.supportThemeIcons = true;
  // The whole name here: the label may be shortened.
  md.appendMarkdown(`$(${kindIcon(hit.kind)}) **${escapeMd(hitName(hit) || hitTitle(hit))}** — ${escapeMd(hit.kind)}\n\n`);
  md.appendMarkdown(`${escapeMd(spanReference(hit))}${multiRoot && hit.folder ? ` in ${escapeMd(hit.folder)}` : ''} · ${escapeMd(languageName(hit.language))}\n\n`);
  if (hit.signature) md.appendCodeblock(hit.signature, hit.language);
  if (hit.stale) md.appendMarkdown(`$(warning) The file changed since it was indexed (${escapeMd(hit.staleReason ?? 'modified')}); lines may have moved.\n\n`);
  if (hit.crossReferenceFrom) md.appendMarkdown(`Mentioned in ${escapeMd(hit.crossReferenceFrom)}\n\n`);
  md.appendMarkdown(`${SCORE_TABLE_HEADER}\n|:--|--:|\n`);
  for (const c of hit.scoreBreakdown) md.appendMarkdown(`| ${escapeMd(scoreWords(c))} | ${c.value.toFixed(3)} |\n`);
  md.appendMarkdown(`| **Total** | **${hit.score.toFixed(3)}** |\n`);
  return md;
}
