// `cairn setup CLIENT`: adds Cairn's MCP server to a client's project configuration (merged,
// shown as a diff first, never touching the other servers), optionally with a short guidance
// section in the client's instructions file; `cairn setup --check` reports what is configured
// and whether the server starts and answers. The pieces live in src/cli/setup/.
import { createInterface } from 'node:readline';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args';
import { locateCliScript } from '../assets';
import type { Command } from '../command';
import { JSON_OPTION, resolveRoot, ROOT_OPTION } from '../engineSetup';
import { CliError, visible, type Output } from '../output';
import { CLIENTS, findClient, SERVER_NAME, serverEntry, type ClientSpec, type ServerEntry } from '../setup/clients';
import { unifiedDiff } from '../setup/diff';
import { ConfigError, isObject, parseConfig, sameJson, serversOf } from '../setup/jsonConfig';
import { readInsideRoot, runSetup, type FileChange } from '../setup/plan';
import { cairnEntry, probeServer } from '../setup/probe';

const CHECK_TIMEOUT_MS = 20_000;
const CLIENT_NAMES = CLIENTS.map((c) => c.name).join(', ');

const spec: CommandSpec = {
  name: 'setup',
  usage: `cairn setup CLIENT [--root ROOT] [--dry-run] [--force] [--instructions] [--json] | cairn setup --check [CLIENT] [--root ROOT]  (CLIENT: ${CLIENT_NAMES})`,
  maxPositionals: 1,
  options: {
    ...ROOT_OPTION,
    'dry-run': { type: 'boolean', description: 'print the diff of what would change and write nothing' },
    force: { type: 'boolean', description: 'replace a cairn entry that differs from this Cairn\'s' },
    instructions: { type: 'boolean', description: "also put a short section on Cairn's tools in the client's agent instructions file" },
    check: { type: 'boolean', description: 'report which clients are configured, then start the server and ask it for its tools' },
    ...JSON_OPTION,
  },
};

/** How the entry starts this Cairn (see serverEntry in setup/clients.ts). */
function launcher(): { node: string; cli: string } {
  return { node: process.execPath, cli: locateCliScript() };
}

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const root = resolveRoot(args.values);
  const name = args.positionals[0];
  const client = name === undefined ? undefined : findClient(name);
  if (name !== undefined && !client) throw new UsageError(`unknown client '${name}' (one of ${CLIENT_NAMES})`);
  try {
    if (args.values.check) return await check(root, client, out);
    if (!client) throw new UsageError(`which client? one of ${CLIENT_NAMES}`);
    return setup(root, client, args, out);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError('invalid-config', e.message);
    throw e;
  }
}

function setup(root: string, client: ClientSpec, args: ParsedArgs, out: Output): number {
  const dryRun = args.values['dry-run'] === true;
  const entry = serverEntry(client, root, launcher());
  const { changes, written: write, conflict } = runSetup(root, client, entry, { force: args.values.force === true, dryRun, instructions: args.values.instructions === true });
  if (out.json) {
    for (const c of changes) out.record({ client: client.name, file: c.file, status: c.status, written: write && (c.status === 'create' || c.status === 'update'), diff: unifiedDiff(c.file, c.before, c.after) });
    if (!client.configPath) out.record({ client: client.name, snippet: { [client.serversKey]: { [SERVER_NAME]: entry } } });
  } else {
    if (!client.configPath) {
      out.line(`Add this to your MCP client's configuration (most clients use "mcpServers"; VS Code's .vscode/mcp.json uses "servers" and "type": "stdio"):`);
      for (const line of JSON.stringify({ [client.serversKey]: { [SERVER_NAME]: entry } }, null, 2).split('\n')) out.line(line);
    }
    for (const c of changes) report(c, client, write, dryRun, out);
    if (write && client.configPath && changes.some((c) => c.status !== 'unchanged')) {
      out.line(`Reload ${client.label} so it picks the server up; cairn setup --check ${client.name} tests it.`);
    }
  }
  if (conflict) throw new CliError('conflict', `${conflict.file} already has a "${SERVER_NAME}" server that differs from this Cairn's (diff above); nothing was written. Run again with --force to replace it.`);
  return 0;
}

function report(c: FileChange, client: ClientSpec, written: boolean, dryRun: boolean, out: Output): void {
  if (c.status === 'unchanged') {
    out.line(`${c.file}: ${c.file === client.configPath ? `${SERVER_NAME} is already configured` : 'the Cairn section is already up to date'}`);
    return;
  }
  for (const line of unifiedDiff(c.file, c.before, c.after).split('\n')) out.line(line);
  if (c.status === 'conflict') return;
  if (dryRun) out.line(`${c.file}: dry run, nothing written`);
  else if (written) out.line(`${c.file}: ${c.status === 'create' ? 'created' : 'updated'}`);
}

interface ClientState {
  client: string;
  file: string;
  state: 'missing-file' | 'no-entry' | 'configured' | 'differs' | 'invalid';
  detail?: string;
  entry?: unknown;
}

