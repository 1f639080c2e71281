// C++: everything C has, plus classes/structs (summaries), namespaces, templates, and methods
// defined inside a class or out of it (`Foo::bar` → context `Foo.bar`). `public:` sections set
// the visibility of the members after them.
import type { Node } from 'web-tree-sitter';
import { field, fieldText, setOf, splitQualified, type DefInfo, type LanguageSpec, type SpecContext } from '../spec';
import type { ChunkKind } from '../../../types';
import { cDefinition, PREPROC_BLOCKS } from './c';

const KINDS: Readonly<Record<string, ChunkKind>> = { struct_specifier: 'struct', union_specifier: 'union', enum_specifier: 'enum', class_specifier: 'class' };
const CONTAINER_SPECIFIERS = setOf('class_specifier', 'struct_specifier', 'union_specifier');
const TEMPLATE_TARGETS = setOf('function_definition', 'class_specifier', 'struct_specifier', 'union_specifier', 'declaration', 'alias_declaration', 'template_declaration', 'concept_definition');

/** Classes, structs and unions hold methods in C++: make them containers. */
function asContainer(info: DefInfo | undefined, spec: Node | null): DefInfo | undefined {
  if (info && spec && CONTAINER_SPECIFIERS.has(spec.type)) info.members = field(spec, 'body');
  return info;
}

function definition(node: Node, type: string, ctx: SpecContext): DefInfo | undefined {
  switch (type) {
    case 'class_specifier':
    case 'struct_specifier':
    case 'union_specifier':
      return asContainer(cDefinition(node, type, ctx.source, KINDS), node);
    case 'declaration':
    case 'field_declaration':
    case 'type_definition': {
      // Most declarations define nothing (prototypes): their type is not read a second time.
      const info = cDefinition(node, type, ctx.source, KINDS);
      return info ? asContainer(info, field(node, 'type')) : undefined;
    }
    case 'namespace_definition': {
      const name = fieldText(node, 'name');
      const body = field(node, 'body');
      if (!name) return undefined;
      const parts = splitQualified(name);
      const info: DefInfo = { kind: 'namespace', name: parts.pop() ?? name, node, body, members: body };
      if (parts.length > 0) info.scope = parts;
      return info;
    }
    case 'template_declaration': {
      const inner = [...node.namedChildren].reverse().find((c) => c && TEMPLATE_TARGETS.has(c.type));
      return inner ? definition(inner, inner.type, ctx) : undefined;
    }
    case 'alias_declaration': {
      const name = fieldText(node, 'name');
      return name ? { kind: 'type', name, node } : undefined;
    }
    default:
      return cDefinition(node, type, ctx.source, KINDS);
  }
}

export const cppSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition,
  flatten(node, type) {
    if (PREPROC_BLOCKS.has(type)) return node;
    if (type === 'linkage_specification') return field(node, 'body') ?? undefined;
    // Anonymous namespaces add no name: their members belong to the enclosing scope.
    if (type === 'namespace_definition' && !field(node, 'name')) return field(node, 'body') ?? undefined;
    return undefined;
  },
  section: (node, type) => (type === 'access_specifier' ? node.text : undefined),
  isConstructor: (name, owner) => owner !== undefined && name === owner,
};
