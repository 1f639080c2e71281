// Reading and editing an MCP client's JSON configuration with Microsoft's jsonc-parser (the
// parser VS Code uses for its own settings). A client whose format is JSONC (VS Code's mcp.json)
// may have comments and trailing commas, and an edit keeps them; for a client that reads strict
// JSON they are an error, refused with its place, and nothing is written. An edit changes only
// the one entry: every other byte of the file (other servers, layout, key order) stays.
import { modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { ServerEntry } from './clients';

/** A configuration file `cairn setup` will not touch; the message names the file and the place. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type JsonObject = Record<string, unknown>;

/**
 * The parsed top-level object; an empty (or blank) file reads as `{}`. `jsonc`: comments and
 * trailing commas are allowed (the client's own format allows them).
 */
export function parseConfig(text: string, file: string, jsonc = false): JsonObject {
  if (text.trim() === '') return {};
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const errors: ParseError[] = [];
  const value: unknown = parse(body, errors, { allowTrailingComma: jsonc, disallowComments: !jsonc, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const { line, column } = placeOf(body, first.offset);
    const strictOnly = !jsonc && (first.error === 11 /* InvalidCommentToken */ || /\/\/|\/\*|,\s*[}\]]/.test(body));
    const hint = strictOnly ? ' (this client reads strict JSON: comments and trailing commas are not allowed)' : ` (${describeError(first)})`;
    throw new ConfigError(`${file}:${line}:${column}: not valid JSON${hint}; nothing was written`);
  }
  if (!isObject(value)) throw new ConfigError(`${file}: the top level is not a JSON object; nothing was written`);
  return value;
}

function describeError(e: ParseError): string {
  // "ValueExpected" → "value expected"
  return printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Line and column (1-based) of an offset. */
function placeOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The servers object of a configuration, or undefined; refuses one that is not an object. */
export function serversOf(config: JsonObject, key: string, file: string): JsonObject | undefined {
  const servers = config[key];
  if (servers === undefined) return undefined;
  if (!isObject(servers)) throw new ConfigError(`${file}: "${key}" is not a JSON object; nothing was written`);
  return servers;
}

/**
 * `text` with `servers[name] = entry` (the servers object made when missing), as an edit of the
 * text: comments, layout and every other member keep their bytes. jsonc-parser finds where the
 * member goes; it is laid out here, because the parser's formatter would also reformat the
 * members beside it. A blank file becomes a new document indented by two spaces.
 */
export function setServer(text: string, key: string, name: string, entry: ServerEntry): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (text.trim() === '') return `${JSON.stringify({ [key]: { [name]: entry } }, null, 2).replace(/\n/g, eol)}${eol}`;
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const [edit] = modify(text, [key, name], entry, {});
  if (!edit) return text;
  const laidOut = (value: unknown, indent: string): string => JSON.stringify(value, null, unit).split('\n').join(eol + indent);
  const before = text.slice(0, edit.offset);
  const after = text.slice(edit.offset + edit.length);
  const member = /^(,?)("(?:[^"\\]|\\.)*"): ([\s\S]*)$/.exec(edit.content);
  // An existing value replaced in place, at its key's indentation.
  if (!member) return before + laidOut(JSON.parse(edit.content), lineIndent(text, edit.offset)) + after;
  const [, comma, quotedKey, valueText] = member as unknown as [string, string, string, string];
  const value: unknown = JSON.parse(valueText);
  if (comma) {
    // After the last member: on a line of its own, leaving that member's line (and a comment
    // after it) as it was; a trailing comma moves to the new last member.
    const newline = text.indexOf('\n', edit.offset);
    let lineEnd = newline < 0 ? text.length : newline;
    if (text[lineEnd - 1] === '\r') lineEnd--;
    const rest = /^(\s*)(,?)(\s*(?:\/\/[^\n]*)?)$/.exec(text.slice(edit.offset, lineEnd));
    if (!rest) return before + edit.content + after; // more on that line: keep it as the parser placed it
    const indent = lineIndent(text, edit.offset);
    const [, space, trailingComma, comment] = rest as unknown as [string, string, string, string];
    return `${before},${space}${comment}${eol}${indent}${quotedKey}: ${laidOut(value, indent)}${trailingComma}${text.slice(lineEnd)}`;
  }
  // The first member of an empty object: open it over lines.
  const close = /^\s*\}/.exec(after);
  if (!close) return before + edit.content + after;
  const outer = lineIndent(text, edit.offset);
  const inner = outer + unit;
  return `${before}${eol}${inner}${quotedKey}: ${laidOut(value, inner)}${eol}${outer}}${after.slice(close[0].length)}`;
}

/** The whitespace that starts the line holding `index`. */
function lineIndent(text: string, index: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** Deep equality of two JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
}
