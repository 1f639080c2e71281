// Name- and glob-based eligibility rules. Pure functions of a relative path and the options:
// no file system access, so watchers can filter events cheaply with `isEligiblePath`.
import picomatch from 'picomatch/posix';
import { basename } from '../languages';
import { ALWAYS_EXCLUDED_DIRS, DEFAULT_DISCOVERY_OPTIONS, type DiscoveryOptions } from './options';
import { normaliseRelPath, parentOf } from './paths';

export type IneligibleReason = 'not-allowed' | 'excluded-dir' | 'secret-name' | 'excluded-glob';

type Matcher = (text: string) => boolean;

const NEVER: Matcher = () => false;

/**
 * One regular expression for a list of globs (false for an empty list): a single alternation
 * tests a path once instead of once per glob, which matters for the ~40 secret patterns.
 */
function globMatcher(globs: readonly string[], options: picomatch.PicomatchOptions): Matcher {
  if (globs.length === 0) return NEVER;
  const sources = globs.map((glob) => `(?:${picomatch.makeRe(glob, options).source})`);
  const regex = new RegExp(sources.join('|'), options.nocase ? 'i' : '');
  return (text) => regex.test(text);
}

const isGlob = (pattern: string): boolean => /[*?[\]{}!]/.test(pattern);

/**
 * Caches a string predicate. Names and directories repeat heavily in a tree (`index.ts`,
 * `src`), and a 20k-file listing otherwise spends most of its rule time in glob regexes.
 * Cleared when full, so a long-lived watcher filter cannot grow without bound.
 */
function memoize(predicate: (key: string) => boolean, limit = 1 << 16): (key: string) => boolean {
  const cache = new Map<string, boolean>();
  return (key) => {
    let verdict = cache.get(key);
    if (verdict === undefined) {
      verdict = predicate(key);
      if (cache.size >= limit) cache.clear();
      cache.set(key, verdict);
    }
    return verdict;
  };
}

/** The options compiled into matchers once; reused for every path. */
export class PathRules {
  /** A directory with this name is pruned: never entered, nothing below it listed. */
  readonly isExcludedDirName: (name: string) => boolean;
  /** Deny-listed secret-looking basename (case-insensitive). */
  readonly isSecretName: (name: string) => boolean;
  /** Deny-listed by a secret pattern that names folders too (`.docker/config.json`), case-insensitive. */
  private readonly isSecretPath: Matcher;
  /** Allowed by suffix (any dotted suffix, so `.d.ts` entries work) or by well-known file name. */
  readonly isAllowedName: (name: string) => boolean;
  /** A directory (relative path) is, or lies below, an excluded directory. */
  private readonly isExcludedDirPath: (dirRel: string) => boolean;
  private readonly included: Matcher | undefined;
  private readonly excluded: Matcher;

  constructor(readonly options: DiscoveryOptions) {
    const dirs = [...ALWAYS_EXCLUDED_DIRS, ...options.excludeDirs];
    const excludedDirNames = new Set(dirs.filter((d) => !isGlob(d)));
    const excludedDirGlob = globMatcher(dirs.filter(isGlob), { dot: true });
    this.isExcludedDirName = memoize((name) => excludedDirNames.has(name) || excludedDirGlob(name));
    this.isExcludedDirPath = memoize(
      (dir) => dir !== '' && (this.isExcludedDirName(basename(dir)) || this.isExcludedDirPath(parentOf(dir))),
    );

    const secretPaths = options.secretPatterns.filter((p) => p.includes('/'));
    this.isSecretName = memoize(globMatcher(options.secretPatterns.filter((p) => !p.includes('/')), { dot: true, nocase: true }));
    this.isSecretPath = globMatcher(secretPaths, { dot: true, nocase: true });

    const suffixes = new Set(options.extensions.map((e) => e.toLowerCase()));
    const filenames = new Set(options.filenames.map((n) => n.toLowerCase()));
    this.isAllowedName = memoize((name) => {
      const lower = name.toLowerCase();
      if (filenames.has(lower)) return true;
      // A leading dot starts a dotfile's name, not a suffix (`.bashrc` has none).
      for (let dot = lower.indexOf('.', 1); dot >= 0; dot = lower.indexOf('.', dot + 1)) {
        if (suffixes.has(lower.slice(dot))) return true;
      }
      return false;
    });

    this.included = options.include.length > 0 ? globMatcher(options.include, { dot: true }) : undefined;
    this.excluded = globMatcher(options.exclude, { dot: true });
  }

