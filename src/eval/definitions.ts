// The definitions (functions, methods, classes…) of files in the evaluated tree, read with the
// same tree-sitter chunker the index uses, so "a function" means the same thing to the gold
// and to the answers. They turn line ranges into functions: the gold functions of a patch are
// the definitions its changed lines fall in, and a ranked list of spans becomes a ranked list
// of the definitions it points at.
import { loadDocuments } from '../core/discovery';
import type { AstChunkerLike } from '../core/chunking/contract';
import { DEFAULT_POLICY } from '../core/chunking/policy';
import type { ChunkKind, Span } from '../core/types';
import { overlapsAny, type LineRange } from './diffRanges';

/** A definition of a file: `id` is `path#name@line`, unique in one tree. */
export interface Definition {
  id: string;
  path: string;
  name: string;
  startLine: number;
  endLine: number;
}

/** Kinds that are units a fix is located in; constants, sections and plain code are not. */
const DEFINITION_KINDS: ReadonlySet<ChunkKind> = new Set(['function', 'method', 'constructor', 'class', 'interface', 'struct', 'enum', 'union', 'trait', 'impl', 'macro']);

function definition(path: string, name: string, startLine: number, endLine: number): Definition {
  return { id: `${path}#${name}@${startLine}`, path, name, startLine, endLine };
}

/**
 * The definitions of the files at `paths` (relative to `root`), by path; a file the chunker
 * cannot parse (or that is not there) has none. Definitions split for size count once, with
 * their whole line range; definitions without a chunk of their own (nested) count too.
 */
export async function readDefinitions(root: string, paths: readonly string[], ast: AstChunkerLike): Promise<Map<string, Definition[]>> {
  const out = new Map<string, Definition[]>(paths.map((p) => [p, []]));
  const { docs } = await loadDocuments(root, [...paths]);
  for (const doc of docs) {
    if (!ast.supports(doc.language)) continue;
    const result = await ast.chunk(doc, DEFAULT_POLICY).catch(() => null);
    if (!result) continue;
    const defs = out.get(doc.path) ?? [];
    for (const c of result.chunks) {
      if (DEFINITION_KINDS.has(c.kind) && c.symbol && !c.continued) defs.push(definition(doc.path, c.context || c.symbol, c.startLine, c.definitionEndLine ?? c.endLine));
      for (const n of c.nested ?? []) if (DEFINITION_KINDS.has(n.kind)) defs.push(definition(doc.path, n.context || n.symbol, n.startLine, n.endLine));
    }
    out.set(doc.path, defs);
  }
  return out;
}

/** The innermost definitions overlapping a line range: a method, not the class around it. */
export function innermost(defs: readonly Definition[], range: LineRange): Definition[] {
  const hit = defs.filter((d) => overlapsAny(d.startLine, d.endLine, [range]));
  const encloses = (a: Definition, b: Definition): boolean => a !== b && a.startLine <= b.startLine && a.endLine >= b.endLine && (a.startLine < b.startLine || a.endLine > b.endLine);
  return hit.filter((d) => !hit.some((other) => encloses(d, other))).sort((a, b) => a.startLine - b.startLine);
}

/** The definitions changed lines fall in, in file then line order, each once. */
export function definitionsTouched(ranges: readonly LineRange[], defs: readonly Definition[]): Definition[] {
  const out = new Map<string, Definition>();
  for (const r of ranges) for (const d of innermost(defs, r)) out.set(d.id, d);
  return [...out.values()].sort((a, b) => a.startLine - b.startLine);
}

/** Definition ids in order of the spans pointing at them (each span: its innermost definitions), each once. */
export function rankedDefinitions(spans: readonly Span[], defsOf: (path: string) => readonly Definition[]): string[] {
  const seen = new Set<string>();
  for (const s of spans) {
    for (const d of innermost(defsOf(s.path), { start: s.startLine, end: s.endLine })) seen.add(d.id);
  }
  return [...seen];
}
