// Python: functions, classes (with docstrings and decorators), `type` aliases, module-level
// UPPER_CASE constants.
import type { Node } from 'web-tree-sitter';
import { stringLiteralDoc } from '../docs';
import { field, fieldText, isConstantName, oneLine, setOf, underscoreVisibility, type DefInfo, type LanguageSpec, type SpecContext } from '../spec';

/** `async def name` / `class name`, read from the source: cheaper than asking the tree. */
const HEADER = /(?:async\s+)?(?:def|class)\s+([\p{L}_][\p{L}\p{N}_]*)/uy;
/** `type Name[T] = …` (PEP 695). */
const TYPE_ALIAS = /type\s+([\p{L}_][\p{L}\p{N}_]*)/uy;
/** A statement that is only a string literal: the docstring candidate. */
const STRING_START = /[rRbBuUfF]{0,2}("""|'''|"|')/y;
const STRING_END = /("""|'''|"|')$/;

/** The docstring statement opening a block, if any. */
function docstringNode(body: Node | null, source: string): Node | undefined {
  let first = body?.firstChild ?? null;
  for (let i = 0; first && i < 8 && source.charCodeAt(first.startIndex) === 35; i++) first = first.nextSibling; // skip `#` comments
  if (!first) return undefined;
  STRING_START.lastIndex = first.startIndex;
  if (!STRING_START.test(source)) return undefined;
  if (first.type !== 'expression_statement') return undefined;
  // `"a".join(x)` starts with a string too: the statement must also end with one.
  return STRING_END.test(source.slice(first.startIndex, first.endIndex)) ? first : undefined;
}

function functionOrClass(node: Node, type: string, source: string): DefInfo | undefined {
  HEADER.lastIndex = node.startIndex;
  const name = HEADER.exec(source)?.[1] ?? fieldText(node, 'name');
  if (!name) return undefined;
  const body = field(node, 'body');
  const doc = docstringNode(body, source);
  const info: DefInfo = { kind: type === 'class_definition' ? 'class' : 'function', name, node, body, visibility: underscoreVisibility(name) };
  if (doc) info.docstring = stringLiteralDoc(source.slice(doc.startIndex, doc.endIndex));
  if (info.kind === 'class') {
    info.members = body;
    // The docstring belongs to the class header in its summary.
    if (doc) info.headerEnd = doc.endIndex;
  }
  return info;
}

function definition(node: Node, type: string, ctx: SpecContext): DefInfo | undefined {
  switch (type) {
    case 'function_definition':
    case 'class_definition':
      return functionOrClass(node, type, ctx.source);
    case 'decorated_definition': {
      const inner = field(node, 'definition');
      const info = inner ? functionOrClass(inner, inner.type, ctx.source) : undefined;
      if (!info) return undefined;
      info.decorators = node.namedChildren.filter((c) => c?.type === 'decorator').map((c) => oneLine(c!.text, 120));
      return info;
    }
    case 'type_alias_statement': {
      TYPE_ALIAS.lastIndex = node.startIndex;
      const name = TYPE_ALIAS.exec(ctx.source)?.[1];
      return name ? { kind: 'type', name, node, visibility: underscoreVisibility(name) } : undefined;
    }
    case 'expression_statement': {
      if (ctx.depth !== 0 || !/[A-Z_]/.test(ctx.source[node.startIndex] ?? '')) return undefined;
      const assign = node.firstNamedChild;
      if (assign?.type !== 'assignment') return undefined;
      const left = field(assign, 'left');
      if (left?.type !== 'identifier' || !isConstantName(left.text)) return undefined;
      return { kind: 'constant', name: left.text, node };
    }
    default:
      return undefined;
  }
}

export const pythonSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition,
  isConstructor: (name) => name === '__init__',
};
