// discoverFiles: list candidates (git or walk), apply ignore files and name rules, then stat.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NotRegularFileError, readRegularSync } from '../fsRead';
import { basename } from '../languages';
import type { DiscoveryResult, SkippedFile } from '../types';
import { CandidateSet } from './candidates';
import type { GitAnswers } from './gitAnswers';
import { GIT_MODE_SUBMODULE, GIT_MODE_SYMLINK, isInsideWorkTree, listWithGit, type GitListing } from './gitList';
import { IgnoreLayer } from './ignoreRules';
import { resolveDiscoveryOptions, type DiscoveryOptions } from './options';
import { compareCodeUnits, normaliseRelPath, parentOf, toAbsolute } from './paths';
import { rulesFor, type PathRules } from './rules';
import { findDirectoryLinks, statCandidates } from './statFiles';
import { isIgnoredByAny, walkDirectory } from './walk';

export type DiscoverFilesOptions = Partial<DiscoveryOptions> & {
  only?: string[];
  signal?: AbortSignal;
  /** Reuse git's earlier answers for `only` while nothing they depend on changed (eligibility checks). */
  gitAnswers?: GitAnswers;
};

async function assertDirectory(root: string): Promise<void> {
  let stats: fs.Stats;
  try {
    stats = await fs.promises.stat(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT' ? `Cairn cannot index "${root}": it does not exist.` : `Cairn cannot index "${root}": ${code ?? String(error)}.`,
    );
  }
  if (!stats.isDirectory()) throw new Error(`Cairn cannot index "${root}": it is not a directory.`);
}

/**
 * `only` as a set of normalised relative paths; undefined means the whole tree (also when an
 * entry names the root itself). Entries outside the root are dropped.
 */
function normaliseOnly(only: readonly string[] | undefined): Set<string> | undefined {
  if (only === undefined) return undefined;
  const entries = new Set<string>();
  for (const entry of only) {
    const normal = normaliseRelPath(entry);
    if (normal === '') return undefined;
    if (normal !== undefined) entries.add(normal);
  }
  return entries;
}

/** The path is an `only` entry or lies below one. */
function isWithin(relPath: string, only: ReadonlySet<string>): boolean {
  for (let p = relPath; p !== ''; p = parentOf(p)) {
    if (only.has(p)) return true;
  }
  return false;
}

/** What a special file is, as discovery's skip details name it. */
function specialKind(file: string): string {
  try {
    const stats = fs.lstatSync(file);
    if (stats.isFIFO()) return 'fifo';
    if (stats.isSocket()) return 'socket';
    return 'device';
  } catch {
    return 'special';
  }
}

const byPath = <T extends { path: string }>(a: T, b: T): number => compareCodeUnits(a.path, b.path);

/**
 * Lists eligible files under root (absolute path). `only` restricts listing to these relative
 * paths/dirs (used for incremental refresh of a few files); paths in `only` that are deleted
 * or ineligible are simply absent from `files`.
 *
 * Never throws for problems inside the tree (each is a `skipped` entry); throws only when root
 * does not exist or is not a directory, and with the signal's reason when aborted.
 */
export async function discoverFiles(root: string, options: DiscoverFilesOptions = {}): Promise<DiscoveryResult> {
  const { only, signal, gitAnswers, ...partial } = options;
  const absoluteRoot = path.resolve(root);
  await assertDirectory(absoluteRoot);
  const resolved = resolveDiscoveryOptions(partial);
  const rules = rulesFor(resolved);
  const onlySet = normaliseOnly(only);
  const candidates = new CandidateSet(rules);

  let source: DiscoveryResult['source'] = 'walk';
  if (onlySet !== undefined && onlySet.size === 0) {
    // Nothing requested, nothing listed; the probe only keeps `source` truthful.
    if (resolved.useGit && (await isInsideWorkTree(absoluteRoot, signal))) source = 'git';
  } else {
    const special: string[] = [];
    const listing = resolved.useGit ? await listWithGit(absoluteRoot, onlySet && [...onlySet], signal, special, gitAnswers) : undefined;
    signal?.throwIfAborted();
    if (listing) {
      source = 'git';
      await collectFromGit(absoluteRoot, listing, resolved, rules, candidates, onlySet);
    } else {
      await collectByWalking(absoluteRoot, resolved, rules, candidates, onlySet, signal);
      // The walk reports special ignore files inside the root itself; one above it (which git
      // would have read) is named relative to the root, so the user learns why git was not used.
      for (const file of special) {
        const rel = path.relative(absoluteRoot, file).split(path.sep).join('/');
        if (rel.startsWith('../')) candidates.skip({ path: rel, reason: 'not-a-file', detail: specialKind(file) });
      }
    }
  }

  const { files, skipped } = await statCandidates(absoluteRoot, candidates.files, resolved.maxFileBytes, signal);
  const linkSkips = await findDirectoryLinks(absoluteRoot, candidates.linkProbes, rules, signal);
  for (const entry of [...skipped, ...linkSkips]) candidates.skip(entry);
  // candidates.skip drops repeats: an ignore file that is a FIFO can be a candidate as well.
  const allSkipped: SkippedFile[] = [...candidates.allSkipped()];
  return { files: files.sort(byPath), skipped: allSkipped.sort(byPath), source };
}

