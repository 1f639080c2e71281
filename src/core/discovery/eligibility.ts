// One eligibility decision for every reader of the working tree: whether discovery would index
// a path and, if not, why. Tools that return a file's content (read_span, refresh_index's
// explicit paths, the ripgrep provider) ask here, so nothing is served that the index refuses.
// The decision is discovery's own: its name rules, then its listing restricted to the paths
// (git's for .gitignore, exactly as an index build sees it), then its reader's validation.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Eligibility, Refusal, RefusalReason } from '../api';
import type { SkippedFile, SourceDocument } from '../types';
import { discoverFiles } from './discover';
import { sharedGitAnswers, type GitAnswers } from './gitAnswers';
import { isIgnoredByGit } from './gitList';
import { IgnoreLayer } from './ignoreRules';
import { resolveDiscoveryOptions, type DiscoveryOptions } from './options';
import { normaliseRelPath, toAbsolute } from './paths';
import { loadDocument } from './read';
import { rulesFor, type PathRules } from './rules';

const VERSION_CONTROL = new Set(['.git', '.hg', '.svn']);

function message(p: string, reason: RefusalReason, detail: string | undefined): string {
  switch (reason) {
    case 'outside-root':
      return `${p} is outside the root; only files inside it are served`;
    case 'missing':
      return `no such file: ${p}`;
    case 'ignored':
      return `${p} is ${detail ?? 'ignored'}; Cairn neither indexes nor serves ignored files`;
    case 'excluded-dir':
      return VERSION_CONTROL.has(detail ?? '')
        ? `${p} lies inside version-control metadata (${detail}); it is not served`
        : `${p} lies inside ${detail ?? 'a pruned folder'}, a folder Cairn never indexes (dependencies, build output, caches); it is not served`;
    case 'excluded-glob':
      return `${p} is outside the include/exclude globs of this index; it is not served`;
    case 'not-allowed':
      return `${p} is not a file type Cairn indexes (neither its suffix nor its name is on the allow-list); it is not served`;
    case 'secret-name':
      return `${p} looks like a file holding secrets (its name is on the secret deny-list); it is not served`;
    case 'too-large':
      return `${p} is larger than the size cap, ${detail ?? 'over the limit'}; it is not served`;
    case 'binary':
      return `${p} is a binary file; only text is served`;
    case 'invalid-utf8':
      return `${p} is not valid UTF-8 text; it is not served`;
    case 'symlink':
      return `${p} is ${detail ?? 'a symbolic link'}; links are not followed${detail?.startsWith('a link to ') ? ': read the file it points to' : ''}`;
    case 'hard-link':
      return `${p} is a hard link (${detail ?? 'several names'}); it is not served, as another of its names may be a refused file`;
    case 'not-a-file':
      return `${p} is a ${detail ?? 'special file'}, not a file`;
    case 'vanished':
      return `${p} disappeared while being read`;
    case 'unreadable':
      return detail === 'EACCES' || detail === 'EPERM' ? `permission denied: ${p}` : `${p} cannot be read (${detail ?? 'unknown error'})`;
  }
}

function refuse(p: string, reason: RefusalReason, detail?: string): Eligibility & { eligible: false } {
  const refusal: Refusal = { path: p, reason, ...(detail !== undefined ? { detail } : {}), message: message(p, reason, detail) };
  return { eligible: false, path: p, refusal };
}

/** A skip discovery reported (a refresh's `skipped`) as the refusal a reader would give. */
export function refusalOfSkip(skipped: SkippedFile): Refusal {
  return refuse(skipped.path, skipped.reason, skipped.detail).refusal;
}

/** Discovery's name rules: pruned folders, include/exclude globs, secret names, the allow-list. */
function byName(rules: PathRules, rel: string): (Eligibility & { eligible: false }) | undefined {
  const reason = rules.check(rel);
  if (reason === undefined) return undefined;
  if (reason !== 'excluded-dir') return refuse(rel, reason);
  const folder = rel.split('/').slice(0, -1).find((segment) => rules.isExcludedDirName(segment));
  return refuse(rel, reason, folder);
}

function kindOf(stats: fs.Stats): string {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'named pipe';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  return 'special file';
}

/** `a link to src/a.ts` when the link stays inside the root, so the caller can ask for that file. */
function describeLink(root: string, rel: string): string {
  try {
    const target = path.resolve(path.dirname(toAbsolute(root, rel)), fs.readlinkSync(toAbsolute(root, rel)));
    const inside = path.relative(root, target);
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return 'a symbolic link leading outside the root';
    return `a link to ${inside.split(path.sep).join('/')}`;
  } catch {
    return 'a symbolic link';
  }
}

/**
 * What lstat says of each component: symlinks are never followed (not the file, not a folder on
 * the way), and only a regular file can be read. Undefined when the path is a regular file.
 */
function byType(root: string, rel: string): Eligibility | undefined {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length; i++) {
    const sub = parts.slice(0, i + 1).join('/');
    const last = i === parts.length - 1;
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(toAbsolute(root, sub), { throwIfNoEntry: false });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      return refuse(rel, code === 'ENOTDIR' ? 'missing' : 'unreadable', code === 'ENOTDIR' ? undefined : code);
    }
    if (!stats) return refuse(rel, 'missing');
    if (stats.isSymbolicLink()) return refuse(rel, 'symlink', last ? describeLink(root, rel) : `inside ${sub}, a symbolic link to a folder`);
    if (!last && !stats.isDirectory()) return refuse(rel, 'missing');
    if (last && !stats.isFile()) return refuse(rel, 'not-a-file', kindOf(stats));
    if (last && stats.nlink > 1) return refuse(rel, 'hard-link', `${stats.nlink} names`);
  }
  return undefined;
}

