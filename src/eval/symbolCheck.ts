// `cairn eval --symbols`: an independent measurement of go-to-symbol. universal-ctags says where
// a repository's definitions are; a seeded sample of their names is looked up with Cairn's
// symbol table and with a grep baseline, and a lookup is right when it lands on a ctags line.
//
// This module is the pure part: reading ctags' JSON, deciding which tags are definitions a
// person would "go to", sampling, scoring, and the grep baseline's ranking. The runs (ctags,
// ripgrep, the engine) are in symbolRun.ts.
import { escapeRegExp } from '../core/regExp';
import { groupBy } from '../core/groupBy';

/** One line of `ctags --output-format=json --fields=+nKlSe` (the fields this check reads). */
export interface CtagsTag {
  name: string;
  path: string;
  line: number;
  /** Long kind name (`--fields=+K`): `function`, `member`, `class`, … */
  kind: string;
  /** ctags' language name (`--fields=+l`): `Python`, `TypeScript`, `Go`, … */
  language: string;
  /** The enclosing scope's name and kind, when ctags knows one. */
  scope?: string;
  scopeKind?: string;
  /** ctags' search pattern: `/^the whole line$/`. */
  pattern?: string;
  end?: number;
}

/** A definition kept as ground truth: the fields of its tag that scoring and reports read. */
export type Definition = Pick<CtagsTag, 'name' | 'path' | 'line' | 'kind' | 'language' | 'scope'>;

/** Why a tag is not ground truth (counted in the report). */
export type DropReason =
  | 'language' // ctags' language has no mapping here (Markdown, JSON, …)
  | 'kind' // a kind nobody goes to: imports, fields, parameters, enum members, impl blocks, …
  | 'nested' // inside a function or method: locals, closures, callbacks
  | 'not-top-level' // a variable or constant that is not at the top of a module
  | 'import' // `const x = require(…)`, `from a import b`: a name bound elsewhere
  | 'anonymous' // AnonymousFunction…, __anon…, `_`
  | 'not-identifier' // quoted keys, operators, dotted names
  | 'bad-line'; // the tag's line does not hold its name (a ctags misparse)

/**
 * What a kind of tag counts as:
 *   definition   kept, unless nested in a function or method (a local class or closure)
 *   top-level    kept only at the top of a file/module/package/namespace (constants, globals)
 * Kinds not listed are dropped ('kind').
 */
export type KindRule = 'definition' | 'top-level';

/**
 * The ctags kinds (long names, universal-ctags 5.9) kept per ctags language. Deliberately
 * left out everywhere: imports and package names (Python `namespace`/`unknown`, Go
 * `packageName`/`package`, Java `package`), fields and properties (`field`, `member` in Go and
 * C, `property`), enum members (`enumerator`, `enumConstant`), parameters and locals (off in
 * ctags by default), Rust `implementation` blocks (`impl Foo` is not where Foo is defined) and
 * associated types inside them, Go anonymous struct members, C prototypes and extern
 * declarations. Python `member` is a method (a def inside a class), so it is kept.
 */
export const KIND_RULES: Readonly<Record<string, Readonly<Record<string, KindRule>>>> = {
  Python: { class: 'definition', function: 'definition', member: 'definition', variable: 'top-level' },
  JavaScript: { class: 'definition', function: 'definition', generator: 'definition', method: 'definition', getter: 'definition', setter: 'definition', constant: 'top-level', variable: 'top-level' },
  TypeScript: {
    class: 'definition',
    function: 'definition',
    generator: 'definition',
    method: 'definition',
    interface: 'definition',
    enum: 'definition',
    alias: 'definition',
    namespace: 'definition',
    constant: 'top-level',
    variable: 'top-level',
  },
  Go: { func: 'definition', struct: 'definition', interface: 'definition', type: 'definition', talias: 'definition', methodSpec: 'definition', const: 'top-level', var: 'top-level' },
  Rust: { function: 'definition', method: 'definition', struct: 'definition', enum: 'definition', interface: 'definition', typedef: 'definition', macro: 'definition', module: 'definition', variable: 'top-level' },
  Java: { class: 'definition', interface: 'definition', enum: 'definition', annotation: 'definition', method: 'definition' },
  Kotlin: { class: 'definition', interface: 'definition', object: 'definition', method: 'definition', typealias: 'definition', constant: 'top-level' },
  'C#': { class: 'definition', struct: 'definition', interface: 'definition', enum: 'definition', method: 'definition', typedef: 'definition' },
  C: { function: 'definition', struct: 'definition', union: 'definition', enum: 'definition', typedef: 'definition', macro: 'top-level' },
  'C++': { function: 'definition', class: 'definition', struct: 'definition', union: 'definition', enum: 'definition', typedef: 'definition', namespace: 'definition', macro: 'top-level' },
  Ruby: { class: 'definition', module: 'definition', method: 'definition', singletonMethod: 'definition', constant: 'top-level' },
  PHP: { class: 'definition', interface: 'definition', trait: 'definition', function: 'definition', define: 'top-level' },
  Scala: { class: 'definition', object: 'definition', trait: 'definition', method: 'definition', type: 'definition' },
  Swift: { class: 'definition', struct: 'definition', protocol: 'definition', enum: 'definition', function: 'definition', method: 'definition', typealias: 'definition' },
};

