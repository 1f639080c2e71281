// `cairn`: dispatches to a subcommand (src/cli/commands/) and turns its outcome into an exit
// code: 0 success, 1 runtime failure, 2 bad arguments (with a one-line usage error). main.ts
// runs it on this process's command line; `cairn serve` (src/server/) on a client's.
import { version } from '../../package.json';
import { commandHelp, parseCommandArgs } from './args';
import { COMMANDS, findCommand } from './commands/registry';
import { type CliError, Output } from './output';
import { runInContext, type CommandRunner, type CommandStreams } from '../command/context';

const TOP_USAGE = 'cairn <command> [options]  (cairn --help lists commands)';

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `usage: cairn <command> [options]`,
    '',
    'Cairn indexes a workspace so people and agents find the exact file:line span a task needs.',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'cairn <command> --help shows a command\'s options; cairn --version prints the version.',
  ].join('\n');
}

/** Runs one `cairn` command line, writing to `io`; resolves to its exit code. */
export async function runCli(argv: readonly string[], io: CommandStreams = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [name, ...rest] = argv;
  const wantsJson = rest.includes('--json');
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const helpFor = name === 'help' && rest[0] ? findCommand(rest[0]) : undefined;
    if (helpFor) {
      io.stdout.write(`${commandHelp((await helpFor.load()).spec, helpFor.summary)}\n`);
      return 0;
    }
    (name === undefined ? io.stderr : io.stdout).write(`${topHelp()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const entry = findCommand(name);
  if (!entry) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command '${name}'`;
    new Output(wantsJson, io.stdout, io.stderr).error('usage', `${what} (usage: ${TOP_USAGE})`);
    return 2;
  }
  const command = await entry.load();
  const prefix = `cairn ${entry.name}`;
  const out = new Output(wantsJson, io.stdout, io.stderr);
  try {
    const args = parseCommandArgs(command.spec, rest);
    if (args.values.help) {
      io.stdout.write(`${commandHelp(command.spec, entry.summary)}\n`);
      return 0;
    }
    return await command.run(args, out, { runServed: runServedCommand });
  } catch (e) {
    // By name, not instanceof: commands bundled separately (dist/cli-mcp.js, dist/cli-eval.js)
    // carry their own copies of these classes.
    // `cairn serve` does not hold this command's index: its client answers the command itself.
    if (isNamed(e, 'NotServedError')) throw e;
    if (isNamed(e, 'UsageError')) {
      out.error('usage', `${e.message} (usage: ${command.spec.usage})`, prefix);
      return 2;
    }
    if (isNamed(e, 'CliError')) {
      out.error((e as CliError).code, e.message, prefix);
      return 1;
    }
    // A bug, not a user mistake: the stack is only noise unless someone asks for it.
    const detail = e instanceof Error ? (process.env.CAIRN_DEBUG ? (e.stack ?? e.message) : e.message) : String(e);
    out.error('internal', detail, prefix);
    return 1;
  }
}

function isNamed(e: unknown, name: 'UsageError' | 'CliError' | 'NotServedError'): e is Error {
  return e instanceof Error && e.name === name;
}

/**
 * Runs a client's command line for `cairn serve`, against the server's engine: the context is
 * set here, in this module's copy of the command context, which is the one the commands read.
 */
export const runServedCommand: CommandRunner = (argv, io, context) => runInContext(context, () => runCli(argv, io));
