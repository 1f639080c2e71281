// The repository's registry settings, `.agent-context/config.json` under the root:
//
//   {
//     "registryDir": ".agent-context/registry",       optional, relative to the root
//     "repository": "acme/web",                        optional, the key notes are written under
//     "remotes": [{ "url": "https://...", "timeoutMs": 5000, "maxBytes": 5000000, "maxAgeMs": 0, "sha256": "..." }]
//   }
//
// Other top-level keys are left to other features. An invalid file is reported and ignored as a
// whole: remote access is never switched on by a guess.
//
// The file comes with the repository, so a cloned repository would choose what Cairn serves and
// whom it contacts. What it says stays inside the repository: a `registryDir` outside the root
// and its `remotes` are ignored, with a `config-ignored` diagnostic saying how to enable them,
// unless the user's own settings (`UserRegistrySettings`: in the CLI, $CAIRN_REGISTRY_REMOTE and
// $CAIRN_REGISTRY_TRUST_REPO) ask for remotes or trust the file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { readRegularSync } from '../fsRead';
import { diagnostic, errorText, type RegistryDiagnostic } from './diagnostics';
import type { RemoteSourceConfig } from './types';

export const CONFIG_FILE = path.join('.agent-context', 'config.json');

export const remoteConfigSchema = z
  .object({
    url: z.string().url().refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL'),
    timeoutMs: z.number().int().min(1).max(600_000).optional(),
    maxBytes: z.number().int().min(1).max(1_000_000_000).optional(),
    maxAgeMs: z.number().int().min(0).optional(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  })
  .strict();

const configSchema = z.object({
  registryDir: z.string().min(1).optional(),
  repository: z.string().min(1).max(200).optional(),
  remotes: z.array(remoteConfigSchema).max(20).optional(),
});

export interface RegistryConfig {
  registryDir?: string;
  repository?: string;
  remotes: RemoteSourceConfig[];
}

/** What the user (not the repository) configured about registries. */
export interface UserRegistrySettings {
  /** Remote registries the user named; they replace the repository file's remotes. */
  remotes?: RemoteSourceConfig[];
  /** The user trusts the repository's file: its remotes and a registryDir outside the root are used. */
  trustRepository?: boolean;
}

/** How the user enables what a repository's file alone may not (named in diagnostics). */
export const TRUST_HINT = 'set CAIRN_REGISTRY_TRUST_REPO=1 to trust this repository\'s file';
export const REMOTE_HINT = 'set CAIRN_REGISTRY_REMOTE to the registry URLs you want';

export function loadRegistryConfig(root: string, user: UserRegistrySettings = {}): { config: RegistryConfig; diagnostics: RegistryDiagnostic[] } {
  const { config, diagnostics } = readRegistryConfig(root);
  const shown = CONFIG_FILE.split(path.sep).join('/');
  const confined: RegistryConfig = { remotes: user.remotes ?? (user.trustRepository ? config.remotes : []), ...(config.repository ? { repository: config.repository } : {}) };
  if (user.remotes === undefined && !user.trustRepository && config.remotes.length > 0) {
    const urls = config.remotes.map((r) => r.url).join(', ');
    diagnostics.push(
      diagnostic('config-ignored', 'warning', `remotes ignored (${urls}): a repository's own file does not make Cairn contact a server; ${REMOTE_HINT}, or ${TRUST_HINT}`, { path: shown }),
    );
  }
  if (config.registryDir !== undefined) {
    if (user.trustRepository || isInsideRoot(root, config.registryDir)) confined.registryDir = config.registryDir;
    else {
      diagnostics.push(
        diagnostic('config-ignored', 'warning', `registryDir ${JSON.stringify(config.registryDir)} ignored: it is outside the repository, and a repository's own file does not choose what is served from outside it; the default ${DEFAULT_DIR_SHOWN} is used; ${TRUST_HINT}`, { path: shown }),
      );
    }
  }
  return { config: confined, diagnostics };
}

const DEFAULT_DIR_SHOWN = '.agent-context/registry';

/** Whether `dir` (relative to the root, or absolute) names a folder inside it, links resolved where they exist. */
export function isInsideRoot(root: string, dir: string): boolean {
  const inside = (parent: string, child: string): boolean => {
    const rel = path.relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const full = path.resolve(root, dir);
  if (!inside(path.resolve(root), full)) return false;
  // Judged by where it really is: a link inside the root may lead out. For a folder not made
  // yet, its nearest existing parent is what a link would lead through.
  let existing = full;
  for (;;) {
    try {
      return inside(fs.realpathSync(root), fs.realpathSync(existing));
    } catch (e) {
      const parent = path.dirname(existing);
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || parent === existing) return false;
      existing = parent;
    }
  }
}

/** The repository's file as it is written, before confinement. */
function readRegistryConfig(root: string): { config: RegistryConfig; diagnostics: RegistryDiagnostic[] } {
  const file = path.join(root, CONFIG_FILE);
  const shown = CONFIG_FILE.split(path.sep).join('/');
  let text: string;
  try {
    // Not blocking: a FIFO put in its place is refused, not waited on.
    text = readRegularSync(file, { followLinks: true }).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: { remotes: [] }, diagnostics: [] };
    return { config: { remotes: [] }, diagnostics: [diagnostic('invalid-config', 'error', `cannot read ${shown}: ${errorText(error)}`, { path: shown })] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { config: { remotes: [] }, diagnostics: [diagnostic('invalid-config', 'error', `${shown} is not JSON: ${errorText(error)}`, { path: shown })] };
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`).join('; ');
    return { config: { remotes: [] }, diagnostics: [diagnostic('invalid-config', 'error', `${shown}: ${issues}`, { path: shown })] };
  }
  const { registryDir, repository, remotes } = parsed.data;
  return { config: { remotes: remotes ?? [], ...(registryDir ? { registryDir } : {}), ...(repository ? { repository } : {}) }, diagnostics: [] };
}
