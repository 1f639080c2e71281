// What a language module tells the extraction engine: which nodes are definitions, which are
// containers, and how to read a definition's name and metadata. The engine (extract.ts) does
// the rest identically for every language.
import type { Node } from 'web-tree-sitter';
import type { ChunkKind } from '../../types';

/** A definition recognised by a language spec. */
export interface DefInfo {
  kind: ChunkKind;
  /** The chunk's symbol. */
  name: string;
  /** The definition proper; differs from the visited node for wrappers (`export`, decorators). */
  node: Node;
  /** Where the body starts: the signature is the text before it. Absent for body-less definitions. */
  body?: Node | null;
  /** Set for containers (classes, namespaces, impl blocks): the node whose children are members. */
  members?: Node | null;
  /** Offset where a container's header ends (default: after the members node's opening token). */
  headerEnd?: number;
  /** Breadcrumb segments between the enclosing context and the name (Go receiver, C++ `Foo::`). */
  scope?: string[];
  visibility?: string;
  decorators?: string[];
  docstring?: string;
}

/** Where the engine is when it asks a spec about a node. */
export interface SpecContext {
  /** The document text: specs read names from it by offset rather than through more wasm calls. */
  readonly source: string;
  /** Nesting depth of definitions: 0 at the top of the file. */
  readonly depth: number;
  /** The enclosing definition, when inside a container. */
  readonly container?: { readonly kind: ChunkKind; readonly name: string; readonly type: string };
  /** The chunk budget (policy.astMaxChars); some specs only descend into large nodes. */
  readonly budget: number;
  /** Type of the flattened node the member sits in (`singleton_class`), if any. */
  readonly flattened?: string;
}

export interface LanguageSpec {
  /** Comment node types: attached to the next definition as its docstring when adjacent. */
  readonly comments: ReadonlySet<string>;
  /** Attribute/decorator node types that precede a definition as siblings (Rust `#[..]`, TS method decorators). */
  readonly attributes?: ReadonlySet<string>;
  /**
   * Returns a definition when `node`, a member of the current container, defines something.
   * `type` is `node.type`, passed in because every property read is a call into wasm.
   */
  definition(node: Node, type: string, ctx: SpecContext): DefInfo | undefined;
  /**
   * Returns the node whose children replace `node` in the member list: preprocessor blocks,
   * `extern "C" {}`, IIFE bundles. Whatever lies outside the returned node stays as code.
   */
  flatten?(node: Node, type: string, ctx: SpecContext): Node | undefined;
  /** A visibility marker that applies to the members after it (C++ `public:`, Ruby `private`). */
  section?(node: Node, type: string): string | undefined;
  /** Whether a method named `name` of type `owner` (the enclosing class or `Owner::` scope) is a constructor. */
  isConstructor?(name: string, owner: string | undefined): boolean;
}

// ---------------------------------------------------------------------------
// Helpers shared by the language modules.

export const setOf = (...types: string[]): ReadonlySet<string> => new Set(types);

export function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name);
}

export function fieldText(node: Node, name: string): string | undefined {
  return node.childForFieldName(name)?.text;
}

/** First named child whose type is one of `types`. */
export function childOfType(node: Node, types: ReadonlySet<string> | string): Node | undefined {
  for (const c of node.namedChildren) {
    if (c && (typeof types === 'string' ? c.type === types : types.has(c.type))) return c;
  }
  return undefined;
}

/** Whitespace that `oneLine` rewrites: anything but a lone plain space. */
const LOOSE_SPACE = /[^\S ]| {2}/;

/** Whitespace collapsed to single spaces, capped at `max` characters. */
export function oneLine(text: string, max = 160): string {
  // Most signatures hold single spaces only: a test does not build a copy the way replace does.
  const s = (LOOSE_SPACE.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** `MAX_SIZE`, `DEFAULT`: module-level constants by naming convention. */
export function isConstantName(name: string): boolean {
  return /^[A-Z_][A-Z0-9_]*$/.test(name) && /[A-Z]/.test(name);
}

/** Visibility by leading underscore (Python): `_x` and `__x` are private, dunders are public. */
export function underscoreVisibility(name: string): string {
  return name.startsWith('_') && !/^__.*__$/.test(name) ? 'private' : 'public';
}

/** Strips quotes from a string literal's text. */
export function unquote(text: string): string {
  return text.replace(/^(["'`])([\s\S]*)\1$/, '$2');
}

/** Keywords among a node's direct children (anonymous or named), e.g. `public`, `static`. */
export function keywordsOf(node: Node | null | undefined, wanted: ReadonlySet<string>): string | undefined {
  if (!node) return undefined;
  for (const c of node.children) {
    if (c && wanted.has(c.text)) return c.text;
  }
  return undefined;
}

export const ACCESS_KEYWORDS = setOf('public', 'private', 'protected', 'internal', 'fileprivate', 'open');

/** `a::b::C` or `a.b.C` → segments. */
export function splitQualified(text: string): string[] {
  return text.split(/::|\.|\\/).map((s) => s.trim()).filter(Boolean);
}

/** Last segment of a (possibly generic or qualified) type name: `fmt::Display<T>` → `Display`. */
export function baseTypeName(text: string): string {
  const noGenerics = text.replace(/<[\s\S]*>|\[[\s\S]*\]/g, '').replace(/^[&*\s]+|^(mut|const|dyn)\s+/g, '').trim();
  const parts = splitQualified(noGenerics);
  return parts[parts.length - 1] ?? noGenerics;
}
