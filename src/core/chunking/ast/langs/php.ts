// PHP: namespaces, classes/interfaces/traits/enums (summaries), functions and methods.
import type { Node } from 'web-tree-sitter';
import { childOfType, field, fieldText, oneLine, setOf, type DefInfo, type LanguageSpec } from '../spec';
import type { ChunkKind } from '../../../types';

const OTHER_DEFINITIONS = setOf('namespace_definition', 'function_definition', 'method_declaration');

const CONTAINERS: Readonly<Record<string, ChunkKind>> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  trait_declaration: 'trait',
  enum_declaration: 'enum',
};

function withModifiers(info: DefInfo, node: Node): DefInfo {
  const vis = childOfType(node, 'visibility_modifier')?.text;
  if (vis) info.visibility = vis;
  const attrs = node.namedChildren.filter((c) => c?.type === 'attribute_list').map((c) => oneLine(c!.text, 120));
  if (attrs.length > 0) info.decorators = attrs;
  return info;
}

export const phpSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition(node, type) {
    const container = CONTAINERS[type];
    if (!container && !OTHER_DEFINITIONS.has(type)) return undefined;
    const name = fieldText(node, 'name');
    if (container) {
      const body = field(node, 'body');
      return name ? withModifiers({ kind: container, name, node, body, members: body }, node) : undefined;
    }
    switch (type) {
      case 'namespace_definition': {
        // `namespace App;` has no body: what follows is code of the file.
        const body = field(node, 'body');
        return name && body ? { kind: 'namespace', name, node, body, members: body } : undefined;
      }
      case 'function_definition':
      case 'method_declaration': {
        const body = field(node, 'body');
        return name && body ? withModifiers({ kind: 'function', name, node, body }, node) : undefined;
      }
      default:
        return undefined;
    }
  },
  isConstructor: (name) => name === '__construct',
};
