// Loading web-tree-sitter and its grammars. The runtime initialises once per process; each
// grammar loads on first use and is cached. Locations are always passed in, never guessed, so
// the same code works from out/ (tests), dist/ (bundle) and the packaged extension.
import * as fs from 'node:fs';
import * as path from 'node:path';
// The CommonJS build: esbuild's bundling of the ESM build breaks Parser.init.
import TreeSitter = require('web-tree-sitter');
import grammarsJson = require('./grammars.json');
import { bridgeGrammarGaps } from './grammarGaps';

export type Parser = TreeSitter.Parser;
export type Language = TreeSitter.Language;

/** Language id → grammar wasm file name in grammarsDir (grammars.json names the package path it is copied from). */
export const GRAMMAR_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(grammarsJson.grammars as Record<string, string>).map(([language, from]) => [language, path.posix.basename(from)]),
);

let runtime: Promise<void> | undefined;

/**
 * libc functions that some grammars' scanners import but web-tree-sitter 0.25's runtime does
 * not export: tree-sitter-bash calls `isalpha` on every `case` statement, and without it the
 * parse throws. They are added to the runtime's imports, where grammar modules look them up.
 */
const MISSING_LIBC: Readonly<Record<string, (...args: number[]) => number>> = {
  isalpha: (c) => ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0),
  __assert_fail: () => {
    throw new Error('assertion failed inside a tree-sitter grammar');
  },
};

/** The runtime's stack-pointer exports, to undo what a parse that threw left on the wasm stack. */
interface StackExports {
  emscripten_stack_get_current(): number;
  _emscripten_stack_restore(sp: number): void;
}
let stack: StackExports | undefined;

/** The slice of the WebAssembly API used here (the compile target's lib does not declare it). */
interface WasmInstance {
  exports: object;
}
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: WasmInstance; module: object }>;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/**
 * Initialises the wasm runtime once per process; later calls reuse the first initialisation.
 * The runtime is instantiated here (Emscripten's documented `instantiateWasm` hook) so that the
 * missing libc functions can be supplied and the stack exports kept.
 */
export function initRuntime(runtimeWasm: string): Promise<void> {
  if (!runtime) {
    const dir = path.dirname(runtimeWasm);
    const file = path.basename(runtimeWasm);
    let fail: (err: unknown) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const init = TreeSitter.Parser.init({
      locateFile: (name: string) => path.join(dir, name === 'tree-sitter.wasm' ? file : name),
      instantiateWasm(imports: { env: Record<string, unknown> }, done: (instance: WasmInstance, module: object) => void) {
        try {
          for (const [name, fn] of Object.entries(MISSING_LIBC)) if (!(name in imports.env)) imports.env[name] = fn;
          wasmApi.instantiate(fs.readFileSync(runtimeWasm), imports).then(({ instance, module }) => {
            stack = instance.exports as StackExports;
            done(instance, module);
          }, fail);
        } catch (err) {
          fail(err);
        }
        return {};
      },
    });
    runtime = Promise.race([init, failed]);
    // A failed init (missing file) must not poison later attempts with other locations.
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  return runtime;
}

/** The language id each GrammarCache parser was created for, to bridge its grammar's gaps. */
const parserLanguages = new WeakMap<Parser, string>();

/**
 * Parses, or returns null when the grammar throws (a scanner calling something the runtime
 * lacks). The wasm stack is restored and the parser reset, so the runtime stays usable.
 */
export function safeParse(parser: Parser, text: string): TreeSitter.Tree | null {
  const sp = stack?.emscripten_stack_get_current();
  try {
    return parser.parse(bridgeGrammarGaps(parserLanguages.get(parser), text));
  } catch {
    if (sp !== undefined) stack?._emscripten_stack_restore(sp);
    parser.reset();
    return null;
  }
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
    parserLanguages.set(parser, language);
    this.parsers.set(language, parser);
    return parser;
  }

  dispose(): void {
    for (const p of this.parsers.values()) p.delete();
    this.parsers.clear();
  }
}
