// Go: functions, methods (parent = receiver type: `Server.Start`), type declarations.
import type { Node } from 'web-tree-sitter';
import { baseTypeName, field, fieldText, setOf, type DefInfo, type LanguageSpec } from '../spec';

const visibility = (name: string): string => (/^\p{Lu}/u.test(name) ? 'public' : 'private');

/** `(s *Server)` → `Server`; `(p Pair[K, V])` → `Pair`. */
function receiverType(method: Node): string | undefined {
  const param = field(method, 'receiver')?.firstNamedChild;
  const type = param ? field(param, 'type') : null;
  return type ? baseTypeName(type.text) : undefined;
}

function typeSpecDef(spec: Node, outer: Node): DefInfo | undefined {
  const name = fieldText(spec, 'name');
  if (!name) return undefined;
  const type = field(spec, 'type');
  const kind = type?.type === 'struct_type' ? 'struct' : type?.type === 'interface_type' ? 'interface' : 'type';
  // The signature stops at the opening brace of a struct or interface.
  const brace = kind === 'type' ? null : type!.children.find((c) => c?.type === '{' || c?.type === 'field_declaration_list') ?? null;
  return { kind, name, node: outer, body: brace, visibility: visibility(name) };
}

const TYPE_SPECS = setOf('type_spec', 'type_alias');

export const goSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition(node, type) {
    switch (type) {
      case 'function_declaration':
      case 'method_declaration': {
        const name = fieldText(node, 'name');
        if (!name) return undefined;
        const info: DefInfo = { kind: 'function', name, node, body: field(node, 'body'), visibility: visibility(name) };
        const receiver = type === 'method_declaration' ? receiverType(node) : undefined;
        if (receiver) info.scope = [receiver];
        return info;
      }
      case 'type_declaration': {
        const specs = node.namedChildren.filter((c) => c && TYPE_SPECS.has(c.type));
        return specs.length === 1 ? typeSpecDef(specs[0]!, node) : undefined;
      }
      case 'type_spec':
      case 'type_alias':
        return typeSpecDef(node, node);
      default:
        return undefined;
    }
  },
  // `type ( A …; B … )`: each spec is its own definition.
  flatten: (node, type) => (type === 'type_declaration' && node.namedChildren.filter((c) => c && TYPE_SPECS.has(c.type)).length > 1 ? node : undefined),
};
