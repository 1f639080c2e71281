// `cairn mcp`: a Model Context Protocol server over stdio for AI agents (src/mcp/). It shares
// the index store with the extension and the other commands, keeps the index current on its
// own through the EngineHost every long-lived front end uses (its refresh queue decides when to
// check), and runs until the client disconnects.
import { discoveryWithoutStore } from '../../core/clientApi';
import { DEFAULT_MIN_INTERVAL_MS, EngineHost } from '../../core/engineApi';
import { serveStdio } from '../../mcp/server';
import { usageAllowedByEnv, UsageCounters } from '../../tools/usage';
import { intOption, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { engineOptions, resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import { resolveStoreDir } from '../../command/storeLocation';
import type { Output } from '../output';
import { noteDiagnostics, registryOptions } from '../registrySetup';

const spec: CommandSpec = {
  name: 'mcp',
  usage: 'cairn mcp [--root ROOT] [--store DIR] [--refresh-interval MS] [--no-usage]',
  maxPositionals: 0,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    'refresh-interval': {
      type: 'string',
      valueName: 'MS',
      description: `check the index for changes before a query at most this often (default ${DEFAULT_MIN_INTERVAL_MS}; 0: before every query)`,
    },
    'no-usage': { type: 'boolean', description: 'keep no tool-use counters in the store (also: CAIRN_USAGE=0); they never leave the machine either way' },
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  // stdout is the protocol channel: anything a dependency prints with console.log goes to stderr.
  console.log = console.info = console.debug = (...items: unknown[]) => console.error(...items);
  if (out.interactive) out.note('cairn mcp speaks the Model Context Protocol on stdin/stdout: start it from an MCP client (see docs/mcp.md). Ctrl-C stops it.');
  const root = resolveRoot(args.values);
  const minIntervalMs = intOption(args.values, 'refresh-interval', 0) ?? DEFAULT_MIN_INTERVAL_MS;
  const opening = engineOptions(args.values, root);
  const registry = registryOptions({ ...args.values, root });
  noteDiagnostics(out, registry.diagnostics);
  const log = (message: string): void => out.note(message);
  const host = new EngineHost({}, { minIntervalMs, log });
  await host.open(root, {
    ...opening,
    registryCacheDir: registry.options.cacheDir,
    ...(registry.options.remote ? { registryRemote: registry.options.remote } : {}),
    ...(registry.options.registryDir ? { registryDir: registry.options.registryDir } : {}),
    ...(registry.options.repository ? { registryRepository: registry.options.repository } : {}),
  });
  const counting = args.values['no-usage'] !== true && usageAllowedByEnv();
  const storeDir = resolveStoreDir(root, typeof args.values.store === 'string' ? args.values.store : undefined);
  const usage = counting ? new UsageCounters({ root, storeDir, log }) : undefined;
  // read_span and refresh_index follow the index's own discovery, which leaves out a store inside the root.
  const discovery = discoveryWithoutStore({}, root, storeDir);
  try {
    await serveStdio({ root, engine: host.engine(root), freshness: host.queue(root), registry: host.registry(root), log, discovery, ...(usage ? { usage } : {}) }, log);
    return 0;
  } finally {
    await usage?.close();
    await host.close(root);
  }
}

export const command: Command = { spec, run };
