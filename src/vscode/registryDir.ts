// Which registry folder a VS Code folder serves. `cairn.registry.dir` is a resource setting, so a
// cloned repository's .vscode/settings.json can set it; what the repository says must stay inside
// the repository, as for its .agent-context/config.json (core/registry/config.ts). A folder
// outside the root is served only when the user's own settings name it; otherwise it is ignored
// with a warning and the default is used. (The extension declares no untrusted-workspace
// support, so in Restricted Mode it does not run at all; this is for trusted clones.)

/** The setting's values where VS Code keeps them (`WorkspaceConfiguration.inspect`). */
export interface RegistryDirValues {
  /** The user's own settings (and the defaults): never a repository's. */
  globalValue?: string;
  workspaceValue?: string;
  workspaceFolderValue?: string;
}

export interface RegistryDirChoice {
  /** The folder to serve; absent: the default `.agent-context/registry`. */
  dir?: string;
  warning?: string;
}

/** The folder to serve, given where the value comes from and whether a folder lies inside the root. */
export function chooseRegistryDir(values: RegistryDirValues | undefined, insideRoot: (dir: string) => boolean): RegistryDirChoice {
  const clean = (v: string | undefined): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const user = clean(values?.globalValue);
  const repository = clean(values?.workspaceFolderValue) ?? clean(values?.workspaceValue);
  if (repository === undefined) return user ? { dir: user } : {};
  if (repository === user || insideRoot(repository)) return { dir: repository };
  const fallback = user ? { dir: user } : {};
  return {
    ...fallback,
    warning: `cairn.registry.dir ${JSON.stringify(repository)} in the workspace settings is ignored: it is outside the folder, and a workspace's own settings do not choose what is served from outside it; ${user ? `your user setting ${JSON.stringify(user)} is used` : 'the default .agent-context/registry is used'}. To serve it, set cairn.registry.dir in your user settings`,
  };
}
