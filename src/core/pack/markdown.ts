// The Markdown form of a pack ("copy" and "insert into editor"): each item as `path:start-end`,
// its reason, then its code in a fenced block. Built from pieces so the pack builder can
// measure exactly what it adds against the budget.
import type { ContextPack, CutItem, GuidanceEntry, PackItem, RejectedFile, RelatedFile } from './types';

/** Estimated tokens of a text: ~3.5 characters per token for code and English. Deterministic. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

const FENCE_LANG: Record<string, string> = { typescript: 'ts', tsx: 'tsx', javascript: 'js', python: 'python', csharp: 'csharp', cpp: 'cpp', markdown: 'markdown', bash: 'bash' };

function fenceFor(text: string): string {
  let fence = '```';
  while (text.includes(fence)) fence += '`';
  return fence;
}

export function renderHeader(task: string, budgetTokens: number): string {
  return `# Context pack\n\n**Task:** ${task.replace(/\s+/g, ' ').trim()}\n\nBudget: ${budgetTokens} tokens (estimated). Spans are \`path:start-end\`, 1-based and inclusive.\n`;
}

export function renderMustInspectHeading(): string {
  return '\n## Must inspect\n';
}

export function renderItem(item: PackItem, index: number): string {
  const name = item.context || item.symbol;
  const lines = item.truncatedTo
    ? `${item.path}:${item.truncatedTo.startLine}-${item.truncatedTo.endLine} (of ${item.startLine}-${item.endLine}, cut to fit the budget)`
    : `${item.path}:${item.startLine}-${item.endLine}`;
  const head = `\n### ${index + 1}. \`${lines}\`${name ? ` — ${item.kind} ${name}` : ''}\n\n${item.reason}${item.stale ? ' _(file changed since indexing)_' : ''}\n`;
  if (item.text === undefined) return head;
  const fence = fenceFor(item.text);
  return `${head}\n${fence}${FENCE_LANG[item.language] ?? item.language}\n${item.text}\n${fence}\n`;
}

export function renderRelatedHeading(): string {
  return '\n## Related files\n\n';
}

export function renderRelated(r: RelatedFile): string {
  return `- \`${r.docid ?? r.path}\` — ${r.reason}\n`;
}

export function renderRejectedHeading(): string {
  return '\n## Considered and left out\n\n';
}

export function renderRejected(r: RejectedFile): string {
  return `- \`${r.docid ?? r.path}\` — ${r.reason}\n`;
}

export function renderCut(cut: readonly CutItem[]): string {
  if (cut.length === 0) return '';
  return `\n_Cut to fit the budget: ${cut.map((c) => `\`${c.docid}\` (${c.action === 'truncated' ? `kept ${c.keptTokens} of ${c.originalTokens} tokens` : 'text left out'})`).join(', ')}._\n`;
}

export function renderGuidance(entries: readonly GuidanceEntry[]): string {
  if (entries.length === 0) return '';
  return `\n## Guidance (context registry, advisory)\n\n${entries.map((e) => `- \`${e.id}\` — ${e.title} (trust: ${e.trust})\n`).join('')}`;
}

/** The whole pack as Markdown. */
export function renderPackMarkdown(pack: ContextPack): string {
  let out = renderHeader(pack.task, pack.budgetTokens);
  if (pack.mustInspect.length) {
    out += renderMustInspectHeading();
    pack.mustInspect.forEach((item, i) => (out += renderItem(item, i)));
  }
  if (pack.relatedFiles.length) {
    out += renderRelatedHeading();
    for (const r of pack.relatedFiles) out += renderRelated(r);
  }
  if (pack.rejectedFiles.length) {
    out += renderRejectedHeading();
    for (const r of pack.rejectedFiles) out += renderRejected(r);
  }
  out += renderGuidance(pack.guidance);
  out += renderCut(pack.cut);
  return out;
}
