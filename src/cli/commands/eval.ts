// `cairn eval [ROOT]`: how well Cairn finds what a change needed, measured on the repository's
// own history — each usable commit's message is a query, the lines it changed (in its parent)
// are the answer — against whole-file BM25 and grep-per-word baselines on the same trees.
// `cairn eval --symbols ROOT...`: go-to-symbol measured against universal-ctags' definitions.
// `cairn eval --refs ROOT...`: references measured against `rg -w` matches classified by tree-sitter.
// `cairn eval --tasks FILE.jsonl [ROOT]`: SWE-bench-style issues, each asked at its base commit,
// scored against the files (and functions) its fix changed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitError } from '../../eval/git';
import { readRegularSync } from '../../core/clientApi';
import { formatTaskSummary, formatTaskTable } from '../../eval/taskTable';
import { runTaskEvaluation, type TaskProgress } from '../../eval/taskRunner';
import { parseTasks, TaskFileError, type LocalizationTask } from '../../eval/tasks';
import { DEFAULT_EVAL_BUDGET, DEFAULT_MAX_CASES, runEvaluation, type EvalProgress } from '../../eval/runner';
import { formatSummary, formatTable } from '../../eval/table';
import { SYSTEM_KINDS, type SystemKind } from '../../eval/types';
import { DEFAULT_VARIANT, VariantError, variantFromSettings, variantsFromConfig, type EvalVariant } from '../../eval/variants';
import { intOption, UsageError, type CommandSpec, type OptionValues, type ParsedArgs } from '../args';
import { findOnPath, locateAssets } from '../assets';
import { formatMisses, formatSymbolSummary, formatSymbolTable } from '../../eval/symbolCheck';
import { CAIRN_SYSTEM, CtagsError, DEFAULT_SYMBOL_SAMPLE, DEFAULT_SYMBOL_SEED, GREP_SYSTEM, runSymbolCheck, SEARCH_SYSTEM } from '../../eval/symbolRun';
import { formatRefsMisses, formatRefsNotes, formatRefsTable } from '../../eval/refsCheck';
import { DEFAULT_REFS_SAMPLE, runRefsCheck } from '../../eval/refsRun';
import type { Command } from '../command';
import { JSON_OPTION, listOption, resolveRoot, ROOT_OPTION } from '../engineSetup';
import { ProgressLine } from '../format';
import { CliError, type Output } from '../output';

