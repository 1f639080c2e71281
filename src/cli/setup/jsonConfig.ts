// Reading and merging an MCP client's JSON configuration. Parsed with JSON.parse: a file with
// comments or trailing commas (JSONC, which VS Code itself tolerates) is refused with its
// position and nothing is written, rather than silently dropping the comments on rewrite.
// (Microsoft's jsonc-parser could edit such files in place; it is only a transitive development
// dependency here, and the refusal keeps the command free of a new run-time dependency.)
import type { ServerEntry } from './clients';

/** A configuration file `cairn setup` will not touch; the message names the file and the place. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type JsonObject = Record<string, unknown>;

/** The parsed top-level object; an empty (or blank) file reads as `{}`. */
export function parseConfig(text: string, file: string): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const { line, column } = errorPlace(text, e instanceof Error ? e.message : String(e));
    const hint = /\/\/|\/\*|,\s*[}\]]/.test(text) ? ' (comments and trailing commas are not supported: remove them, or add the entry by hand)' : '';
    throw new ConfigError(`${file}:${line}:${column}: not valid JSON${hint}; nothing was written`);
  }
  if (!isObject(value)) throw new ConfigError(`${file}: the top level is not a JSON object; nothing was written`);
  return value;
}

/** Line and column (1-based) of a JSON.parse error, from its message (Node 20: "position N"; later: "line L column C"). */
function errorPlace(text: string, message: string): { line: number; column: number } {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  const offset = pos ? Number(pos[1]) : text.length;
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

/** `config` with `servers[name] = entry`; every other key and server keeps its value and place. */
export function withServer(config: JsonObject, key: string, name: string, entry: ServerEntry): JsonObject {
  const servers = isObject(config[key]) ? (config[key] as JsonObject) : {};
  const merged = { ...servers, [name]: entry };
  return key in config ? { ...config, [key]: merged } : { ...config, [key]: merged };
}

/**
 * The configuration as text in the file's own style: its indentation (two spaces when it has
 * none to copy) and its final newline. A file written by JSON.stringify with that indentation,
 * as editors write these files, changes only where the entry goes.
 */
export function serializeConfig(config: JsonObject, previousText: string): string {
  const indent = /\n([ \t]+)"/.exec(previousText)?.[1] ?? '  ';
  const eol = previousText.includes('\r\n') ? '\r\n' : '\n';
  const body = JSON.stringify(config, null, indent).replace(/\n/g, eol);
  return `${body}${eol}`;
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
