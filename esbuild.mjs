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

const root = path.dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Node (CommonJS) bundles: extension host, CLI, and the worker-thread entries. */
const nodeEntries = {
  extension: 'src/vscode/extension.ts',
  cli: 'src/cli/main.ts',
  chunkWorker: 'src/core/chunking/worker.ts',
  engineWorker: 'src/core/engine/worker.ts',
};

/** Browser bundles for webviews. */
const webEntries = {
  'webview/pack': 'src/webview/pack/main.ts',
};

function copyGrammars() {
  const { grammars } = JSON.parse(fs.readFileSync(path.join(root, 'src/core/chunking/ast/grammars.json'), 'utf8'));
  const outDir = path.join(root, 'grammars');
  fs.mkdirSync(outDir, { recursive: true });
  const wanted = new Set([...Object.values(grammars), 'tree-sitter.wasm']);
  for (const file of fs.readdirSync(outDir)) {
    if (file.endsWith('.wasm') && !wanted.has(file)) fs.rmSync(path.join(outDir, file));
  }
  const copy = (from, to) => {
    const dest = path.join(outDir, to);
    const src = path.join(root, from);
    if (fs.existsSync(dest) && fs.statSync(dest).size === fs.statSync(src).size) return;
    fs.copyFileSync(src, dest);
  };
  copy('node_modules/web-tree-sitter/tree-sitter.wasm', 'tree-sitter.wasm');
  for (const file of new Set(Object.values(grammars))) copy(`node_modules/tree-sitter-wasms/out/${file}`, file);
}

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
  // `vscode` is provided by the extension host. The ripgrep binary package is resolved at run time.
  external: ['vscode', '@vscode/ripgrep', '@vscode/ripgrep-*'],
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
// dist/cli.js is the `cairn` bin: esbuild keeps src/cli/main.ts's hashbang; make it executable.
const cliExecutable = {
  name: 'cli-executable',
  setup(build) {
    build.onEnd(() => {
      const cli = path.join(root, 'dist/cli.js');
      if (fs.existsSync(cli)) fs.chmodSync(cli, 0o755);
    });
  },
};
nodeBuild.plugins = [...nodeBuild.plugins, cliExecutable];

if (watch) {
  const contexts = await Promise.all([esbuild.context(nodeBuild), esbuild.context(webBuild)]);
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] watching for changes');
} else {
  const results = await Promise.allSettled([esbuild.build(nodeBuild), esbuild.build(webBuild)]);
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) process.exit(1);
}