async function collectFromGit(
  root: string,
  listing: GitListing,
  options: DiscoveryOptions,
  rules: PathRules,
  candidates: CandidateSet,
  only: ReadonlySet<string> | undefined,
): Promise<void> {
  // git has applied .gitignore; the extra ignore files are ours to honour. Those git lists are
  // loaded from their directories; the root's and the `only` entries' ancestors' are probed,
  // as they may be gitignored themselves or lie outside a restricted listing.
  const extraIgnores = new IgnoreLayer(root, options.ignoreFiles);
  candidates.reportRefusals(extraIgnores);
  const ignoreNames = new Set(options.ignoreFiles);
  await extraIgnores.loadDir('');
  for (const entry of only ?? []) await extraIgnores.loadAncestors(entry);
  for (const listed of listing.paths) {
    if (ignoreNames.has(basename(listed))) await extraIgnores.loadDir(parentOf(listed));
  }

  for (const listed of listing.paths) {
    if (only && !isWithin(listed, only)) continue;
    if (rules.hasExcludedDirSegment(listed)) continue;
    const mode = listing.modes.get(listed);
    if (mode === GIT_MODE_SUBMODULE) continue;
    if (extraIgnores.isIgnored(listed, false)) continue;
    // Tracked entries say whether they are symlinks; untracked ones must be probed.
    candidates.consider(listed, mode === undefined || mode === GIT_MODE_SYMLINK);
  }
}

async function collectByWalking(
  root: string,
  options: DiscoveryOptions,
  rules: PathRules,
  candidates: CandidateSet,
  only: ReadonlySet<string> | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const gitignores = new IgnoreLayer(root, ['.gitignore']);
  const gitExclude = readGitInfoExclude(root);
  if (typeof gitExclude === 'string') gitignores.addRules('', gitExclude);
  else if (gitExclude) candidates.skip(gitExclude);
  const layers = [gitignores, new IgnoreLayer(root, options.ignoreFiles)];
  for (const layer of layers) candidates.reportRefusals(layer);
  const ctx = { root, rules, layers, candidates, signal };

  if (!only) {
    await walkDirectory(ctx, '');
    return;
  }
  const isRealDirectory = realDirectoryCheck(root);
  for (const entry of only) {
    if (rules.hasExcludedDirSegment(entry)) continue;
    // lstat resolves symlinks in the path's directories: `linked-dir/a.ts` must not be reached.
    const parent = parentOf(entry);
    if (parent !== '' && !isRealDirectory(parent)) continue;
    for (const layer of layers) await layer.loadAncestors(entry);
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(toAbsolute(root, entry), { throwIfNoEntry: false });
    } catch {
      // An unreadable parent directory: the stat phase reports the entry if its name is eligible.
      if (!isIgnoredByAny(layers, entry, false)) candidates.consider(entry, false);
      continue;
    }
    if (!stats) continue;
    if (stats.isDirectory()) {
      if (rules.isExcludedDirName(basename(entry)) || isIgnoredByAny(layers, entry, true)) continue;
      await walkDirectory(ctx, entry);
    } else if (!isIgnoredByAny(layers, entry, false)) {
      candidates.consider(entry, stats.isSymbolicLink());
    }
  }
}

/** Memoised: the relative directory and each of its ancestors is a directory, not a symlink to one. */
function realDirectoryCheck(root: string): (dirRel: string) => boolean {
  const verdicts = new Map<string, boolean>();
  const isReal = (dirRel: string): boolean => {
    if (dirRel === '') return true;
    let verdict = verdicts.get(dirRel);
    if (verdict === undefined) {
      let stats: fs.Stats | undefined;
      try {
        stats = isReal(parentOf(dirRel)) ? fs.lstatSync(toAbsolute(root, dirRel), { throwIfNoEntry: false }) : undefined;
      } catch {
        stats = undefined;
      }
      verdict = stats?.isDirectory() === true;
      verdicts.set(dirRel, verdict);
    }
    return verdict;
  };
  return isReal;
}

/** `.git/info/exclude` of a repository rooted at root: honoured by git, so by the walk too. */
function readGitInfoExclude(root: string): string | SkippedFile | undefined {
  try {
    return readRegularSync(path.join(root, '.git', 'info', 'exclude')).toString('utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError && error.detail !== 'directory') return { path: '.git/info/exclude', reason: 'not-a-file', detail: error.detail };
    return undefined;
  }
}
