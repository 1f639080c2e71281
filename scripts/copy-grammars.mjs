// Copies the tree-sitter grammars Cairn uses (src/core/chunking/ast/grammars.json, each a path
// under node_modules/) and web-tree-sitter's runtime wasm into grammars/, by file name. Run by
// esbuild.mjs and by the test runner; also runnable alone: `node scripts/copy-grammars.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function copyGrammars(outDir = path.join(root, 'grammars')) {
  const { grammars } = JSON.parse(fs.readFileSync(path.join(root, 'src/core/chunking/ast/grammars.json'), 'utf8'));
  // grammars/ is flat: two packages' grammars of one file name would overwrite each other.
  const sources = new Map();
  for (const [language, from] of Object.entries(grammars)) {
    const file = path.posix.basename(from);
    if (sources.has(file) && sources.get(file) !== from) throw new Error(`grammars.json: ${language} and another language both need a grammar named ${file}`);
    sources.set(file, from);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const wanted = new Set([...sources.keys(), 'tree-sitter.wasm']);
  for (const file of fs.readdirSync(outDir)) {
    if (file.endsWith('.wasm') && !wanted.has(file)) fs.rmSync(path.join(outDir, file));
  }
  const copy = (from, to) => {
    const src = path.join(root, from);
    const dest = path.join(outDir, to);
    // Same size is not enough: one grammar file name comes from either package (tree-sitter-rust.wasm).
    if (fs.existsSync(dest) && fs.readFileSync(dest).equals(fs.readFileSync(src))) return;
    fs.copyFileSync(src, dest);
  };
  copy('node_modules/web-tree-sitter/tree-sitter.wasm', 'tree-sitter.wasm');
  for (const [file, from] of sources) copy(`node_modules/${from}`, file);
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) copyGrammars();
