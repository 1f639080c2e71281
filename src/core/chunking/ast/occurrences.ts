// Where names occur as code: the identifier-like nodes of a parsed file (never a comment or a
// string, whose words are not nodes; always the identifiers inside template substitutions and
// f-strings, which are), each with its role, placed in the chunk that holds it. Recorded at
// chunking time so that `cairn refs` reads a table of them instead of the files.
//
// One walk of the tree the chunker already has, shared with the definitions (walk.ts):
// `descendantsOfType` walks it in wasm and hands back only the nodes asked for (a query over
// the same tree cost twice as much: its cursor visits every node as a match candidate). A name's end is found by scanning the text, not by
// asking the node: a wasm call per identifier was a tenth of the walk.
import type { Language, Node } from 'web-tree-sitter';
import type { Chunk, FileOccurrences } from '../../types';
import { OCCURRENCE_ROLES } from '../../types';
import type { SourceText } from './source';
import { typeTableFor } from './units';

const ROLE_CODE = OCCURRENCE_ROLES.indexOf('code');
const ROLE_MEMBER = OCCURRENCE_ROLES.indexOf('member');
const ROLE_IMPORT = OCCURRENCE_ROLES.indexOf('import');
const ROLE_DEFINITION = OCCURRENCE_ROLES.indexOf('definition');

/** What one grammar records: identifier-like node types, statements that import, text scanned for words. */
interface OccurrenceRule {
  /** Node types that are names as code. */
  names: readonly string[];
  /** Statements whose names are imports (`import`, `use`, `from … import`, re-exports). */
  imports?: readonly string[];
  /** Statements that import when their text says so (a `const x = require('y')`). */
  importsWhen?: Readonly<Record<string, RegExp>>;
  /** Leaves of code the grammar does not parse (a C macro's body): words in them are names. */
  opaque?: readonly string[];
  /** Names never recorded: receivers every method names (`self`), not worth a table row each. */
  skip?: ReadonlySet<string>;
  /** Names may hold `-` (CSS classes, HTML tags, shell words). */
  dashes?: boolean;
  /** A name's end is read from its node: the grammar's names are not plain identifiers (Ruby `foo?`, `:sym`). */
  exactEnds?: boolean;
  /** No name is a member: `.` starts a CSS class, not an access. */
  noMembers?: boolean;
  /** `.` is not an access (PHP's `.` joins strings; `->` and `::` reach members). */
  dotJoins?: boolean;
}

