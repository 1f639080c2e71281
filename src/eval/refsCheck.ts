// `cairn eval --refs`: an independent measurement of references. For a seeded sample of names
// universal-ctags says a repository defines, `rg -n -w NAME` lists every whole-word occurrence;
// tree-sitter says which of those are code and which sit in comments or strings; Cairn's
// references are compared with both: how many code occurrences it finds (recall), how many
// comment and string occurrences it leaves out, and — for names defined once — how many of the
// references it calls certain are in the defining file or a file that imports it (a proxy for
// "refer to that definition").
//
// This module is the pure part: classifying a node's ancestry, scoring, the report. The runs
// (ctags, ripgrep, tree-sitter, the engine) are in refsRun.ts.

/** Where a whole-word match of the name sits, by the syntax tree. */
export type OccurrenceClass =
  | 'code' // a name in code
  | 'code-other-token' // in code, inside a longer token (`$name`, `name?`, `name-x`, a number)
  | 'keyword' // a keyword or built-in type spelled like the name (`delete`, `get` in `get x()`, Rust's `str`): not a name
  | 'unparsed' // where the parse failed (an ERROR node; template syntax in HTML): tree-sitter cannot say
  | 'comment'
  | 'string';

/** Node types that hold text, not code: comments, strings and their parts, regexes, character literals, markup text. */
const NOT_CODE = /comment|string|heredoc|regex|char|^text$|jsx_text|escape_sequence|nowdoc|attribute_value|^entity$/;
/** The language's own type names (`str`, `int`, `bool`): vocabulary, as keywords are, never a definition's name. */
const BUILT_IN_TYPES = /^(primitive_type|integral_type|floating_point_type|boolean_type|predefined_type|void_type)$/;
/** Node types inside a string that are code again: template substitutions, f-string and `#{}` interpolations. */
const CODE_AGAIN = /interpolation|substitution|template_expression|^embedded/;

/**
 * Classifies a match from the types of the smallest node holding it and its ancestors, the
 * innermost first: the first of them that is a comment or a string decides, unless an
 * interpolation inside it comes first. `token` is the text of the smallest node (`code` only
 * when it is the name itself) and `named` whether that node is a named one (an anonymous node
 * is a keyword or an operator; in an ERROR node, an unexpected token).
 */
export function classifyAncestry(types: readonly string[], token: string, name: string, named = true): OccurrenceClass {
  for (const type of types) {
    if (CODE_AGAIN.test(type)) break;
    if (NOT_CODE.test(type)) return /comment/.test(type) ? 'comment' : 'string';
  }
  if (types[0] === 'ERROR' || (!named && types.includes('ERROR'))) return 'unparsed';
  if (!named || BUILT_IN_TYPES.test(types[0] ?? '')) return 'keyword';
  return token === name ? 'code' : 'code-other-token';
}

/** One whole-word match of a name, as ripgrep reports it and tree-sitter classifies it. */
export interface WordMatch {
  path: string;
  line: number;
  /** 1-based UTF-16 column. */
  column: number;
  class: OccurrenceClass | 'no-grammar';
}

/** One reference of Cairn's, as compared. */
export interface CairnReference {
  path: string;
  line: number;
  column: number;
  certain: boolean;
  /** The occurrence's role (definition, import, member, code), when the report lists every reference. */
  role?: string;
  /** Why Cairn calls it certain or a name match, when the report lists every reference. */
  reason?: string;
}

/** Where Cairn's one definition of a name is: its name's 1-based line and UTF-16 column. */
export interface DefinitionPlace {
  path: string;
  line: number;
  column: number;
  kind: string;
}

