// A pack's token budget: must-inspect spans with their text (cut to fit, never silently
// dropped), then guidance and the rejected list as room allows, and a last check that the
// rendered pack stays within the budget.
import { estimateTokens, renderCut, renderGuidance, renderItem, renderPackMarkdown, renderRejected, renderRejectedHeading } from './markdown';
import { shortReason, toItem, toRelated, type Candidate } from './candidates';
import type { PackContext } from './context';
import { readingOrder } from './order';
import type { ContextPack, CutItem, GuidanceEntry, PackItem, RejectedFile, RelatedFile } from './types';

/** A span is cut down to no fewer tokens than this; with less room it moves to the related files. */
const MIN_ITEM_TOKENS = 60;
const MAX_REJECTED_LISTED = 15;

export interface MustInspectFit {
  items: PackItem[];
  cut: CutItem[];
  /** Spans with no room for their text: listed first among the related files, saying why. */
  movedToRelated: RelatedFile[];
  /** Tokens left, the cut line's cost taken. */
  remaining: number;
}

/**
 * The must-inspect spans, in the order the budget is spent on them, each whole when it fits
 * both `mustLimit` (its share) and `remaining`, else cut to its first lines; returned in
 * reading order (order.ts). The first `firstRound` spans (one of each top file)
 * share the room before any later span gets some: each is kept whole when all fit, else cut
 * to an even share, and when even that is too small the lowest of them give up their share.
 * The first span is always shown, cut down if need be, as long as the whole budget allows.
 */
export function fitMustInspect(ctx: PackContext, candidates: readonly Candidate[], mustLimit: number, remaining: number, firstRound = 0): MustInspectFit {
  const cut: CutItem[] = [];
  const cutCost = () => estimateTokens(renderCut(cut));
  let mustSpent = 0;
  const items: PackItem[] = [];
  const movedToRelated: RelatedFile[] = [];
  const withTexts: PackItem[] = candidates.map((c) => ({ ...toItem(c), text: ctx.text(c.hit) ?? '' }));
  const costs = withTexts.map((item, i) => estimateTokens(renderItem(item, i)));
  candidates.forEach((c, i) => {
    const withText = withTexts[i] as PackItem;
    const cost = estimateTokens(renderItem(withText, items.length));
    const room = () => Math.min(mustLimit - mustSpent, remaining) - cutCost();
    const allowance = i < firstRound ? shareOf(cost, costs.slice(i + 1, firstRound), room(), withTexts.slice(i + 1, firstRound)) : room();
    if (cost <= allowance) {
      withText.tokens = cost;
      items.push(withText);
      mustSpent += cost;
      remaining -= cost;
      return;
    }
    const entry: CutItem = { docid: withText.docid, originalTokens: cost, keptTokens: cost, action: 'truncated' };
    cut.push(entry);
    const own = allowance - (cutCost() - estimateTokens(renderCut(cut.slice(0, -1))));
    const truncRoom = items.length === 0 && own < MIN_ITEM_TOKENS ? remaining - cutCost() : own;
    const truncated = truncRoom >= MIN_ITEM_TOKENS ? truncateToFit(withText, items.length, truncRoom) : undefined;
    if (truncated) {
      entry.keptTokens = truncated.tokens;
      items.push(truncated);
      mustSpent += truncated.tokens;
      remaining -= truncated.tokens;
      return;
    }
    // No room for its text: it is listed with the related files (saying why), not in the cut line.
    cut.pop();
    movedToRelated.push({ ...toRelated(c), reason: `${shortReason(c.reasons)} No room for its text in the budget.` });
  });
  remaining -= cutCost();
  // Placed in the budget's order; read in the files' order, each file's spans together. An
  // item's number changes with its place, and so may its cost by a digit.
  const read = readingOrder(items).map((item, i) => ({ ...item, tokens: estimateTokens(renderItem(item, i)) }));
  remaining -= read.reduce((s, item) => s + item.tokens, 0) - items.reduce((s, item) => s + item.tokens, 0);
  return { items: read, cut, movedToRelated, remaining };
}

/**
 * The tokens a span may take out of `room` so that each of the spans after it (`later`, whole
 * costs) still gets an even share: the room is filled level, small spans whole and the others
 * cut to the same size, each cut one reserving its entry in the cut line. Spans that would get
 * less than a readable share leave the count, lowest first.
 */
