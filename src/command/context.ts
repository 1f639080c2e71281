// The command layer between the CLI and the server: what a `cairn` command runs against when it
// is not this process's own command line. `cairn serve` (and the editor's engine thread) runs
// the same command code for a client, with the client's working directory and the server's warm
// engine. The server knows the protocol and the CLI knows the commands; both import this module
// and neither imports the other's internals (src/server never imports src/cli: lint).
// AsyncLocalStorage keeps two clients' commands apart while both run.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Writable } from 'node:stream';
import type { Engine } from '../core/engineApi';
import type { FreshnessSummary } from '../core/api';

/** Parsed option values: a `multiple` option yields string[] (only string options may repeat). */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** Where a command writes: the process's streams, or (in `cairn serve`) buffers sent to a client. */
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };

export interface CommandStreams {
  stdout: OutputStream;
  stderr: OutputStream;
}

/**
 * Runs one command line on the given streams against the given context, and resolves to its
 * exit code. The CLI provides it (cli/run.ts `runServedCommand`) to whoever starts a server.
 */
export type CommandRunner = (argv: readonly string[], io: CommandStreams, context: CommandContext) => Promise<number>;

/** What search, symbol, refs, pack and status read through: an Engine, or a server's view of one. */
export type QueryEngine = Pick<Engine, 'search' | 'searchFiles' | 'findSymbol' | 'references' | 'buildPack' | 'status' | 'close'> & {
  /** Set when a `cairn serve` process answers: who it is and how it keeps the index fresh. */
  served?: ServedBy;
};

export interface ServedBy {
  pid: number;
  startedAtMs: number;
  /** Resident memory of the process serving (in VS Code: the extension host's, all of it). */
  rssBytes: number;
  freshness: FreshnessSummary;
}

export interface CommandContext {
  /** The client's working directory: relative paths on its command line mean this. */
  cwd: string;
  /** The engine for `root`; throws NotServedError when this server does not hold that index. */
  queryEngine(values: OptionValues, root: string): QueryEngine;
}

/** The command asked for a root or store this server does not hold: the client answers itself. */
export class NotServedError extends Error {
  override readonly name = 'NotServedError';
}

const context = new AsyncLocalStorage<CommandContext>();

export function runInContext<T>(ctx: CommandContext, fn: () => Promise<T>): Promise<T> {
  return context.run(ctx, fn);
}

export function currentContext(): CommandContext | undefined {
  return context.getStore();
}
