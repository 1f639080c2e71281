// The one walk of a parsed tree that the definitions and the occurrences read: the nodes of the
// types either asks for, in text order, each with its type id. `descendantsOfType` walks the
// tree in wasm and hands back only those nodes; asked separately, each reader walked the whole
// tree again (the definitions by a query cursor, which visits every node as a candidate).
//
// The names (most of what the walk finds) are read straight from the runtime's memory as
// numbers: web-tree-sitter makes an object of every node it hands back, reading each field
// through a generic accessor, and that was about a third of the walk's time on top of the
// wasm walk itself. Only the definitions, which the patterns read through the node API,
// become node objects. The direct reading leans on web-tree-sitter 0.25's transfer layout
// (package.json pins the version); the first walk of each process is checked against
// `descendantsOfType`, and a mismatch keeps the library's walk for the rest of the process.
import TreeSitter = require('web-tree-sitter');
import type { Language, Node, Tree } from 'web-tree-sitter';
import { definitionMatcher } from './nested';
import { occurrenceTypes } from './occurrences';
import { runtimeInternals } from './runtime';

/** The occurrence reader's nodes: numbers per node, an end asked of the tree only when needed. */
export interface NameNodes {
  count: number;
  /** Per node: its start (UTF-16 offset), its start row (0-based), its type id. */
  starts: Int32Array;
  rows: Int32Array;
  types: Int32Array;
  /** Where node `i` ends (UTF-16 offset): a call into the tree, made only when the text cannot tell. */
  endOf(i: number): number;
}

/** A file's nodes of interest, split by reader; type ids parallel the nodes. */
export interface Walked {
  /** Nodes of the occurrence rule's types (names, import statements, opaque leaves). */
  names: NameNodes;
  /** Nodes of the definition patterns' types. */
  definitions: Node[];
  definitionTypes: number[];
}

/** What each type id is to the readers: bit 1 an occurrence type, bit 2 a definition type. */
interface WalkTable {
  types: string[];
  roles: Uint8Array;
  /** The symbols `descendantsOfType` would search for, as it computes them from `types`. */
  symbols: number[];
  /** Their copy in the runtime's memory, made on the first direct walk. */
  symbolsAt?: number;
}

const OCCURRENCE = 1;
const DEFINITION = 2;
const ERROR_SYMBOL = 65535;

const tables = new Map<Language, Map<string, WalkTable | null>>();

function tableFor(language: Language, grammar: string): WalkTable | null {
  let byGrammar = tables.get(language);
  if (!byGrammar) tables.set(language, (byGrammar = new Map()));
  let table = byGrammar.get(grammar);
  if (table !== undefined) return table;
  const names = new Set(occurrenceTypes(grammar));
  const matcher = definitionMatcher(language, grammar);
  const roles = new Uint8Array(65536);
  // Occurrence types by name, named or not, as `descendantsOfType` hands them back; definition
  // types as the patterns read them, named nodes only (`class` is also a keyword).
  language.types.forEach((name, typeId) => {
    if (names.has(name)) roles[typeId] = (roles[typeId] as number) | OCCURRENCE;
  });
  if (names.has('ERROR')) roles[ERROR_SYMBOL] = OCCURRENCE;
  if (matcher) for (const typeId of matcher.byType.keys()) roles[typeId] = (roles[typeId] as number) | DEFINITION;
  const types = [...new Set([...names, ...(matcher?.typeNames ?? [])])];
  const symbols: number[] = types.includes('ERROR') ? [ERROR_SYMBOL] : [];
  language.types.forEach((name, typeId) => {
    if (types.includes(name)) symbols.push(typeId);
  });
  table = types.length > 0 ? { types, roles, symbols } : null;
  byGrammar.set(grammar, table);
  return table;
}

