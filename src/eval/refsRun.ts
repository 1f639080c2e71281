// Running the references check (`cairn eval --refs`): ctags names the definitions, a seeded
// sample of their names is looked up with the engine's references and with `rg --json -w`,
// tree-sitter classifies each of ripgrep's matches as code, comment or string, and the two
// are compared (refsCheck.ts). The ctags and ripgrep binaries are passed in.
import * as posix from 'node:path/posix';
import { astLanguageFor, firstGrammar } from '../core/chunking/ast';
import { GrammarCache, initRuntime, safeParse } from '../core/chunking/ast/runtime';
import { discoverFiles, loadDocuments } from '../core/discovery';
import { Engine } from '../core/engine/engine';
import { languageForPath } from '../core/languages';
import { ImportGraph } from '../core/pack/graph';
import { git } from './git';
import { classifyAncestry, compareName, summariseRefs, type NameRefs, type RefsCheckReport, type WordMatch } from './refsCheck';
import { groundTruth, parseCtagsJson, sampleNames } from './symbolCheck';
import { CTAGS_ARGS, CtagsError, ctagsVersion, run, type CtagsCheckOptions } from './symbolRun';
import * as path from 'node:path';

export const DEFAULT_REFS_SAMPLE = 300;
export const DEFAULT_REFS_SEED = 1;

export interface RefsCheckOptions extends CtagsCheckOptions {
  /**
   * Also report, for each name Cairn defines once (and ctags at most once), its definition and every reference with its role
   * and reason (for a check against a language server: scripts/refs-ls-check.mjs).
   */
  allReferences?: boolean;
}

const RG_BATCH = 2000;
/** Definitions of one name asked from each (`--all-refs`). */
const MAX_ASKED_DEFINITIONS = 5;
/** The timed lookup: what `cairn refs` asks by default. */
const TIMED_LIMIT = 100;

/** A whole-word match before it is classified: its place and where it starts in the file's text. */
interface RawMatch {
  path: string;
  line: number;
  column: number;
}

