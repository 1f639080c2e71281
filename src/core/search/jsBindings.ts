// What a JavaScript or TypeScript file binds a name to, read from its text: which module a
// local name is (`const utils = require('./utils')`, `import * as utils from './utils'`), and
// which module's export a local name is (`const { x } = require('./a')`, `const x =
// require('./a').x`, `import { x } from './a'`, `const x = utils.x` where `utils` is one of those
// modules). References use it to say which definition a name in a file resolves to, so a name
// bound from another module is never taken for the file's own, and the other way round.
//
// Textual on purpose: the occurrence table knows roles, not bindings, and the files a lookup
// reads are the few its name occurs in.

/** A local name that is another module's export: `spec` as written, `imported` the export's name. */
export interface ImportedName {
  spec: string;
  imported: string;
  /** 1-based lines of the binding's statement (a destructuring may span several). */
  line: number;
  endLine: number;
}

export interface JsBindings {
  /** Local names bound to a whole module (`require`, namespace and default imports). */
  modules: Map<string, string>;
  /**
   * Local names bound to what a module exports as a whole (`const x = require('m')`, `import x
   * from 'm'`, not a namespace): a function or class the module assigns to `module.exports` or
   * exports as default is the name's definition.
   */
  wholes: Map<string, string>;
  /** Local names bound to one export of a module. */
  names: Map<string, ImportedName>;
  /** Local names bound to a new instance of a class (`const store = new Store()`): the class's name. */
  instances: Map<string, string>;
}

const IDENT = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
const DECL = String.raw`(?:^|[;{}\s])(?:const|let|var)\s+`;

/** `const x = require('m')` with nothing after it but the end of the statement. */
const MODULE_REQUIRE = new RegExp(String.raw`${DECL}(${IDENT})\s*=\s*require\s*\(\s*(['"\x60])([^'"\x60\n]+)\2\s*\)\s*(?:[;,\n]|$)`, 'gmu');
/** `import * as x from 'm'`, `import x from 'm'`, `import x, { … } from 'm'`. */
const MODULE_IMPORT = new RegExp(String.raw`(?:^|[;\s])import\s+(?:type\s+)?(?:\*\s+as\s+(${IDENT})|(${IDENT})\s*(?:,\s*\{[^}]*\})?)\s+from\s*(['"\x60])([^'"\x60\n]+)\3`, 'gmu');
/** `const { a, b: c } = require('m')`. */
const DESTRUCTURED_REQUIRE = new RegExp(String.raw`${DECL}\{([^}]*)\}\s*=\s*require\s*\(\s*(['"\x60])([^'"\x60\n]+)\2\s*\)`, 'gmu');
/** `const x = require('m').y`. */
const MEMBER_REQUIRE = new RegExp(String.raw`${DECL}(${IDENT})\s*=\s*require\s*\(\s*(['"\x60])([^'"\x60\n]+)\2\s*\)\s*\.\s*(${IDENT})`, 'gmu');
/** `import { a, b as c } from 'm'`, `import x, { a } from 'm'`, `export { a } from 'm'`. */
const NAMED_IMPORT = new RegExp(String.raw`(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:${IDENT}\s*,\s*)?\{([^}]*)\}\s*from\s*(['"\x60])([^'"\x60\n]+)\2`, 'gmu');
/** `const x = m.y` (an alias of a module's member). */
const MEMBER_ALIAS = new RegExp(String.raw`${DECL}(${IDENT})\s*=\s*(${IDENT})\s*\.\s*(${IDENT})\s*(?:[;,\n]|$)`, 'gmu');

/** `const x = new Y(` (`new a.Y(` names `Y`). */
const INSTANCE = new RegExp(String.raw`${DECL}(${IDENT})\s*(?::\s*${IDENT}\s*)?=\s*new\s+(?:${IDENT}\s*\.\s*)?(${IDENT})\s*[(<]`, 'gmu');

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The line a match's statement starts on (the match may begin with the previous line's break). */
function linesOf(text: string, m: RegExpMatchArray): { line: number; endLine: number } {
  return { line: lineAt(text, (m.index ?? 0) + Math.max(0, m[0].search(/\S/))), endLine: lineAt(text, (m.index ?? 0) + m[0].length - 1) };
}

