// Bundles Cairn's entry points with esbuild. Typechecking is separate (`npm run typecheck`):
// esbuild only strips types, which keeps rebuilds in watch mode instant.
//
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, no source maps (what the .vsix ships)
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyGrammars } from './scripts/copy-grammars.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Node (CommonJS) bundles: extension host, CLI, and the worker-thread entries. */
const nodeEntries = {
  extension: 'src/vscode/extension.ts',
  // dist/cli.js is the `cairn` bin: a small launcher that runs dist/cliMain.js with V8's code cache.
  cli: 'src/cli/launch.ts',
  cliMain: 'src/cli/main.ts',
  chunkWorker: 'src/core/chunking/worker.ts',
  indexWorker: 'src/core/engine/indexWorker.ts',
  engineWorker: 'src/cli/engineWorker.ts',
  bench: 'src/bench/main.ts',
  // Commands with heavy dependencies get their own bundles, so `cairn search` does not pay to
  // compile the MCP SDK and zod on every start (see splitCommands below).
  'cli-mcp': 'src/cli/commands/mcp.ts',
  'cli-eval': 'src/cli/commands/eval.ts',
  'cli-serve': 'src/cli/commands/serve.ts',
};

/** `import('./mcp')` in the command registry loads dist/cli-mcp.js at run time instead of inlining it. */
const SPLIT_COMMANDS = { './mcp': './cli-mcp.js', './eval': './cli-eval.js', './serve': './cli-serve.js' };
const splitCommands = {
  name: 'split-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/(mcp|eval|serve)$/ }, (args) =>
      args.importer.endsWith(path.join('src', 'cli', 'commands', 'registry.ts')) ? { path: SPLIT_COMMANDS[args.path], external: true } : undefined,
    );
  },
};

/** Browser bundles for webviews. */
const webEntries = {
  'webview/pack': 'src/webview/pack/main.ts',
};

const logBuild = {
  name: 'log-build',
  setup(build) {
    build.onEnd((result) => {
      for (const e of result.errors) console.error(`✘ ${e.location?.file ?? ''}:${e.location?.line ?? ''} ${e.text}`);
      if (watch) console.log(`[watch] build finished (${result.errors.length} errors)`);
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [logBuild],
};

const nodeBuild = {
  ...common,
  entryPoints: nodeEntries,
  outdir: path.join(root, 'dist'),
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The split command bundles load with require(): dist/cliMain.js runs as a vm.Script (see
  // src/cli/launch.ts), where a native import() has no loader.
  supported: { 'dynamic-import': false },
  // `vscode` is provided by the extension host. The ripgrep binary package and the file watcher
  // (a native addon, one binary package per platform) are resolved at run time.
  external: ['vscode', '@vscode/ripgrep', '@vscode/ripgrep-*', '@parcel/watcher'],
  // jsonc-parser's main (UMD) build loads its parts with a require() a bundler cannot follow.
  alias: { 'jsonc-parser': path.join(root, 'node_modules/jsonc-parser/lib/esm/main.js') },
};

const webBuild = {
  ...common,
  entryPoints: webEntries,
  outdir: path.join(root, 'dist'),
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
};

copyGrammars();
// dist/cli.js is the `cairn` bin: esbuild keeps src/cli/launch.ts's hashbang; make it executable.
const cliExecutable = {
  name: 'cli-executable',
  setup(build) {
    build.onEnd(() => {
      const cli = path.join(root, 'dist/cli.js');
      if (fs.existsSync(cli)) fs.chmodSync(cli, 0o755);
    });
  },
};
nodeBuild.plugins = [...nodeBuild.plugins, cliExecutable, splitCommands];

if (watch) {
  const contexts = await Promise.all([esbuild.context(nodeBuild), esbuild.context(webBuild)]);
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] watching for changes');
} else {
  const results = await Promise.allSettled([esbuild.build(nodeBuild), esbuild.build(webBuild)]);
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) process.exit(1);
}