/** Walks the tree once for both readers; undefined when neither reads this grammar. */
export function walkTree(root: Node, grammar: string): Walked | undefined {
  const table = tableFor(root.tree.language, grammar);
  if (!table) return undefined;
  if (direct === 'library') return libraryWalk(root, table);
  const raw = directApi();
  if (!raw) return libraryWalk(root, table);
  let walked: Walked;
  try {
    walked = directWalk(root, table, raw);
  } catch {
    direct = 'library';
    return libraryWalk(root, table);
  }
  if (direct === 'unchecked') {
    const expected = libraryWalk(root, table);
    // A tree without names or definitions proves nothing: the next one is checked instead.
    if (!sameWalk(walked, expected)) direct = 'library';
    else if (expected.names.count > 0 && expected.definitions.length > 0) direct = 'direct';
    return expected;
  }
  return walked;
}

/** How walks are made in this process: checked against the library on the first tree. */
let direct: 'unchecked' | 'direct' | 'library' = 'unchecked';

/** How this process walks trees now (tests). */
export function walkMode(): 'unchecked' | 'direct' | 'library' {
  return direct;
}

/** Test hook: forget the first-tree check, or choose a walk. */
export function resetWalkMode(mode: 'unchecked' | 'direct' | 'library' = 'unchecked'): void {
  direct = mode;
}

/** The walk as web-tree-sitter's own `descendantsOfType` gives it. */
export function libraryWalk(root: Node, table: WalkTable): Walked {
  const roles = table.roles;
  const nodes = root.descendantsOfType(table.types);
  const names = emptyNames(nodes.length);
  const out: Walked = { names, definitions: [], definitionTypes: [] };
  const nameNodes: Node[] = [];
  for (const node of nodes) {
    if (!node) continue;
    const typeId = node.typeId;
    const role = roles[typeId] as number;
    if (role & OCCURRENCE) {
      const i = names.count++;
      names.starts[i] = node.startIndex;
      names.rows[i] = node.startPosition.row;
      names.types[i] = typeId;
      nameNodes.push(node);
    }
    if (role & DEFINITION) {
      out.definitions.push(node);
      out.definitionTypes.push(typeId);
    }
  }
  names.endOf = (i) => (nameNodes[i] as Node).endIndex;
  return out;
}

function emptyNames(capacity: number): NameNodes {
  return { count: 0, starts: new Int32Array(capacity), rows: new Int32Array(capacity), types: new Int32Array(capacity), endOf: () => -1 };
}

/** The runtime's functions a direct walk calls (binding.c of web-tree-sitter 0.25). */
interface DirectApi {
  memory: { buffer: ArrayBuffer };
  /** The transfer buffer's address: nodes pass through it as NODE_INTS int32s. */
  transfer: number;
  malloc(bytes: number): number;
  free(at: number): void;
  descendants(tree: number, symbols: number, count: number, startRow: number, startColumn: number, endRow: number, endColumn: number): void;
  symbol(tree: number): number;
  endIndex(tree: number): number;
}

/** A node in the transfer buffer: id, start index, start row, start column, alias ("other"). */
const NODE_INTS = 5;

let api: DirectApi | null | undefined;

function directApi(): DirectApi | undefined {
  if (api !== undefined) return api ?? undefined;
  const internals = runtimeInternals();
  if (!internals) return undefined;
  const e = internals.exports as Record<string, unknown>;
  const fns = ['ts_init', 'malloc', 'free', 'ts_node_descendants_of_type_wasm', 'ts_node_symbol_wasm', 'ts_node_end_index_wasm'];
  if (!fns.every((f) => typeof e[f] === 'function') || typeof (TreeSitter as { Node?: unknown }).Node !== 'function') {
    api = null;
    return undefined;
  }
  const call = e as Record<string, (...args: number[]) => number>;
  api = {
    memory: internals.memory,
    // ts_init only stores the language versions in the buffer and returns its address.
    transfer: call.ts_init!(),
    malloc: call.malloc!,
    free: call.free!,
    descendants: call.ts_node_descendants_of_type_wasm!,
    symbol: call.ts_node_symbol_wasm!,
    endIndex: call.ts_node_end_index_wasm!,
  };
  return api;
}

/** The tree's address in the runtime, as web-tree-sitter keeps it. */
function treeAddress(tree: Tree): number {
  return (tree as unknown as { 0: number })[0];
}

