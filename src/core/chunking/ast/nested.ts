// Definitions a person can "go to" wherever they sit: patterns per grammar, in tree-sitter query
// syntax, list every function, method and type, including those inside function bodies and
// object literals, which the extractor never enters. They are matched on the nodes of the walk
// the occurrences share (walk.ts, patterns.ts), with the results a query would give. The
// extractor's own definitions are found among the matches (their name positions come from
// here); the rest become nested definitions of the chunk that holds them.
// The CommonJS build, as in runtime.ts: esbuild's bundling of the ESM build breaks Parser.init.
import TreeSitter = require('web-tree-sitter');
import type { Language, Node } from 'web-tree-sitter';
import type { ChunkKind } from '../../types';
import { ChildCache, matchDefinition, readPattern, type Pattern } from './patterns';
import { unquote } from './spec';
import { typeTableFor, type TypeTable } from './units';

/** One query match: the definition node's range and where its name is (UTF-16 offsets). */
export interface DefinitionMatch {
  kind: ChunkKind;
  name: string;
  nameAt: number;
  start: number;
  end: number;
}

// Each pattern captures the definition as @<kind> and its name as @name. Patterns are
// compiled one by one and the ones a grammar cannot read are dropped (the JavaScript and
// TypeScript grammars differ in a few node names).
const JS_FUNCTION_VALUES = ['arrow_function', 'function_expression', 'function', 'generator_function'];
const jsValue = (capture: string): string[] => JS_FUNCTION_VALUES.map((v) => capture.replace('$V', v));

const JAVASCRIPT: string[] = [
  '(function_declaration name: (identifier) @name) @function',
  '(generator_function_declaration name: (identifier) @name) @function',
  '(function_signature name: (identifier) @name) @function',
  '(class_declaration name: (_) @name) @class',
  '(abstract_class_declaration name: (_) @name) @class',
  '(method_definition name: (_) @name) @method',
  '(method_signature name: (_) @name) @method',
  '(abstract_method_signature name: (_) @name) @method',
  '(interface_declaration name: (_) @name) @interface',
  '(type_alias_declaration name: (_) @name) @type',
  '(enum_declaration name: (_) @name) @enum',
  // Named function expressions (`defineGetter(req, 'ip', function ip() {…})`) name a function too.
  '(function_expression name: (identifier) @name) @function',
  '(function name: (identifier) @name) @function',
  '(generator_function name: (identifier) @name) @function',
  // Named class expressions (`module.exports = class Widget {…}`) name a class too.
  '(class name: (_) @name) @class',
  ...jsValue('(variable_declarator name: (identifier) @name value: ($V)) @function'),
  '(variable_declarator name: (identifier) @name value: (class)) @class',
  ...jsValue('(pair key: (_) @name value: ($V)) @method'),
  ...jsValue('(assignment_expression left: (member_expression property: (property_identifier) @name) right: ($V)) @function'),
  ...jsValue('(public_field_definition name: (_) @name value: ($V)) @method'),
  ...jsValue('(field_definition property: (_) @name value: ($V)) @method'),
  // Module-level variables (`const cache = new Map()`): go-to-able, though not functions.
  '(program (lexical_declaration (variable_declarator name: (identifier) @name)) @variable)',
  '(program (variable_declaration (variable_declarator name: (identifier) @name)) @variable)',
  '(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name))) @variable)',
];

