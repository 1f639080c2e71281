// read_span: the current text of `path:start-end` from the working tree (not from the index, so
// it is what an edit would change), clamped to a line and token budget. Only a file discovery
// would index is served (`readEligibleFile`): what the index refuses, read_span refuses too.
import type { EngineOptions } from '../core/api';
import { readEligibleFile, estimateTokens } from '../core/clientApi';
import { normaliseRequestedPath } from './confine';
import { ToolError } from './errors';

export interface SpanRef {
  path: string;
  startLine?: number;
  endLine?: number;
}

/**
 * `path:start-end`, `path:line`, `path#L10-L20` / `path#L10`, or a bare path. The path part may
 * itself contain colons; only a numeric tail is read as lines.
 */
export function parseSpanRef(ref: string): SpanRef {
  const trimmed = ref.trim();
  const anchor = /^(.+)#L(\d+)(?:-L?(\d+))?$/.exec(trimmed);
  const colon = anchor ? undefined : /^(.+):(\d+)(?:-(\d+))?$/.exec(trimmed);
  const m = anchor ?? colon;
  if (!m) return { path: trimmed };
  const startLine = Number(m[2]);
  const endLine = m[3] === undefined ? startLine : Number(m[3]);
  if (startLine < 1) throw new ToolError(`line numbers start at 1 (got ${JSON.stringify(ref)})`);
  if (endLine < startLine) throw new ToolError(`the span ends before it starts (got ${JSON.stringify(ref)})`);
  return { path: m[1] as string, startLine, endLine };
}

export interface SpanLimits {
  /** At most this many lines are returned. */
  maxLines: number;
  /** At most about this many tokens of text are returned (whole lines; a single huge line is cut). */
  maxTokens: number;
}

export interface SpanText {
  path: string;
  /** The lines actually returned (1-based, inclusive). */
  startLine: number;
  endLine: number;
  /** Lines in the file. */
  totalLines: number;
  /** The whole file's size in bytes (what reading it all would have cost). */
  fileBytes: number;
  lines: string[];
  /** Plain-language notes on clamping: what was asked, what was returned, how to get the rest. */
  notes: string[];
}

/**
 * Reads the span from the working tree. Throws ToolError for anything the caller can fix,
 * including a file discovery refuses (with its reason). `discovery` is the index's options.
 */
export async function readSpan(root: string, ref: SpanRef, limits: SpanLimits, discovery: EngineOptions['discovery'] = {}): Promise<SpanText> {
  const relPath = normaliseRequestedPath(ref.path, root);
  const read = await readEligibleFile(root, relPath, discovery);
  if ('refusal' in read) throw new ToolError(read.refusal.message);
  const { doc } = read;
  const lines = splitLines(doc.text);
  const total = lines.length;
  const notes: string[] = [];
  if (total === 0) throw new ToolError(`${doc.path} is empty`);

  const start = ref.startLine ?? 1;
  if (ref.endLine !== undefined && ref.endLine < start) throw new ToolError(`endLine ${ref.endLine} is before startLine ${start}`);
  if (start > total) throw new ToolError(`startLine ${start} is past the end of ${doc.path}, which has ${total} lines`);
  let end = ref.endLine ?? total;
  if (end > total) {
    if (ref.endLine !== undefined) notes.push(`endLine ${ref.endLine} is past the end of the file; clamped to its last line, ${total}`);
    end = total;
  }
  const requestedEnd = end;
  if (end - start + 1 > limits.maxLines) end = start + limits.maxLines - 1;

  const budgetChars = Math.floor(limits.maxTokens * 3.5);
  const out: string[] = [];
  let used = 0;
  for (let n = start; n <= end; n++) {
    const line = lines[n - 1] as string;
    if (out.length > 0 && used + line.length + 1 > budgetChars) break;
    if (out.length === 0 && line.length > budgetChars) {
      out.push(line.slice(0, budgetChars));
      notes.push(`line ${n} is ${line.length} characters long; cut to the first ${budgetChars} to fit maxTokens=${limits.maxTokens}`);
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  const shownEnd = start + out.length - 1;
  if (shownEnd < requestedEnd) {
    const limit = shownEnd < end ? `maxTokens=${limits.maxTokens} (about ${estimateTokens(out.join('\n'))} tokens returned)` : `maxLines=${limits.maxLines}`;
    notes.push(`cut to fit ${limit}: returned lines ${start}-${shownEnd} of the ${start}-${requestedEnd} asked for; continue with startLine=${shownEnd + 1}`);
  }
  return { path: doc.path, startLine: start, endLine: shownEnd, totalLines: total, fileBytes: doc.size, lines: out, notes };
}

/** Lines as editors number them: a final newline does not start another line. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The span as the tool shows it: a `path:start-end` header, notes, then numbered lines. */
export function renderSpan(span: SpanText, lineNumbers: boolean): string {
  const head = `${span.path}:${span.startLine}-${span.endLine} (the file has ${span.totalLines} lines)`;
  const notes = span.notes.map((n) => `note: ${n}`);
  const width = String(span.endLine).length;
  const body = lineNumbers ? span.lines.map((l, i) => `${String(span.startLine + i).padStart(width)}| ${l}`) : span.lines;
  return [head, ...notes, ...body].join('\n');
}
