// Compact text for models: spans as `path:start-end`, a few preview lines, one line of index
// freshness, and a plain statement whenever something was left out to fit a budget.


import { displayBreadcrumb, evidenceParts, refreshingFiles, type FileHit, type IndexStatus, type RefreshReport, type SearchHit, type SymbolHit, type FreshnessState, type FreshnessSummary } from '../core/api';
import { estimateTokens } from '../core/clientApi';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** One line saying how current the index was when the tool answered. */
export function describeFreshness(state: FreshnessState): string {
  switch (state.kind) {
    case 'refreshed':
      return describeRefresh(state.report, 'index');
    case 'recent':
      return `index: checked ${seconds(state.checkedAgoMs)} ago${state.lastFailure ? ` (that refresh failed: ${state.lastFailure})` : ''}; call refresh_index if you changed files since`;
    case 'refreshing': {
      const p = state.progress;
      const phase = p ? ` (${p.phase}${p.total ? ` ${p.done}/${p.total}` : ''})` : '';
      if (state.pending.length > 0) {
        return `index: ${refreshingFiles(state.pending.length)} (started ${seconds(state.startedAgoMs)} ago); answered from the index as it is, hits from those files marked stale; ask again for more`;
      }
      return `index: a refresh started ${seconds(state.startedAgoMs)} ago is still running${phase}; answered from the index as it was, which may be stale`;
    }
    case 'failed':
      return `index: refresh failed (${state.message}); answered from the index as it was, which may be stale`;
  }
}

/** `index built just now: …` / `index refreshed just now: …` / `index checked just now: up to date`. */
export function describeRefresh(r: RefreshReport, subject: string): string {
  const took = `${r.durationMs} ms`;
  if (r.rebuilt) return `${subject} built just now: ${r.files} files, ${r.chunks} chunks in ${took}`;
  if (r.added + r.changed + r.removed === 0) return `${subject} checked just now: up to date (${r.files} files, ${r.chunks} chunks)`;
  return `${subject} refreshed just now: ${r.changed} changed, ${r.added} added, ${r.removed} removed in ${took} (${r.files} files, ${r.chunks} chunks)`;
}

/** `src/a.ts:10-24  function parseConfig` plus the tags that matter to a reader. */
export function hitHeading(hit: SearchHit, extra = ''): string {
  const name = displayBreadcrumb(hit.context || hit.symbol, hit.language);
  const tags = [
    hit.stale ? `changed since indexing (${hit.staleReason ?? 'modified'}): lines may have moved` : '',
    hit.crossReferenceFrom ? `named in ${hit.crossReferenceFrom}` : '',
    'partial' in hit && hit.partial ? 'partial match' : '',
  ].filter(Boolean);
  // A hit that names a definition says where the name is: the line to open, not the doc comment above it.
  const at = hit.nameLine !== undefined && hit.nameLine !== hit.startLine ? `  (name at line ${hit.nameLine})` : '';
  return `${hit.path}:${hit.startLine}-${hit.endLine}  ${hit.kind}${name ? ` ${name}` : ''}${extra}${tags.length ? `  [${tags.join('; ')}]` : ''}${at}`;
}

/**
 * A hit's preview lines, indented; with `firstLine`, each numbered `LINE: ` like the ripgrep
 * provider's previews (which come numbered already, so they are left as they are).
 */
export function previewBlock(preview: string, lines: number, firstLine?: number): string[] {
  if (!preview || lines <= 0) return [];
  const numbered = firstLine !== undefined && !preview.startsWith(`${firstLine}: `);
  return preview
    .split('\n')
    .slice(0, lines)
    .map((l, i) => `    ${numbered ? `${(firstLine as number) + i}: ` : ''}${l.length > 200 ? `${l.slice(0, 200)}…` : l}`);
}

/** The blocks that fit `maxTokens` (at least the first), and how many were left out. */
export function fitBlocks(blocks: readonly string[], maxTokens: number, reserved: string): { kept: string[]; omitted: number } {
  let used = estimateTokens(reserved);
  const kept: string[] = [];
  for (const block of blocks) {
    const cost = estimateTokens(block) + 1;
    if (kept.length > 0 && used + cost > maxTokens) break;
    kept.push(block);
    used += cost;
  }
  return { kept, omitted: blocks.length - kept.length };
}

/** A compact JSON hit: where, what, why and a preview; no score breakdown. */
export function compactHit(hit: SearchHit | SymbolHit): Record<string, unknown> {
  return {
    span: `${hit.path}:${hit.startLine}-${hit.endLine}`,
    path: hit.path,
    startLine: hit.startLine,
    endLine: hit.endLine,
    ...(hit.nameLine !== undefined ? { nameLine: hit.nameLine, nameColumn: hit.nameColumn ?? 1 } : {}),
    kind: hit.kind,
    symbol: hit.context || hit.symbol,
    language: hit.language,
    score: hit.score,
    ...('match' in hit ? { match: hit.match } : {}),
    preview: hit.preview,
    ...(hit.previewLine !== undefined ? { previewLine: hit.previewLine } : {}),
    ...(hit.matchLines?.length ? { matchLines: hit.matchLines } : {}),
    ...(hit.signature ? { signature: hit.signature } : {}),
    ...(hit.stale ? { stale: hit.staleReason ?? 'modified' } : {}),
    ...(hit.crossReferenceFrom ? { crossReferenceFrom: hit.crossReferenceFrom } : {}),
    ...('partial' in hit && hit.partial ? { partial: true } : {}),
    ...why(hit.scoreBreakdown),
  };
}

/** `why`: the evidence a task text gave for a file or span (`traceback-frame: app.py:12 in load`), when it gave any. */
function why(breakdown: SearchHit['scoreBreakdown']): { why?: string[] } {
  const parts = evidenceParts(breakdown);
  return parts.length ? { why: parts } : {};
}

