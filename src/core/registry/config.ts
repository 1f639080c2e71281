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

export function loadRegistryConfig(root: string): { config: RegistryConfig; diagnostics: RegistryDiagnostic[] } {
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