const spec: CommandSpec = {
  name: 'eval',
  usage:
    'cairn eval [ROOT] [--commits N] [--max-files N] [--since DATE | --max-age DAYS] [--rev REV] [--budget TOKENS] [--param KEY=VALUE]... [--config FILE.json] [--systems LIST] [--rg PATH] [--keep-scratch] [--json]\n' +
    '       cairn eval --tasks FILE.jsonl [ROOT] [--repo OWNER/NAME] [--budget TOKENS] [--param KEY=VALUE]... [--config FILE.json] [--keep-scratch] [--json]\n' +
    '       cairn eval --symbols [ROOT...] [--sample N] [--seed S] [--nested] [--misses N] [--ctags PATH] [--json]\n' +
    '       cairn eval --refs [ROOT...] [--sample N] [--seed S] [--misses N] [--ctags PATH] [--rg PATH] [--json [--all-refs]]',
  maxPositionals: 64,
  options: {
    ...ROOT_OPTION,
    commits: { type: 'string', valueName: 'N', description: `most commits to evaluate, newest usable first (default ${DEFAULT_MAX_CASES})` },
    'max-files': { type: 'string', valueName: 'N', description: 'skip commits changing more source files than this (default 5)' },
    since: { type: 'string', valueName: 'DATE', description: 'only commits after this date (as git log --since takes it)' },
    'max-age': { type: 'string', valueName: 'DAYS', description: 'only commits of the last DAYS days' },
    rev: { type: 'string', valueName: 'REV', description: 'mine the history back from this commit (default HEAD), to pin a run' },
    budget: { type: 'string', valueName: 'TOKENS', description: `context pack budget (default ${DEFAULT_EVAL_BUDGET})` },
    param: { type: 'string', valueName: 'KEY=VALUE', description: 'evaluate a variant with this engine setting too, e.g. ranking.exactDefinition=2, policy.astMaxChars=1200 (repeatable)', multiple: true },
    name: { type: 'string', valueName: 'NAME', description: 'name of the --param variant (default: its settings)' },
    config: { type: 'string', valueName: 'FILE.json', description: 'variants to compare: {"variants": [{"name", "ranking", "fieldParams", "policy", "strategy", "settings"}]}' },
    systems: { type: 'string', valueName: 'LIST', description: `systems to run (default all: ${SYSTEM_KINDS.join(',')})`, multiple: true },
    scratch: { type: 'string', valueName: 'DIR', description: 'where to create the scratch folder (default: the temp folder)' },
    'keep-scratch': { type: 'boolean', description: 'leave the scratch tree and index stores on disk' },
    'progress-json': { type: 'boolean', description: 'with --json: progress as {"progress":{phase,done,total,message}} lines on stderr (for the VS Code extension)' },
    tasks: { type: 'string', valueName: 'FILE.jsonl', description: 'localization tasks, one SWE-bench-style JSON object per line (instance_id, repo, base_commit, problem_statement, gold_files or patch), each asked at its base commit' },
    repo: { type: 'string', valueName: 'OWNER/NAME', description: 'with --tasks: only the tasks of this repository (default: every task; those whose base commit ROOT lacks are skipped)' },
    symbols: { type: 'boolean', description: 'measure go-to-symbol against universal-ctags definitions instead (one table per ROOT)' },
    refs: { type: 'boolean', description: 'measure references against rg -w matches that tree-sitter calls code (a row per ROOT)' },
    sample: { type: 'string', valueName: 'N', description: `with --symbols or --refs: names to look up per root (default ${DEFAULT_SYMBOL_SAMPLE}; ${DEFAULT_REFS_SAMPLE} with --refs)` },
    seed: { type: 'string', valueName: 'S', description: `with --symbols or --refs: sampling seed (default ${DEFAULT_SYMBOL_SEED})` },
    misses: { type: 'string', valueName: 'N', description: 'with --symbols or --refs: print N example misses (per system, or per root)' },
    'all-refs': { type: 'boolean', description: 'with --refs --json: for each name defined once, its definition and every reference (role, certainty, reason), for scripts/refs-ls-check.mjs' },
    nested: { type: 'boolean', description: 'with --symbols: also functions, methods and classes nested in functions (closures, inner defs)' },
    ctags: { type: 'string', valueName: 'PATH', description: 'with --symbols or --refs: the universal-ctags binary (default: ctags on PATH)' },
    rg: { type: 'string', valueName: 'PATH', description: "the ripgrep binary (default: @vscode/ripgrep's, when installed); the extension passes VS Code's own" },
    ...JSON_OPTION,
  },
};

function readVariants(values: OptionValues): EvalVariant[] {
  const variants: EvalVariant[] = [DEFAULT_VARIANT];
  try {
    if (typeof values.config === 'string') {
      let json: unknown;
      try {
        json = JSON.parse(readRegularSync(values.config, { followLinks: true }).toString('utf8'));
      } catch (e) {
        throw new CliError('bad-config', `cannot read ${values.config}: ${e instanceof Error ? e.message : String(e)}`);
      }
      variants.push(...variantsFromConfig(json));
    }
    const params = listOption(values, 'param');
    if (params) variants.push(variantFromSettings(params, typeof values.name === 'string' ? values.name : undefined));
  } catch (e) {
    if (e instanceof VariantError) throw new UsageError(e.message);
    throw e;
  }
  const names = variants.map((v) => v.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) throw new UsageError(`two variants are named '${duplicate}'`);
  return variants;
}

function readSystems(values: OptionValues): SystemKind[] | undefined {
  const list = listOption(values, 'systems');
  if (!list) return undefined;
  for (const s of list) if (!(SYSTEM_KINDS as readonly string[]).includes(s)) throw new UsageError(`unknown system '${s}' (known: ${SYSTEM_KINDS.join(', ')})`);
  return list as SystemKind[];
}

/** --rg, else the ripgrep installed with the CLI. */
function ripgrepPath(values: OptionValues): string | undefined {
  if (typeof values.rg !== 'string') return locateAssets().ripgrep;
  if (!fs.existsSync(values.rg)) throw new UsageError(`--rg ${values.rg}: no such file`);
  return values.rg;
}

function readSince(values: OptionValues): string | undefined {
  const days = intOption(values, 'max-age', 1);
  if (days !== undefined && typeof values.since === 'string') throw new UsageError('--since and --max-age cannot be combined');
  if (days !== undefined) return new Date(Date.now() - days * 86_400_000).toISOString();
  return typeof values.since === 'string' ? values.since : undefined;
}

