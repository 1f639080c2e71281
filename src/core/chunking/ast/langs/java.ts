// Java: classes, interfaces, enums, records (summaries), methods and constructors.
// Annotations are decorators; `public/private/protected` the visibility.
import type { Node } from 'web-tree-sitter';
import { ACCESS_KEYWORDS, childOfType, field, fieldText, keywordsOf, oneLine, setOf, type DefInfo, type LanguageSpec } from '../spec';
import type { ChunkKind } from '../../../types';

const ANNOTATIONS = setOf('marker_annotation', 'annotation');

const OTHER_DEFINITIONS = setOf('annotation_type_declaration', 'method_declaration', 'constructor_declaration', 'compact_constructor_declaration');

const CONTAINERS: Readonly<Record<string, ChunkKind>> = {
  class_declaration: 'class',
  record_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
};

function withModifiers(info: DefInfo, node: Node): DefInfo {
  const mods = childOfType(node, 'modifiers');
  if (!mods) return info;
  const vis = keywordsOf(mods, ACCESS_KEYWORDS);
  if (vis) info.visibility = vis;
  const decorators = mods.namedChildren.filter((c) => c && ANNOTATIONS.has(c.type)).map((c) => oneLine(c!.text, 120));
  if (decorators.length > 0) info.decorators = decorators;
  return info;
}

export const javaSpec: LanguageSpec = {
  comments: setOf('line_comment', 'block_comment'),
  definition(node, type) {
    const container = CONTAINERS[type];
    if (!container && !OTHER_DEFINITIONS.has(type)) return undefined;
    const name = fieldText(node, 'name');
    if (!name) return undefined;
    if (container) {
      const body = field(node, 'body');
      return withModifiers({ kind: container, name, node, body, members: body }, node);
    }
    switch (type) {
      case 'annotation_type_declaration':
        return withModifiers({ kind: 'interface', name, node, body: field(node, 'body') }, node);
      case 'method_declaration': {
        // Abstract and interface methods have no body: they are listed in the summary only.
        const body = field(node, 'body');
        return body ? withModifiers({ kind: 'function', name, node, body }, node) : undefined;
      }
      case 'constructor_declaration':
      case 'compact_constructor_declaration':
        return withModifiers({ kind: 'constructor', name, node, body: field(node, 'body') }, node);
      default:
        return undefined;
    }
  },
  // Methods of an enum sit in `enum_body_declarations` after the constants.
  flatten: (node, type) => (type === 'enum_body_declarations' ? node : undefined),
};