const JS: OccurrenceRule = {
  names: ['identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'type_identifier', 'private_property_identifier', 'statement_identifier'],
  imports: ['import_statement'],
  // `export … from '…'` re-exports; a declaration whose value is `require('…')` imports.
  importsWhen: {
    export_statement: /^export\b[^;]*?\bfrom\s*['"]|^export\s*\*/,
    lexical_declaration: /^(?:const|let|var)\b[^;]*?=\s*require\s*\(\s*['"`]/,
    variable_declaration: /^var\b[^;]*?=\s*require\s*\(\s*['"`]/,
  },
};
const C_RULE: OccurrenceRule = { names: ['identifier', 'field_identifier', 'type_identifier', 'statement_identifier'], opaque: ['preproc_arg'] };

const RULES: Readonly<Record<string, OccurrenceRule>> = {
  typescript: JS,
  tsx: JS,
  javascript: JS,
  python: { names: ['identifier'], imports: ['import_statement', 'import_from_statement', 'future_import_statement'], skip: new Set(['self']) },
  go: { names: ['identifier', 'field_identifier', 'type_identifier', 'package_identifier', 'label_name'], imports: ['import_declaration'] },
  rust: { names: ['identifier', 'field_identifier', 'type_identifier', 'shorthand_field_identifier'], imports: ['use_declaration', 'extern_crate_declaration'], importsWhen: { mod_item: /^[^{]*;\s*$/ } },
  java: { names: ['identifier', 'type_identifier'], imports: ['import_declaration'] },
  c: C_RULE,
  cpp: { ...C_RULE, names: [...C_RULE.names, 'namespace_identifier'], imports: ['using_declaration'] },
  csharp: { names: ['identifier'], imports: ['using_directive'] },
  ruby: { names: ['identifier', 'constant', 'simple_symbol', 'hash_key_symbol', 'instance_variable', 'class_variable', 'global_variable'], exactEnds: true },
  php: { names: ['name', 'variable_name'], imports: ['namespace_use_declaration'], dotJoins: true },
  swift: { names: ['simple_identifier', 'type_identifier'], imports: ['import_declaration'] },
  bash: { names: ['variable_name', 'command_name'], dashes: true, exactEnds: true },
  css: { names: ['class_name', 'id_name', 'keyframes_name', 'property_name', 'tag_name'], dashes: true, noMembers: true },
  // A script's or a style's text is not parsed: its words are names, as a C macro's are.
  html: { names: ['tag_name'], opaque: ['raw_text'], dashes: true },
};

/** A file's occurrences by character offset, before they are placed in chunks. */
export interface RawOccurrences {
  names: string[];
  /** Per occurrence: offset (UTF-16), row (0-based), name index, role. */
  entries: Int32Array;
  count: number;
}

/** At most this many occurrences are recorded per file (a minified bundle holds hundreds of thousands). */
export const MAX_OCCURRENCES_PER_FILE = 200_000;
/** Longer names are not recorded (generated identifiers, base64 read as a word). */
const MAX_NAME_CHARS = 200;

/**
 * The occurrences of names in a parsed file, in text order. `definitionsAt` holds the offsets
 * of definitions' names (the extractor's and the definitions query's): those are definitions.
 */
export function scanOccurrences(language: Language, grammar: string, nodes: readonly Node[], typeIds: readonly number[], src: SourceText, definitionsAt: ReadonlySet<number>): RawOccurrences | undefined {
  const rule = RULES[grammar];
  if (!rule) return undefined;
  const text = src.text;
  const types = typeTableFor(language);
  const statements = statementsOf(rule);
  const opaque = new Set(rule.opaque ?? []);
  const statementSet = new Set(statements);
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  let entries = new Int32Array(Math.min(MAX_OCCURRENCES_PER_FILE, Math.max(64, nodes.length)) * 4);
  let count = 0;
  let importEnd = -1;
  const push = (start: number, end: number, row: number): void => {
    if (count >= MAX_OCCURRENCES_PER_FILE || end <= start || end - start > MAX_NAME_CHARS) return;
    const name = text.slice(start, end);
    // (Names travel newline-joined; only a node-ended one could hold a line break.)
    if (rule.skip?.has(name) || name.includes('\n')) return;
    let k = nameIndex.get(name);
    if (k === undefined) {
      k = names.length;
      names.push(name);
      nameIndex.set(name, k);
    }
    let role = ROLE_CODE;
    // A require's binding is a top-level variable to go-to-symbol, and an import here.
    if (start < importEnd) role = ROLE_IMPORT;
    else if (definitionsAt.has(start)) role = ROLE_DEFINITION;
    else if (!rule.noMembers && followsAccess(text, start, rule.dotJoins === true)) role = ROLE_MEMBER;
    if (count * 4 + 4 > entries.length) {
      const next = new Int32Array(entries.length * 2);
      next.set(entries);
      entries = next;
    }
    const at = count++ * 4;
    entries[at] = start;
    entries[at + 1] = row;
    entries[at + 2] = k;
    entries[at + 3] = role;
  };
  /** Where the last name pushed ends: a name node inside it (PHP's `$x` holds `x`) is the same name. */
  let lastEnd = -1;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as Node;
    const typeId = typeIds[i] as number;
    const start = node.startIndex;
    // `#define X(a) foo(a)`: the macro's body is one leaf, and its words are names.
    if (opaque.size > 0 && opaque.has(types.name(typeId))) {
      scanWords(text, start, node.endIndex, src, push);
      continue;
    }
    const first = text.charCodeAt(start);
    let from = start;
    let end: number;
    if (rule.exactEnds) {
      // `:name` (a Ruby symbol) is the name; `@ivar`, `$global`, `@@class` keep their sigils.
      if (first === 58 /* : */) from++;
      end = node.endIndex;
    } else {
      end = nameEnd(text, start, rule.dashes === true);
      // A name the scan cannot read (non-ASCII letters, a sigil): its node says where it ends.
      if (end < 0) end = node.endIndex;
    }
    // A statement starts with its keyword, which the scan read as a name: only nodes starting
    // with one are looked up (no name is a keyword, but `from` and `use` can be).
    if (statementSet.size > 0 && end - start <= 6 && isLowerLetter(first) && STATEMENT_WORDS.has(text.slice(start, end))) {
      const type = types.name(typeId);
      if (statementSet.has(type)) {
        const stop = node.endIndex;
        const when = rule.importsWhen?.[type];
        if (!when || when.test(text.slice(start, Math.min(stop, start + 2000)))) importEnd = Math.max(importEnd, stop);
        continue;
      }
    }
    if (start < lastEnd) continue;
    lastEnd = end;
    push(from, end, node.startPosition.row);
  }
  return { names, entries, count };
}

function statementsOf(rule: OccurrenceRule): string[] {
  return [...(rule.imports ?? []), ...Object.keys(rule.importsWhen ?? {})];
}

/** The node types a grammar's occurrences are read from (walk.ts hands them to scanOccurrences); none without a rule. */
export function occurrenceTypes(grammar: string): string[] {
  const rule = RULES[grammar];
  return rule ? [...rule.names, ...statementsOf(rule), ...(rule.opaque ?? [])] : [];
}

/**
 * Places occurrences in the chunks that hold them: the smallest chunk whose lines hold the
 * occurrence's, or whose characters hold it where chunks stand for characters (minified code).
 * Occurrences no chunk holds are dropped.
 */
export function placeOccurrences(raw: RawOccurrences, chunks: readonly Chunk[], src: SourceText): FileOccurrences | undefined {
  if (raw.count === 0 || chunks.length === 0) return undefined;
  const rowCount = src.rowOf(src.text.length) + 1;
  const owner = new Int32Array(rowCount).fill(-1);
  const spanned = new Uint8Array(rowCount);
  // Larger chunks first, so the smallest holding a row is the one left on it.
  const byLines = [...chunks.keys()].filter((i) => !chunks[i]!.span).sort((a, b) => lineCount(chunks[b]!) - lineCount(chunks[a]!) || b - a);
  for (const i of byLines) {
    const c = chunks[i]!;
    owner.fill(i, Math.max(0, c.startLine - 1), Math.min(rowCount, c.endLine));
  }
  const spans = [...chunks.keys()].filter((i) => chunks[i]!.span).sort((a, b) => chunks[a]!.span![0] - chunks[b]!.span![0] || chunks[b]!.span![1] - chunks[a]!.span![1]);
  for (const i of spans) spanned.fill(1, Math.max(0, chunks[i]!.startLine - 1), Math.min(rowCount, chunks[i]!.endLine));
  const out = new Int32Array(raw.count * 4);
  let n = 0;
  const e = raw.entries;
  for (let k = 0; k < raw.count; k++) {
    const at = e[k * 4] as number;
    const row = e[k * 4 + 1] as number;
    let chunk = spanned[row] ? spanHolder(chunks, spans, at) : -1;
    if (chunk < 0) chunk = owner[row] ?? -1;
    if (chunk < 0) continue;
    out[n * 4] = chunk;
    out[n * 4 + 1] = row + 1;
    out[n * 4 + 2] = at - src.rowStart(row) + 1;
    out[n * 4 + 3] = ((e[k * 4 + 2] as number) << 2) | (e[k * 4 + 3] as number);
    n++;
  }
  if (n === 0) return undefined;
  // By chunk, then place, as the segment appends them: a stable counting sort on the chunk
  // keeps each chunk's occurrences in text order.
  const firstOf = new Uint32Array(chunks.length + 1);
  for (let k = 0; k < n; k++) firstOf[(out[k * 4] as number) + 1]++;
  for (let c = 0; c < chunks.length; c++) firstOf[c + 1] = (firstOf[c + 1] as number) + (firstOf[c] as number);
  const sorted = new Int32Array(n * 4);
  for (let k = 0; k < n; k++) {
    const j = firstOf[out[k * 4] as number]!++;
    sorted[j * 4] = out[k * 4] as number;
    sorted[j * 4 + 1] = out[k * 4 + 1] as number;
    sorted[j * 4 + 2] = out[k * 4 + 2] as number;
    sorted[j * 4 + 3] = out[k * 4 + 3] as number;
  }
  return { names: raw.names, entries: sorted };
}

/** How many spans back from the last one starting at an offset are checked for the smallest holding it. */
const SPAN_LOOKBACK = 64;

/** The smallest chunk whose characters hold offset `at`, among `spans` (sorted by start); -1 when none. */
function spanHolder(chunks: readonly Chunk[], spans: readonly number[], at: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (chunks[spans[mid]!]!.span![0] <= at) lo = mid + 1;
    else hi = mid;
  }
  let best = -1;
  let bestSize = Infinity;
  for (let i = lo - 1, seen = 0; i >= 0 && seen < SPAN_LOOKBACK; i--, seen++) {
    const [s, t] = chunks[spans[i]!]!.span!;
    if (at >= s && at < t && t - s < bestSize) {
      best = spans[i]!;
      bestSize = t - s;
    }
  }
  return best;
}

function lineCount(c: Chunk): number {
  return c.endLine - c.startLine;
}

/** True when the name at `start` follows `.` (unless `dotJoins`), `?.`, `->` or `::` (not `..`, a range or a spread). */
function followsAccess(text: string, start: number, dotJoins: boolean): boolean {
  let i = start - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  const c = text.charCodeAt(i);
  const before = i > 0 ? text.charCodeAt(i - 1) : 0;
  if (c === 46 /* . */) return !dotJoins && before !== 46;
  if (c === 62 /* > */) return before === 45 /* - */;
  if (c === 58 /* : */) return before === 58;
  return false;
}

/** The keywords an import statement of some grammar starts with (`pub use`, `const x = require(…)`). */
const STATEMENT_WORDS: ReadonlySet<string> = new Set(['import', 'export', 'from', 'use', 'using', 'global', 'const', 'let', 'var', 'mod', 'pub', 'extern']);

/** End of the ASCII identifier at `start`, or -1 when the text there is not one (the node then says). */
function nameEnd(text: string, start: number, dashes: boolean): number {
  let i = start;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isNameChar(c) || (dashes && c === 45)) continue;
    if (c >= 128) return -1;
    break;
  }
  return i > start && !isDigit(text.charCodeAt(start)) ? i : -1;
}

/** The identifiers in `start..end` of unparsed code (a macro body), each pushed; strings in it are skipped. */
function scanWords(text: string, start: number, end: number, src: SourceText, push: (start: number, end: number, row: number) => void): void {
  let row = -1;
  for (let i = start; i < end; ) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      // A string or character literal: up to its closing quote on the line.
      let j = i + 1;
      while (j < end && text.charCodeAt(j) !== c && text.charCodeAt(j) !== 10) j += text.charCodeAt(j) === 92 ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c === 47 && (text.charCodeAt(i + 1) === 47 || text.charCodeAt(i + 1) === 42)) {
      // A comment inside the macro: to the end of the line or of the comment.
      const line = text.charCodeAt(i + 1) === 47;
      const close = line ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      i = close < 0 || close >= end ? end : close + (line ? 1 : 2);
      continue;
    }
    if (!isNameStart(c)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < end && isNameChar(text.charCodeAt(j))) j++;
    if (row < 0 || i >= src.rowStart(row + 1)) row = src.rowOf(i);
    push(i, j, row);
    i = j;
  }
}

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLowerLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