function progressText(p: EvalProgress): string {
  if (p.phase === 'mining') return `mining history: ${p.message}`;
  const width = 20;
  const filled = p.total > 0 ? Math.round((p.done / p.total) * width) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} ${p.message}`;
}

/**
 * Progress as JSON lines on stderr, for a program showing it (the extension's progress
 * notification): every step of the count, and the commits-read note at most every 250 ms (mining
 * reads many commits per usable one).
 */
function jsonProgress(out: Output): (p: EvalProgress) => void {
  let last: EvalProgress | undefined;
  let at = 0;
  return (p) => {
    const now = Date.now();
    if (last && last.phase === p.phase && last.done === p.done && last.total === p.total && now - at < 250) return;
    last = p;
    at = now;
    out.note(JSON.stringify({ progress: p }));
  };
}

const SYMBOL_ONLY = ['sample', 'seed', 'misses', 'ctags', 'nested', 'all-refs'] as const;
const HISTORY_ONLY = ['commits', 'max-files', 'since', 'max-age', 'rev', 'budget', 'param', 'name', 'config', 'systems'] as const;

/**
 * Runs one evaluation with its progress line: Ctrl-C (or SIGTERM) stops it between steps, and
 * the run's own cleanup (scratch folder, stores) still happens; a missing git or ctags is one line.
 */
async function interruptible<T>(progress: ProgressLine, gitNeed: string, interrupted: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    return await work(stop.signal);
  } catch (e) {
    if (stop.signal.aborted) throw new CliError('interrupted', interrupted);
    if (e instanceof GitError) throw new CliError('git-failed', `${gitNeed}: ${e.message}`);
    if (e instanceof CtagsError) throw new CliError('ctags-failed', e.message);
    throw e;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    progress.clear();
  }
}

/**
 * Runs a check over each root in a scratch store of its own (removed afterwards unless
 * --keep-scratch), with a progress line, Ctrl-C stopping it between steps.
 */
async function checkEachRoot<R>(
  args: ParsedArgs,
  out: Output,
  roots: readonly string[],
  scratchPrefix: string,
  check: (root: string, storeDir: string, signal: AbortSignal, onProgress: (message: string, done: number, total: number) => void) => Promise<R>,
): Promise<R[]> {
  const progress = new ProgressLine(out);
  const scratchParent = typeof args.values.scratch === 'string' ? args.values.scratch : os.tmpdir();
  fs.mkdirSync(scratchParent, { recursive: true });
  const reports: R[] = [];
  await interruptible(progress, 'git', 'interrupted', async (signal) => {
    for (const root of roots) {
      const storeDir = fs.mkdtempSync(path.join(scratchParent, scratchPrefix));
      try {
        reports.push(await check(root, storeDir, signal, (message, done, total) => progress.update(`${path.basename(root)}: ${total > 1 ? `${done}/${total} ` : ''}${message}`)));
      } finally {
        if (args.values['keep-scratch'] === true) out.note(`index store kept at ${storeDir}`);
        else fs.rmSync(storeDir, { recursive: true, force: true });
      }
    }
  });
  return reports;
}

async function runSymbols(args: ParsedArgs, out: Output): Promise<number> {
  for (const o of [...HISTORY_ONLY, 'all-refs'] as const) if (args.values[o] !== undefined) throw new UsageError(`--${o} does not apply to --symbols`);
  const roots = args.positionals.length ? args.positionals.map((p) => resolveRoot(args.values, p)) : [resolveRoot(args.values)];
  const sample = intOption(args.values, 'sample', 1) ?? DEFAULT_SYMBOL_SAMPLE;
  const seed = intOption(args.values, 'seed', 0) ?? DEFAULT_SYMBOL_SEED;
  const misses = intOption(args.values, 'misses', 0) ?? 0;
  const ctagsPath = typeof args.values.ctags === 'string' ? args.values.ctags : findOnPath('ctags');
  if (!ctagsPath) throw new CliError('ctags-missing', 'universal-ctags was not found on PATH: apt-get install universal-ctags (or pass --ctags PATH)');
  const assets = locateAssets();
  const reports = await checkEachRoot(args, out, roots, 'cairn-symbol-check-', (root, storeDir, signal, onProgress) =>
    runSymbolCheck({
      root,
      ctagsPath,
      storeDir,
      engine: { grammarsDir: assets.grammarsDir, workerScript: assets.chunkWorker, indexWorkerScript: assets.indexWorker, ripgrepPath: ripgrepPath(args.values) },
      sample,
      seed,
      nested: args.values.nested === true,
      signal,
      onProgress,
    }),
  );
  for (const report of reports) {
    if (out.json) {
      out.record(report);
      continue;
    }
    out.line(`${report.root}${report.head ? ` @ ${report.head.slice(0, 12)}` : ''}`);
    for (const line of formatSymbolTable(report)) out.line(line);
    if (misses > 0) {
      for (const system of [CAIRN_SYSTEM, SEARCH_SYSTEM, GREP_SYSTEM]) {
        if (!report.systems.some((s) => s.system === system)) continue;
        out.line('');
        for (const line of formatMisses(report, system, misses)) out.line(line);
      }
    }
    out.line('');
    for (const line of formatSymbolSummary(report)) out.note(line);
    for (const w of report.warnings) out.note(`warning: ${w}`);
  }
  return 0;
}

async function runRefs(args: ParsedArgs, out: Output): Promise<number> {
  for (const o of [...HISTORY_ONLY, 'nested', 'symbols'] as const) if (args.values[o] !== undefined) throw new UsageError(`--${o} does not apply to --refs`);
  const roots = args.positionals.length ? args.positionals.map((p) => resolveRoot(args.values, p)) : [resolveRoot(args.values)];
  const sample = intOption(args.values, 'sample', 1) ?? DEFAULT_REFS_SAMPLE;
  const seed = intOption(args.values, 'seed', 0) ?? DEFAULT_SYMBOL_SEED;
  const misses = intOption(args.values, 'misses', 0) ?? 0;
  const allReferences = args.values['all-refs'] === true;
  if (allReferences && !out.json) throw new UsageError('--all-refs needs --json');
  const ctagsPath = typeof args.values.ctags === 'string' ? args.values.ctags : findOnPath('ctags');
  if (!ctagsPath) throw new CliError('ctags-missing', 'universal-ctags was not found on PATH: apt-get install universal-ctags (or pass --ctags PATH)');
  const rg = ripgrepPath(args.values);
  if (!rg) throw new CliError('rg-missing', 'ripgrep was not found: pass --rg PATH');
  const assets = locateAssets();
  const reports = await checkEachRoot(args, out, roots, 'cairn-refs-check-', (root, storeDir, signal, onProgress) =>
    runRefsCheck({
      root,
      ctagsPath,
      storeDir,
      engine: { grammarsDir: assets.grammarsDir, workerScript: assets.chunkWorker, indexWorkerScript: assets.indexWorker, ripgrepPath: rg },
      sample,
      seed,
      allReferences,
      signal,
      onProgress,
    }),
  );
  if (out.json) {
    for (const report of reports) out.record(report);
    return 0;
  }
  for (const line of formatRefsTable(reports)) out.line(line);
  if (misses > 0) {
    for (const report of reports) {
      out.line('');
      for (const line of formatRefsMisses(report, misses)) out.line(line);
    }
  }
  out.line('');
  for (const line of formatRefsNotes(reports)) out.note(line);
  for (const report of reports) for (const w of report.warnings) out.note(`warning: ${w}`);
  return 0;
}

function readTasks(file: string): LocalizationTask[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError('not-found', `cannot read --tasks ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return parseTasks(text, file);
  } catch (e) {
    if (e instanceof TaskFileError) throw new CliError('bad-tasks', e.message);
    throw e;
  }
}