/** `rg --json -w -F NAME` over exactly `files`: each match's line and UTF-16 column. */
async function grepWord(rgPath: string, root: string, name: string, files: readonly string[], signal?: AbortSignal): Promise<RawMatch[]> {
  const out: RawMatch[] = [];
  for (let i = 0; i < files.length; i += RG_BATCH) {
    const args = ['--json', '-w', '-F', '--no-config', '--no-messages', '-e', name, '--', ...files.slice(i, i + RG_BATCH)];
    const text = await run(rgPath, args, { cwd: root, signal, okCodes: [0, 1] });
    for (const line of text.split('\n')) {
      if (!line.startsWith('{"type":"match"')) continue;
      const m = JSON.parse(line) as { data: { path: { text?: string }; lines: { text?: string }; line_number: number; submatches: Array<{ start: number }> } };
      const p = m.data.path.text;
      const lineText = m.data.lines.text;
      if (p === undefined || lineText === undefined) continue;
      const bytes = Buffer.from(lineText, 'utf8');
      for (const s of m.data.submatches) {
        out.push({ path: p.replace(/\\/g, '/').replace(/^\.\//, ''), line: m.data.line_number, column: bytes.subarray(0, s.start).toString('utf8').length + 1 });
      }
    }
  }
  return out;
}

/** Classifies matches file by file with tree-sitter (each file parsed once). */
async function classify(matches: ReadonlyMap<string, RawMatch[]>, texts: ReadonlyMap<string, { text: string; language: string }>, grammarsDir: string, names: ReadonlyMap<RawMatch, string>): Promise<Map<RawMatch, WordMatch['class']>> {
  await initRuntime(path.join(grammarsDir, 'tree-sitter.wasm'));
  const grammars = new GrammarCache(grammarsDir);
  const out = new Map<RawMatch, WordMatch['class']>();
  try {
    for (const [file, list] of matches) {
      const doc = texts.get(file);
      const ast = doc && astLanguageFor(doc.language) ? firstGrammar({ path: file, language: doc.language, text: doc.text }) : undefined;
      if (!doc || !ast) {
        for (const m of list) out.set(m, 'no-grammar');
        continue;
      }
      const parser = await grammars.parserFor(ast);
      const tree = safeParse(parser, doc.text);
      if (!tree) {
        for (const m of list) out.set(m, 'no-grammar');
        continue;
      }
      try {
        const starts = [0];
        for (let i = doc.text.indexOf('\n'); i >= 0; i = doc.text.indexOf('\n', i + 1)) starts.push(i + 1);
        for (const m of list) {
          const name = names.get(m) as string;
          const at = (starts[m.line - 1] ?? 0) + m.column - 1;
          const node = tree.rootNode.descendantForIndex(at, at + name.length);
          const types: string[] = [];
          for (let n: typeof node | null = node; n; n = n.parent) types.push(n.type);
          out.set(m, classifyAncestry(types, node?.text ?? '', name, node?.isNamed ?? true));
        }
      } finally {
        tree.delete();
      }
    }
  } finally {
    grammars.dispose();
  }
  return out;
}

const FOLDER_PACKAGES = new Set(['go', 'java']);
const C_SOURCE = /\.(c|cc|cpp|cxx)$/;

/** Whether `file` is the defining file `def`, in its package, or imports it (directly or through one file). */
function reaches(graph: ImportGraph, file: string, def: string): boolean {
  if (file === def) return true;
  const language = languageForPath(file)?.id;
  if (language && FOLDER_PACKAGES.has(language) && posix.dirname(file) === posix.dirname(def)) return true;
  const targets = new Set([def]);
  if (C_SOURCE.test(def)) for (const ext of ['.h', '.hpp', '.hh']) targets.add(def.replace(C_SOURCE, ext));
  for (const first of graph.importsOf(file)) {
    if (targets.has(first)) return true;
    for (const second of graph.importsOf(first)) if (targets.has(second)) return true;
  }
  return false;
}

export async function runRefsCheck(options: RefsCheckOptions): Promise<RefsCheckReport> {
  const started = performance.now();
  const { root, signal } = options;
  const sample = options.sample ?? DEFAULT_REFS_SAMPLE;
  const seed = options.seed ?? DEFAULT_REFS_SEED;
  const progress = options.onProgress ?? (() => {});
  const warnings: string[] = [];
  const rgPath = options.engine.ripgrepPath;
  if (!rgPath) throw new Error('ripgrep was not found: pass --rg PATH');
  const version = await ctagsVersion(options.ctagsPath);

  progress('listing files', 0, 1);
  const listing = await discoverFiles(root, { signal });
  const { docs } = await loadDocuments(root, listing.files, { signal });
  const code = docs.filter((d) => languageForPath(d.path)?.bucket === 'code' && !/[\n\r]/.test(d.path));
  const codeFiles = code.map((d) => d.path);
  const texts = new Map(code.map((d) => [d.path, { text: d.text, language: d.language }]));
  const searchable = new Set(docs.map((d) => d.path));

  progress('running ctags', 0, 1);
  let ctagsOut: string;
  try {
    ctagsOut = await run(options.ctagsPath, CTAGS_ARGS, { cwd: root, input: codeFiles.map((p) => `${p}\n`).join(''), signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new CtagsError(`ctags failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Functions nested in functions count too: a small repository has few top-level definitions.
  const tags = parseCtagsJson(ctagsOut).filter((t) => searchable.has(t.path));
  const truth = groundTruth(tags, { nested: true });
  const names = sampleNames(truth.byName.keys(), sample, seed);
  if (names.length < sample) {
    // Too few definitions: other names ctags reports (fields, locals, properties) fill the sample.
    const others = new Set<string>();
    for (const t of tags) if (!truth.byName.has(t.name) && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(t.name) && !/^(anonymous|__anon)/i.test(t.name)) others.add(t.name);
    const extra = sampleNames(others, sample - names.length, seed);
    warnings.push(`only ${names.length} names have definitions: ${extra.length} other names ctags reports (fields, locals, properties) fill the sample of ${sample}`);
    names.push(...extra);
  }

  let head: string | undefined;
  try {
    head = (await git(root, ['rev-parse', 'HEAD'], { signal })).trim();
  } catch {
    head = undefined;
  }

  // Every name's matches first, so each file is parsed once.
  const perName = new Map<string, RawMatch[]>();
  const byFile = new Map<string, RawMatch[]>();
  const nameOf = new Map<RawMatch, string>();
  for (const [i, name] of names.entries()) {
    signal?.throwIfAborted();
    progress(`rg ${name}`, i, names.length);
    const matches = await grepWord(rgPath, root, name, codeFiles, signal);
    perName.set(name, matches);
    for (const m of matches) {
      nameOf.set(m, name);
      let list = byFile.get(m.path);
      if (!list) byFile.set(m.path, (list = []));
      list.push(m);
    }
  }
  progress('classifying matches', 0, 1);
  const classes = await classify(byFile, texts, options.engine.grammarsDir, nameOf);

  progress('indexing', 0, 1);
  const engine = new Engine({ ...options.engine, root, storeDir: options.storeDir });
  const results: NameRefs[] = [];
  try {
    await engine.refresh({ signal });
    const manifest = engine.store.readManifest();
    const state = manifest ? engine.store.readState(manifest) : undefined;
    const imports = new Map<string, string[]>();
    for (const [p, list] of state?.imports() ?? []) imports.set(p, list);
    const graph = new ImportGraph(imports, state?.paths() ?? []);
    for (const [i, name] of names.entries()) {
      signal?.throwIfAborted();
      progress(name, i, names.length);
      const all = await engine.references(name, { limit: Number.MAX_SAFE_INTEGER, lineText: false, refresh: 'never' });
      const t0 = performance.now();
      await engine.references(name, { limit: TIMED_LIMIT, refresh: 'never' });
      const ms = performance.now() - t0;
      const definitions = truth.byName.get(name) ?? [];
      // Defined once: ctags and Cairn agree on one definition (Cairn also knows object-literal
      // methods and functions in callbacks, which ctags leaves out).
      const only = definitions.length === 1 && all.definitions.length === 1 ? (definitions[0] as { path: string }).path : undefined;
      const matches: WordMatch[] = (perName.get(name) ?? []).map((m) => ({ ...m, class: classes.get(m) ?? 'no-grammar' }));
      const references = all.references.map((r) => ({ path: r.path, line: r.line, column: r.column, certain: r.certainty === 'certain' }));
      const result = compareName(name, definitions.length, matches, references, only ? (file) => reaches(graph, file, only) : undefined, ms);
      // Listed also where ctags knows no definition but Cairn one (`res.send = function send`):
      // the language server, not ctags, is the judge of those.
      const definition = all.definitions.length === 1 && definitions.length <= 1 ? all.definitions[0] : undefined;
      if (options.allReferences && definition) {
        result.definition = { path: definition.path, line: definition.line, column: definition.column, kind: definition.kind };
        result.allReferences = all.references.map((r) => ({ path: r.path, line: r.line, column: r.column, certain: r.certainty === 'certain', role: r.role, reason: r.reason }));
      }
      // A name of several definitions: each asked from its own definition (`cairn refs PATH:LINE`).
      if (options.allReferences && all.definitions.length > 1 && all.definitions.length <= MAX_ASKED_DEFINITIONS) {
        result.perDefinition = [];
        for (const d of all.definitions) {
          const from = await engine.references(name, { definition: { path: d.path, line: d.line, column: d.column }, limit: Number.MAX_SAFE_INTEGER, lineText: false, refresh: 'never' });
          const allReferences = from.references.map((r) => ({ path: r.path, line: r.line, column: r.column, certain: r.certainty === 'certain', role: r.role, reason: r.reason }));
          result.perDefinition.push({ definition: { path: d.path, line: d.line, column: d.column, kind: d.kind }, allReferences });
        }
      }
      results.push(result);
    }
  } finally {
    await engine.close();
  }
  return {
    root,
    ...(head ? { head } : {}),
    ctags: { version, files: codeFiles.length, names: truth.byName.size },
    settings: { sample: names.length, seed },
    summary: summariseRefs(results),
    names: results,
    warnings,
    tookMs: Math.round(performance.now() - started),
  };
}
