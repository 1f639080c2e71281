// What the registry commands (context, annotate, annotations) share: the root, where the cache
// lives, which remotes are on (none unless $CAIRN_REGISTRY_REMOTE names them, or the user trusts
// the repository's .agent-context/config.json with $CAIRN_REGISTRY_TRUST_REPO=1), and how
// diagnostics are printed for people.
import * as path from 'node:path';
import { ContextRegistry, loadRegistryConfig } from '../core/clientApi';
import type { RegistryDiagnostic, RegistryOptions, RemoteSourceConfig } from '../core/api';
import type { OptionSpec, OptionValues } from './args';
import { resolveRoot } from './engineSetup';
import { CliError, type Output } from './output';
import { resolveStoreDir } from '../command/storeLocation';

export const REGISTRY_ROOT_OPTION: Record<string, OptionSpec> = {
  root: { type: 'string', valueName: 'ROOT', description: 'the repository holding .agent-context/ (default: the current directory)' },
};

/** Comma- or space-separated registry URLs; when set, they replace the config file's remotes. */
export const REMOTE_ENV = 'CAIRN_REGISTRY_REMOTE';

/**
 * `1`: the user trusts the repository's .agent-context/config.json, so its remotes are contacted
 * and a registryDir outside the root is served. A setting of the user's, never of the repository.
 */
export const TRUST_ENV = 'CAIRN_REGISTRY_TRUST_REPO';

export interface OpenedRegistry {
  registry: ContextRegistry;
  root: string;
  /** Problems with the configuration, to be reported with the command's result. */
  diagnostics: RegistryDiagnostic[];
}

export function openRegistry(values: OptionValues): OpenedRegistry {
  const { options, diagnostics } = registryOptions(values);
  return { registry: new ContextRegistry(options), root: options.root, diagnostics };
}

/** The registry's options from the configuration and environment, and the problems found in them. */
export function registryOptions(values: OptionValues): { options: RegistryOptions; diagnostics: RegistryDiagnostic[] } {
  const root = resolveRoot(values);
  const remotes = remotesFromEnv();
  const { config, diagnostics } = loadRegistryConfig(root, { ...(remotes ? { remotes } : {}), trustRepository: process.env[TRUST_ENV]?.trim() === '1' });
  const options: RegistryOptions = {
    root,
    cacheDir: path.join(resolveStoreDir(root), 'registry-cache'),
    remote: config.remotes,
    ...(config.registryDir ? { registryDir: config.registryDir } : {}),
    ...(config.repository ? { repository: config.repository } : {}),
  };
  return { options, diagnostics };
}

function remotesFromEnv(): RemoteSourceConfig[] | undefined {
  const value = process.env[REMOTE_ENV]?.trim();
  if (!value) return undefined;
  return value.split(/[\s,]+/).map((url) => {
    if (!/^https?:\/\/\S+$/i.test(url)) throw new CliError('invalid-config', `$${REMOTE_ENV}: '${url}' is not an http(s) URL`);
    return { url };
  });
}

/** Diagnostics for people, on stderr: `error: path: message [code]`. */
export function noteDiagnostics(out: Output, diagnostics: readonly RegistryDiagnostic[]): void {
  for (const d of diagnostics) {
    const where = d.path ?? d.url;
    out.note(`${d.severity}: ${where ? `${where}: ` : ''}${d.message} [${d.code}]`);
  }
}
