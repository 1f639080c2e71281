// Ruby: modules and classes (summaries), methods and singleton methods, constants.
// A bare `private`/`protected`/`public` sets the visibility of the methods after it.
import type { Node } from 'web-tree-sitter';
import { field, fieldText, setOf, splitQualified, type DefInfo, type LanguageSpec, type SpecContext } from '../spec';

const SECTIONS = setOf('private', 'protected', 'public');

/** `class A::B` → scope `A`, name `B`. */
function qualified(node: Node, kind: 'class' | 'module'): DefInfo | undefined {
  const full = fieldText(node, 'name');
  if (!full) return undefined;
  const parts = splitQualified(full);
  const body = field(node, 'body');
  const info: DefInfo = { kind, name: parts.pop() ?? full, node, body, members: body };
  if (parts.length > 0) info.scope = parts;
  return info;
}

function definition(node: Node, type: string, ctx: SpecContext): DefInfo | undefined {
  switch (type) {
    case 'class':
      return qualified(node, 'class');
    case 'module':
      return qualified(node, 'module');
    case 'method': {
      const name = fieldText(node, 'name');
      if (!name) return undefined;
      // No body boundary: the signature is the `def` line.
      const info: DefInfo = { kind: 'function', name, node };
      // Methods of `class << self` are singleton methods, public unless made private there.
      if (ctx.flattened === 'singleton_class') {
        info.kind = 'method';
        info.visibility = 'public';
      }
      return info;
    }
    case 'singleton_method': {
      const name = fieldText(node, 'name');
      return name ? { kind: 'method', name, node, visibility: 'public' } : undefined;
    }
    case 'assignment': {
      if (ctx.depth > 0 && ctx.container?.kind !== 'module') return undefined;
      const left = field(node, 'left');
      return left?.type === 'constant' ? { kind: 'constant', name: left.text, node } : undefined;
    }
    default:
      return undefined;
  }
}

export const rubySpec: LanguageSpec = {
  comments: setOf('comment'),
  definition,
  // `class << self … end`: its methods are the enclosing class's singleton methods.
  flatten: (node, type) => (type === 'singleton_class' ? (field(node, 'body') ?? undefined) : undefined),
  section: (node, type) => (type === 'identifier' && SECTIONS.has(node.text) ? node.text : undefined),
  isConstructor: (name) => name === 'initialize',
};
