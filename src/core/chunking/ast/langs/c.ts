// C: functions, struct/union/enum definitions, typedefs, macros. Preprocessor conditionals
// (include guards, #ifdef blocks) are looked through so their contents are found.
import type { Node } from 'web-tree-sitter';
import { field, fieldText, setOf, splitQualified, type DefInfo, type LanguageSpec } from '../spec';
import type { ChunkKind } from '../../../types';

export const PREPROC_BLOCKS = setOf('preproc_ifdef', 'preproc_if', 'preproc_else', 'preproc_elif', 'preproc_elifdef');
const NAME_LEAVES = setOf('identifier', 'field_identifier', 'type_identifier', 'qualified_identifier', 'destructor_name', 'operator_name', 'primitive_type');
const SPECIFIER_KINDS: Readonly<Record<string, ChunkKind>> = { struct_specifier: 'struct', union_specifier: 'union', enum_specifier: 'enum' };

/** The declared name inside a declarator chain: `*make(int n)` → `make`, `Foo::bar()` → scope `Foo`, name `bar`. */
function declaratorName(declarator: Node | null): { name: string; scope: string[] } | undefined {
  let d = declarator;
  for (let i = 0; d && i < 16; i++) {
    if (NAME_LEAVES.has(d.type)) {
      // `SPDLOG_INLINE ns::Foo<T>::bar`: macros before the name and template arguments are dropped.
      let text = d.text;
      for (let k = 0; k < 4 && text.includes('<'); k++) text = text.replace(/<[^<>]*>/g, '');
      const parts = d.type === 'qualified_identifier' ? splitQualified(text.split(/\s+/).pop() ?? '') : [d.text];
      const name = parts.pop() ?? d.text;
      return { name, scope: parts };
    }
    d = field(d, 'declarator') ?? d.firstNamedChild;
  }
  return undefined;
}

/** `struct point {…}` with a body; forward declarations (`struct point;`) are not definitions. */
function specifierDef(spec: Node, outer: Node, kinds: Readonly<Record<string, ChunkKind>>, name?: string, specType = spec.type): DefInfo | undefined {
  // The kind first: most declarations in a header are prototypes (`int f(void);`), whose type
  // is no specifier, and each field read is a call into wasm.
  const kind = kinds[specType];
  if (!kind) return undefined;
  const body = field(spec, 'body');
  if (!body) return undefined;
  const own = name ?? fieldText(spec, 'name');
  return own ? { kind, name: own, node: outer, body } : undefined;
}

/**
 * A macro's name read from its text (`#define NAME`, `# define NAME(x)`). The name field can be
 * wrong: the grammar puts a block comment inside a macro's value in an ERROR node and gives the
 * field to the identifier after the comment. It also costs a node object and two calls into
 * wasm, and most definitions in a header are macros. Anything unusual (a line continuation or
 * a comment before the name, a non-ASCII name) is left to the field.
 */
const DEFINE_NAME = /#[ \t]*define[ \t]+([A-Za-z_]\w*)(?=[\s(]|$)/y;

function macroName(node: Node, source: string): string | undefined {
  DEFINE_NAME.lastIndex = node.startIndex;
  return DEFINE_NAME.exec(source)?.[1] ?? fieldText(node, 'name');
}

/** `source` is the document's text (SpecContext.source), which names are read from where that is cheaper. */
export function cDefinition(node: Node, type: string, source: string, kinds: Readonly<Record<string, ChunkKind>> = SPECIFIER_KINDS): DefInfo | undefined {
  switch (type) {
    case 'function_definition': {
      const id = declaratorName(field(node, 'declarator'));
      if (!id) return undefined;
      const info: DefInfo = { kind: 'function', name: id.name, node, body: field(node, 'body') };
      if (id.scope.length > 0) info.scope = id.scope;
      return info;
    }
    case 'struct_specifier':
    case 'union_specifier':
    case 'enum_specifier':
    case 'class_specifier':
      return specifierDef(node, node, kinds, undefined, type);
    case 'type_definition': {
      const id = declaratorName(field(node, 'declarator'));
      const type = field(node, 'type');
      if (!id || !type) return undefined;
      const inner = specifierDef(type, node, kinds, id.name);
      return inner ?? { kind: 'type', name: id.name, node };
    }
    case 'declaration':
    case 'field_declaration': {
      // `struct point { … } origin;` defines the struct too.
      const type = field(node, 'type');
      return type ? specifierDef(type, node, kinds) : undefined;
    }
    case 'preproc_def':
    case 'preproc_function_def': {
      const name = macroName(node, source);
      return name ? { kind: 'macro', name, node } : undefined;
    }
    default:
      return undefined;
  }
}

export const cSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition: (node, type, ctx) => cDefinition(node, type, ctx.source),
  flatten: (node, type) => (PREPROC_BLOCKS.has(type) ? node : undefined),
};