const counts = (c: Record<string, number>): string =>
  Object.entries(c)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || '-';

export function renderStatus(s: IndexStatus, freshness: FreshnessSummary, nowMs: number): string {
  const auto = describeAutoRefresh(freshness, nowMs);
  if (!s.exists) {
    return [
      `root: ${s.root}`,
      `store: ${s.storeDir}`,
      'not indexed yet: search_code, find_symbol and get_context_pack build the index on first use, or call refresh_index now',
      auto,
      ...s.diagnostics.map((d) => `${d.severity}: ${d.message}`),
    ].join('\n');
  }
  const updated = s.updatedAt ? `${s.updatedAt} (${seconds(Math.max(0, nowMs - Date.parse(s.updatedAt)))} ago)` : '-';
  const r = s.lastRefresh;
  return [
    `root: ${s.root}`,
    `store: ${s.storeDir} (generation ${s.generation}, ${s.segments} segments, ${Math.round(s.storeBytes / 1024)} KB)`,
    `indexed: ${s.files} files, ${s.chunks} chunks; updated ${updated}`,
    ...(r ? [`last refresh: ${r.changed} changed, ${r.added} added, ${r.removed} removed, ${r.unchanged} unchanged in ${r.durationMs} ms`] : []),
    `languages: ${counts(s.languages)}`,
    ...(s.skipped.length ? [`skipped files: ${counts(s.skippedByReason)}`] : []),
    auto,
    ...s.diagnostics.map((d) => `${d.severity}: ${d.message}`),
  ].join('\n');
}

function describeAutoRefresh(f: FreshnessSummary, nowMs: number): string {
  // A live watcher: changes are indexed as they happen, and the last whole-tree check is when the tree was verified.
  const policy = f.watching
    ? 'a file watcher is live (changes are indexed as they happen; no query waits for a tree check)'
    : `no file watcher: ${f.minIntervalMs > 0 ? `before queries, at most every ${seconds(f.minIntervalMs)}` : 'before every query'}`;
  const checked = f.watching ? 'tree verified' : 'last checked';
  const last = f.lastCheckedAtMs !== undefined ? `${checked} ${seconds(Math.max(0, nowMs - f.lastCheckedAtMs))} ago` : 'not checked yet by this server';
  const running = f.running
    ? `; ${f.pending ? refreshingFiles(f.pending) : 'refreshing'} now${f.running.paths && !f.pending ? ` (${f.running.paths.length} paths)` : ''}, started ${seconds(f.running.startedAgoMs)} ago${f.running.progress ? `, ${f.running.progress.phase}${f.running.progress.total ? ` ${f.running.progress.done}/${f.running.progress.total}` : ''}` : ''}`
    : '';
  return `auto-refresh: incremental, ${policy}; ${last}${running}${f.lastFailure ? `; last refresh failed: ${f.lastFailure}` : ''}`;
}

export interface HitListOptions<H> {
  format: 'text' | 'json';
  maxTokens: number;
  /** Text that goes with the list (heading, notes): counted against maxTokens first. */
  reserved: string;
  /** Number of the first hit (offset + 1 for later pages). */
  firstNumber: number;
  previewLines: number;
  /** What follows the heading of a hit: a score, a match kind. */
  tag: (hit: H) => string;
}

/** The hits that fit `maxTokens`, as numbered text blocks or compact JSON objects. */
export function fitHits<H extends SearchHit>(hits: readonly H[], o: HitListOptions<H>): { text: string[]; json: Array<Record<string, unknown>>; omitted: number } {
  const json = hits.map(compactHit);
  const text = hits.map((hit, i) => [`${o.firstNumber + i}. ${hitHeading(hit, o.tag(hit))}`, ...previewBlock(hit.preview, o.previewLines, hit.previewLine)].join('\n'));
  const { kept, omitted } = fitBlocks(o.format === 'json' ? json.map((j) => JSON.stringify(j)) : text, o.maxTokens, o.reserved);
  return { text: text.slice(0, kept.length), json: json.slice(0, kept.length), omitted };
}

/** Files (groupBy "file") that fit `maxTokens`: a numbered heading per file, then its best spans. */
export function fitFiles(
  files: readonly FileHit[],
  o: { format: 'text' | 'json'; maxTokens: number; reserved: string; firstNumber: number; previewLines: number },
): { text: string[]; json: Array<Record<string, unknown>>; omitted: number } {
  const json = files.map((f) => ({
    path: f.path,
    score: f.score,
    matchedChunks: f.matchedChunks,
    ...(f.stale ? { stale: true } : {}),
    ...(f.partial ? { partial: true } : {}),
    ...why(f.scoreBreakdown),
    spans: f.spans.map(compactHit),
  }));
  const text = files.map((f, i) =>
    [
      `${o.firstNumber + i}. ${f.path}  (score ${f.score.toFixed(2)}; ${f.matchedChunks} matching chunk${f.matchedChunks === 1 ? '' : 's'})${f.partial ? '  [partial match]' : ''}`,
      ...evidenceParts(f.scoreBreakdown).map((p) => `   why: ${p}`),
      ...f.spans.flatMap((h) => [`   - ${hitHeading(h).slice(h.path.length + 1)}`, ...previewBlock(h.preview, Math.min(o.previewLines, 1)).map((l) => `  ${l}`)]),
    ].join('\n'),
  );
  const { kept, omitted } = fitBlocks(o.format === 'json' ? json.map((j) => JSON.stringify(j)) : text, o.maxTokens, o.reserved);
  return { text: text.slice(0, kept.length), json: json.slice(0, kept.length), omitted };
}