  /** True when any directory segment of the path (not its basename) is an excluded directory. */
  hasExcludedDirSegment(relPath: string): boolean {
    return this.isExcludedDirPath(parentOf(relPath));
  }

  /** Outside the include globs or inside the exclude globs. */
  isExcludedByGlob(relPath: string): boolean {
    if (this.included && !this.included(relPath)) return true;
    return this.excluded(relPath);
  }

  /**
   * Why a file at this path is left out, or undefined when it is eligible. Precedence: pruned
   * directories, then the user's include/exclude scope, then secrets (reported even when the
   * suffix is not allowed, so users see that `.env` was deliberately left out), then the allow-list.
   */
  check(relPath: string): IneligibleReason | undefined {
    if (this.hasExcludedDirSegment(relPath)) return 'excluded-dir';
    return this.checkName(relPath);
  }

  /** `check` for a path whose directories are already known not to be excluded (the walk prunes them). */
  checkName(relPath: string): IneligibleReason | undefined {
    if (this.isExcludedByGlob(relPath)) return 'excluded-glob';
    const name = basename(relPath);
    if (this.isSecretName(name) || this.isSecretPath(relPath)) return 'secret-name';
    if (!this.isAllowedName(name)) return 'not-allowed';
    return undefined;
  }
}

const compiled = new WeakMap<DiscoveryOptions, PathRules>();
/** By content too: every eligibility check resolves its options afresh, and compiling the globs dominated a read_span. */
const compiledByContent = new Map<string, PathRules>();
const MAX_COMPILED = 16;

/** Compiled rules for an options object, cached so repeated `isEligiblePath` calls stay cheap. */
export function rulesFor(options: DiscoveryOptions): PathRules {
  let rules = compiled.get(options);
  if (!rules) {
    const key = JSON.stringify(options);
    rules = compiledByContent.get(key);
    if (!rules) {
      rules = new PathRules(options);
      if (compiledByContent.size >= MAX_COMPILED) compiledByContent.clear();
      compiledByContent.set(key, rules);
    }
    compiled.set(options, rules);
  }
  return rules;
}

/**
 * Pure rule check for one relative path (allow-list, excluded directory segment, secret name,
 * include/exclude globs) WITHOUT ignore files: for quick filtering of watcher events.
 * Pass the same (resolved) options object each time; its compiled form is cached.
 * A path that is absolute or climbs out of the root is `not-allowed`.
 */
export function isEligiblePath(
  relPath: string,
  options: DiscoveryOptions,
): { eligible: boolean; reason?: IneligibleReason } {
  const normal = normaliseRelPath(relPath);
  if (normal === undefined || normal === '') return { eligible: false, reason: 'not-allowed' };
  const reason = rulesFor(options).check(normal);
  return reason ? { eligible: false, reason } : { eligible: true };
}

/**
 * A file whose change can change which files are eligible anywhere below its folder
 * (`.gitignore` and the configured extra ignore files, `.cairnignore` by default):
 * a watcher that sees one changed refreshes the whole root, not the one path.
 */
export function isIgnoreRuleFile(name: string, ignoreFiles: readonly string[] = DEFAULT_DISCOVERY_OPTIONS.ignoreFiles): boolean {
  return name === '.gitignore' || ignoreFiles.includes(name);
}
