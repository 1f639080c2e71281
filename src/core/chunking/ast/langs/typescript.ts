// TypeScript, TSX and JavaScript (the grammars share node types; TS only adds some).
import type { Node } from 'web-tree-sitter';
import { childOfType, field, fieldText, isConstantName, oneLine, setOf, unquote, type DefInfo, type LanguageSpec, type SpecContext } from '../spec';

const FUNCTION_VALUES = setOf('arrow_function', 'function_expression', 'function', 'generator_function');
const CLASS_VALUES = setOf('class', 'class_expression');
const CLASS_TYPES = setOf('class_declaration', 'abstract_class_declaration', 'class', 'class_expression');
const VARIABLE_DECLS = setOf('lexical_declaration', 'variable_declaration');

/** Decorators come first in a node, so only nodes starting with `@` are searched. */
function decoratorsOf(node: Node, source: string): string[] {
  const out: string[] = [];
  if (source.charCodeAt(node.startIndex) !== 64) return out;
  for (const c of node.namedChildren) if (c?.type === 'decorator') out.push(oneLine(c.text, 120));
  return out;
}

function withDecorators(info: DefInfo, decorators: string[]): DefInfo {
  if (decorators.length > 0) info.decorators = [...decorators, ...(info.decorators ?? [])];
  return info;
}

function classDef(node: Node, name: string | undefined, source: string): DefInfo {
  const body = field(node, 'body');
  return withDecorators({ kind: 'class', name: name ?? 'default', node, body, members: body }, decoratorsOf(node, source));
}

function functionDef(node: Node, name: string | undefined): DefInfo {
  return { kind: 'function', name: name ?? 'default', node, body: field(node, 'body') };
}

const DECLARED_NAME = /(?:declare\s+)?(?:const|let|var)\s+([\w$]+)/y;
const MAYBE_FUNCTION_OR_CLASS = /=>|\bfunction\b|\bclass\b/;

/** `const load = async (id) => {…}`, `const A = class {…}`, `const MAX = 10`. */
function variableDef(node: Node, ctx: SpecContext, exported: boolean): DefInfo | undefined {
  // Most declarations are plain locals (`const x = f()`): rule them out from the text alone.
  DECLARED_NAME.lastIndex = node.startIndex;
  const m = DECLARED_NAME.exec(ctx.source);
  if (!m) return undefined;
  const head = ctx.source.slice(DECLARED_NAME.lastIndex, DECLARED_NAME.lastIndex + 300);
  if (!exported && !isConstantName(m[1]!) && !MAYBE_FUNCTION_OR_CLASS.test(head)) return undefined;
  const declarators = node.namedChildren.filter((c) => c?.type === 'variable_declarator');
  if (declarators.length !== 1) return undefined;
  const decl = declarators[0]!;
  const nameNode = field(decl, 'name');
  if (!nameNode || nameNode.type !== 'identifier') return undefined;
  const name = nameNode.text;
  const value = field(decl, 'value');
  if (value && FUNCTION_VALUES.has(value.type)) return { kind: 'function', name, node, body: field(value, 'body') };
  if (value && CLASS_VALUES.has(value.type)) {
    const body = field(value, 'body');
    return { kind: 'class', name, node: value, body, members: body };
  }
  if (ctx.container && ctx.container.kind !== 'namespace' && ctx.container.kind !== 'module') return undefined;
  if (isConstantName(name)) return { kind: 'constant', name, node };
  return exported ? { kind: 'variable', name, node } : undefined;
}

/** `exports.load = function…`, `Foo.prototype.bar = function…`, `Foo.create = () => …`. */
function assignmentDef(stmt: Node, assign: Node): DefInfo | undefined {
  const left = field(assign, 'left');
  const right = field(assign, 'right');
  if (!left || !right || left.type !== 'member_expression' || !FUNCTION_VALUES.has(right.type)) return undefined;
  const name = fieldText(left, 'property');
  if (!name) return undefined;
  const scope = (fieldText(left, 'object') ?? '').split('.').filter((s) => s !== 'prototype' && s !== 'module' && s !== 'exports' && s !== 'this');
  if (scope.some((s) => !/^[\w$]+$/.test(s))) return undefined;
  const info: DefInfo = { kind: 'function', name, node: stmt, body: field(right, 'body') };
  if (scope.length > 0) info.scope = scope;
  return info;
}

function exportDef(node: Node, ctx: SpecContext): DefInfo | undefined {
  const decl = field(node, 'declaration');
  let info: DefInfo | undefined;
  if (decl) {
    const type = decl.type;
    info = VARIABLE_DECLS.has(type) ? variableDef(decl, ctx, true) : definition(decl, type, ctx);
    const isDefault = /\bdefault\s*$/.test(ctx.source.slice(node.startIndex, decl.startIndex));
    if (info && isDefault && !fieldText(decl, 'name')) info.name = 'default';
  } else {
    const value = field(node, 'value');
    const type = value?.type ?? '';
    if (value && FUNCTION_VALUES.has(type)) info = functionDef(value, fieldText(value, 'name') ?? 'default');
    else if (value && CLASS_VALUES.has(type)) info = classDef(value, fieldText(value, 'name') ?? 'default', ctx.source);
  }
  if (!info) return undefined;
  info.visibility = 'export';
  return withDecorators(info, decoratorsOf(node, ctx.source));
}

const ACCESS_WORD = /\b(?:public|private|protected)\b/;

function memberVisibility(node: Node, name: string, nameNode: Node | null, source: string): string | undefined {
  if (name.startsWith('#')) return 'private';
  // A modifier sits between the member's start and its name. Most members have none (no
  // JavaScript member has), and listing a member's children is a call into wasm.
  if (nameNode && !ACCESS_WORD.test(source.slice(node.startIndex, nameNode.startIndex))) return undefined;
  return childOfType(node, 'accessibility_modifier')?.text;
}