async function check(root: string, only: ClientSpec | undefined, out: Output): Promise<number> {
  const clients = (only ? [only] : CLIENTS).filter((c) => c.configPath);
  if (only && !only.configPath) throw new UsageError(`${only.name} has no configuration file to check; name one of ${CLIENTS.filter((c) => c.configPath).map((c) => c.name).join(', ')}`);
  const states = clients.map((c) => clientState(root, c));
  const configured = states.filter((s) => s.state === 'configured' || s.state === 'differs');
  // Probe what a client would start: the first configured entry that starts this Cairn, else
  // this Cairn's own. Any other command came with the repository and is not run.
  const self = launcher();
  const notRun: Array<{ file: string; command: string[]; reason: string }> = [];
  let probed: ServerEntry | undefined;
  for (const s of configured) {
    const entry = runnable(s.entry, root);
    if (!entry) continue;
    const verdict = cairnEntry(entry, self);
    if (verdict.run) probed ??= entry;
    else notRun.push({ file: s.file, command: [entry.command, ...entry.args], reason: verdict.reason });
  }
  // A person at a terminal may choose to run one anyway; nothing else ever does.
  let asked = false;
  const first = notRun[0];
  if (probed === undefined && first && !out.json && (await confirm(`${first.file} names "${first.command.join(' ')}" for ${SERVER_NAME}, which is not this Cairn's entry. Run it to test it? [y/N] `))) {
    probed = { command: first.command[0]!, args: first.command.slice(1) };
    notRun.shift();
    asked = true;
  }
  const own = probed === undefined;
  probed ??= serverEntry(CLIENTS[1]!, root, self);
  const probe = await probeServer({ command: probed.command, args: probed.args, cwd: root, timeoutMs: CHECK_TIMEOUT_MS });
  const problems = configured.length === 0 || states.some((s) => s.state === 'invalid') || notRun.length > 0 || !probe.ok;

  if (out.json) {
    out.record({ root, clients: states, notRun, server: { command: [probed.command, ...probed.args], ...probe } });
  } else {
    const width = Math.max(...clients.map((c) => c.configPath!.length));
    for (const s of states) out.line(`${s.file.padEnd(width)}  ${describeState(s)}`);
    if (configured.length === 0) out.line(`no client here has a "${SERVER_NAME}" server: run cairn setup ${only?.name ?? 'CLIENT'} (CLIENT: ${CLIENT_NAMES})`);
    for (const n of notRun) out.line(`${n.file}: ${n.command.join(' ')}: ${n.reason} (run it yourself if you trust it; cairn setup ${clientOf(n.file)} --force writes this Cairn's entry)`);
    const whose = asked ? ' (run at your request)' : own && configured.length > 0 ? " (this Cairn's own entry)" : '';
    out.line(`server${whose}: ${[probed.command, ...probed.args].join(' ')}`);
    out.line(probe.ok ? `server: answered in ${probe.ms} ms with ${probe.tools.length} tools (${probe.tools.join(', ')})` : `server: FAILED: ${probe.error ?? 'no answer'}`);
  }
  return problems ? 1 : 0;
}

function clientState(root: string, client: ClientSpec): ClientState {
  const file = client.configPath!;
  const base = { client: client.name, file };
  let text: string | undefined;
  let servers: Record<string, unknown> | undefined;
  try {
    text = readInsideRoot(root, file);
    if (text === undefined) return { ...base, state: 'missing-file' };
    servers = serversOf(parseConfig(text, file, client.jsonc), client.serversKey, file);
  } catch (e) {
    if (e instanceof ConfigError) return { ...base, state: 'invalid', detail: e.message.replace(/; nothing was written$/, '') };
    throw e;
  }
  const entry = servers?.[SERVER_NAME];
  if (entry === undefined) return { ...base, state: 'no-entry' };
  const same = sameJson(entry, serverEntry(client, root, launcher()));
  return { ...base, state: same ? 'configured' : 'differs', entry };
}

function describeState(s: ClientState): string {
  switch (s.state) {
    case 'missing-file':
      return 'not present';
    case 'no-entry':
      return `no "${SERVER_NAME}" server (cairn setup ${s.client} adds it)`;
    case 'configured':
      return `${SERVER_NAME} configured`;
    case 'differs':
      return `${SERVER_NAME} configured, differently from this Cairn's entry (cairn setup ${s.client} --force replaces it)`;
    case 'invalid':
      return `unreadable: ${s.detail ?? ''}`;
  }
}

/** Asks a yes/no question on the terminal; no when stdin is not a terminal, or on no answer. */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.once('close', () => resolve(''));
      rl.question(visible(question), resolve);
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function clientOf(file: string): string {
  return CLIENTS.find((c) => c.configPath === file)?.name ?? 'CLIENT';
}

/** A configured entry as a command to run, with VS Code's ${workspaceFolder} put in; undefined when it is not a stdio command. */
function runnable(entry: unknown, root: string): ServerEntry | undefined {
  if (!isObject(entry) || typeof entry.command !== 'string') return undefined;
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
  const expand = (s: string): string => s.replace(/\$\{workspaceFolder\}/g, root);
  return { command: expand(entry.command), args: args.map(expand) };
}

export const command: Command = { spec, run };