const PATTERNS: Readonly<Record<string, readonly string[]>> = {
  javascript: JAVASCRIPT,
  typescript: JAVASCRIPT,
  tsx: JAVASCRIPT,
  python: [
    '(function_definition name: (identifier) @name) @function',
    '(class_definition name: (identifier) @name) @class',
    '(module (expression_statement (assignment left: (identifier) @name)) @variable)',
  ],
  go: [
    '(function_declaration name: (identifier) @name) @function',
    '(method_declaration name: (field_identifier) @name) @method',
    '(type_spec name: (type_identifier) @name) @type',
    '(short_var_declaration left: (expression_list . (identifier) @name) right: (expression_list . (func_literal))) @function',
    '(var_spec name: (identifier) @name value: (expression_list . (func_literal))) @function',
    '(assignment_statement left: (expression_list . (identifier) @name) right: (expression_list . (func_literal))) @function',
    '(source_file (const_declaration (const_spec name: (identifier) @name) @constant))',
    '(source_file (var_declaration (var_spec name: (identifier) @name) @variable))',
  ],
  rust: [
    '(function_item name: (identifier) @name) @function',
    '(function_signature_item name: (identifier) @name) @function',
    '(struct_item name: (type_identifier) @name) @struct',
    '(enum_item name: (type_identifier) @name) @enum',
    '(union_item name: (type_identifier) @name) @union',
    '(trait_item name: (type_identifier) @name) @trait',
    '(type_item name: (type_identifier) @name) @type',
    '(mod_item name: (identifier) @name) @module',
    '(macro_definition name: (identifier) @name) @macro',
    '(const_item name: (identifier) @name) @constant',
    '(static_item name: (identifier) @name) @constant',
  ],
  java: [
    '(method_declaration name: (identifier) @name) @method',
    '(constructor_declaration name: (identifier) @name) @constructor',
    '(class_declaration name: (identifier) @name) @class',
    '(record_declaration name: (identifier) @name) @class',
    '(interface_declaration name: (identifier) @name) @interface',
    '(annotation_type_declaration name: (identifier) @name) @interface',
    '(enum_declaration name: (identifier) @name) @enum',
  ],
  csharp: [
    '(method_declaration name: (identifier) @name) @method',
    '(local_function_statement name: (identifier) @name) @function',
    '(constructor_declaration name: (identifier) @name) @constructor',
    '(class_declaration name: (identifier) @name) @class',
    '(record_declaration name: (identifier) @name) @class',
    '(struct_declaration name: (identifier) @name) @struct',
    '(interface_declaration name: (identifier) @name) @interface',
    '(enum_declaration name: (identifier) @name) @enum',
    '(delegate_declaration name: (identifier) @name) @type',
  ],
  php: [
    '(function_definition name: (name) @name) @function',
    '(method_declaration name: (name) @name) @method',
    '(class_declaration name: (name) @name) @class',
    '(interface_declaration name: (name) @name) @interface',
    '(trait_declaration name: (name) @name) @trait',
    '(enum_declaration name: (name) @name) @enum',
  ],
  ruby: [
    '(method name: (_) @name) @method',
    '(singleton_method name: (_) @name) @method',
    '(class name: (constant) @name) @class',
    '(module name: (constant) @name) @module',
    '(program (assignment left: (constant) @name) @constant)',
  ],
  cpp: [
    '(function_definition declarator: (function_declarator declarator: (identifier) @name)) @function',
    '(class_specifier name: (type_identifier) @name body: (_)) @class',
    '(struct_specifier name: (type_identifier) @name body: (_)) @struct',
  ],
  c: ['(struct_specifier name: (type_identifier) @name body: (_)) @struct'],
};

const KIND_CAPTURES: ReadonlySet<string> = new Set<ChunkKind>([
  'function', 'method', 'constructor', 'class', 'interface', 'type', 'enum', 'struct', 'union', 'trait', 'module', 'macro', 'constant', 'variable',
]);

/** Words that are statements or declarations in the languages above, never a definition's name. */
const KEYWORDS: ReadonlySet<string> = new Set([
  'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'catch', 'try', 'finally', 'return', 'const', 'let', 'var',
  'function', 'new', 'typeof', 'await', 'yield', 'throw', 'import', 'export', 'class', 'delete', 'void', 'with', 'super', 'this',
]);

/** At most this many definitions are read from one file (a minified bundle can hold tens of thousands). */
export const MAX_DEFINITIONS_PER_FILE = 20_000;

