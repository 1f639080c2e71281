// What a command runs against when it is not this process's own command line: `cairn serve`
// runs the same command code for a client, with the client's working directory and the
// server's warm engine. AsyncLocalStorage keeps two clients' commands apart while both run.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Engine } from '../core/engine/engine';
import type { FreshnessSummary } from '../core/api';
import type { OptionValues } from './args';

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