/**
 * Why a regular file, allowed by name, is absent from discovery's listing: an extra ignore file
 * (`.cairnignore`), or git's ignore rules (or, inside git, a nested repository git does not list).
 */
async function whyUnlisted(root: string, rel: string, options: DiscoveryOptions, source: 'git' | 'walk', signal?: AbortSignal): Promise<Eligibility> {
  const extra = new IgnoreLayer(root, options.ignoreFiles);
  await extra.loadAncestors(rel);
  if (extra.isIgnored(rel, false)) return refuse(rel, 'ignored', `ignored by ${options.ignoreFiles.join(' or ')}`);
  if (source === 'walk' || (await isIgnoredByGit(root, rel, signal))) return refuse(rel, 'ignored', 'ignored by .gitignore');
  return refuse(rel, 'ignored', 'not listed by git (inside a nested repository or submodule)');
}

/**
 * Discovery's decision for each path (relative to root), in input order: eligible with its size
 * and mtime, or refused with the reason discovery has (or would report) for it. One listing
 * serves all the paths. Reading can still refuse an eligible file (binary, invalid UTF-8, a
 * hard link): `readEligibleFile` makes both decisions. git's answer for a file it listed before is
 * reused while nothing it depends on changed (`answers`, gitAnswers.ts): no process per read.
 */
export async function checkEligibility(
  root: string,
  relPaths: readonly string[],
  options: Partial<DiscoveryOptions> = {},
  signal?: AbortSignal,
  answers: GitAnswers = sharedGitAnswers,
): Promise<Eligibility[]> {
  const absoluteRoot = path.resolve(root);
  const resolved = resolveDiscoveryOptions(options);
  const rules = rulesFor(resolved);
  const verdicts: Array<Eligibility | undefined> = [];
  const listed = new Set<string>();
  const normals: Array<string | undefined> = [];
  for (const given of relPaths) {
    const normal = normaliseRelPath(given);
    normals.push(normal);
    if (normal === undefined) verdicts.push(refuse(given, 'outside-root'));
    else if (normal === '') verdicts.push(refuse(given, 'not-a-file', 'directory (the root itself)'));
    else {
      // A name off the allow-list is told after what the path is: missing, a folder or a link say more.
      const named = byName(rules, normal);
      const early = named && named.refusal.reason !== 'not-allowed' ? named : (byType(absoluteRoot, normal) ?? named);
      verdicts.push(early);
      if (!early) listed.add(normal);
    }
  }
  if (listed.size === 0) return verdicts as Eligibility[];

  // Only regular files reach the listing, so it never walks a folder.
  // Outside any repository git can only fail: asking it would cost two processes per read.
  const useGit = resolved.useGit && underGitRepository(absoluteRoot);
  const listing = await discoverFiles(absoluteRoot, { ...resolved, useGit, only: [...listed], signal, gitAnswers: answers });
  const files = new Map(listing.files.map((f) => [f.path, f]));
  const skips = new Map(listing.skipped.map((s) => [s.path, s]));
  const out: Eligibility[] = [];
  for (let i = 0; i < relPaths.length; i++) {
    const early = verdicts[i];
    const normal = normals[i] as string;
    const file = early ? undefined : files.get(normal);
    const skip = early ? undefined : skips.get(normal);
    if (early) out.push(early);
    else if (file) out.push({ eligible: true, path: normal, size: file.size, mtimeMs: file.mtimeMs });
    else if (skip) out.push(refuse(normal, skip.reason, skip.detail));
    else out.push(await whyUnlisted(absoluteRoot, normal, resolved, listing.source, signal));
  }
  return out;
}

/**
 * The text of a file discovery would index, read and validated exactly as the indexer reads it
 * (no symlink followed, regular files only, the size cap, binary, UTF-8, one name only), or the
 * reason it is refused.
 */
export async function readEligibleFile(
  root: string,
  relPath: string,
  options: Partial<DiscoveryOptions> = {},
  answers: GitAnswers = sharedGitAnswers,
): Promise<{ doc: SourceDocument } | { refusal: Refusal }> {
  const [verdict] = await checkEligibility(root, [relPath], options, undefined, answers);
  if (!verdict) throw new Error('checkEligibility answered no verdict');
  if (!verdict.eligible) return { refusal: verdict.refusal };
  const outcome = await loadDocument(root, verdict.path, { maxFileBytes: resolveDiscoveryOptions(options).maxFileBytes });
  if ('doc' in outcome) return outcome;
  const { path: p, reason, detail } = outcome.skipped;
  return { refusal: refusalOfSkip({ path: p, reason, ...(detail !== undefined ? { detail } : {}) }) };
}

/** A `.git` (folder, or file of a worktree) in the root or a folder above it. */
function underGitRepository(absoluteRoot: string): boolean {
  for (let dir = absoluteRoot; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}
