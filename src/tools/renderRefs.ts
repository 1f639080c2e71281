// find_references' answer for models: the references that fit a token budget, taken in the
// engine's order (certain ones first) and shown grouped by file, each marked certain or a
// name match (and, in VS Code, which source found it), with the line it is on.
import type { ReferenceCallerGroup, ReferenceHit, ReferencesResponse, ReferenceSource } from '../core/api';
import { fitBlocks } from './render';

/** A reference as the tools take it: the index's, or one merged with a language server's answer. */
export type ToolReference = ReferenceHit & { source?: ReferenceSource };

/** `[certain, import, language server]`: what a reader must know to trust a reference. */
export function referenceMarks(r: ToolReference): string {
  const marks = [
    r.certainty === 'certain' ? 'certain' : 'name',
    // The definition it resolves to, where that is another file's.
    ...(r.resolvesTo && r.resolvesTo.path !== r.path ? [`resolves to ${r.resolvesTo.path}:${r.resolvesTo.line}`] : []),
    ...(r.role === 'import' || r.role === 'definition' ? [r.role] : []),
    ...(r.source === 'language server' ? ['language server'] : []),
    ...(r.stale ? ['changed since indexing'] : []),
  ];
  return `[${marks.join(', ')}]`;
}

/** `  24:22  [name]  Vector.normalize  const len = this.length();` */
function referenceLine(r: ToolReference): string {
  return `  ${r.line}:${r.column}  ${referenceMarks(r)}  ${r.context || '-'}  ${r.text}`.trimEnd();
}

/** A compact JSON reference (every field a caller acts on, no more). */
export function compactReference(r: ToolReference): Record<string, unknown> {
  return {
    at: `${r.path}:${r.line}:${r.column}`,
    path: r.path,
    line: r.line,
    column: r.column,
    certainty: r.certainty,
    reason: r.reason,
    role: r.role,
    context: r.context,
    text: r.text,
    ...(r.resolvesTo ? { resolvesTo: r.resolvesTo } : {}),
    ...(r.source ? { source: r.source } : {}),
    ...(r.stale ? { stale: true } : {}),
  };
}

export interface FittedReferences {
  /** Text lines: a heading per file, then its references in line order. */
  text: string[];
  json: Array<Record<string, unknown>>;
  /** The references kept, in the engine's order. */
  kept: ToolReference[];
  omitted: number;
}

/**
 * The references that fit `maxTokens` after `reserved`, chosen in the order given (certain
 * first), rendered grouped by file in the order files first appear, lines ascending.
 */
export function fitReferences(refs: readonly ToolReference[], r: Pick<ReferencesResponse, 'byFile'>, o: { format: 'text' | 'json'; maxTokens: number; reserved: string }): FittedReferences {
  const json = refs.map(compactReference);
  // A file heading costs once, with the file's first reference; close enough for a budget.
  const seen = new Set<string>();
  const blocks = refs.map((ref, i) => {
    if (o.format === 'json') return JSON.stringify(json[i]);
    const line = referenceLine(ref);
    if (seen.has(ref.path)) return line;
    seen.add(ref.path);
    return `${fileHeading(ref.path, r.byFile)}\n${line}`;
  });
  const { kept, omitted } = fitBlocks(blocks, o.maxTokens, o.reserved);
  const keptRefs = refs.slice(0, kept.length);
  return { text: groupedText(keptRefs, r.byFile), json: json.slice(0, kept.length), kept: keptRefs, omitted };
}

function fileHeading(path: string, byFile: ReferencesResponse['byFile']): string {
  const g = byFile.find((f) => f.path === path);
  return g ? `${path}  (${g.references} reference${g.references === 1 ? '' : 's'}, ${g.certain} certain)` : path;
}

function groupedText(refs: readonly ToolReference[], byFile: ReferencesResponse['byFile']): string[] {
  const files = new Map<string, ToolReference[]>();
  for (const ref of refs) {
    const list = files.get(ref.path);
    if (list) list.push(ref);
    else files.set(ref.path, [ref]);
  }
  const lines: string[] = [];
  for (const [path, list] of files) {
    lines.push(fileHeading(path, byFile));
    for (const ref of [...list].sort((a, b) => a.line - b.line || a.column - b.column)) lines.push(referenceLine(ref));
  }
  return lines;
}

/** `src/a.ts:12  function main  3 references (3 certain)  lines 12, 14, 20`, under the budget. */
export function fitCallers(groups: readonly ReferenceCallerGroup[], maxTokens: number, reserved: string): { text: string[]; omitted: number } {
  const blocks = groups.map((g) => {
    const where = g.context ? `${g.kind} ${g.context}` : '(top of file)';
    return `${g.path}:${g.lines[0] ?? 1}  ${where}  ${g.references} reference${g.references === 1 ? '' : 's'} (${g.certain} certain)  lines ${g.lines.join(', ')}`;
  });
  const { kept, omitted } = fitBlocks(blocks, maxTokens, reserved);
  return { text: kept, omitted };
}

/**
 * The reference worth reading next: the first certain use (not the definition or an import),
 * else the first certain one, else the first; as a few lines around it.
 */
export function bestReference(refs: readonly ToolReference[]): ToolReference | undefined {
  const certain = refs.filter((r) => r.certainty === 'certain');
  return certain.find((r) => r.role !== 'definition' && r.role !== 'import') ?? certain[0] ?? refs[0];
}

/** `path:start-end` of a few lines around a reference, for read_span. */
export function spanAround(r: Pick<ReferenceHit, 'path' | 'line'>, radius = 5): string {
  return `${r.path}:${Math.max(1, r.line - radius)}-${r.line + radius}`;
}
