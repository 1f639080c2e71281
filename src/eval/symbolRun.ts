// Running the symbol check (`cairn eval --symbols`): ctags over the files Cairn's discovery
// makes searchable, a seeded sample of the definitions' names, each looked up in-process with
// the engine's findSymbol (what `cairn symbol` does) and with `rg -n -w` ranked by a
// per-language definition pattern. The ctags and ripgrep binaries are passed in.
import type { EngineOptions } from '../core/api';
import { execFile, spawn } from 'node:child_process';
import { Engine } from '../core/engine/engine';
import { discoverFiles, loadDocuments } from '../core/discovery';
import { languageForPath } from '../core/languages';
import { git } from './git';
import {
  CTAGS_LANGUAGES,
  groundTruth,
  LINE_TOLERANCE,
  parseCtagsJson,
  parseGrepOutput,
  rankGrepLines,
  RECALL_DEPTH,
  sampleNames,
  scoreAnswers,
  summarise,
  type HitPlace,
  type NameResult,
  type NameScore,
  type SymbolCheckReport,
} from './symbolCheck';

export const CAIRN_SYSTEM = 'cairn symbol';
/**
 * The name typed into search (`cairn search NAME`, chunk results): a user who types a defined
 * name expects its definition first, so its P@1 span is the "definition first" figure.
 */
export const SEARCH_SYSTEM = 'cairn search';
export const GREP_SYSTEM = 'rg -w + def pattern';
export const DEFAULT_SYMBOL_SAMPLE = 300;
export const DEFAULT_SYMBOL_SEED = 1;

/** What a check against universal-ctags over one root needs (`--symbols`, `--refs`). */
export interface CtagsCheckOptions {
  root: string;
  /** universal-ctags (5.9 or newer: JSON output). */
  ctagsPath: string;
  /** Where the index store is built (a fresh folder; the caller removes it). */
  storeDir: string;
  engine: Pick<EngineOptions, 'grammarsDir' | 'workerScript' | 'indexWorkerScript' | 'ripgrepPath'>;
  sample?: number;
  seed?: number;
  onProgress?: (message: string, done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface SymbolCheckOptions extends CtagsCheckOptions {
  /** Include definitions nested in functions and methods in the ground truth (TruthOptions.nested). */
  nested?: boolean;
}

/** ctags could not be run or is not universal-ctags with JSON output. */
export class CtagsError extends Error {
  override readonly name = 'CtagsError';
}

/** Runs a tool to completion and resolves with its stdout; other exit codes than `okCodes` reject with its first stderr line. */
export function run(file: string, args: readonly string[], o: { cwd: string; input?: string; signal?: AbortSignal; okCodes?: number[] }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: o.cwd, stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], signal: o.signal, windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== null && (o.okCodes ?? [0]).includes(code)) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`${file} exited with ${code}: ${Buffer.concat(err).toString('utf8').trim().split('\n')[0] ?? ''}`));
    });
    if (o.input !== undefined && child.stdin) {
      child.stdin.on('error', () => {});
      child.stdin.end(o.input);
    }
  });
}

/** `ctags --version`'s first line; throws CtagsError unless it is universal-ctags with JSON. */
export function ctagsVersion(ctagsPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(ctagsPath, ['--version'], { encoding: 'utf8', windowsHide: true }, (error, stdout) => {
      if (error) return reject(new CtagsError(`cannot run ${ctagsPath} (${error.message.split('\n')[0]}): apt-get install universal-ctags, or pass --ctags PATH`));
      const first = stdout.split('\n')[0] ?? '';
      if (!/universal ctags/i.test(first)) return reject(new CtagsError(`${ctagsPath} is not universal-ctags (${first.trim()}): apt-get install universal-ctags`));
      if (!/\+json\b/.test(stdout)) return reject(new CtagsError(`${ctagsPath} was built without JSON output (+json): apt-get install universal-ctags`));
      resolve(first.replace(/,\s*Copyright.*$/, '').trim());
    });
  });
}

/** The ctags invocation: the listed files only, no user option files, the fields the check reads. */
export const CTAGS_ARGS: readonly string[] = [
  '--options=NONE',
  '--output-format=json',
  '--fields=+nKlSe',
  '--sort=no',
  `--languages=${CTAGS_LANGUAGES.join(',')}`,
  '-f',
  '-',
  '-L',
  '-',
];

const RG_BATCH = 2000;

/** `rg -n -w -F NAME` over exactly `files` (in batches), as GrepLines. */
async function grepName(rgPath: string, root: string, name: string, files: readonly string[], signal?: AbortSignal): Promise<string> {
  let output = '';
  for (let i = 0; i < files.length; i += RG_BATCH) {
    const args = ['-n', '-w', '-F', '--no-heading', '--with-filename', '--null', '--no-messages', '--color', 'never', '--no-config', '-e', name, '--', ...files.slice(i, i + RG_BATCH)];
    output += await run(rgPath, args, { cwd: root, signal, okCodes: [0, 1] });
  }
  return output;
}

