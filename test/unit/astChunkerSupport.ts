// Shared helpers for the AST chunker tests (astChunker*.test.ts): one chunker per process,
// fixture loading, and the compact outline the tables are written in.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AstChunker, astLanguageFor } from '../../src/core/chunking/ast';
import { resolvePolicy, type ChunkingPolicy } from '../../src/core/chunking/policy';
import type { Chunk, FileChunks, SourceDocument } from '../../src/core/types';

/** From out/test/unit/: `node scripts/copy-grammars.mjs` puts the wasm files here. */
export const GRAMMARS_DIR = path.resolve(__dirname, '../../../grammars');
export const FIXTURES_DIR = path.resolve(__dirname, '../../../test/fixtures/chunking');

let shared: Promise<AstChunker> | undefined;

export function chunker(): Promise<AstChunker> {
  shared ??= AstChunker.create({ grammarsDir: GRAMMARS_DIR });
  return shared;
}

export function policy(astMaxChars = 2400): ChunkingPolicy {
  return resolvePolicy({ astMaxChars });
}

export function makeDoc(docPath: string, text: string, language?: string): SourceDocument {
  const lang = language ?? astLanguageFor(docPath);
  if (!lang) throw new Error(`no AST language for ${docPath}`);
  return { path: docPath, text, size: Buffer.byteLength(text), mtimeMs: 0, hash: '', language: lang };
}

/** A fixture by its path under test/fixtures/chunking (`python/shapes.py`). */
export function fixtureDoc(rel: string): SourceDocument {
  return makeDoc(rel, fs.readFileSync(path.join(FIXTURES_DIR, rel), 'utf8'));
}

/** Every fixture file, as paths relative to the fixtures directory. */
export function allFixtures(): string[] {
  const out: string[] = [];
  for (const lang of fs.readdirSync(FIXTURES_DIR).sort()) {
    for (const file of fs.readdirSync(path.join(FIXTURES_DIR, lang)).sort()) out.push(`${lang}/${file}`);
  }
  return out;
}

export async function chunkDoc(doc: SourceDocument, astMaxChars = 2400): Promise<FileChunks> {
  const result = await (await chunker()).chunk(doc, policy(astMaxChars));
  if (!result) throw new Error(`${doc.path}: chunker returned null`);
  return result;
}

export interface OutlineRow {
  kind: string;
  symbol: string;
  context: string;
  lines: string;
  parent?: string;
  decorators?: string[];
}

/** The shape the tables are written in; `parent` only when asked, decorators when present. */
export function outline(chunks: readonly Chunk[], withParent = false): OutlineRow[] {
  return chunks.map((c) => {
    const row: OutlineRow = { kind: c.kind, symbol: c.symbol, context: c.context, lines: `${c.startLine}-${c.endLine}` };
    if (withParent && c.parent !== undefined) row.parent = c.parent;
    if (c.decorators) row.decorators = c.decorators;
    return row;
  });
}

/** Kinds whose chunks may be summaries (a container's header and member lines), not their own text. */
const SUMMARY_KINDS: ReadonlySet<string> = new Set(['class', 'struct', 'interface', 'trait', 'impl', 'enum', 'union', 'module', 'namespace', 'element', 'key', 'rule', 'type']);

/**
 * The chunker's contract, checked on one result. Returns the violations found (empty when the
 * result is sound), so a failing test names what broke and where.
 */