const minutes = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function taskProgressText(p: TaskProgress): string {
  return `task ${Math.min(p.done + 1, p.total)}/${p.total} ${p.message}, ${minutes(p.elapsedMs)} elapsed${p.remainingMs !== undefined ? `, about ${minutes(p.remainingMs)} left` : ''}`;
}

async function runTasks(args: ParsedArgs, out: Output, file: string): Promise<number> {
  const shared = new Set<string>(['budget', 'param', 'name', 'config']);
  for (const o of [...SYMBOL_ONLY, ...HISTORY_ONLY.filter((h) => !shared.has(h))] as const) if (args.values[o] !== undefined) throw new UsageError(`--${o} does not apply to --tasks`);
  if (args.positionals.length > 1) throw new UsageError(`unexpected argument '${args.positionals[1]}'`);
  const tasks = readTasks(file);
  const repo = typeof args.values.repo === 'string' ? args.values.repo : undefined;
  if (repo !== undefined && !/^[^/\s]+\/[^/\s]+$/.test(repo)) throw new UsageError(`--repo ${repo}: expected OWNER/NAME`);
  const root = resolveRoot(args.values, args.positionals[0]);
  const budgetTokens = intOption(args.values, 'budget', 200) ?? DEFAULT_EVAL_BUDGET;
  const variants = readVariants(args.values);
  const assets = locateAssets();
  // A run takes minutes: on a terminal one progress line, elsewhere one line per task.
  const progress = new ProgressLine(out);
  const onProgress = (p: TaskProgress): void => {
    if (process.stderr.isTTY) progress.update(taskProgressText(p));
    else if (p.done < p.total) out.note(taskProgressText(p));
  };
  const report = await interruptible(progress, `${root} must be inside a git repository`, 'interrupted; the scratch folder was removed', (signal) =>
    runTaskEvaluation({
      repoDir: root,
      tasks,
      ...(repo !== undefined ? { repo } : {}),
      engine: { grammarsDir: assets.grammarsDir, workerScript: assets.chunkWorker, ripgrepPath: ripgrepPath(args.values) },
      variants,
      budgetTokens,
      scratchParent: typeof args.values.scratch === 'string' ? args.values.scratch : undefined,
      keepScratch: args.values['keep-scratch'] === true,
      onProgress,
      signal,
    }),
  );
  if (out.json) {
    out.record(report);
    return 0;
  }
  for (const line of formatTaskTable(report)) out.line(line);
  for (const line of formatTaskSummary(report)) out.note(line);
  for (const w of report.warnings) out.note(`warning: ${w}`);
  if (report.scratch) out.note(`scratch kept at ${report.scratch}`);
  return 0;
}