export async function runSymbolCheck(options: SymbolCheckOptions): Promise<SymbolCheckReport> {
  const started = performance.now();
  const { root, signal } = options;
  const sample = options.sample ?? DEFAULT_SYMBOL_SAMPLE;
  const seed = options.seed ?? DEFAULT_SYMBOL_SEED;
  const progress = options.onProgress ?? (() => {});
  const warnings: string[] = [];
  const version = await ctagsVersion(options.ctagsPath);

  // The files Cairn would index, read and validated the way the index reads them; code only.
  progress('listing files', 0, 1);
  const listing = await discoverFiles(root, { signal });
  const { docs } = await loadDocuments(root, listing.files, { signal });
  const codeFiles = docs.map((d) => d.path).filter((p) => languageForPath(p)?.bucket === 'code' && !/[\n\r]/.test(p));
  const searchable = new Set(docs.map((d) => d.path));

  progress('running ctags', 0, 1);
  let ctagsOut: string;
  try {
    ctagsOut = await run(options.ctagsPath, CTAGS_ARGS, { cwd: root, input: codeFiles.map((p) => `${p}\n`).join(''), signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new CtagsError(`ctags failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const truth = groundTruth(parseCtagsJson(ctagsOut).filter((t) => searchable.has(t.path)), { nested: options.nested === true });
  const names = sampleNames(truth.byName.keys(), sample, seed);
  if (names.length < sample) warnings.push(`only ${names.length} names have definitions (asked for ${sample})`);

  let head: string | undefined;
  try {
    head = (await git(root, ['rev-parse', 'HEAD'], { signal })).trim();
  } catch {
    head = undefined;
  }

  progress('indexing', 0, 1);
  const engine = new Engine({ ...options.engine, root, storeDir: options.storeDir });
  const results: NameResult[] = [];
  try {
    await engine.refresh({ signal });
    const rgPath = options.engine.ripgrepPath;
    if (!rgPath) warnings.push('ripgrep was not found: the grep baseline was not run');
    for (const [i, name] of names.entries()) {
      signal?.throwIfAborted();
      progress(name, i, names.length);
      const definitions = truth.byName.get(name) ?? [];
      const response = await engine.findSymbol(name, { limit: RECALL_DEPTH, previewLines: 0, refresh: 'never' });
      const cairnHits: HitPlace[] = response.results.map((h) => {
        // `nameLine` is coming to hits; until then the chunk's first line stands for it.
        const nameLine = (h as { nameLine?: number }).nameLine;
        return { path: h.path, line: nameLine ?? h.startLine, startLine: h.startLine, endLine: h.endLine, symbol: h.symbol, kind: h.kind };
      });
      const searched = await engine.search(name, { limit: RECALL_DEPTH, previewLines: 0, refresh: 'never' });
      const searchHits: HitPlace[] = searched.results.map((h) => ({ path: h.path, line: h.nameLine ?? h.startLine, startLine: h.startLine, endLine: h.endLine, symbol: h.symbol, kind: h.kind }));
      const systems: NameResult['systems'] = {
        [CAIRN_SYSTEM]: { ...scoreAnswers(name, cairnHits, definitions), top: cairnHits },
        [SEARCH_SYSTEM]: { ...scoreAnswers(name, searchHits, definitions), top: searchHits },
      };
      if (rgPath) {
        const lines = parseGrepOutput(await grepName(rgPath, root, name, codeFiles, signal));
        const ranked = rankGrepLines(lines, name, (p) => languageForPath(p)?.id).slice(0, RECALL_DEPTH);
        systems[GREP_SYSTEM] = { ...scoreAnswers(name, ranked, definitions), top: ranked };
      }
      results.push({ name, definitions, systems });
    }
  } finally {
    await engine.close();
  }

  const systemNames = [CAIRN_SYSTEM, SEARCH_SYSTEM, ...(options.engine.ripgrepPath ? [GREP_SYSTEM] : [])];
  return {
    root,
    ...(head ? { head } : {}),
    ctags: { version, files: codeFiles.length, tags: truth.tags, kept: truth.kept, names: truth.byName.size, dropped: truth.dropped },
    settings: { sample: names.length, seed, lineTolerance: LINE_TOLERANCE, depth: RECALL_DEPTH },
    systems: systemNames.map((s) => summarise(s, results.map((r) => r.systems[s] as NameScore))),
    names: results,
    warnings,
    tookMs: Math.round(performance.now() - started),
  };
}
