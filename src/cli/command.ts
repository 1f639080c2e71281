import type { CommandSpec, ParsedArgs } from './args';
import type { Output } from './output';

/** A `cairn <name>` subcommand, in src/cli/commands/<name>.ts, listed in commands/registry.ts. */
export interface Command {
  spec: CommandSpec;
  /** Resolves to the exit code (0 success, 1 runtime failure). Throws UsageError / CliError. */
  run(args: ParsedArgs, out: Output): Promise<number>;
}
