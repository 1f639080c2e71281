// The code that calls a pack's definition, from the index's references: only references the
// index is certain resolve to that very definition ("calls X" must never rest on a shared name).
import { findReferences, type ReferenceSources } from '../search/refs';
import type { SearchHit } from '../search/types';

/** References read per definition: callers are chosen among the first (certain ones come first). */
const SCANNED = 200;

/**
 * Chunks holding a certain reference to `def` (not its own, not an import), in the order of
 * the references, at most `limit`; `chunkAt` is the chunk containing a line.
 */
export function certainCallersOf(src: ReferenceSources, def: SearchHit, limit: number, chunkAt: (path: string, line: number) => SearchHit | undefined): SearchHit[] {
  // A method is looked up as `Class.method`: another class's method of that name is not it.
  const owner = def.kind === 'method' && def.context.endsWith(`.${def.symbol}`) ? def.context.slice(0, -def.symbol.length - 1).split('.').pop() : undefined;
  const query = owner ? `${owner}.${def.symbol}` : def.symbol;
  if (!query || limit <= 0) return [];
  const answer = findReferences(src, query, { limit: SCANNED, lineText: false });
  const defining = new Set(answer.definitions.map((d) => d.path));
  // With several defining files, a certain reference may resolve to another one: keep those whose reason names this file.
  const toThis = (reason: string, path: string): boolean =>
    (defining.size === 1 && defining.has(def.path)) || (reason === 'same file' ? path === def.path : reason.includes(def.path));
  const out: SearchHit[] = [];
  const seen = new Set<string>([def.docid]);
  for (const r of answer.references) {
    if (out.length >= limit) break;
    if (r.certainty !== 'certain' || r.role === 'definition' || r.role === 'import' || !toThis(r.reason, r.path)) continue;
    const chunk = chunkAt(r.path, r.line);
    if (!chunk || seen.has(chunk.docid)) continue;
    // A call inside the definition itself (recursion) is not a caller.
    if (chunk.path === def.path && chunk.startLine >= def.startLine && chunk.endLine <= def.endLine) continue;
    seen.add(chunk.docid);
    out.push(chunk);
  }
  return out;
}
