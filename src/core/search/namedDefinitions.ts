// Definitions first: a query that is exactly a defined name (`getDefinedMessageData`,
// `appcontext_popped`) wants that definition, not the call sites and tests that mention the
// name more often. BM25 cannot promise that (a caller can repeat the name; a module constant
// lives in an unnamed chunk), so the symbol table's exact definitions are ranked above every
// other chunk.
import type { SymbolIndex, SymbolRef } from './symbols';

/** A chunk defining the name; for a definition inside the chunk's code, where it is named. */
export interface NamedDefinition extends SymbolRef {
  nameLine?: number;
  nameColumn?: number;
  /** A definition inside the chunk that is a key of an anonymous object literal (a method without an owner). */
  keyOnly?: true;
}

/** A method whose breadcrumb names no owner: a key of an object literal no name holds (`res.format({ html() {…} })`). */
export function isKeyOnly(kind: string, context: string): boolean {
  return kind === 'method' && !/[.#]/.test(context);
}

/** A single identifier typed alone: `foo`, `_private`, `$el`, `Ns.Class`; no field syntax, no other words. */
const NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/** Definitions of one name considered (a name like `__init__` has hundreds; the best are enough). */
export const MAX_NAMED_DEFINITIONS = 10;

/** The name a query asks for, when the whole query is one (its own spelling, trimmed). */
export function queryName(query: string): string | undefined {
  const q = query.trim();
  return q.length >= 2 && NAME.test(q) ? q : undefined;
}

/**
 * The chunks holding definitions spelled exactly `name` (case-sensitive: `Application` does not
 * pin the variable `application`), or a qualified `Class.method`, best first as the symbol
 * table orders them.
 */
export function namedDefinitions(symbols: SymbolIndex, name: string, limit = MAX_NAMED_DEFINITIONS): NamedDefinition[] {
  const { candidates } = symbols.find(name, { limit, exactOnly: true });
  const seen = new Set<string>();
  const out: NamedDefinition[] = [];
  for (const c of candidates) {
    if (c.match !== 'exact' && c.match !== 'qualified') continue;
    const key = `${c.seg}:${c.doc}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c.nested ? { seg: c.seg, doc: c.doc, nameLine: c.nested.nameLine, nameColumn: c.nested.nameColumn, ...(isKeyOnly(c.nested.kind, c.nested.context) ? { keyOnly: true as const } : {}) } : { seg: c.seg, doc: c.doc });
  }
  return out;
}
