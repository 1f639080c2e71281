// Rust: fn, struct/enum/union, trait and impl blocks (summaries; methods under the type name),
// mod, macro_rules!, const/static, type aliases. Outer attributes (`#[derive]`) are decorators.
import type { Node } from 'web-tree-sitter';
import { baseTypeName, childOfType, field, fieldText, setOf, type DefInfo, type LanguageSpec } from '../spec';
import type { ChunkKind } from '../../../types';

const LEAVES: Readonly<Record<string, ChunkKind>> = {
  function_item: 'function',
  struct_item: 'struct',
  enum_item: 'enum',
  union_item: 'union',
  macro_definition: 'macro',
  const_item: 'constant',
  static_item: 'constant',
  type_item: 'type',
};

function withVisibility(info: DefInfo, node: Node): DefInfo {
  const vis = childOfType(node, 'visibility_modifier')?.text;
  if (vis) info.visibility = vis;
  return info;
}

export const rustSpec: LanguageSpec = {
  comments: setOf('line_comment', 'block_comment'),
  attributes: setOf('attribute_item'),
  definition(node, type) {
    const leaf = LEAVES[type];
    if (leaf) {
      const name = fieldText(node, 'name');
      if (!name) return undefined;
      const body = leaf === 'function' || leaf === 'struct' || leaf === 'enum' || leaf === 'union' ? field(node, 'body') : null;
      return withVisibility({ kind: leaf, name, node, body }, node);
    }
    switch (type) {
      case 'trait_item': {
        const body = field(node, 'body');
        return withVisibility({ kind: 'trait', name: fieldText(node, 'name') ?? '', node, body, members: body }, node);
      }
      case 'impl_item': {
        // Methods of `impl Foo` and of `impl Trait for Foo` both live under `Foo`.
        const type = field(node, 'type');
        const body = field(node, 'body');
        if (!type) return undefined;
        return { kind: 'impl', name: baseTypeName(type.text), node, body, members: body };
      }
      case 'mod_item': {
        const body = field(node, 'body');
        if (!body) return undefined;
        return withVisibility({ kind: 'module', name: fieldText(node, 'name') ?? '', node, body, members: body }, node);
      }
      default:
        return undefined;
    }
  },
};
