// Error messages a task text quotes, and where the code says them.
//
// A message the user saw (`RuntimeError: Dropped elements in sequence matching! ...`, a quoted
// warning) was written by some line of code, usually the one that raises it. The text shows the
// message with its values filled in, the code shows it with placeholders (`{path}`, `%s`) or cut
// into adjacent literals, so what is looked for is a run of the message's plain words, not the
// whole message. Pure: no index, no file system.
import { escapeRegExp } from '../regExp';

/** An exception line: `TypeError: ...`, also inside backticks or bold. */
const EXCEPTION_LINE = /\b[A-Z]\w*(?:Error|Exception|Warning|Failure|Fault)\s*:[ \t]*([^\n`*]+)/g;
/** A double-quoted (or typographically quoted) phrase in prose. */
const QUOTED = /["“]([^"”\n]{8,240})["”]/g;
/** Parts of a shown message that were values filled in, not the code's own words. */
const VALUE = /'[^'\n]*'|"[^"\n]*"|`[^`\n]*`|<[^>\n]*>|\S*[\\/]\S*|\S*\d\S*|\S+\.\S+|[^\s\w'’-]+/g;
/** A run shorter than this says too little to be searched for verbatim. */
const MIN_RUN_WORDS = 3;
const MIN_RUN_CHARS = 15;
/**
 * Messages the language runtime itself words (Python's, JavaScript's): the interpreter says
 * them, not a line of the repository, even when some repository code echoes the same words.
 */
const RUNTIME_MESSAGE = /\b(?:object has no attribute|object is not (?:subscriptable|iterable|callable)|is not (?:iterable|callable|defined|a function|a constructor)|has no attribute|unsupported operand type|positional arguments? but|got an unexpected keyword argument|missing \d+ required|cannot read propert(?:y|ies) of|bytes-like object is required|must be (?:str|int|a string|a number)|index out of range|codec can't (?:en|de)code|maximum recursion depth)\b/i;
/** Messages read from one text, first written first. */
export const MAX_MESSAGES = 8;

/** The messages a text quotes: exception lines' messages, then quoted phrases. */
export function quotedMessages(text: string): string[] {
  const out: string[] = [];
  const add = (raw: string) => {
    const m = raw.replace(/\r/g, '').trim();
    if (m.length >= MIN_RUN_CHARS && !out.includes(m)) out.push(m);
  };
  for (const m of text.matchAll(EXCEPTION_LINE)) add(m[1] as string);
  for (const m of text.matchAll(QUOTED)) add(m[1] as string);
  return out.slice(0, MAX_MESSAGES);
}

/**
 * The longest run of a message's own words once the values filled into it (quoted values,
 * numbers, paths, dotted names) are taken out; undefined when no run is long enough to be
 * telling. `Unable to load file src\p\__init__.py:` gives `Unable to load file`.
 */
export function messageRun(message: string): string | undefined {
  let best: string[] = [];
  for (const piece of message.split(VALUE)) {
    const words = piece.split(/\s+/).filter((w) => /^[A-Za-z_][\w'’-]*$/.test(w));
    // A piece is one run only when nothing but spaces separated its words.
    if (words.length > best.length && words.join(' ') === piece.trim().replace(/\s+/g, ' ')) best = words;
  }
  const run = best.join(' ');
  if (RUNTIME_MESSAGE.test(run)) return undefined;
  return best.length >= MIN_RUN_WORDS && run.length >= MIN_RUN_CHARS ? run : undefined;
}

/**
 * A pattern finding `run` in source code: its words in order, separated by white space or by
 * the seam of two adjacent string literals (`"value " "to integer"`, `'a ' +\n 'b'`), any case.
 */
export function runPattern(run: string): RegExp {
  const seam = `(?:\\s+|\\s*["'\`]\\s*\\+?\\s*\\\\?\\s*[fbruFBRU]{0,2}["'\`]\\s*)`;
  return new RegExp(run.split(' ').map(escapeRegExp).join(seam), 'i');
}

/** The 1-based line (counted from `firstLine`) where `run` starts in `code`, if it is there. */
export function lineOfRun(code: string, run: string, firstLine: number): number | undefined {
  const m = runPattern(run).exec(code);
  if (!m) return undefined;
  let line = firstLine;
  for (let i = 0; i < m.index; i++) if (code.charCodeAt(i) === 10) line++;
  return line;
}