/** A grammar's definition patterns, in tree-sitter query syntax (patterns.ts reads them). */
export function definitionPatterns(grammar: string): readonly string[] {
  return PATTERNS[grammar] ?? [];
}

/** A grammar's patterns by the type id of their definition node; null when the grammar has none. */
export interface DefinitionMatcher {
  byType: ReadonlyMap<number, readonly Pattern[]>;
  /** The definition nodes' type names, for the walk to hand back. */
  typeNames: readonly string[];
}

const matchers = new Map<Language, DefinitionMatcher | null>();

/** The matcher for a grammar's patterns, built once per grammar. */
export function definitionMatcher(language: Language, grammar: string): DefinitionMatcher | null {
  let m = matchers.get(language);
  if (m !== undefined) return m;
  m = null;
  // Patterns naming a node or field this grammar lacks are left out.
  const usable = (PATTERNS[grammar] ?? []).filter((p) => readable(language, p));
  // The query the patterns form must compile, as it did when a query cursor matched them: a
  // grammar whose structure no pattern fits keeps the extractor's names only.
  if (usable.length > 0 && compiles(language, usable)) {
    const byName = new Map<string, Pattern[]>();
    for (const source of usable) {
      const p = readPattern(source, KIND_CAPTURES);
      const list = byName.get(p.def.type) ?? [];
      list.push(p);
      byName.set(p.def.type, list);
    }
    const byType = new Map<number, Pattern[]>();
    language.types.forEach((name, typeId) => {
      const list = byName.get(name);
      if (list && language.nodeTypeIsNamed(typeId)) byType.set(typeId, list);
    });
    m = { byType, typeNames: [...byName.keys()] };
  }
  matchers.set(language, m);
  return m;
}

function compiles(language: Language, patterns: readonly string[]): boolean {
  try {
    new TreeSitter.Query(language, patterns.join('\n')).delete();
    return true;
  } catch {
    return false;
  }
}

