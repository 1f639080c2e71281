// Where the extension's run-time files are: the only module that knows the layout of the
// installed extension and of VS Code itself. The engine is always handed these paths.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface ExtensionAssets {
  /** `dist/engineWorker.js`: the engine host thread. */
  engineWorker: string;
  /** `dist/chunkWorker.js`: chunking threads the engine starts. */
  chunkWorker: string;
  /** `dist/indexWorker.js`: the capped-heap thread a whole index is built on. */
  indexWorker: string;
  /** `grammars/`: tree-sitter.wasm and the language grammars. */
  grammarsDir: string;
  /** VS Code's own ripgrep, when this VS Code ships one where we look. */
  ripgrep?: string;
  /** VS Code's own `@parcel/watcher` package folder, when it ships one where we look. */
  watcher?: string;
}

/**
 * VS Code's bundled ripgrep. Desktop builds ship `@vscode/ripgrep` (unpacked from the asar
 * archive); server builds may ship `@vscode/ripgrep-universal` with one binary per platform.
 * Nothing is ever downloaded: without a binary the ripgrep provider reports itself unavailable.
 */
export function locateVscodeRipgrep(appRoot: string, exists: (p: string) => boolean = fs.existsSync): string | undefined {
  const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const packages = [path.join('@vscode', 'ripgrep', 'bin', binary), path.join('@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, binary)];
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    for (const p of packages) {
      const candidate = path.join(appRoot, modules, p);
      if (exists(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * VS Code's own file watcher module (`@parcel/watcher`, native, one binary per platform, which
 * VS Code loads itself). The packaged extension ships no node_modules, so serving a folder
 * watched uses this copy. Nothing is downloaded: without it a served folder is checked by interval.
 */
export function locateVscodeWatcher(appRoot: string, exists: (p: string) => boolean = fs.existsSync): string | undefined {
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    const candidate = path.join(appRoot, modules, '@parcel', 'watcher');
    if (exists(path.join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

export function locateAssets(extensionUri: vscode.Uri): ExtensionAssets {
  const root = extensionUri.fsPath;
  return {
    engineWorker: path.join(root, 'dist', 'engineWorker.js'),
    chunkWorker: path.join(root, 'dist', 'chunkWorker.js'),
    indexWorker: path.join(root, 'dist', 'indexWorker.js'),
    grammarsDir: path.join(root, 'grammars'),
    ripgrep: locateVscodeRipgrep(vscode.env.appRoot),
    watcher: locateVscodeWatcher(vscode.env.appRoot),
  };
}

/** The key a folder's engine is known by on the engine host thread. */
export function folderKey(folder: vscode.WorkspaceFolder): string {
  return folder.uri.toString();
}

/**
 * One store per workspace folder, inside the workspace's storage (or the global storage when no
 * workspace is open), named by a hash of the folder URI so renaming a folder never mixes stores.
 */
export function storeDirFor(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder): string {
  const base = context.storageUri ?? context.globalStorageUri;
  const hash = createHash('sha256').update(folder.uri.toString()).digest('hex').slice(0, 16);
  return path.join(base.fsPath, 'index', hash);
}
