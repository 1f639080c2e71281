// The TypeScript language service, in process, as the judge of references (refs-ls-check.mjs
// --ls typescript): the same questions the in-host suite asks VS Code's TypeScript server —
// references at a definition's name, go-to-definition at Cairn's certain references the answer
// does not hold — without a VS Code. Every tracked TS/JS file of ROOT is a root file, with
// allowJs and checkJs so CommonJS `require` and `module.exports` are followed.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const TS_JS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** A language service over `files` (paths relative to `root`). */
export function createService(repo, root, files) {
  const ts = createRequire(path.join(repo, 'package.json'))('typescript');
  const names = files.filter((f) => TS_JS.test(f) && !f.includes('node_modules/'));
  const abs = names.map((f) => path.join(root, f));
  const texts = new Map();
  const read = (file) => {
    if (!texts.has(file)) texts.set(file, fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
    return texts.get(file);
  };
  const options = {
    allowJs: true, checkJs: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true,
    jsx: ts.JsxEmit.Preserve, types: [], esModuleInterop: true, resolveJsonModule: true, maxNodeModuleJsDepth: 0,
  };
  const host = {
    getScriptFileNames: () => abs,
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => {
      const text = read(file);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => fs.existsSync(f),
    readFile: (f) => read(f),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const lineStarts = new Map();
  const startsOf = (file) => {
    if (!lineStarts.has(file)) lineStarts.set(file, ts.computeLineStarts(read(file) ?? ''));
    return lineStarts.get(file);
  };
  const offsetOf = (rel, line, column) => (startsOf(path.join(root, rel))[line - 1] ?? 0) + column - 1;
  /** A TS span as a 1-based place inside ROOT, or undefined outside it. */
  const placeOf = (fileName, span) => {
    const rel = path.relative(root, fileName).split(path.sep).join('/');
    if (rel.startsWith('..') || rel.includes('node_modules/')) return undefined;
    const starts = startsOf(fileName);
    const at = (offset) => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo + 1, column: offset - starts[lo] + 1 };
    };
    const s = at(span.start);
    const e = at(span.start + span.length);
    return { path: rel, line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
  };
  return {
    /** References at a definition's name: `{locations, outside}`. */
    references(definition) {
      const symbols = service.findReferences(path.join(root, definition.path), offsetOf(definition.path, definition.line, definition.column)) ?? [];
      const locations = [];
      let outside = 0;
      const seen = new Set();
      for (const s of symbols) {
        for (const r of s.references) {
          const p = placeOf(r.fileName, r.textSpan);
          if (!p) {
            outside++;
            continue;
          }
          const key = `${p.path}:${p.line}:${p.column}`;
          if (!seen.has(key)) {
            seen.add(key);
            locations.push(p);
          }
        }
      }
      return { locations, outside };
    },
    /** Where go-to-definition at a place leads, inside ROOT. */
    definitionsAt(place) {
      const defs = service.getDefinitionAtPosition(path.join(root, place.path), offsetOf(place.path, place.line, place.column)) ?? [];
      return defs.map((d) => placeOf(d.fileName, d.textSpan)).filter(Boolean);
    },
  };
}