export function invariantViolations(doc: SourceDocument, result: FileChunks, budget: number): string[] {
  const problems: string[] = [];
  const rawLines = doc.text.split('\n');
  const lines = rawLines.map((l) => l.replace(/\r$/, ''));
  const covered = new Uint8Array(lines.length + 2);
  const lineStarts = [0];
  for (const l of rawLines) lineStarts.push((lineStarts[lineStarts.length - 1] as number) + l.length + 1);
  const lineOf = (offset: number): number => {
    let lo = 1;
    let hi = rawLines.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((lineStarts[mid - 1] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // Characters in some chunk: its span, or its lines when it has none.
  const coveredChars = new Uint8Array(doc.text.length);
  const keys = new Set<string>();
  const ids = new Set<string>();
  let prevStart = 0;
  for (const c of result.chunks) {
    const where = `${c.kind} ${c.symbol || '(code)'} ${c.startLine}-${c.endLine}`;
    if (c.path !== doc.path || c.language !== doc.language) problems.push(`${where}: wrong path/language`);
    if (c.docid !== `${doc.path}:${c.startLine}-${c.endLine}`) problems.push(`${where}: docid ${c.docid}`);
    if (c.startLine < 1 || c.endLine < c.startLine || c.endLine > lines.length) problems.push(`${where}: lines out of range`);
    if (c.startLine < prevStart) problems.push(`${where}: not sorted by start line`);
    prevStart = c.startLine;
    const lineText = rawLines.slice(c.startLine - 1, c.endLine).join('\n').replace(/\r$/, '');
    const own = c.span ? doc.text.slice(c.span[0], c.span[1]) : lineText;
    // A chunk's own text never exceeds the budget, but for a line's indentation (a minified line
    // is cut); a summary may list a member line longer than the budget.
    const summary = SUMMARY_KINDS.has(c.kind);
    if (c.text.length > budget && (c.text.includes('\n') || (!summary && c.text.trim().length > budget))) problems.push(`${where}: ${c.text.length} chars over budget ${budget}`);
    if (!c.text.trim()) problems.push(`${where}: empty text`);
    if (c.span) {
      const [start, end] = c.span;
      if (!(start >= 0 && start < end && end <= doc.text.length)) problems.push(`${where}: span ${start}-${end} out of range`);
      else if (lineOf(start) !== c.startLine || lineOf(end - 1) !== c.endLine) problems.push(`${where}: span ${start}-${end} is not on its lines`);
      if (!own.trim()) problems.push(`${where}: blank span`);
      coveredChars.fill(1, start, end);
    } else coveredChars.fill(1, lineStarts[c.startLine - 1], lineStarts[c.endLine]);
    const key = `${c.startLine}:${c.endLine}:${c.kind}:${c.symbol}:${c.span?.join('-') ?? ''}`;
    if (keys.has(key)) problems.push(`${where}: duplicate (lines, kind, symbol)`);
    keys.add(key);
    if (ids.has(c.id)) problems.push(`${where}: duplicate id`);
    ids.add(c.id);
    if (c.symbol && c.context !== c.symbol && !c.context.endsWith(`.${c.symbol}`)) problems.push(`${where}: context ${c.context} does not end with the symbol`);
    if (c.symbol && c.parent !== undefined && c.context !== `${c.parent}.${c.symbol}`) problems.push(`${where}: parent ${c.parent} + symbol != context ${c.context}`);
    if (c.kind === 'code' && c.text !== own) problems.push(`${where}: code text differs from its ${c.span ? 'span' : 'lines'}`);
    covered.fill(1, c.startLine, c.endLine + 1);
  }
  lines.forEach((line, i) => {
    if (line.trim() && !covered[i + 1]) problems.push(`line ${i + 1} not covered: ${line.slice(0, 60)}`);
  });
  // Coverage by character: every word of the file is in some chunk (punctuation may be left
  // out), or its text is a chunk's already (a chunk with the same id is not repeated).
  let reported = 0;
  const texts = new Set(result.chunks.map((c) => c.text));
  for (let i = 0; i < doc.text.length; i++) {
    if (coveredChars[i]) continue;
    let end = i;
    while (end < doc.text.length && !coveredChars[end]) end++;
    const run = doc.text.slice(i, end);
    const trimmed = run.replace(/^[\s{}()[\];,.:]+|[\s{}()[\];,.:]+$/g, '');
    if (/[\p{L}\p{N}_$]/u.test(run) && !texts.has(trimmed) && reported++ < 5) {
      problems.push(`characters ${i}-${end} (line ${lineOf(i)}) not covered: ${JSON.stringify(run.slice(0, 60))}`);
    }
    i = end;
  }
  return problems;
}
