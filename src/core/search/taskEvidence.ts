// What a task text (an issue, a traceback, a log, a pasted diff) says about where its code is,
// read as structure rather than as words: the files and lines of stack frames and diff headers,
// paths written in the text, the code names it mentions, the error messages it quotes and the
// tests it names. Pure: no index, no file system.
import { quotedMessages } from './taskMessages';

/** A stack frame or diff header: a file (as the text spells it), maybe a line and a function. */
export interface PathMention {
  path: string;
  line?: number;
  /** The function the frame is in, when the text says (`in parse_string`, `at Foo.bar`). */
  function?: string;
  /** The frame nearest the error: Python's last, a JavaScript/Java/Go stack's first. */
  innermost?: boolean;
  /** Frames between this one and the innermost (0 for the innermost). */
  depth?: number;
  /**
   * Under an installed-packages folder (`site-packages/`, `node_modules/`): the repository's own
   * code when the repository is that package, so it must match more than its base name.
   */
  foreign?: boolean;
}

export interface TaskEvidence {
  frames: PathMention[];
  diffPaths: PathMention[];
  /** Paths written elsewhere in the text (`see src/app/views.py:120`, `fields.py`). */
  paths: PathMention[];
  /** Code names the text mentions, most telling first (backticked, dotted, snake_case, camelCase). */
  names: string[];
  /** Error messages the text quotes (exception lines, quoted phrases), as shown. */
  messages: string[];
  /** Test functions the text names (`test_parse_empty`, `tests/test_x.py::TestY::test_z`). */
  tests: string[];
}

/** A text is read for evidence when it is more than a typed query: several lines, or many words. */
export function isTaskText(text: string): boolean {
  const trimmed = text.trim();
  if (/\n\s*\S/.test(trimmed)) return true;
  return trimmed.split(/\s+/).length >= 12;
}