/** The comparison of one name. */
export interface NameRefs {
  name: string;
  /** ctags' definitions of it. */
  definitions: number;
  matches: Record<OccurrenceClass | 'no-grammar', number>;
  /** Code matches (either class) Cairn returned. */
  foundCode: number;
  /** Code matches whose token is the name, Cairn returned. */
  foundNameTokens: number;
  /** Comment and string matches Cairn returned (should be none). */
  foundNotCode: number;
  /** Cairn's references with no match of ripgrep's at their place. */
  extra: number;
  references: number;
  certain: number;
  /** For a name defined once: certain references in the defining file or a file importing it. */
  certainInReach?: number;
  /** Some code matches Cairn missed, for reading (at most 5). */
  missed: WordMatch[];
  /** Some certain references outside the proxy's reach, for reading (at most 5). */
  certainOutside: CairnReference[];
  /** ms of the timed lookup (limit 100, lines read). */
  ms: number;
  /** With `allReferences` asked for, for a name Cairn defines once (ctags at most once): its definition, and every reference Cairn returns. */
  definition?: DefinitionPlace;
  allReferences?: CairnReference[];
  /** With `allReferences` asked for, for a name Cairn defines 2–5 times: each definition, and the references asked from it. */
  perDefinition?: Array<{ definition: DefinitionPlace; allReferences: CairnReference[] }>;
}

export interface RefsSummary {
  names: number;
  matches: Record<OccurrenceClass | 'no-grammar', number>;
  /** Share of code matches Cairn found. */
  recall: number;
  /** The same over code matches whose token is the name. */
  recallNameTokens: number;
  /** Share of comment and string matches Cairn left out. */
  leftOut: number;
  references: number;
  certain: number;
  extra: number;
  /** Names defined once, and the share of their certain references in reach of the definition. */
  definedOnce: number;
  certainDefinedOnce: number;
  certainPrecision: number;
  p50Ms: number;
  p95Ms: number;
}

export interface RefsCheckReport {
  root: string;
  head?: string;
  ctags: { version: string; files: number; names: number };
  settings: { sample: number; seed: number };
  summary: RefsSummary;
  names: NameRefs[];
  warnings: string[];
  tookMs: number;
}

export function emptyCounts(): Record<OccurrenceClass | 'no-grammar', number> {
  return { code: 0, 'code-other-token': 0, keyword: 0, unparsed: 0, comment: 0, string: 0, 'no-grammar': 0 };
}

const placeKey = (p: { path: string; line: number; column: number }): string => `${p.path}:${p.line}:${p.column}`;

/**
 * Compares one name's matches with Cairn's references. `inReach(path)` says whether a file is
 * the defining file or reaches it by imports (asked only for a name defined once).
 */