async function run(args: ParsedArgs, out: Output): Promise<number> {
  if (args.values.symbols === true && args.values.refs === true) throw new UsageError('--symbols and --refs are separate runs');
  if (typeof args.values.tasks === 'string') {
    if (args.values.symbols === true || args.values.refs === true) throw new UsageError('--tasks is a run of its own: drop --symbols/--refs');
    return runTasks(args, out, args.values.tasks);
  }
  if (args.values.repo !== undefined) throw new UsageError('--repo needs --tasks');
  if (args.values.symbols === true) return runSymbols(args, out);
  if (args.values.refs === true) return runRefs(args, out);
  for (const o of SYMBOL_ONLY) if (args.values[o] !== undefined) throw new UsageError(`--${o} needs --symbols or --refs`);
  if (args.positionals.length > 1) throw new UsageError(`unexpected argument '${args.positionals[1]}'`);
  const root = resolveRoot(args.values, args.positionals[0]);
  const maxCases = intOption(args.values, 'commits', 1) ?? DEFAULT_MAX_CASES;
  const maxFiles = intOption(args.values, 'max-files', 1);
  const budgetTokens = intOption(args.values, 'budget', 200) ?? DEFAULT_EVAL_BUDGET;
  const since = readSince(args.values);
  const variants = readVariants(args.values);
  const systems = readSystems(args.values);
  const assets = locateAssets();
  const progress = new ProgressLine(out);
  // Ctrl-C stops the run between steps and still removes the scratch folder.
  const report = await interruptible(progress, `${root} must be inside a git repository with history`, 'interrupted; the scratch folder was removed', (signal) =>
    runEvaluation({
      repoDir: root,
      engine: { grammarsDir: assets.grammarsDir, workerScript: assets.chunkWorker, ripgrepPath: ripgrepPath(args.values) },
      maxCases,
      maxFiles,
      since,
      rev: typeof args.values.rev === 'string' ? args.values.rev : undefined,
      budgetTokens,
      variants,
      systems,
      scratchParent: typeof args.values.scratch === 'string' ? args.values.scratch : undefined,
      keepScratch: args.values['keep-scratch'] === true,
      onProgress: args.values['progress-json'] === true ? jsonProgress(out) : (p) => progress.update(progressText(p)),
      signal,
    }),
  );
  if (out.json) {
    out.record(report);
    return 0;
  }
  for (const line of formatTable(report.systems)) out.line(line);
  for (const line of formatSummary(report)) out.note(line);
  for (const w of report.warnings) out.note(`warning: ${w}`);
  if (report.scratch) out.note(`scratch kept at ${report.scratch}`);
  return 0;
}

export const command: Command = { spec, run };