function classMember(node: Node, type: string, source: string): DefInfo | undefined {
  if (type === 'method_definition') {
    const nameNode = field(node, 'name');
    const name = nameNode?.text ?? '';
    const info: DefInfo = { kind: 'method', name, node, body: field(node, 'body') };
    const visibility = memberVisibility(node, name, nameNode, source);
    if (visibility) info.visibility = visibility;
    return info;
  }
  if (type === 'public_field_definition' || type === 'field_definition') {
    // Arrow-function fields (`handle = () => {…}`) are methods in all but name.
    const value = field(node, 'value');
    if (!value || !FUNCTION_VALUES.has(value.type)) return undefined;
    const nameNode = field(node, 'name') ?? field(node, 'property');
    const name = nameNode?.text ?? '';
    const info: DefInfo = { kind: 'method', name, node, body: field(value, 'body') };
    const visibility = memberVisibility(node, name, nameNode, source);
    if (visibility) info.visibility = visibility;
    return withDecorators(info, decoratorsOf(node, source));
  }
  return undefined;
}

function definition(node: Node, type: string, ctx: SpecContext): DefInfo | undefined {
  switch (type) {
    case 'export_statement':
      return exportDef(node, ctx);
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
      return functionDef(node, fieldText(node, 'name'));
    case 'function_expression':
    case 'function':
    case 'generator_function': {
      // Only reached as a statement when error recovery split `function f() {}` off its context.
      const name = fieldText(node, 'name');
      return name ? functionDef(node, name) : undefined;
    }
    case 'class_declaration':
    case 'abstract_class_declaration':
      return classDef(node, fieldText(node, 'name'), ctx.source);
    case 'interface_declaration':
      return { kind: 'interface', name: fieldText(node, 'name') ?? '', node, body: field(node, 'body') };
    case 'type_alias_declaration':
      return { kind: 'type', name: fieldText(node, 'name') ?? '', node };
    case 'enum_declaration':
      return { kind: 'enum', name: fieldText(node, 'name') ?? '', node, body: field(node, 'body') };
    case 'internal_module':
    case 'module': {
      const body = field(node, 'body');
      const name = unquote(fieldText(node, 'name') ?? '');
      return { kind: type === 'module' ? 'module' : 'namespace', name, node, body, members: body };
    }
    case 'expression_statement': {
      // Most statements are calls: only `namespace X {}` and `a.b = …` can define something.
      if (!/^(?:namespace\b|[\w$]+(?:\.[\w$]+)+\s*=(?!=))/.test(ctx.source.slice(node.startIndex, node.startIndex + 120))) return undefined;
      const inner = node.firstNamedChild;
      const innerType = inner?.type;
      if (innerType === 'internal_module') return definition(inner!, innerType, ctx);
      if (innerType === 'assignment_expression') return assignmentDef(node, inner!);
      return undefined;
    }
    case 'ambient_declaration': {
      const inner = node.firstNamedChild;
      if (!inner) return undefined;
      const innerType = inner.type;
      if (innerType === 'statement_block') return { kind: 'namespace', name: 'global', node, body: inner, members: inner };
      return VARIABLE_DECLS.has(innerType) ? variableDef(inner, ctx, false) : definition(inner, innerType, ctx);
    }
    case 'lexical_declaration':
    case 'variable_declaration':
      return variableDef(node, ctx, false);
    default:
      return ctx.container && CLASS_TYPES.has(ctx.container.type) ? classMember(node, type, ctx.source) : undefined;
  }
}

/**
 * Module wrappers whose function body is the real file: IIFEs (`(function () { … })()`),
 * UMD (`(function (root, factory) { … })(this, function () { … })`: the factory, the larger
 * body, is taken) and AMD (`define([…], function (…) { … })`).
 */
function wrapperBody(node: Node, type: string, ctx: SpecContext): Node | undefined {
  if (type !== 'expression_statement' || ctx.depth !== 0) return undefined;
  // Only statements opening with `(`, `!`, `;(` or `define(` can be one: skip the tree calls otherwise.
  if (!/^(?:[;!(]|define\s*\()/.test(ctx.source.slice(node.startIndex, node.startIndex + 8))) return undefined;
  let expr = node.firstNamedChild;
  for (let i = 0; i < 3 && (expr?.type === 'unary_expression' || expr?.type === 'parenthesized_expression'); i++) {
    expr = expr.type === 'unary_expression' ? field(expr, 'argument') : expr.firstNamedChild;
  }
  if (expr?.type !== 'call_expression') return undefined;
  let fn = field(expr, 'function');
  while (fn?.type === 'parenthesized_expression') fn = fn.firstNamedChild;
  if (!fn) return undefined;
  const candidates: Node[] = [];
  const isFunction = FUNCTION_VALUES.has(fn.type);
  if (isFunction) candidates.push(fn);
  if (isFunction || (fn.type === 'identifier' && fn.text === 'define')) {
    let last = field(expr, 'arguments')?.lastNamedChild;
    while (last?.type === 'parenthesized_expression') last = last.firstNamedChild;
    if (last && FUNCTION_VALUES.has(last.type)) candidates.push(last);
  }
  let best: Node | undefined;
  for (const candidate of candidates) {
    const body = field(candidate, 'body');
    if (body?.type === 'statement_block' && (!best || body.endIndex - body.startIndex > best.endIndex - best.startIndex)) best = body;
  }
  return best;
}

export const typescriptSpec: LanguageSpec = {
  comments: setOf('comment', 'html_comment'),
  attributes: setOf('decorator'),
  definition,
  flatten: wrapperBody,
  isConstructor: (name) => name === 'constructor',
};
