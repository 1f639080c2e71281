// Human-readable rendering shared by commands.
import { displayBreadcrumb, evidenceSignals, type FileHit, type SearchHit, type SymbolHit } from '../core/api';
import { visible, type Output } from './output';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/**
 * `path:start-end  path:LINE  kind symbol  (score)` then the indented preview, which starts at
 * LINE (the chunk's best-matching line; a terminal opens `path:LINE` there).
 */
export function formatHit(hit: SearchHit, extra = ''): string[] {
  const name = displayBreadcrumb(hit.context || hit.symbol, hit.language);
  const at = hit.previewLine !== undefined && hit.preview ? `  ${hit.path}:${hit.previewLine}` : '';
  const head = `${hit.path}:${hit.startLine}-${hit.endLine}${at}  ${hit.kind}${name ? ` ${name}` : ''}  (${hit.score.toFixed(2)})${extra}${hit.stale ? `  [stale: ${hit.staleReason}]` : ''}`;
  const preview = hit.preview ? hit.preview.split('\n').map((l) => `    ${l}`) : [];
  return [head, ...preview];
}

/**
 * `path:line:column  kind Name  (lines a-b, score)  [match]`: the name's place first, as editors
 * and terminals open `file:line:column`, then the definition's whole range.
 */
export function formatSymbolHit(hit: SymbolHit): string[] {
  if (hit.nameLine === undefined) return formatHit(hit, `  [${hit.match}]`);
  const [, ...preview] = formatHit(hit);
  const name = displayBreadcrumb(hit.context || hit.symbol, hit.language);
  const stale = hit.stale ? `  [stale: ${hit.staleReason}]` : '';
  const head = `${hit.path}:${hit.nameLine}:${hit.nameColumn ?? 1}  ${hit.kind}${name ? ` ${name}` : ''}  (lines ${hit.startLine}-${hit.endLine}, ${hit.score.toFixed(2)})  [${hit.match}]${stale}`;
  return [head, ...preview];
}

/** `path  (score, N matching chunks)` then each best span's `start-end  kind name` and its first preview line. */
export function formatFiles(files: readonly FileHit[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const tags = [f.stale ? 'stale' : '', f.partial ? 'partial match' : ''].filter(Boolean);
    out.push(`${f.path}  (${f.score.toFixed(2)}, ${f.matchedChunks} matching chunk${f.matchedChunks === 1 ? '' : 's'})${tags.length ? `  [${tags.join('; ')}]` : ''}`);
    for (const h of f.spans) {
      const name = displayBreadcrumb(h.context || h.symbol, h.language);
      out.push(`    ${h.startLine}-${h.endLine}  ${h.kind}${name ? ` ${name}` : ''}${spanScore(h)}`);
      const first = h.preview.split('\n').find((l) => l.trim());
      if (first) out.push(`        ${first.trim()}`);
    }
  }
  return out;
}

/**
 * `  (score; signal, …)`: a span's score and the task evidence pointing at it (a breakdown part
 * named `signal: what`); nothing for a span shown only as its file's first chunk (score 0).
 */
function spanScore(h: SearchHit): string {
  const signals = evidenceSignals(h.scoreBreakdown);
  if (h.score === 0 && signals.length === 0) return '';
  return `  (${h.score.toFixed(2)}${signals.length ? `; ${signals.join(', ')}` : ''})`;
}

/** A single self-overwriting progress line on stderr, only when stderr is a terminal. */
export class ProgressLine {
  private shown = false;
  private last = 0;
  constructor(private readonly out: Output, private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(text: string): void {
    if (!this.stream.isTTY || this.out.json) return;
    const now = Date.now();
    if (now - this.last < 80) return;
    this.last = now;
    this.stream.write(`\r\x1b[2K${visible(text).slice(0, (this.stream.columns ?? 80) - 1)}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
