// Swift: classes, structs, enums, actors and extensions (summaries), protocols, functions,
// initialisers, type aliases.
import type { Node } from 'web-tree-sitter';
import { baseTypeName, childOfType, field, fieldText, oneLine, setOf, type DefInfo, type LanguageSpec } from '../spec';
import type { ChunkKind } from '../../../types';

const DECLARATION_KINDS: Readonly<Record<string, ChunkKind>> = { class: 'class', actor: 'class', struct: 'struct', enum: 'enum', extension: 'impl' };

function withModifiers(info: DefInfo, node: Node): DefInfo {
  const mods = childOfType(node, 'modifiers');
  if (!mods) return info;
  const vis = childOfType(mods, 'visibility_modifier')?.text;
  if (vis) info.visibility = vis;
  const attrs = mods.namedChildren.filter((c) => c?.type === 'attribute').map((c) => oneLine(c!.text, 120));
  if (attrs.length > 0) info.decorators = attrs;
  return info;
}

export const swiftSpec: LanguageSpec = {
  comments: setOf('comment', 'multiline_comment'),
  definition(node, type) {
    switch (type) {
      case 'class_declaration': {
        const kind = DECLARATION_KINDS[fieldText(node, 'declaration_kind') ?? 'class'] ?? 'class';
        const name = field(node, 'name');
        const body = field(node, 'body');
        if (!name) return undefined;
        return withModifiers({ kind, name: baseTypeName(name.text), node, body, members: body }, node);
      }
      case 'protocol_declaration':
        return withModifiers({ kind: 'interface', name: fieldText(node, 'name') ?? '', node, body: field(node, 'body') }, node);
      case 'function_declaration':
        return withModifiers({ kind: 'function', name: fieldText(node, 'name') ?? '', node, body: field(node, 'body') }, node);
      case 'init_declaration':
        return withModifiers({ kind: 'constructor', name: 'init', node, body: field(node, 'body') }, node);
      case 'deinit_declaration':
        return withModifiers({ kind: 'method', name: 'deinit', node, body: field(node, 'body') }, node);
      case 'subscript_declaration':
        return withModifiers({ kind: 'method', name: 'subscript', node, body: childOfType(node, 'computed_property') ?? null }, node);
      case 'typealias_declaration':
        return withModifiers({ kind: 'type', name: fieldText(node, 'name') ?? '', node }, node);
      default:
        return undefined;
    }
  },
};