/** True when every node type and field a pattern names exists in the grammar. */
function readable(language: Language, pattern: string): boolean {
  for (const m of pattern.matchAll(/\((\w+)/g)) if (m[1] !== '_' && language.idForNodeType(m[1] as string, true) === null) return false;
  for (const m of pattern.matchAll(/(\w+):/g)) if (language.fieldIdForName(m[1] as string) === null) return false;
  return true;
}

/** Offsets `[start, end)` of text to search for definitions. */
export type Range = readonly [start: number, end: number];

/** A match before duplicates are dropped, with the order a query would have found it in. */
interface Found extends DefinitionMatch {
  /** The first range the pattern's root node meets: each range was searched by a query of its own. */
  range: number;
  /** Where the match's last step is: a query reports a match when it reaches that node. */
  lastAt: number;
  seq: number;
}

/**
 * Every definition the grammar's patterns find within `ranges` (sorted, not overlapping), in
 * order of name position. `candidates` are the tree's nodes of the patterns' definition types
 * (walk.ts), with their type ids: a pattern counts where its root node meets a range, as a
 * query searching the ranges one by one would find it, and a name found twice keeps the match
 * such a query reported first.
 */
export function findDefinitions(root: Node, grammar: string, ranges: readonly Range[], candidates: readonly Node[], candidateTypes: ArrayLike<number>): DefinitionMatch[] {
  if (ranges.length === 0 || candidates.length === 0) return [];
  const matcher = definitionMatcher(root.tree.language, grammar);
  if (!matcher) return [];
  const types = typeTableFor(root.tree.language);
  const found: Found[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const patterns = matcher.byType.get(candidateTypes[i] as number);
    if (!patterns) continue;
    const node = candidates[i] as Node;
    const cache = new ChildCache(node);
    let start = -1;
    let end = -1;
    let ownRange = -2;
    for (const p of patterns) {
      let range: number;
      if (p.ancestors.length === 0) {
        if (ownRange === -2) {
          start = node.startIndex;
          end = node.endIndex;
          ownRange = firstRange(ranges, start, end);
        }
        range = ownRange;
      } else range = ancestorsRange(node, p.ancestors, types, ranges);
      if (range < 0) continue;
      for (const b of matchDefinition(p.def, cache, types)) {
        const raw = b.name.text;
        const text = unquote(raw);
        // Error recovery can read `if (x) {` as a method named `if`: keywords name nothing.
        if (!text || text.length > 200 || KEYWORDS.has(text)) continue;
        if (start < 0) {
          start = node.startIndex;
          end = node.endIndex;
        }
        const nameAt = b.name.startIndex + (raw.length > text.length ? 1 : 0);
        found.push({ kind: p.kind as ChunkKind, name: text, nameAt, start, end, range, lastAt: b.last.startIndex, seq: found.length });
      }
    }
  }
  found.sort((a, b) => a.range - b.range || a.lastAt - b.lastAt || a.seq - b.seq);
  const out: DefinitionMatch[] = [];
  const seen = new Set<number>();
  for (const f of found) {
    if (seen.has(f.nameAt)) continue;
    seen.add(f.nameAt);
    out.push({ kind: f.kind, name: f.name, nameAt: f.nameAt, start: f.start, end: f.end });
    if (out.length >= MAX_DEFINITIONS_PER_FILE) break;
  }
  return out.sort((a, b) => a.nameAt - b.nameAt);
}

/** The first range that `start..end` meets (a node meets a range it overlaps); -1 when none. */
function firstRange(ranges: readonly Range[], start: number, end: number): number {
  let lo = 0;
  let hi = ranges.length;
  // The first range ending after `start`.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ranges[mid] as Range)[1] <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length && (ranges[lo] as Range)[0] < end ? lo : -1;
}

/** The first range the top ancestor meets, when the node's ancestors are of the pattern's types; -1 otherwise. */
function ancestorsRange(node: Node, ancestors: readonly string[], types: TypeTable, ranges: readonly Range[]): number {
  let at: Node | null = node;
  for (const type of ancestors) {
    at = at.parent;
    if (!at || types.name(at.typeId) !== type) return -1;
  }
  return firstRange(ranges, at.startIndex, at.endIndex);
}

const DECLARATION_LINE = /^(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(class|interface|type|enum|function\*?|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)/gm;
const DECLARED_KIND: Readonly<Record<string, ChunkKind>> = {
  class: 'class', interface: 'interface', type: 'type', enum: 'enum', function: 'function', 'function*': 'function',
  const: 'variable', let: 'variable', var: 'variable', namespace: 'namespace',
};

/**
 * Top-level declarations read from the text of a JavaScript or TypeScript file the grammar
 * could not parse whole: where error recovery swallowed a region (the bundled TypeScript
 * grammar reads some newer syntax as one ERROR node from the top of the file), a line that
 * starts at column 0 with `export type X`, `interface X`, `function X`… still names a
 * definition. `known` (sorted by name position) are the query's matches; a line they hold is
 * not read again.
 */
export function declarationLines(text: string, known: readonly DefinitionMatch[]): DefinitionMatch[] {
  const seen = new Set(known.map((m) => m.nameAt));
  const out: DefinitionMatch[] = [];
  DECLARATION_LINE.lastIndex = 0;
  for (let m = DECLARATION_LINE.exec(text); m; m = DECLARATION_LINE.exec(text)) {
    const name = m[2] as string;
    const nameAt = m.index + m[0].length - name.length;
    if (seen.has(nameAt) || KEYWORDS.has(name)) continue;
    const lineEnd = text.indexOf('\n', m.index);
    out.push({ kind: DECLARED_KIND[m[1] as string] ?? 'variable', name, nameAt, start: m.index, end: lineEnd < 0 ? text.length : lineEnd });
    if (out.length >= MAX_DEFINITIONS_PER_FILE) break;
  }
  return out;
}