/** ctags languages `--languages` is given, so other parsers never run. */
export const CTAGS_LANGUAGES: readonly string[] = Object.keys(KIND_RULES);

/** Scope kinds that make a tag a local: a function's or method's body. */
const FUNCTION_SCOPES = new Set(['function', 'method', 'member', 'func', 'generator', 'getter', 'setter', 'singletonMethod', 'subroutine']);
/** Scope kinds that are still "the top" for a constant or global. */
const TOP_SCOPES = new Set(['package', 'module', 'namespace', 'file']);

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*[!?]?$/u;
const ANONYMOUS = /^(anonymous|__anon|anon_)/i;

/** The line a ctags pattern (`/^…$/`) stands for, unescaped; undefined for line-number addresses. */
export function patternLine(pattern: string | undefined): string | undefined {
  if (!pattern || !pattern.startsWith('/^')) return undefined;
  let body = pattern.slice(2);
  if (body.endsWith('$/')) body = body.slice(0, -2);
  else if (body.endsWith('/')) body = body.slice(0, -1);
  return body.replace(/\\([\\/])/g, '$1');
}


/** True when `name` occurs in `text` as a whole word (`$` counts as a word character). */
export function containsWord(text: string, name: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegExp(name)}(?![\\p{L}\\p{N}_$])`, 'u').test(text);
}

/** JS/TS: a top-level `const`/`let`/`var` (optionally exported/declared) binding `name`. */
function isJsTopLevelBinding(line: string, name: string): boolean {
  return new RegExp(`^(export\\s+)?(declare\\s+)?(const|let|var)\\s+${escapeRegExp(name)}\\b`).test(line);
}

/** JS/TS kinds that, indented without a class or namespace around them, are locals. */
const JS_LOCAL_KINDS = new Set(['function', 'generator', 'class', 'interface', 'alias', 'enum']);

const JS_IMPORT_VALUE = /=\s*(await\s+)?(require|import)\s*\(/;

/**
 * A JS/TS class field or property whose value is a function (`fetch = async (…) => {`,
 * `handler = function () {`): a method in all but syntax. Fields of other values, and
 * function-typed members of interfaces, stay out.
 */
function isFunctionValuedField(tag: CtagsTag): boolean {
  if ((tag.language !== 'JavaScript' && tag.language !== 'TypeScript') || (tag.kind !== 'property' && tag.kind !== 'field')) return false;
  if (tag.scopeKind === 'interface') return false;
  const line = patternLine(tag.pattern);
  if (line === undefined) return false;
  const value = `(async\\s+)?(function\\b|\\([^)]*$|\\([^)]*\\)\\s*(:[^=]+)?=>|[\\w$]+\\s*=>)`;
  return new RegExp(`(?<![\\w$])${escapeRegExp(tag.name)}\\s*(\\?\\s*)?(:[^=]+)?=\\s*${value}`).test(line);
}

/** What the ground truth holds beyond the top-level definitions. */
export interface TruthOptions {
  /**
   * Also functions, methods and classes nested in a function or method (an ESLint rule's
   * helpers inside `create()`, Python inner `def`s, Rust items in a function body); their
   * locals and variables stay out.
   */
  nested?: boolean;
}

/** ctags kinds a nested definition keeps with `nested`: things with a body a person reads. */
const NESTED_KINDS = new Set(['function', 'method', 'class', 'generator', 'func', 'member', 'struct', 'enum', 'trait', 'interface']);

/** Whether a tag is ground truth, and if not, why. */
export function classifyTag(tag: CtagsTag, options: TruthOptions = {}): { keep: true } | { keep: false; reason: DropReason } {
  const nestedOk = options.nested === true && NESTED_KINDS.has(tag.kind);
  const rules = KIND_RULES[tag.language];
  if (!rules) return { keep: false, reason: 'language' };
  const rule = rules[tag.kind] ?? (isFunctionValuedField(tag) ? 'definition' : undefined);
  if (!rule) return { keep: false, reason: 'kind' };
  if (ANONYMOUS.test(tag.name) || /^_+$/.test(tag.name) || (tag.scope !== undefined && /AnonymousFunction|__anon/.test(tag.scope))) return { keep: false, reason: 'anonymous' };
  if (!IDENTIFIER.test(tag.name)) return { keep: false, reason: 'not-identifier' };
  const line = patternLine(tag.pattern);
  if (line !== undefined && !containsWord(line, tag.name)) return { keep: false, reason: 'bad-line' };
  const indented = line !== undefined && /^\s/.test(line);
  const scopeKind = tag.scopeKind;
  const js = tag.language === 'JavaScript' || tag.language === 'TypeScript';

  if (rule === 'top-level') {
    if (scopeKind !== undefined && !TOP_SCOPES.has(scopeKind)) return { keep: false, reason: scopeKind && FUNCTION_SCOPES.has(scopeKind) ? 'nested' : 'not-top-level' };
    if (js) {
      // ctags 5.9 reports many locals (and even object keys) as top-level constants: trust
      // only an unindented declaration of the name.
      if (line === undefined || !isJsTopLevelBinding(line, tag.name)) return { keep: false, reason: 'not-top-level' };
      if (JS_IMPORT_VALUE.test(line)) return { keep: false, reason: 'import' };
    } else if (tag.language === 'Python') {
      if (indented) return { keep: false, reason: 'not-top-level' };
      if (/^__\w+__$/.test(tag.name)) return { keep: false, reason: 'kind' };
    } else if (indented && tag.language !== 'Go') {
      // Go's `const (…)` / `var (…)` blocks indent top-level names; elsewhere an indented
      // constant is inside something.
      return { keep: false, reason: 'not-top-level' };
    }
    return { keep: true };
  }

  if (js && JS_LOCAL_KINDS.has(tag.kind) && indented && (scopeKind === undefined || FUNCTION_SCOPES.has(scopeKind))) {
    // ctags loses the scope inside callbacks (`describe(…, function () { function helper() {…} })`):
    // an indented function, class or type outside any class or namespace is a local.
    if (!nestedOk) return { keep: false, reason: 'nested' };
  }
  if (tag.language === 'Rust' && tag.kind === 'module' && line !== undefined && new RegExp(`\\bmod\\s+${escapeRegExp(tag.name)}\\s*;`).test(line)) {
    // `mod walk;` only declares the module: its definition is the file.
    return { keep: false, reason: 'kind' };
  }
  if (scopeKind !== undefined && FUNCTION_SCOPES.has(scopeKind)) {
    // JavaScript `res.send = function send() {…}` is scoped to `res` as a "function" but sits
    // at the top of the file; a nested declaration is indented.
    if (!(js && !indented) && !nestedOk) return { keep: false, reason: 'nested' };
  }
  if (tag.language === 'Rust' && tag.kind === 'typedef' && (scopeKind === 'implementation' || scopeKind === 'interface')) return { keep: false, reason: 'kind' };
  if (js && tag.kind === 'class' && line !== undefined && !new RegExp(`\\b(class|function)\\s+${escapeRegExp(tag.name)}\\b`).test(line)) {
    // Object literals (`var users = {`) and assignments come out as classes.
    return { keep: false, reason: 'kind' };
  }
  return { keep: true };
}

/** Tags of ctags' JSON output (one object per line); other lines (`ptag`s, junk) are skipped. */
export function parseCtagsJson(text: string): CtagsTag[] {
  const tags: CtagsTag[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('{')) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (o._type !== 'tag' || typeof o.name !== 'string' || typeof o.path !== 'string' || typeof o.line !== 'number' || typeof o.kind !== 'string') continue;
    const tag: CtagsTag = { name: o.name, path: o.path.replace(/\\/g, '/').replace(/^\.\//, ''), line: o.line, kind: o.kind, language: typeof o.language === 'string' ? o.language : '' };
    if (typeof o.scope === 'string') tag.scope = o.scope;
    if (typeof o.scopeKind === 'string') tag.scopeKind = o.scopeKind;
    if (typeof o.pattern === 'string') tag.pattern = o.pattern;
    if (typeof o.end === 'number') tag.end = o.end;
    tags.push(tag);
  }
  return tags;
}

export interface GroundTruth {
  /** Kept definitions by name, each list in file order. */
  byName: Map<string, Definition[]>;
  tags: number;
  kept: number;
  dropped: Partial<Record<DropReason, number>>;
}

const byPathLine = (a: { path: string; line: number }, b: { path: string; line: number }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line);

/** Keeps the definitions among `tags` and groups them by name (duplicates of one place merged). */
export function groundTruth(tags: readonly CtagsTag[], options: TruthOptions = {}): GroundTruth {
  const byName = new Map<string, Definition[]>();
  const dropped: GroundTruth['dropped'] = {};
  let kept = 0;
  for (const tag of tags) {
    const verdict = classifyTag(tag, options);
    if (!verdict.keep) {
      dropped[verdict.reason] = (dropped[verdict.reason] ?? 0) + 1;
      continue;
    }
    let list = byName.get(tag.name);
    if (!list) byName.set(tag.name, (list = []));
    if (list.some((d) => d.path === tag.path && d.line === tag.line)) continue;
    kept++;
    list.push({ name: tag.name, path: tag.path, line: tag.line, kind: tag.kind, language: tag.language, ...(tag.scope !== undefined ? { scope: tag.scope } : {}) });
  }
  for (const list of byName.values()) list.sort(byPathLine);
  return { byName, tags: tags.length, kept, dropped };
}

/** mulberry32: a small seeded generator, the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` distinct names drawn uniformly (seeded Fisher-Yates over the names in code-unit
 * order), so a run depends on the seed and the ground truth only, never on ctags' output
 * order. Each name is drawn once however many definitions it has; the sample comes back in
 * draw order.
 */
export function sampleNames(names: Iterable<string>, count: number, seed: number): string[] {
  const pool = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const random = seededRandom(seed);
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return pool.slice(0, n);
}

/** One answer of a system: where it points. */
export interface HitPlace {
  path: string;
  /** The line the answer says the name is on (Cairn: `nameLine ?? startLine`; grep: the match). */
  line: number;
  /** The span around it (Cairn's chunk), when there is one. */
  startLine?: number;
  endLine?: number;
  /** The name the system matched (Cairn) or the matching line's text (grep). */
  symbol?: string;
  kind?: string;
  /** True for a grep line that matched the definition pattern. */
  definitionPattern?: boolean;
}

/** Lines an answer may be off from ctags' line and still count. */
export const LINE_TOLERANCE = 1;
/** Answers looked at for R@5. */
export const RECALL_DEPTH = 5;

export function hitMatches(hit: HitPlace, definitions: readonly Definition[], tolerance = LINE_TOLERANCE): boolean {
  return definitions.some((d) => d.path === hit.path && Math.abs(d.line - hit.line) <= tolerance);
}

/** Why the first answer is wrong, for reading misses. */
export type MissCategory =
  | 'no-hits' // the system answered nothing
  | 'other-name' // the top hit is a different (closest) name: the definition is not in the symbol table
  | 'line-off' // right file, and the hit's span holds the definition, but the line it names is off (decorators, comments)
  | 'same-file' // right file, another place (an overload, a usage, a different definition)
  | 'other-file'; // a file without a definition of the name

export interface NameScore {
  /** 1-based rank of the first right answer among the first RECALL_DEPTH, null when none. */
  rank: number | null;
  /** The first answer's span (a chunk; a grep line) holds a definition of the name, whatever line it names. */
  spanAt1: boolean;
  /** Set when the first answer is wrong. */
  miss?: MissCategory;
}

/** The hit's span (or its line, ± the tolerance) holds one of the definitions. */
export function spanHolds(hit: HitPlace | undefined, definitions: readonly Definition[]): boolean {
  if (!hit) return false;
  if (hitMatches(hit, definitions)) return true;
  return hit.startLine !== undefined && hit.endLine !== undefined && definitions.some((d) => d.path === hit.path && d.line >= (hit.startLine as number) && d.line <= (hit.endLine as number));
}

export function scoreAnswers(name: string, hits: readonly HitPlace[], definitions: readonly Definition[]): NameScore {
  const spanAt1 = spanHolds(hits[0], definitions);
  let rank: number | null = null;
  for (let i = 0; i < Math.min(RECALL_DEPTH, hits.length); i++) {
    if (hitMatches(hits[i] as HitPlace, definitions)) {
      rank = i + 1;
      break;
    }
  }
  if (rank === 1) return { rank, spanAt1 };
  return { rank, spanAt1, miss: missCategory(name, hits[0], definitions) };
}

export function missCategory(name: string, top: HitPlace | undefined, definitions: readonly Definition[]): MissCategory {
  if (!top) return 'no-hits';
  if (top.symbol !== undefined && top.definitionPattern === undefined && top.symbol !== name) return 'other-name';
  const inFile = definitions.filter((d) => d.path === top.path);
  if (inFile.length === 0) return 'other-file';
  if (top.startLine !== undefined && top.endLine !== undefined && inFile.some((d) => d.line >= (top.startLine as number) && d.line <= (top.endLine as number))) return 'line-off';
  return 'same-file';
}

export interface SystemSummary {
  system: string;
  names: number;
  /** Share of names whose first answer is right. */
  precisionAt1: number;
  /** Share of names with a right answer among the first RECALL_DEPTH. */
  recallAt5: number;
  /** Share of names whose first answer's span holds a definition (P@1 once every hit names its line). */
  spanAt1: number;
  /** Names whose first answer is wrong. */
  misses: number;
  missesByCategory: Partial<Record<MissCategory, number>>;
}

export function summarise(system: string, scores: readonly NameScore[]): SystemSummary {
  const n = scores.length;
  const missesByCategory: SystemSummary['missesByCategory'] = {};
  for (const s of scores) if (s.miss) missesByCategory[s.miss] = (missesByCategory[s.miss] ?? 0) + 1;
  const at1 = scores.filter((s) => s.rank === 1).length;
  const at5 = scores.filter((s) => s.rank !== null).length;
  const span = scores.filter((s) => s.spanAt1).length;
  return { system, names: n, precisionAt1: n ? at1 / n : 0, recallAt5: n ? at5 / n : 0, spanAt1: n ? span / n : 0, misses: n - at1, missesByCategory };
}

// ---- the grep baseline ------------------------------------------------------------------------

/** Cairn language id (languages.ts) → the shapes of a line that defines `N`. */
const DEFINITION_SHAPES: Readonly<Record<string, readonly string[]>> = {
  python: ['^\\s*(async\\s+)?(def|class)\\s+N\\b', '^N\\s*(:[^=]*)?='],
  javascript: [
    '\\b(function\\*?|class)\\s+N\\b',
    '^(export\\s+(default\\s+)?)?(const|let|var)\\s+N\\b',
    // a method: the whole signature up to `{`, or parameters that go on past the line
    '^\\s*(static\\s+|async\\s+|get\\s+|set\\s+|\\*\\s*)*N\\s*\\(([^)]*\\)\\s*\\{|[^)]*$)',
    '\\bN\\s*[:=]\\s*(async\\s+)?(function\\b|\\([^)]*\\)\\s*=>|[\\w$]+\\s*=>)',
    '\\.N\\s*=\\s*function\\b',
  ],
  typescript: [
    '\\b(function\\*?|class|interface|type|enum|namespace|module)\\s+N\\b',
    '^(export\\s+(default\\s+)?)?(declare\\s+)?(const|let|var)\\s+N\\b',
    '^\\s*((public|private|protected|static|async|readonly|abstract|override|get|set|declare)\\s+)*N\\s*(<[^>]*>)?\\s*\\(([^)]*\\)\\s*(:[^;=]+)?\\{\\s*$|[^)]*$)',
    '\\bN\\s*[:=]\\s*(async\\s+)?(function\\b|\\([^)]*\\)\\s*=>|[\\w$]+\\s*=>)',
  ],
  go: ['^func\\s+(\\([^)]*\\)\\s*)?N\\b', '^\\s*type\\s+N\\b', '^(const|var)\\s+N\\b', '^\\s+N\\s+(struct|interface)\\b', '^\\s+N(\\s+[\\w.*\\[\\]]+)?\\s*=[^=]'],
  rust: ['\\b(fn|struct|enum|trait|type|mod|const|static|union)\\s+N\\b', '\\bmacro_rules!\\s*N\\b'],
  java: [
    '\\b(class|interface|enum|record|@interface)\\s+N\\b',
    '^\\s*(?!(return|new|throw|else|case|yield|await|assert)\\b)(@\\w+(\\([^)]*\\))?\\s+)*((public|protected|private|static|final|abstract|synchronized|native|default|strictfp)\\s+)*(<[^>]*>\\s+)?[\\w$.<>\\[\\]?,]+(\\s*<[^>]*>)?\\s+N\\s*\\(',
    '^\\s*((public|protected|private)\\s+)N\\s*\\(',
  ],
  kotlin: ['\\b(class|interface|object|typealias)\\s+N\\b', '\\bfun\\s+(<[^>]*>\\s*)?([\\w.]+\\.)?N\\b', '\\b(const\\s+)?val\\s+N\\b'],
  csharp: ['\\b(class|interface|enum|struct|record|delegate)\\s+N\\b', '^\\s*((public|protected|private|internal|static|virtual|override|abstract|async|sealed|partial)\\s+)+[\\w<>\\[\\],.?]+\\s+N\\s*[(<]'],
  c: ['#\\s*define\\s+N\\b', '\\b(struct|union|enum|typedef)\\b.*\\bN\\b', '^[\\w*\\s]+\\bN\\s*\\([^;]*$'],
  cpp: ['#\\s*define\\s+N\\b', '\\b(struct|union|enum|class|namespace|typedef|using)\\s+N\\b', '^[\\w*&:<>,\\s]+\\bN\\s*\\([^;]*$'],
  ruby: ['\\bdef\\s+(self\\.)?N\\b', '\\b(class|module)\\s+N\\b', '^\\s*N\\s*='],
  php: ['\\b(function|class|interface|trait|enum)\\s+N\\b', "\\bdefine\\(\\s*['\"]N['\"]"],
};

const GENERIC_SHAPE = '\\b(function|class|def|fn|func|type|struct|interface|enum|trait|impl|const|let|var|macro_rules!)\\b.*\\bN\\b';

/** The definition pattern for `name` in a file of `languageId` (tsx uses TypeScript's). */
export function definitionPattern(languageId: string | undefined, name: string): RegExp {
  const id = languageId === 'tsx' ? 'typescript' : languageId;
  const shapes = (id && DEFINITION_SHAPES[id]) || [GENERIC_SHAPE];
  // `$` is a word character in JS names; \b would not see it, so the name is bounded by hand.
  const n = `(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`;
  return new RegExp(shapes.map((s) => `(?:${s.replace(/\\bN\\b|N/g, n)})`).join('|'));
}

/** One line of `rg -n -w NAME`. */
export interface GrepLine {
  path: string;
  line: number;
  text: string;
}

/** Grep's answer: lines matching a definition pattern first, in file order, then the others in file order. */
export function rankGrepLines(lines: readonly GrepLine[], name: string, languageOf: (path: string) => string | undefined): HitPlace[] {
  const patterns = new Map<string | undefined, RegExp>();
  const pattern = (path: string): RegExp => {
    const id = languageOf(path);
    let p = patterns.get(id);
    if (!p) patterns.set(id, (p = definitionPattern(id, name)));
    return p;
  };
  const sorted = [...lines].sort(byPathLine);
  const defs: HitPlace[] = [];
  const others: HitPlace[] = [];
  for (const l of sorted) {
    const isDef = pattern(l.path).test(l.text);
    (isDef ? defs : others).push({ path: l.path, line: l.line, symbol: l.text.trim().slice(0, 200), definitionPattern: isDef });
  }
  return [...defs, ...others];
}

/** Parses `rg -n --null --no-heading` output: `path\0line:text` per line. */
export function parseGrepOutput(output: string): GrepLine[] {
  const out: GrepLine[] = [];
  for (const raw of output.split('\n')) {
    const nul = raw.indexOf('\0');
    if (nul < 0) continue;
    const rest = raw.slice(nul + 1);
    const colon = rest.indexOf(':');
    const line = Number(rest.slice(0, colon));
    if (colon < 0 || !Number.isInteger(line)) continue;
    out.push({ path: raw.slice(0, nul).replace(/\\/g, '/').replace(/^\.\//, ''), line, text: rest.slice(colon + 1).replace(/\r$/, '') });
  }
  return out;
}

// ---- the report ----------------------------------------------------------------------------------

export interface NameResult {
  name: string;
  /** Its ctags definitions (all of them count). */
  definitions: Definition[];
  /** Per system: the score and the first answers. */
  systems: Record<string, NameScore & { top: HitPlace[] }>;
}

export interface SymbolCheckReport {
  root: string;
  /** The commit checked out, when the root is a git work tree. */
  head?: string;
  ctags: { version: string; files: number; tags: number; kept: number; names: number; dropped: GroundTruth['dropped'] };
  settings: { sample: number; seed: number; lineTolerance: number; depth: number };
  systems: SystemSummary[];
  names: NameResult[];
  warnings: string[];
  tookMs: number;
}

const pct = (v: number): string => v.toFixed(3);

/** The summary table, one row per system. */
export function formatSymbolTable(report: SymbolCheckReport): string[] {
  const headers = ['system', 'names', 'P@1', 'R@5', 'misses', 'P@1 span'];
  const rows = [headers, ...report.systems.map((s) => [s.system, String(s.names), pct(s.precisionAt1), pct(s.recallAt5), String(s.misses), pct(s.spanAt1)])];
  const widths = headers.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, col) => (col === 0 ? c.padEnd(widths[col] as number) : c.padStart(widths[col] as number))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}

/** The lines under the table: ground truth, miss categories. */
export function formatSymbolSummary(report: SymbolCheckReport): string[] {
  const c = report.ctags;
  const dropped = Object.entries(c.dropped)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([r, n]) => `${r} ${n}`)
    .join(', ');
  const lines = [
    `${report.root}${report.head ? ` @ ${report.head.slice(0, 12)}` : ''}: ${c.files} files given to ctags (${c.version}); ${c.tags} tags, ${c.kept} definitions of ${c.names} names kept${dropped ? ` (dropped: ${dropped})` : ''}; ${report.settings.sample} names sampled with seed ${report.settings.seed}`,
  ];
  for (const s of report.systems) {
    const cats = Object.entries(s.missesByCategory)
      .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    if (cats) lines.push(`${s.system} misses: ${cats}`);
  }
  lines.push(
    `P@1: the first answer is in a file ctags defines the name in, on its line ±${report.settings.lineTolerance} (Cairn: nameLine, else the chunk's first line); R@5: the same within the first ${report.settings.depth}; P@1 span: the first answer's chunk holds the definition line`,
  );
  return lines;
}

const place = (h: HitPlace | undefined): string =>
  h ? `${h.path}:${h.line}${h.startLine !== undefined && h.endLine !== undefined ? ` (${h.startLine}-${h.endLine})` : ''}${h.symbol !== undefined ? ` ${h.kind ? `${h.kind} ` : ''}${JSON.stringify(h.symbol.length > 80 ? `${h.symbol.slice(0, 77)}...` : h.symbol)}` : ''}` : '(nothing)';

/**
 * Up to `count` misses of `system`, spread over the categories (round robin, largest first),
 * each with where ctags puts the name and what the system answered.
 */
export function formatMisses(report: SymbolCheckReport, system: string, count: number): string[] {
  const missed = report.names.filter((n) => n.systems[system]?.miss);
  const byCategory = groupBy(missed, (n) => n.systems[system]?.miss as MissCategory);
  const queues = [...byCategory.entries()].sort((a, b) => b[1].length - a[1].length);
  const picked: NameResult[] = [];
  for (let round = 0; picked.length < count && queues.some(([, l]) => l.length > round); round++) {
    for (const [, list] of queues) if (list[round] && picked.length < count) picked.push(list[round] as NameResult);
  }
  const lines = [`${system}: ${picked.length} of ${missed.length} misses`];
  for (const n of picked) {
    const s = n.systems[system] as NameScore & { top: HitPlace[] };
    const defs = n.definitions.slice(0, 3).map((d) => `${d.path}:${d.line} ${d.kind}${d.scope ? ` in ${d.scope}` : ''}`);
    const more = n.definitions.length > 3 ? ` (+${n.definitions.length - 3} more)` : '';
    lines.push(`  ${n.name}  [${s.miss}${s.rank !== null ? `, right at #${s.rank}` : ''}]`);
    lines.push(`    ctags: ${defs.join('; ')}${more}`);
    lines.push(`    top:   ${place(s.top[0])}`);
  }
  return lines;
}