function shareOf(cost: number, later: readonly number[], room: number, laterItems: readonly PackItem[]): number {
  // A cut span's entry in the cut line, its kept tokens written with as many digits as its whole cost.
  const cutEntry = (j: number) => estimateTokens(`\`${(laterItems[j] as PackItem).docid}\` (kept ${later[j]} of ${later[j]} tokens), `);
  for (let n = later.length; n >= 0; n--) {
    const counted = later.slice(0, n);
    const level = waterLevel([cost, ...counted], room - counted.reduce((s, _, j) => s + cutEntry(j), 0));
    if (level === Infinity) return room - counted.reduce((s, c) => s + c, 0);
    if (level >= MIN_ITEM_TOKENS || n === 0) return room - counted.reduce((s, c, j) => s + (c > level ? Math.floor(level) + cutEntry(j) : c), 0);
  }
  return room;
}

/** The largest cap such that the costs, each capped, sum to at most `room` (Infinity when all fit whole). */
function waterLevel(costs: readonly number[], room: number): number {
  if (costs.reduce((s, c) => s + c, 0) <= room) return Infinity;
  const sorted = [...costs].sort((a, b) => a - b);
  let left = room;
  for (let i = 0; i < sorted.length; i++) {
    const share = left / (sorted.length - i);
    if ((sorted[i] as number) > share) return Math.max(0, share);
    left -= sorted[i] as number;
  }
  return Infinity;
}

/** The item cut to as many of its first lines as fit `room` tokens, or undefined when none fit. */
function truncateToFit(item: PackItem, index: number, room: number): PackItem | undefined {
  const lines = (item.text ?? '').split('\n');
  let lo = 1;
  let hi = lines.length - 1;
  let bestItem: PackItem | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const candidate: PackItem = { ...item, text: `${lines.slice(0, mid).join('\n')}\n… (${lines.length - mid} more lines)`, truncatedTo: { startLine: item.startLine, endLine: item.startLine + mid - 1 } };
    const cost = estimateTokens(renderItem(candidate, index));
    if (cost <= room) {
      bestItem = { ...candidate, tokens: cost };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return bestItem;
}

/** The first guidance entries (at most 5) that fit. */
export function fitGuidance(guidance: readonly GuidanceEntry[], remaining: number): { shown: GuidanceEntry[]; remaining: number } {
  let shown: GuidanceEntry[] = [];
  for (const g of guidance.slice(0, 5)) {
    const next = [...shown, g];
    const delta = estimateTokens(renderGuidance(next)) - estimateTokens(renderGuidance(shown));
    if (delta > remaining) break;
    shown = next;
    remaining -= delta;
  }
  return { shown, remaining };
}

/** The rejected candidates listed (once each, the rest summed up in one line) as room allows; `unlisted` counts the others. */
export function listRejected(rejected: RejectedFile[], remaining: number): { listed: RejectedFile[]; unlisted: number; remaining: number } {
  const listed: RejectedFile[] = [];
  const all = summariseRejected(rejected);
  for (const r of all) {
    const cost = estimateTokens(renderRejected(r)) + (listed.length ? 0 : estimateTokens(renderRejectedHeading()));
    if (cost > remaining) break;
    listed.push(r);
    remaining -= cost;
  }
  return { listed, unlisted: all.length - listed.length, remaining };
}

function summariseRejected(rejected: RejectedFile[]): RejectedFile[] {
  const seen = new Set<string>();
  const unique = rejected.filter((r) => {
    const key = r.docid ?? r.path;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length <= MAX_REJECTED_LISTED) return unique;
  const listed = unique.slice(0, MAX_REJECTED_LISTED - 1);
  listed.push({ path: '…', reason: `${unique.length - listed.length} more candidates left out (weaker matches, duplicates or over limits)` });
  return listed;
}

/** The budget is a hard limit on the rendered pack: verify, and trim from the least useful end if needed. */
export function trimToBudget(pack: ContextPack, budget: number): void {
  while (estimateTokens(renderPackMarkdown(pack)) > budget) {
    if (pack.rejectedFiles.length) pack.rejectedFiles.pop();
    else if (pack.relatedFiles.length) pack.relatedFiles.pop();
    else if (pack.guidance.length) pack.guidance.pop();
    else if (pack.mustInspect.length) {
      const last = pack.mustInspect.pop() as PackItem;
      pack.cut.push({ docid: last.docid, originalTokens: last.tokens, keptTokens: 0, action: 'moved-to-related' });
    } else break;
  }
}