export function compareName(
  name: string,
  definitions: number,
  matches: readonly WordMatch[],
  references: readonly CairnReference[],
  inReach: ((path: string) => boolean) | undefined,
  ms: number,
): NameRefs {
  const counts = emptyCounts();
  for (const m of matches) counts[m.class]++;
  const byPlace = new Map(references.map((r) => [placeKey(r), r]));
  const matched = new Set<string>();
  let foundCode = 0;
  let foundNameTokens = 0;
  let foundNotCode = 0;
  const missed: WordMatch[] = [];
  for (const m of matches) {
    const key = placeKey(m);
    const found = byPlace.has(key);
    if (found) matched.add(key);
    if (m.class === 'code' || m.class === 'code-other-token') {
      if (found) foundCode++;
      else if (missed.length < 5) missed.push(m);
      if (found && m.class === 'code') foundNameTokens++;
    } else if ((m.class === 'comment' || m.class === 'string') && found) foundNotCode++;
  }
  const certain = references.filter((r) => r.certain);
  const result: NameRefs = {
    name,
    definitions,
    matches: counts,
    foundCode,
    foundNameTokens,
    foundNotCode,
    extra: references.length - matched.size,
    references: references.length,
    certain: certain.length,
    missed,
    certainOutside: [],
    ms,
  };
  if (inReach) {
    const outside = certain.filter((r) => !inReach(r.path));
    result.certainInReach = certain.length - outside.length;
    result.certainOutside = outside.slice(0, 5);
  }
  return result;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export function summariseRefs(names: readonly NameRefs[]): RefsSummary {
  const matches = emptyCounts();
  let foundCode = 0;
  let foundNameTokens = 0;
  let foundNotCode = 0;
  let references = 0;
  let certain = 0;
  let extra = 0;
  let definedOnce = 0;
  let certainDefinedOnce = 0;
  let inReach = 0;
  for (const n of names) {
    for (const k of Object.keys(matches) as Array<keyof typeof matches>) matches[k] += n.matches[k];
    foundCode += n.foundCode;
    foundNameTokens += n.foundNameTokens;
    foundNotCode += n.foundNotCode;
    references += n.references;
    certain += n.certain;
    extra += n.extra;
    if (n.certainInReach !== undefined) {
      definedOnce++;
      certainDefinedOnce += n.certain;
      inReach += n.certainInReach;
    }
  }
  const code = matches.code + matches['code-other-token'];
  const notCode = matches.comment + matches.string;
  const ms = names.map((n) => n.ms).sort((a, b) => a - b);
  return {
    names: names.length,
    matches,
    recall: code ? foundCode / code : 1,
    recallNameTokens: matches.code ? foundNameTokens / matches.code : 1,
    leftOut: notCode ? (notCode - foundNotCode) / notCode : 1,
    references,
    certain,
    extra,
    definedOnce,
    certainDefinedOnce,
    certainPrecision: certainDefinedOnce ? inReach / certainDefinedOnce : 1,
    p50Ms: percentile(ms, 50),
    p95Ms: percentile(ms, 95),
  };
}

const f3 = (v: number): string => v.toFixed(3);

/** One table for all roots: a row per root. */
export function formatRefsTable(reports: readonly RefsCheckReport[]): string[] {
  const headers = ['root', 'names', 'rg matches', 'code', 'recall', 'recall (name)', 'comment+string', 'left out', 'refs', 'certain', 'certain prec. (1 def)', 'p50 ms', 'p95 ms'];
  const rows = reports.map((r) => {
    const s = r.summary;
    const all = Object.values(s.matches).reduce((a, b) => a + b, 0);
    return [
      r.root.split('/').pop() ?? r.root,
      String(s.names),
      String(all),
      String(s.matches.code + s.matches['code-other-token']),
      f3(s.recall),
      f3(s.recallNameTokens),
      String(s.matches.comment + s.matches.string),
      f3(s.leftOut),
      String(s.references),
      String(s.certain),
      `${f3(s.certainPrecision)} (${s.certainDefinedOnce})`,
      s.p50Ms.toFixed(1),
      s.p95Ms.toFixed(1),
    ];
  });
  const all = [headers, ...rows];
  const widths = headers.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((x, c) => (c === 0 ? x.padEnd(widths[c] as number) : x.padStart(widths[c] as number))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

/** The lines under the table: what the columns mean, and what each root's ground truth was. */
export function formatRefsNotes(reports: readonly RefsCheckReport[]): string[] {
  const lines = reports.map((r) => {
    const s = r.summary;
    return `${r.root}${r.head ? ` @ ${r.head.slice(0, 12)}` : ''}: ${r.ctags.names} names defined (ctags ${r.ctags.version}, ${r.ctags.files} files); ${s.names} sampled with seed ${r.settings.seed}; ${s.matches['code-other-token']} code matches inside longer tokens; not counted: ${s.matches.keyword} keywords, ${s.matches.unparsed} in unparsed code, ${s.matches['no-grammar']} in files without a grammar; ${s.extra} references at no rg match; ${s.definedOnce} names defined once`;
  });
  lines.push(
    'recall: share of rg -w matches in code (not in a comment or string, by tree-sitter) that Cairn returns at the same line and column; recall (name): the same for matches whose token is the name itself; left out: share of comment and string matches Cairn does not return; certain prec. (1 def): for names ctags and Cairn both define once, share of Cairn\'s certain references in the defining file, its package (Go, Java), or a file importing it directly or through one file (their count in brackets); p50/p95: an in-process lookup of 100 references with their lines, on a warm engine',
  );
  return lines;
}

/** Up to `count` missed code matches and certain references outside reach, for reading. */
export function formatRefsMisses(report: RefsCheckReport, count: number): string[] {
  const lines: string[] = [];
  const missed = report.names.flatMap((n) => n.missed.map((m) => `  ${n.name}  ${m.path}:${m.line}:${m.column} (${m.class})`));
  const outside = report.names.flatMap((n) => n.certainOutside.map((r) => `  ${n.name}  ${r.path}:${r.line}:${r.column}`));
  lines.push(`${report.root}: ${Math.min(count, missed.length)} of the code matches missed`, ...missed.slice(0, count));
  lines.push(`${report.root}: ${Math.min(count, outside.length)} of the certain references outside reach`, ...outside.slice(0, count));
  return lines;
}
