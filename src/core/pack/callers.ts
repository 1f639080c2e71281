// The code that calls a pack's definition, from the index's references: only references the
// index is certain resolve to that very definition ("calls X" must never rest on a shared name).
import type { ReferenceSources } from '../search/refOccurrences';
import { findReferences } from '../search/refs';
import type { SearchHit } from '../search/types';
import type { ChunkKind } from '../types';

/** References read per definition: callers are chosen among the first (certain ones come first). */
const SCANNED = 200;

/** What a caller's reference does with the definition, as a pack's reason says it. */
export type CallerUse = 'calls' | 'constructs' | 'extends' | 'implements' | 'uses';

/** A chunk holding a certain reference to a definition, and what that reference does with it. */
export interface CertainCaller {
  chunk: SearchHit;
  use: CallerUse;
}

/**
 * Chunks holding a certain reference to `def` (not its own, not an import), in the order of
 * the references, at most `limit`; `chunkAt` is the chunk containing a line.
 */
export function certainCallersOf(src: ReferenceSources, def: SearchHit, limit: number, chunkAt: (path: string, line: number) => SearchHit | undefined): CertainCaller[] {
  // A method is looked up as `Class.method`: another class's method of that name is not it.
  const owner = def.kind === 'method' && def.context.endsWith(`.${def.symbol}`) ? def.context.slice(0, -def.symbol.length - 1).split('.').pop() : undefined;
  const query = owner ? `${owner}.${def.symbol}` : def.symbol;
  if (!query || limit <= 0) return [];
  const answer = findReferences(src, query, { limit: SCANNED, lineText: false });
  const defining = new Set(answer.definitions.map((d) => d.path));
  // With several defining files, a certain reference may resolve to another one: keep those whose reason names this file.
  const toThis = (reason: string, path: string): boolean =>
    (defining.size === 1 && defining.has(def.path)) || (reason === 'same file' ? path === def.path : reason.includes(def.path));
  const out: CertainCaller[] = [];
  const seen = new Set<string>([def.docid]);
  for (const r of answer.references) {
    if (out.length >= limit) break;
    if (r.certainty !== 'certain' || r.role === 'definition' || r.role === 'import' || !toThis(r.reason, r.path)) continue;
    const chunk = chunkAt(r.path, r.line);
    if (!chunk || seen.has(chunk.docid)) continue;
    // A call inside the definition itself (recursion) is not a caller.
    if (chunk.path === def.path && chunk.startLine >= def.startLine && chunk.endLine <= def.endLine) continue;
    seen.add(chunk.docid);
    // Only the lines of the callers kept are read, to say what each does with the definition.
    const line = CALLABLE_KINDS.has(def.kind) ? '' : src.reader.text(r.path, r.line, r.line) ?? '';
    out.push({ chunk, use: useOf(def.kind, r.language, line, r.column, r.endColumn) });
  }
  return out;
}

/** Kinds a reference calls; any other definition (a class, a type, a constant) it uses. */
const CALLABLE_KINDS: ReadonlySet<ChunkKind> = new Set<ChunkKind>(['function', 'method', 'constructor', 'macro']);
/** Kinds a reference can make an instance of. */
const CONSTRUCTIBLE_KINDS: ReadonlySet<ChunkKind> = new Set<ChunkKind>(['class', 'struct']);
/** Languages where calling a class's name makes an instance (`User(…)`). */
const CALLED_TO_CONSTRUCT: ReadonlySet<string> = new Set(['python', 'swift']);

/** Text before the name in a heritage clause: `class A extends`, or the bases of a class heading (`class A(`, `class A <`, `class A :`). */
const EXTENDS_BEFORE = /\b(?:class|interface)\b[^{;]*\bextends\s+(?:[^{;]*,\s*)?[\w$.\\]*$|^\s*(?:[\w@]+\s+)*?(?:class|struct|interface|record)\s+[\w$]+(?:<[^>]*>)?\s*(?:\(|<|:)[^{;=]*$/;
/** `class A implements`, Rust's `impl X for …` and `impl X {`. */
const IMPLEMENTS_BEFORE = /\bimplements\s+(?:[^{;]*,\s*)?[\w$.\\]*$|^\s*impl\b(?:\s*<[^>]*>)?\s*(?:[\w:]+::)?$/;
const NEW_BEFORE = /\bnew\s+\\?(?:[\w$]+(?:\.|::|\\))*$/;

/**
 * What a reference does with a definition of `kind`, from its line's text (`column..endColumn`
 * is the name, 1-based): a function is called; a class is extended or implemented (a heritage
 * clause), constructed (`new X`, `X.new`, `X::new`, Python's `X(`, Go's `X{`), or else used.
 */
export function useOf(kind: ChunkKind, language: string, line: string, column: number, endColumn: number): CallerUse {
  if (CALLABLE_KINDS.has(kind)) return 'calls';
  const before = line.slice(0, column - 1);
  const after = line.slice(endColumn - 1);
  if (IMPLEMENTS_BEFORE.test(before)) return 'implements';
  if (EXTENDS_BEFORE.test(before)) return 'extends';
  if (CONSTRUCTIBLE_KINDS.has(kind)) {
    if (NEW_BEFORE.test(before) || /^\s*(?:\.|::)\s*new\b/.test(after)) return 'constructs';
    if (CALLED_TO_CONSTRUCT.has(language) && /^\s*\(/.test(after)) return 'constructs';
    // `User{…}`, `&User{…}`; not `[]User{…}`, a slice of them.
    if (language === 'go' && after.startsWith('{') && !/\]\s*$/.test(before)) return 'constructs';
  }
  return 'uses';
}
