// `cairn.registry.dir` in VS Code: a cloned repository's .vscode/settings.json must not point the
// served registry outside the folder; only the user's own settings can.
import { checkAll } from './check';
import { chooseRegistryDir, type RegistryDirChoice, type RegistryDirValues } from '../../src/vscode/registryDir';

/** Inside the root: relative paths that do not climb out (what isInsideRoot decides on disk). */
const inside = (dir: string): boolean => !dir.startsWith('/') && !dir.split('/').includes('..');
const shown = (c: RegistryDirChoice): { dir?: string; warned: boolean } => ({ ...(c.dir ? { dir: c.dir } : {}), warned: c.warning !== undefined });

describe('cairn.registry.dir: where the value comes from', () => {
  checkAll<RegistryDirValues | undefined, { dir?: string; warned: boolean }>(
    [
      { name: 'nothing set: the default', input: undefined, expected: { warned: false } },
      { name: 'a workspace folder value inside the folder', input: { workspaceFolderValue: 'docs/registry' }, expected: { dir: 'docs/registry', warned: false } },
      { name: 'a workspace value inside the folder', input: { workspaceValue: 'guides' }, expected: { dir: 'guides', warned: false } },
      { name: 'a workspace folder value outside (absolute): ignored, warned', input: { workspaceFolderValue: '/home/me/.ssh' }, expected: { warned: true } },
      { name: 'a workspace value climbing out: ignored, warned', input: { workspaceValue: '../../other' }, expected: { warned: true } },
      { name: "the user's own value outside the folder is served", input: { globalValue: '/srv/registry' }, expected: { dir: '/srv/registry', warned: false } },
      { name: "a workspace value the user's settings also name is served", input: { globalValue: '/srv/registry', workspaceValue: '/srv/registry' }, expected: { dir: '/srv/registry', warned: false } },
      { name: "a workspace value outside, another user value: the user's, warned", input: { globalValue: '/srv/registry', workspaceFolderValue: '/tmp/evil' }, expected: { dir: '/srv/registry', warned: true } },
      { name: 'the folder value wins over the workspace value, as in VS Code', input: { workspaceValue: '/tmp/evil', workspaceFolderValue: 'inside' }, expected: { dir: 'inside', warned: false } },
      { name: 'blank values count as unset', input: { workspaceFolderValue: '  ', globalValue: '' }, expected: { warned: false } },
    ],
    (values) => shown(chooseRegistryDir(values, inside)),
  );
});