/** `a, b: c, d = 1, ...rest` or `a, b as c, type d` → local name → imported name. */
function pairs(list: string, separator: 'as' | ':'): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const raw of list.split(',')) {
    const part = raw.replace(/^\s*type\s+/, '').replace(/=.*$/s, '').trim();
    if (!part || part.startsWith('...')) continue;
    const [imported, local] = separator === 'as' ? part.split(/\s+as\s+/) : part.split(/\s*:\s*/);
    const l = (local ?? imported ?? '').trim();
    const i = (imported ?? '').trim();
    if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(l) && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(i)) out.push([l, i]);
  }
  return out;
}

/** The module and export bindings of a file's text. */
export function jsBindings(text: string): JsBindings {
  const modules = new Map<string, string>();
  const names = new Map<string, ImportedName>();
  const instances = new Map<string, string>();
  const wholes = new Map<string, string>();
  // A references lookup reads every file its name occurs in: a pattern whose keyword the text
  // lacks cannot match, and most files of a large tree have no `require` or `import` at all.
  const requires = text.includes('require');
  const imports = text.includes('from');
  if (text.includes('new')) for (const m of text.matchAll(INSTANCE)) instances.set(m[1] as string, m[2] as string);
  if (requires) {
    for (const m of text.matchAll(MODULE_REQUIRE)) {
      modules.set(m[1] as string, m[3] as string);
      wholes.set(m[1] as string, m[3] as string);
    }
  }
  if (imports) {
    for (const m of text.matchAll(MODULE_IMPORT)) {
      modules.set((m[1] ?? m[2]) as string, m[4] as string);
      if (m[2] !== undefined) wholes.set(m[2], m[4] as string);
    }
  }
  if (requires) {
    for (const m of text.matchAll(DESTRUCTURED_REQUIRE)) {
      const lines = linesOf(text, m);
      for (const [local, imported] of pairs(m[1] as string, ':')) names.set(local, { spec: m[3] as string, imported, ...lines });
    }
    for (const m of text.matchAll(MEMBER_REQUIRE)) names.set(m[1] as string, { spec: m[3] as string, imported: m[4] as string, ...linesOf(text, m) });
  }
  if (imports) {
    for (const m of text.matchAll(NAMED_IMPORT)) {
      const lines = linesOf(text, m);
      for (const [local, imported] of pairs(m[1] as string, 'as')) names.set(local, { spec: m[3] as string, imported, ...lines });
    }
  }
  // An alias is of a module's member: without a module binding there is none.
  if (modules.size > 0) {
    for (const m of text.matchAll(MEMBER_ALIAS)) {
      const spec = modules.get(m[2] as string);
      if (spec !== undefined) names.set(m[1] as string, { spec, imported: m[3] as string, ...linesOf(text, m) });
    }
  }
  return { modules, wholes, names, instances };
}