const PY_FRAME = /File "([^"\n]+)", line (\d+)(?:, in ([\w<>.]+))?/g;
// `at fn (path:line:col)` or `at path:line:col` (Node, browsers), and Java's `at a.b.C.m(C.java:12)`.
const JS_FRAME = /^\s*at (?:(?:async )?([\w$.<>[\] ]+?) \()?((?:file:\/\/)?(?:[A-Za-z]:)?[^\s():]+\.[A-Za-z]{1,6}):(\d+)(?::\d+)?\)?\s*$/gm;
const JAVA_FRAME = /^\s*at ([\w$]+(?:\.[\w$]+)+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)/gm;
// Go's panics list `\t/abs/path/file.go:123 +0x1d` under each function; Rust's `--> src/x.rs:3:5`.
const GO_FRAME = /^\t((?:[A-Za-z]:)?[^\s:]+\.go):(\d+)/gm;
const RUST_FRAME = /-->\s+([^\s:]+\.rs):(\d+)(?::\d+)?/g;
const DIFF_GIT = /^diff --git a\/(\S+) b\/(\S+)/gm;
const DIFF_FILE = /^(?:---|\+\+\+) (?:[ab]\/)?([^\s]+)/gm;
const HUNK = /^@@ [^@\n]*@@ ?(.*)$/gm;
const PATH_IN_TEXT = /(?:^|[\s(`'"[<])((?:~?\/)?(?:[\w@.+-]+\/)*[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?::(\d+))?(?=$|[\s)`'",;!?\]>]|:(?!\d)|\.(?:\s|$))/gm;
const BACKTICKED = /`([^`\n]{2,120})`/g;
const DOTTED = /\b([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+)\b/g;
const CODE_WORD = /\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|_[A-Za-z0-9_]+|[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** Paths that name installed libraries or the runtime, never the repository's own files. */
const FOREIGN_PATH = /(?:^|[\\/])(?:site-packages|dist-packages|node_modules|\.venv|venv|lib[\\/]python\d|\.cargo[\\/]registry|go[\\/]pkg[\\/]mod|\.m2)(?:[\\/]|$)|^(?:node|internal|<frozen)[:\s]/;

/** File extensions that are really parts of dotted names or versions, not files. */
const NOT_A_FILE = /^\d|\.(?:com|org|net|io|dev|html?)$/i;

/** Words inside backticked code that are the language's own, not the repository's names. */
const LITERALS = new Set(['True', 'False', 'None', 'true', 'false', 'null', 'undefined', 'nil', 'self', 'this', 'def', 'class', 'return', 'import', 'from', 'function', 'const', 'let', 'var', 'new']);

const WORDISH = new Set(['e.g', 'i.e', 'etc', 'vs']);

export function isForeignPath(path: string): boolean {
  return FOREIGN_PATH.test(path);
}

function stripFileUrl(path: string): string {
  return path.replace(/^file:\/\//, '');
}

export function extractTaskEvidence(text: string): TaskEvidence {
  const frames: PathMention[] = [];
  const pushFrames = (list: PathMention[], innermostFirst: boolean) => {
    list.forEach((f, i) => {
      if (isForeignPath(f.path)) f.foreign = true;
      f.depth = innermostFirst ? i : list.length - 1 - i;
      if (f.depth === 0) f.innermost = true;
      frames.push(f);
    });
  };
  pushFrames([...text.matchAll(PY_FRAME)].map((m) => ({ path: m[1] as string, line: Number(m[2]), ...(m[3] && !m[3].startsWith('<') ? { function: m[3] } : {}) })), false);
  pushFrames([...text.matchAll(JS_FRAME)].map((m) => ({ path: stripFileUrl(m[2] as string), line: Number(m[3]), ...(m[1] && IDENTIFIER.test(m[1].trim()) ? { function: lastPart(m[1].trim()) } : {}) })), true);
  pushFrames(
    [...text.matchAll(JAVA_FRAME)].map((m) => {
      const qualified = (m[1] as string).split('.');
      const method = qualified.pop() as string;
      qualified.pop();
      return { path: [...qualified, m[2] as string].join('/'), line: Number(m[3]), function: method };
    }),
    true,
  );
  pushFrames([...text.matchAll(GO_FRAME)].map((m) => ({ path: m[1] as string, line: Number(m[2]) })), true);
  pushFrames([...text.matchAll(RUST_FRAME)].map((m) => ({ path: m[1] as string, line: Number(m[2]) })), true);

  const diffPaths: PathMention[] = [];
  const seenDiff = new Set<string>();
  const addDiff = (p: string) => {
    if (p === '/dev/null' || seenDiff.has(p)) return;
    seenDiff.add(p);
    diffPaths.push({ path: p });
  };
  for (const m of text.matchAll(DIFF_GIT)) addDiff(m[2] as string);
  for (const m of text.matchAll(DIFF_FILE)) addDiff(m[1] as string);
  const hunkNames: string[] = [];
  for (const m of text.matchAll(HUNK)) {
    const def = /(?:def|function|func|fn|class|sub)\s+([A-Za-z_$][\w$]*)/.exec(m[1] as string) ?? /([A-Za-z_$][\w$]*)\s*\(/.exec(m[1] as string);
    if (def) hunkNames.push(def[1] as string);
  }

  const framed = new Set([...frames, ...diffPaths].map((f) => f.path));
  const paths: PathMention[] = [];
  const seenPath = new Set<string>();
  // Diff headers were read above; their `a/` and `b/` spellings are not more paths.
  const prose = text.replace(DIFF_GIT, '').replace(DIFF_FILE, '');
  for (const m of prose.matchAll(PATH_IN_TEXT)) {
    const p = m[1] as string;
    if (framed.has(p) || seenPath.has(p) || NOT_A_FILE.test(p) || !/[A-Za-z]/.test(p.slice(p.lastIndexOf('.') + 1))) continue;
    if (!p.includes('/') && !FILE_SUFFIX.test(p)) continue;
    seenPath.add(p);
    paths.push({ path: p, ...(m[2] ? { line: Number(m[2]) } : {}), ...(isForeignPath(p) ? { foreign: true } : {}) });
  }

  // A frame's function is evidence for its frame's file already; named again, it would count twice.
  const withoutFrames = text.replace(PY_FRAME, ' ').replace(JS_FRAME, ' ').replace(JAVA_FRAME, ' ');
  return { frames, diffPaths, paths, names: codeNames(withoutFrames, hunkNames), messages: quotedMessages(text), tests: testNames(text) };
}

/** A test function's name: pytest's `test_x`, xUnit's `testX`; `::`-qualified ids give their last part. */
const TEST_NAME = /\b(test_[A-Za-z0-9_]+|test[A-Z][A-Za-z0-9_]*)\b/g;
export const MAX_TESTS = 5;

export function testNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TEST_NAME)) if (!out.includes(m[1] as string)) out.push(m[1] as string);
  return out.slice(0, MAX_TESTS);
}

/** Suffixes that make a word without a slash a file name (`fields.py`) rather than a dotted name (`os.path`). */
const FILE_SUFFIX = /\.(?:py|pyi|pyx|js|jsx|mjs|cjs|ts|tsx|go|rs|java|kt|rb|php|c|cc|cpp|h|hpp|cs|swift|scala|sh|md|rst|txt|json|ya?ml|toml|ini|cfg|sql|vue|svelte|css|scss|html?)$/;

function lastPart(name: string): string {
  const parts = name.split('.');
  return parts[parts.length - 1] as string;
}

/**
 * Code names in the text, each once: names from frames and hunk headers first, then backticked
 * code, then dotted names and identifier-shaped words, in order of appearance. Plain words
 * (`the`, `value`) are left to the keyword search.
 */
export function codeNames(text: string, first: readonly string[] = []): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (raw: string) => {
    const name = raw.trim().replace(/\(\)$/, '').replace(/^[.$@]+|[.:,]+$/g, '');
    if (name.length < 3 || name.length > 120 || seen.has(name) || WORDISH.has(name.toLowerCase())) return;
    if (!IDENTIFIER.test(name)) return;
    seen.add(name);
    names.push(name);
  };
  for (const n of first) add(n);
  for (const m of text.matchAll(BACKTICKED)) {
    const inner = m[1] as string;
    if (IDENTIFIER.test(inner.replace(/\(\)$/, ''))) add(inner);
    else for (const w of inner.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) if (!LITERALS.has(w[0])) add(w[0]);
  }
  for (const m of text.matchAll(DOTTED)) if (!FILE_SUFFIX.test(m[1] as string)) add(m[1] as string);
  for (const m of text.matchAll(CODE_WORD)) add(m[1] as string);
  return names;
}