/** The same walk as libraryWalk, reading the nodes from the runtime's memory. */
function directWalk(root: Node, table: WalkTable, raw: DirectApi): Walked {
  const tree = treeAddress(root.tree);
  if (table.symbolsAt === undefined) {
    const at = raw.malloc(4 * Math.max(1, table.symbols.length));
    new Int32Array(raw.memory.buffer, at, table.symbols.length).set(table.symbols);
    table.symbolsAt = at;
  }
  const t = raw.transfer >> 2;
  let heap = new Int32Array(raw.memory.buffer);
  writeNode(heap, t, (root as unknown as { id: number }).id, root.startIndex, root.startPosition.row, root.startPosition.column, (root as unknown as { 0: number })[0]);
  raw.descendants(tree, table.symbolsAt, table.symbols.length, 0, 0, 0, 0);
  // The walk allocates its result, which may grow the memory and detach the old view.
  heap = new Int32Array(raw.memory.buffer);
  const count = heap[t] as number;
  // The result's address; the buffer is reused below for each node's type.
  const result = heap[t + 1] as number;
  const at = result >> 2;
  const roles = table.roles;
  const names = emptyNames(count);
  // Each name's node as the transfer buffer holds it, for endOf.
  const records = new Int32Array(count * NODE_INTS);
  const out: Walked = { names, definitions: [], definitionTypes: [] };
  try {
    for (let i = 0; i < count; i++) {
      const n = at + i * NODE_INTS;
      const id = heap[n] as number;
      if (id === 0) continue;
      const start = heap[n + 1] as number;
      const row = heap[n + 2] as number;
      const column = heap[n + 3] as number;
      const other = heap[n + 4] as number;
      writeNode(heap, t, id, start, row, column, other);
      const typeId = raw.symbol(tree);
      const role = roles[typeId] as number;
      if (role & OCCURRENCE) {
        const k = names.count++;
        names.starts[k] = start;
        names.rows[k] = row;
        names.types[k] = typeId;
        for (let j = 0; j < NODE_INTS; j++) records[k * NODE_INTS + j] = heap[n + j] as number;
      }
      if (role & DEFINITION) {
        out.definitions.push(nodeObject(root.tree, id, start, row, column, other));
        out.definitionTypes.push(typeId);
      }
    }
  } finally {
    raw.free(result);
  }
  names.endOf = (k) => {
    const view = new Int32Array(raw.memory.buffer);
    const r = k * NODE_INTS;
    writeNode(view, t, records[r] as number, records[r + 1] as number, records[r + 2] as number, records[r + 3] as number, records[r + 4] as number);
    return raw.endIndex(tree);
  };
  return out;
}

function writeNode(heap: Int32Array, t: number, id: number, start: number, row: number, column: number, other: number): void {
  heap[t] = id;
  heap[t + 1] = start;
  heap[t + 2] = row;
  heap[t + 3] = column;
  heap[t + 4] = other;
}

/** A node object as web-tree-sitter's unmarshalNode makes it (its constructor is internal). */
function nodeObject(tree: Tree, id: number, startIndex: number, row: number, column: number, other: number): Node {
  const node = Object.create((TreeSitter as unknown as { Node: { prototype: object } }).Node.prototype) as Record<string | number, unknown>;
  node[0] = other;
  node._children = undefined;
  node._namedChildren = undefined;
  node.id = id;
  node.startIndex = startIndex;
  node.startPosition = { row, column };
  node.tree = tree;
  return node as unknown as Node;
}

/** True when two walks found the same nodes: names with their ends, definitions with their spans. */
export function sameWalk(a: Walked, b: Walked): boolean {
  if (a.names.count !== b.names.count || a.definitions.length !== b.definitions.length) return false;
  for (let i = 0; i < a.names.count; i++) {
    if (a.names.starts[i] !== b.names.starts[i] || a.names.rows[i] !== b.names.rows[i] || a.names.types[i] !== b.names.types[i]) return false;
    if (a.names.endOf(i) !== b.names.endOf(i)) return false;
  }
  for (let i = 0; i < a.definitions.length; i++) {
    const x = a.definitions[i] as Node;
    const y = b.definitions[i] as Node;
    if (a.definitionTypes[i] !== b.definitionTypes[i] || x.id !== y.id || x.startIndex !== y.startIndex || x.endIndex !== y.endIndex || x.text !== y.text) return false;
  }
  return true;
}