/** The receiver before a member name at 1-based `column` of `line` (`utils` in `utils.x`, `this` in `this.x`), if a plain name. */
export function receiverOf(line: string, column: number): string | undefined {
  const before = line.slice(0, column - 1);
  const m = /([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:\?\.|\.|::|->)\s*$/u.exec(before);
  if (!m) return undefined;
  // `a.b.x`: the receiver is a member itself, whose type the index cannot tell.
  const start = (m.index ?? 0) - 1;
  if (start >= 0 && /[.:>]/.test(before[start] ?? '') && !/^(this|self|Self)$/.test(m[1] as string)) return undefined;
  return m[1];
}

const escape = (s: string): string => s.replace(/[$]/g, '\\$');

/**
 * Whether a file's text exports `name` as its own definition: `export function name`, `export {
 * name }`, `exports.name = name`, `exports.name = function`, `module.exports = { name }`. A
 * module that only binds the name (`var etag = require('etag')`) or exports another value under
 * it (`exports.etag = createETag()`) does not.
 */
export function exportsName(text: string, name: string): boolean {
  const n = escape(name);
  const b = String.raw`(?![\p{L}\p{N}_$])`;
  return [
    String.raw`\bexport\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum|namespace)\s+${n}${b}`,
    String.raw`\bexport\s*\{[^}]*(?<![\p{L}\p{N}_$])${n}${b}[^}]*\}`,
    String.raw`\bexports\s*\.\s*${n}\s*=\s*(?:${n}${b}|(?:async\s+)?function\b|class\b)`,
  ].some((re) => new RegExp(re, 'u').test(text)) || moduleExportsKeys(text).has(name);
}

/**
 * The keys of `module.exports = { … }` at its top level: shorthand (`isFunction,`), `key:` and
 * methods (`key(…) {`). Brackets are matched, so a method's body or a nested object does not
 * end the literal (ESLint's ast-utils exports a 500-line one); strings and comments are skipped.
 */
export function moduleExportsKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const m of text.matchAll(/\bmodule\s*\.\s*exports\s*=\s*\{/g)) {
    let depth = 1;
    let expectKey = true;
    let i = m.index + m[0].length;
    while (i < text.length && depth > 0) {
      const ch = text[i] as string;
      if (ch === '"' || ch === "'" || ch === '`') {
        i = stringEnd(text, i);
        expectKey = false;
        continue;
      }
      if (ch === '/' && text[i + 1] === '/') {
        const eol = text.indexOf('\n', i);
        i = eol < 0 ? text.length : eol;
        continue;
      }
      if (ch === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? text.length : end + 2;
        continue;
      }
      if (ch === '{' || ch === '(' || ch === '[') depth++;
      else if (ch === '}' || ch === ')' || ch === ']') depth--;
      else if (depth === 1 && ch === ',') expectKey = true;
      else if (depth === 1 && expectKey && /[\p{L}_$]/u.test(ch)) {
        const word = /^[\p{L}\p{N}_$]+/u.exec(text.slice(i, i + 200))?.[0] ?? ch;
        const after = /^\s*(.)/su.exec(text.slice(i + word.length, i + word.length + 200))?.[1];
        if (after === ',' || after === '}' || after === ':' || after === '(') keys.add(word);
        i += word.length;
        expectKey = false;
        continue;
      } else if (!/\s/.test(ch)) expectKey = false;
      i++;
    }
  }
  return keys;
}

/** The index just past the string literal that opens at `start` (its quote), escapes honoured. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/**
 * Whether a file's text exports its definition `name` as the module itself: `module.exports =
 * name`, `module.exports = function name`, `= class name`, and ES `export default` of the same
 * forms — what `const name = require(…)` and `import name from …` bind.
 */
export function exportsWhole(text: string, name: string): boolean {
  const n = escape(name);
  const b = String.raw`(?![\p{L}\p{N}_$])`;
  const value = String.raw`(?:${n}\s*(?:;|$)|(?:async\s+)?function\s*\*?\s*${n}${b}|class\s+${n}${b})`;
  return new RegExp(String.raw`(?:\bmodule\s*\.\s*exports\s*=|\bexport\s+default)\s*${value}`, 'mu').test(text);
}

/**
 * Whether `name` is declared again between a chunk's first lines and a use (`var range = …`
 * inside `function range`, a callback's parameter `hash`): a local that shadows the file's
 * definition. `lines` are the chunk's lines up to the use's; `skip` the definition's own line
 * (index into `lines`).
 */
export function shadowed(lines: readonly string[], name: string, skip: number): boolean {
  const n = escape(name);
  const b = String.raw`(?![\p{L}\p{N}_$])`;
  const a = String.raw`(?<![\p{L}\p{N}_$.])`;
  const declares = new RegExp(
    [
      String.raw`\b(?:var|let|const)\s+${n}${b}`,
      String.raw`\b(?:var|let|const)\s*[{[][^}\]=]*${a}${n}${b}[^}\]=]*[}\]]\s*=`,
      String.raw`\bfunction\b[^(]*\([^)]*${a}${n}${b}[^)]*\)`,
      String.raw`\(([^()]*${a}${n}${b}[^()]*)\)\s*(?::[^=]*)?=>`,
      String.raw`${a}${n}\s*=>`,
      String.raw`\bcatch\s*\(\s*${n}\s*\)`,
    ].join('|'),
    'u',
  );
  return lines.some((line, i) => i !== skip && declares.test(line));
}
