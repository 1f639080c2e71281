// The one walk of a parsed tree that the definitions and the occurrences read: the nodes of the
// types either asks for, in text order, each with its type id. `descendantsOfType` walks the
// tree in wasm and hands back only those nodes; asked separately, each reader walked the whole
// tree again (the definitions by a query cursor, which visits every node as a candidate).
import type { Language, Node } from 'web-tree-sitter';
import { definitionMatcher } from './nested';
import { occurrenceTypes } from './occurrences';

/** A file's nodes of interest, split by reader; type ids parallel the nodes. */
export interface Walked {
  /** Nodes of the occurrence rule's types (names, import statements, opaque leaves). */
  names: Node[];
  nameTypes: number[];
  /** Nodes of the definition patterns' types. */
  definitions: Node[];
  definitionTypes: number[];
}

/** What each type id is to the readers: bit 1 an occurrence type, bit 2 a definition type. */
interface WalkTable {
  types: string[];
  roles: Uint8Array;
}

const OCCURRENCE = 1;
const DEFINITION = 2;

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
  if (names.has('ERROR')) roles[65535] = OCCURRENCE;
  if (matcher) for (const typeId of matcher.byType.keys()) roles[typeId] = (roles[typeId] as number) | DEFINITION;
  const types = [...new Set([...names, ...(matcher?.typeNames ?? [])])];
  table = types.length > 0 ? { types, roles } : null;
  byGrammar.set(grammar, table);
  return table;
}

/** Walks the tree once for both readers; undefined when neither reads this grammar. */
export function walkTree(root: Node, grammar: string): Walked | undefined {
  const table = tableFor(root.tree.language, grammar);
  if (!table) return undefined;
  const out: Walked = { names: [], nameTypes: [], definitions: [], definitionTypes: [] };
  const roles = table.roles;
  for (const node of root.descendantsOfType(table.types)) {
    if (!node) continue;
    const typeId = node.typeId;
    const role = roles[typeId] as number;
    if (role & OCCURRENCE) {
      out.names.push(node);
      out.nameTypes.push(typeId);
    }
    if (role & DEFINITION) {
      out.definitions.push(node);
      out.definitionTypes.push(typeId);
    }
  }
  return out;
}
