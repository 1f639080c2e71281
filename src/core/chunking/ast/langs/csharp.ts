// C#: namespaces, classes/structs/interfaces/records (summaries), enums, methods, constructors.
// Attributes (`[Serializable]`) are decorators; access modifiers the visibility.
import type { Node } from 'web-tree-sitter';
import { ACCESS_KEYWORDS, field, fieldText, oneLine, setOf, type DefInfo, type LanguageSpec } from '../spec';
import type { ChunkKind } from '../../../types';

const CONTAINERS: Readonly<Record<string, ChunkKind>> = {
  class_declaration: 'class',
  record_declaration: 'class',
  struct_declaration: 'struct',
  interface_declaration: 'interface',
};

const METHODS = setOf('method_declaration', 'operator_declaration', 'conversion_operator_declaration', 'destructor_declaration', 'local_function_statement');

function withModifiers(info: DefInfo, node: Node): DefInfo {
  const decorators: string[] = [];
  for (const c of node.namedChildren) {
    if (c?.type === 'attribute_list') decorators.push(oneLine(c.text, 120));
    else if (c?.type === 'modifier' && ACCESS_KEYWORDS.has(c.text) && !info.visibility) info.visibility = c.text;
  }
  if (decorators.length > 0) info.decorators = decorators;
  return info;
}

/** A method's body: a block or `=> expr`. */
function methodBody(node: Node): Node | null {
  return field(node, 'body') ?? node.namedChildren.find((c) => c?.type === 'arrow_expression_clause') ?? null;
}

/** `record struct P(…)`: the grammar gives it the node type of a `record` (a class). */
function isRecordStruct(node: Node, source: string): boolean {
  const name = field(node, 'name');
  return name !== null && /\brecord\s+struct\b/.test(source.slice(node.startIndex, name.startIndex));
}

export const csharpSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition(node, type, ctx) {
    const container = type === 'record_declaration' && isRecordStruct(node, ctx.source) ? 'struct' : CONTAINERS[type];
    if (container) {
      const body = field(node, 'body');
      const members = body?.type === 'declaration_list' ? body : null;
      return withModifiers({ kind: container, name: fieldText(node, 'name') ?? '', node, body, members }, node);
    }
    switch (type) {
      case 'namespace_declaration': {
        const body = field(node, 'body');
        return { kind: 'namespace', name: fieldText(node, 'name') ?? '', node, body, members: body };
      }
      case 'enum_declaration':
        return withModifiers({ kind: 'enum', name: fieldText(node, 'name') ?? '', node, body: field(node, 'body') }, node);
      case 'delegate_declaration':
        return withModifiers({ kind: 'type', name: fieldText(node, 'name') ?? '', node }, node);
      case 'constructor_declaration': {
        const body = methodBody(node);
        return body ? withModifiers({ kind: 'constructor', name: fieldText(node, 'name') ?? '', node, body }, node) : undefined;
      }
      default: {
        if (!METHODS.has(type)) return undefined;
        const body = methodBody(node);
        const own = fieldText(node, 'name');
        const name = type === 'destructor_declaration' ? `~${own ?? ''}` : (own ?? oneLine(fieldText(node, 'operator') ?? 'operator'));
        return body ? withModifiers({ kind: 'function', name, node, body }, node) : undefined;
      }
    }
  },
};
