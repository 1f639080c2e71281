import type { CommandSpec, ParsedArgs } from './args';
import type { CommandRunner } from '../command/context';
import type { Output } from './output';

/** What the dispatcher hands a command besides its arguments. */
export interface CommandEnv {
  /** Runs a client's `cairn` command line against a server's engine (`cairn serve` answers with it). */
  runServed: CommandRunner;
}

/** A `cairn <name>` subcommand, in src/cli/commands/<name>.ts, listed in commands/registry.ts. */
export interface Command {
  spec: CommandSpec;
  /** Resolves to the exit code (0 success, 1 runtime failure). Throws UsageError / CliError. */
  run(args: ParsedArgs, out: Output, env: CommandEnv): Promise<number>;
}
