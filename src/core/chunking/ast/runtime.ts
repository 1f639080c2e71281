// Loading web-tree-sitter and its grammars. The runtime initialises once per process; each
// grammar loads on first use and is cached. Locations are always passed in, never guessed, so
// the same code works from out/ (tests), dist/ (bundle) and the packaged extension.
import * as fs from 'node:fs';
import * as path from 'node:path';
// The CommonJS build: esbuild's bundling of the ESM build breaks Parser.init.
import TreeSitter = require('web-tree-sitter');
import grammarsJson = require('./grammars.json');

export type Parser = TreeSitter.Parser;
export type Language = TreeSitter.Language;

/** Language id → grammar wasm file name (grammars.json). */
export const GRAMMAR_FILES: Readonly<Record<string, string>> = grammarsJson.grammars;

let runtime: Promise<void> | undefined;

/** Initialises the wasm runtime once per process; later calls reuse the first initialisation. */
export function initRuntime(runtimeWasm: string): Promise<void> {
  if (!runtime) {
    const dir = path.dirname(runtimeWasm);
    const file = path.basename(runtimeWasm);
    runtime = TreeSitter.Parser.init({ locateFile: (name: string) => path.join(dir, name === 'tree-sitter.wasm' ? file : name) });
    // A failed init (missing file) must not poison later attempts with other locations.
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  return runtime;
}

/** Loaded grammars by wasm path, shared by every chunker of the process (a Language is immutable). */
const languages = new Map<string, Promise<Language>>();

function loadLanguage(wasmPath: string): Promise<Language> {
  let loading = languages.get(wasmPath);
  if (!loading) {
    const bytes = fs.readFileSync(wasmPath);
    loading = TreeSitter.Language.load(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    // A grammar that fails to load (missing file, incompatible ABI) may be retried later.
    loading.catch(() => languages.delete(wasmPath));
    languages.set(wasmPath, loading);
  }
  return loading;
}

/** One parser per language and chunker, created on first use. */
export class GrammarCache {
  private readonly parsers = new Map<string, Parser>();

  constructor(private readonly grammarsDir: string) {}

  async parserFor(language: string): Promise<Parser> {
    const existing = this.parsers.get(language);
    if (existing) return existing;
    const file = GRAMMAR_FILES[language];
    if (!file) throw new Error(`no grammar for language "${language}"`);
    const lang = await loadLanguage(path.resolve(this.grammarsDir, file));
    // Two concurrent first calls may both get here; keep one parser.
    const again = this.parsers.get(language);
    if (again) return again;
    const parser = new TreeSitter.Parser();
    parser.setLanguage(lang);
    this.parsers.set(language, parser);
    return parser;
  }

  dispose(): void {
    for (const p of this.parsers.values()) p.delete();
    this.parsers.clear();
  }
}
