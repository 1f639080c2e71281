// A repository's .agent-context/config.json stays inside the repository: a registry folder
// outside the root and remote registries are used only when the user's own settings ask for
// them; otherwise they are ignored and a diagnostic says what was ignored and how to enable it.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadRegistryConfig, type UserRegistrySettings } from '../../src/core/registry/config';
import { checkAll } from './check';

interface Input {
  config: object;
  user?: UserRegistrySettings;
}

interface Used {
  remotes: string[];
  registryDir?: string;
  diagnostics: string[];
}

const REPO_URL = 'https://registry.example/r.json';
const USER_URL = 'https://mine.example/r.json';
const TRUST = "set CAIRN_REGISTRY_TRUST_REPO=1 to trust this repository's file";
const IGNORED_REMOTES = `warning config-ignored: remotes ignored (${REPO_URL}): a repository's own file does not make Cairn contact a server; set CAIRN_REGISTRY_REMOTE to the registry URLs you want, or ${TRUST}`;
const ignoredDir = (dir: string): string =>
  `warning config-ignored: registryDir ${JSON.stringify(dir)} ignored: it is outside the repository, and a repository's own file does not choose what is served from outside it; the default .agent-context/registry is used; ${TRUST}`;

describe('registry config: what a repository may configure', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'cairn-registry-config-'));
  const root = path.join(base, 'repo');
  mkdirSync(path.join(root, '.agent-context', 'packs'), { recursive: true });
  mkdirSync(path.join(base, 'elsewhere'));
  symlinkSync(path.join(base, 'elsewhere'), path.join(root, 'out-link'));
  after(() => rmSync(base, { recursive: true, force: true }));

  checkAll<Input, Used>(
    [
      { name: 'nothing configured', input: { config: {} }, expected: { remotes: [], diagnostics: [] } },
      { name: 'a folder inside the root', input: { config: { registryDir: '.agent-context/packs' } }, expected: { remotes: [], registryDir: '.agent-context/packs', diagnostics: [] } },
      { name: 'a folder not made yet, inside the root', input: { config: { registryDir: 'docs/registry' } }, expected: { remotes: [], registryDir: 'docs/registry', diagnostics: [] } },
      { name: 'a folder above the root', input: { config: { registryDir: '../elsewhere' } }, expected: { remotes: [], diagnostics: [ignoredDir('../elsewhere')] } },
      { name: 'an absolute folder outside the root', input: { config: { registryDir: '/etc' } }, expected: { remotes: [], diagnostics: [ignoredDir('/etc')] } },
      { name: 'a link inside the root leading out', input: { config: { registryDir: 'out-link' } }, expected: { remotes: [], diagnostics: [ignoredDir('out-link')] } },
      { name: 'a folder under a link leading out', input: { config: { registryDir: 'out-link/not-made' } }, expected: { remotes: [], diagnostics: [ignoredDir('out-link/not-made')] } },
      { name: 'a folder outside the root, trusted by the user', input: { config: { registryDir: '../elsewhere' }, user: { trustRepository: true } }, expected: { remotes: [], registryDir: '../elsewhere', diagnostics: [] } },
      { name: "the repository's remote alone", input: { config: { remotes: [{ url: REPO_URL }] } }, expected: { remotes: [], diagnostics: [IGNORED_REMOTES] } },
      { name: "the repository's remote, trusted by the user", input: { config: { remotes: [{ url: REPO_URL }] }, user: { trustRepository: true } }, expected: { remotes: [REPO_URL], diagnostics: [] } },
      { name: "the user's own remotes replace the repository's", input: { config: { remotes: [{ url: REPO_URL }] }, user: { remotes: [{ url: USER_URL }] } }, expected: { remotes: [USER_URL], diagnostics: [] } },
      { name: "the user's own remotes without a repository file entry", input: { config: {}, user: { remotes: [{ url: USER_URL }] } }, expected: { remotes: [USER_URL], diagnostics: [] } },
      {
        name: 'both a folder outside and a remote',
        input: { config: { registryDir: '../elsewhere', remotes: [{ url: REPO_URL }], repository: 'acme/web' } },
        expected: { remotes: [], diagnostics: [IGNORED_REMOTES, ignoredDir('../elsewhere')] },
      },
    ],
    ({ config, user }) => {
      writeFileSync(path.join(root, '.agent-context', 'config.json'), JSON.stringify(config));
      const loaded = loadRegistryConfig(root, user);
      return {
        remotes: loaded.config.remotes.map((r) => r.url),
        ...(loaded.config.registryDir !== undefined ? { registryDir: loaded.config.registryDir } : {}),
        diagnostics: loaded.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`),
      };
    },
  );
});
