// Thin layer over node:util parseArgs (strict): a command declares its options once, and every
// mistake on the command line becomes a UsageError with a one-line message (exit code 2).
import { parseArgs } from 'node:util';
import type { OptionValues } from '../command/context';

/** Bad command-line arguments. `main` prints `cairn <cmd>: <message> (usage: ...)` and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** A string option that may be repeated; its value is then an array (`--lang ts --lang py`). */
  multiple?: boolean;
  /** Shown in help: `--workers N`. */
  valueName?: string;
  description: string;
}

export interface CommandSpec {
  /** Subcommand name as typed: `chunks`. */
  name: string;
  /** One line: `cairn chunks [PATH] [--json] ...`. Repeated in every usage error. */
  usage: string;
  options: Record<string, OptionSpec>;
  /** How many positional arguments the command takes at most. */
  maxPositionals: number;
}

export type { OptionValues } from '../command/context';

export interface ParsedArgs {
  values: OptionValues;
  positionals: string[];
}

const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' };

/** Parses argv (without the subcommand) against `spec`; throws UsageError on any mistake. */
export function parseCommandArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries({ ...spec.options, help: HELP }).map(([name, o]) => [
      name,
      { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );
  for (const [name, o] of Object.entries(spec.options)) {
    if (o.multiple && o.type !== 'string') throw new Error(`option --${name}: only string options may be repeated`);
  }
  // A pasted text (a diff starts `--- a/…`, a list `- item`) is no option: an option name holds
  // no whitespace. Such an argument stands in as a placeholder while parsing, then is put back.
  const texts: string[] = [];
  const args = argv.map((a, i) => {
    if (argv.slice(0, i).includes('--') || !/^-[^=]*\s/.test(a)) return a;
    texts.push(a);
    return `${TEXT_PLACEHOLDER}${texts.length - 1}`;
  });
  const restore = (v: string): string => (v.startsWith(TEXT_PLACEHOLDER) ? (texts[Number(v.slice(TEXT_PLACEHOLDER.length))] ?? v) : v);
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (e) {
    throw new UsageError(describeParseError(e));
  }
  const positionals = parsed.positionals.map(restore);
  const values = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, typeof v === 'string' ? restore(v) : Array.isArray(v) ? v.map((x: unknown) => (typeof x === 'string' ? restore(x) : x)) : v]));
  if (positionals.length > spec.maxPositionals) {
    throw new UsageError(`unexpected argument '${positionals[spec.maxPositionals]}'`);
  }
  return { values: values as OptionValues, positionals };
}

/** Stands in for a pasted text while parseArgs reads the command line (no argument starts with NUL). */
const TEXT_PLACEHOLDER = '\u0000text';

/** parseArgs' messages run to several sentences; keep the part a person needs. */
function describeParseError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: string }).code;
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const option = quoted.split(' ')[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      // `cairn search -test` reads as options -t -e -s -t: say how to pass such a query.
      return /^-[^-]/.test(option) ? `unknown option ${option} (an argument starting with '-' goes after --, as in: -- "${option}…")` : `unknown option ${option}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take/.test(message) ? `option ${option} takes no value` : `option ${option} needs a value`;
    default:
      return (message.split(/\.\s/)[0] ?? message).replace(/\.$/, '');
  }
}

/** A string option restricted to `choices`. */
export function choiceOption<T extends string>(values: OptionValues, name: string, choices: readonly T[], fallback: T): T {
  const v = values[name];
  if (v === undefined) return fallback;
  if (typeof v === 'string' && (choices as readonly string[]).includes(v)) return v as T;
  throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got '${String(v)}'`);
}

/** A whole-number option of at least `min`; undefined when not given. */
export function intOption(values: OptionValues, name: string, min: number): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number >= ${min}, got '${String(v)}'`);
  return n;
}

/** The help text of one command: usage, summary, then its options. */
export function commandHelp(spec: CommandSpec, summary: string): string {
  const rows = Object.entries({ ...spec.options, help: HELP }).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.valueName ? ` ${o.valueName}` : ''}`;
    return `  ${flag.padEnd(26)}${o.description}`;
  });
  return [`usage: ${spec.usage}`, '', summary, '', 'options:', ...rows].join('\n');
}
