// The definition patterns of nested.ts, read as tree-sitter query patterns and matched on the
// nodes a walk of the tree hands back, instead of by a query cursor. A query visits every node
// of the text it searches, as a second walk beside the occurrences walk; matched here, the one
// walk (walk.ts) lists the candidates, and only those are looked into.
//
// The subset read is the one the patterns use: `(type field: (child …) @capture …)`, `(_)` for
// any named node, and `.` before a first child (the parent's first named child). A pattern's
// definition (the node captured as a kind) is its root, or sits under a chain of single
// ancestors (`(program (lexical_declaration …) @variable)`); anything else is refused when the
// pattern is read, so a pattern this matcher cannot follow fails the tests at once.
import type { Node } from 'web-tree-sitter';
import type { TypeTable } from './units';

/** One node of a pattern. */
export interface Step {
  /** Node type; `_` for any named node. */
  type: string;
  field: string | undefined;
  /** `.` before it: only the parent's first named child. */
  anchored: boolean;
  capture: string | undefined;
  children: Step[];
}

/** A pattern ready to match: the definition's step, its kind, and the ancestors above it. */
export interface Pattern {
  /** The pattern's text, for messages. */
  source: string;
  kind: string;
  /** The definition's step (the node captured as `kind`). */
  def: Step;
  /** Types of the definition's ancestors, nearest first (empty when the definition is the root). */
  ancestors: string[];
}

const TOKEN = /\s*(\(|\)|\.|@[\w.-]+|[\w-]+:|[\w-]+)/y;

/** Reads a pattern whose definition is the node captured with one of `kinds`. Throws on syntax this matcher does not follow. */
export function readPattern(source: string, kinds: ReadonlySet<string>): Pattern {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(source); m; m = TOKEN.exec(source)) tokens.push(m[1] as string);
  if (source.slice(TOKEN.lastIndex).trim() !== '' && TOKEN.lastIndex !== 0) throw new Error(`unreadable pattern: ${source}`);
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`pattern ${source}: ${why}`);
  };
  const node = (field: string | undefined, anchored: boolean): Step => {
    if (tokens[at++] !== '(') fail('expected (');
    const type = tokens[at++];
    if (!type || !/^[\w-]+$/.test(type)) fail('expected a node type');
    const step: Step = { type: type as string, field, anchored, capture: undefined, children: [] };
    while (tokens[at] !== ')') {
      if (at >= tokens.length) fail('unclosed (');
      let childAnchored = false;
      if (tokens[at] === '.') {
        if (step.children.length > 0) fail('`.` only before a first child');
        childAnchored = true;
        at++;
      }
      let childField: string | undefined;
      const t = tokens[at] as string;
      if (t.endsWith(':')) {
        childField = t.slice(0, -1);
        at++;
      }
      step.children.push(node(childField, childAnchored));
    }
    at++;
    if (tokens[at]?.startsWith('@')) step.capture = (tokens[at++] as string).slice(1);
    return step;
  };
  const root = node(undefined, false);
  if (at !== tokens.length) fail('text after the pattern');
  const ancestors: string[] = [];
  let def: Step = root;
  while (!def.capture || !kinds.has(def.capture)) {
    // Above the definition, each step has one child, by position: only its type is checked.
    const only = def.children[0];
    if (def.children.length !== 1 || !only || only.field || only.anchored || def.capture || def.type === '_') fail('unsupported steps above the definition');
    ancestors.unshift(def.type);
    def = only as Step;
  }
  let names = 0;
  const count = (s: Step): void => {
    if (s.capture === 'name') names++;
    else if (s.capture && s !== def) fail(`unexpected capture @${s.capture}`);
    s.children.forEach(count);
  };
  count(def);
  if (names !== 1) fail('one @name below the definition');
  return { source, kind: def.capture as string, def, ancestors };
}

/** Every type and field a pattern names (the grammar must have them all). */
export function namesOf(p: Pattern): { types: string[]; fields: string[] } {
  const types = [...p.ancestors];
  const fields: string[] = [];
  const visit = (s: Step): void => {
    if (s.type !== '_') types.push(s.type);
    if (s.field) fields.push(s.field);
    s.children.forEach(visit);
  };
  visit(p.def);
  return { types, fields };
}

/** One way a definition node matches: its name, and the node the pattern's last step matched. */
export interface Binding {
  name: Node;
  /** A query finishes a match at its last step's node: matches are found in that order. */
  last: Node;
}

/** Children of one node read while matching it, so that patterns sharing a definition type ask once. */
export class ChildCache {
  private readonly byField = new Map<string, { nodes: Node[]; typeIds: number[] }>();
  private named: { nodes: Node[]; typeIds: number[] } | undefined;

  constructor(readonly node: Node) {}

  field(name: string): { nodes: Node[]; typeIds: number[] } {
    let got = this.byField.get(name);
    if (!got) {
      const nodes = this.node.childrenForFieldName(name).filter((n): n is Node => n !== null);
      got = { nodes, typeIds: nodes.map((n) => n.typeId) };
      this.byField.set(name, got);
    }
    return got;
  }

  namedChildren(): { nodes: Node[]; typeIds: number[] } {
    if (!this.named) {
      const nodes = this.node.namedChildren.filter((n): n is Node => n !== null);
      this.named = { nodes, typeIds: nodes.map((n) => n.typeId) };
    }
    return this.named;
  }
}

/** Where an ERROR node's type id is: never a match for `(_)`, as in a query. */
const ERROR_TYPE_ID = 65535;

/**
 * The ways a definition node (its type already matched) matches `step`, in the order a query
 * would report them.
 */
export function matchDefinition(step: Step, node: ChildCache, types: TypeTable): Binding[] {
  const out: Binding[] = [];
  for (const b of bindings(step, node, types)) if (b.name) out.push({ name: b.name, last: b.last });
  return out;
}

/** The ways `step`'s children match below a node; as in a query, children match in the order of their steps. */
function bindings(step: Step, cache: ChildCache, types: TypeTable): Array<{ name: Node | undefined; last: Node }> {
  let partial: Array<{ name: Node | undefined; last: Node; after: number }> = [{ name: step.capture === 'name' ? cache.node : undefined, last: cache.node, after: -1 }];
  for (const child of step.children) {
    const { nodes, typeIds } = child.field ? cache.field(child.field) : cache.namedChildren();
    const next: typeof partial = [];
    for (const b of partial) {
      const limit = child.anchored ? Math.min(1, nodes.length) : nodes.length;
      for (let i = 0; i < limit; i++) {
        const n = nodes[i] as Node;
        const typeId = typeIds[i] as number;
        if (!types.isNamed(typeId)) continue;
        if (child.type === '_' ? typeId === ERROR_TYPE_ID : types.name(typeId) !== child.type) continue;
        const start = n.startIndex;
        if (start <= b.after) continue;
        const inner = child.children.length > 0 ? bindings(child, new ChildCache(n), types) : [{ name: child.capture === 'name' ? n : undefined, last: n }];
        for (const m of inner) next.push({ name: b.name ?? m.name, last: m.last, after: start });
      }
    }
    partial = next;
    if (partial.length === 0) return [];
  }
  return partial;
}
