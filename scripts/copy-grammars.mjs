// Copies the tree-sitter grammars Cairn uses (src/core/chunking/ast/grammars.json) and
// web-tree-sitter's runtime wasm into grammars/. Run by esbuild.mjs and by the test runner;
// also runnable alone: `node scripts/copy-grammars.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function copyGrammars(outDir = path.join(root, 'grammars')) {
  const { grammars } = JSON.parse(fs.readFileSync(path.join(root, 'src/core/chunking/ast/grammars.json'), 'utf8'));
  fs.mkdirSync(outDir, { recursive: true });
  const wanted = new Set([...Object.values(grammars), 'tree-sitter.wasm']);
  for (const file of fs.readdirSync(outDir)) {
    if (file.endsWith('.wasm') && !wanted.has(file)) fs.rmSync(path.join(outDir, file));
  }
  const copy = (from, to) => {
    const src = path.join(root, from);
    const dest = path.join(outDir, to);
    if (fs.existsSync(dest) && fs.statSync(dest).size === fs.statSync(src).size) return;
    fs.copyFileSync(src, dest);
  };
  copy('node_modules/web-tree-sitter/tree-sitter.wasm', 'tree-sitter.wasm');
  for (const file of new Set(Object.values(grammars))) copy(`node_modules/tree-sitter-wasms/out/${file}`, file);
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) copyGrammars();
