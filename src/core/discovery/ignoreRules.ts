// Gitignore-syntax files (`.gitignore`, `.cairnignore`) with git's nesting semantics: each file's
// patterns are relative to its own directory, deeper files override shallower ones, negations
// work, and nothing below an ignored directory can be re-included.
import ignore, { type Ignore } from 'ignore';
import { NotRegularFileError, readRegular } from '../fsRead';
import type { SkippedFile } from '../types';
import { joinRel, parentOf, toAbsolute } from './paths';

/** Git folds case in ignore patterns where the file system does (core.ignorecase): macOS and Windows. */
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * An ignore file's text. Opened without following symlinks, as git refuses symlinked ignore
 * files too, and without blocking: a FIFO named `.gitignore` would otherwise hang the listing.
 */
async function readTextOrRefusal(absolute: string, relPath: string): Promise<string | SkippedFile | undefined> {
  try {
    return (await readRegular(absolute)).toString('utf8');
  } catch (error) {
    // A FIFO, socket or device is reported: the user expects rules from it and gets none.
    if (error instanceof NotRegularFileError && error.detail !== 'directory') return { path: relPath, reason: 'not-a-file', detail: error.detail };
    // Missing, a directory, a symlink or unreadable: such a file has no rules to honour.
    return undefined;
  }
}

/**
 * One family of ignore files (e.g. all `.gitignore`s) under a root. Directories' rules are
 * loaded explicitly (`loadDir`) before paths beneath them are tested; a directory's own
 * verdict depends only on its ancestors' rules, so verdicts are cached.
 */
export class IgnoreLayer {
  /** Directory (relative, '' for the root) -> its compiled rules. Only directories with rules. */
  private readonly rulesByDir = new Map<string, Ignore>();
  private readonly loadedDirs = new Set<string>();
  private readonly dirVerdicts = new Map<string, boolean>();
  /** Ignore files that are not regular files (a FIFO, a device): their rules are not read. */
  readonly refused: SkippedFile[] = [];

  constructor(
    private readonly root: string,
    readonly fileNames: readonly string[],
  ) {}

  get isEmpty(): boolean {
    return this.rulesByDir.size === 0;
  }

  /** Adds rules as if they were in an ignore file in `dirRel` (used for `.git/info/exclude`). */
  addRules(dirRel: string, text: string): void {
    let rules = this.rulesByDir.get(dirRel);
    if (!rules) {
      rules = ignore({ ignorecase: IGNORE_CASE });
      this.rulesByDir.set(dirRel, rules);
    }
    rules.add(text);
  }

  /**
   * Reads this layer's ignore files in one directory, once. `present`, when the caller has
   * just listed the directory, saves probing for files that are not there.
   */
  async loadDir(dirRel: string, present?: ReadonlySet<string>): Promise<void> {
    if (this.loadedDirs.has(dirRel)) return;
    this.loadedDirs.add(dirRel);
    for (const name of this.fileNames) {
      if (present && !present.has(name)) continue;
      const relPath = joinRel(dirRel, name);
      const text = await readTextOrRefusal(toAbsolute(this.root, relPath), relPath);
      if (typeof text === 'string') this.addRules(dirRel, text);
      else if (text) this.refused.push(text);
    }
  }

  /** Loads the rules of the root and of every directory above `relPath`. */
  async loadAncestors(relPath: string): Promise<void> {
    await this.loadDir('');
    let start = 0;
    for (let slash = relPath.indexOf('/'); slash >= 0; slash = relPath.indexOf('/', start)) {
      await this.loadDir(relPath.slice(0, slash));
      start = slash + 1;
    }
  }

  /** Whether a file (or, with `isDir`, a directory) is ignored, itself or through an ignored ancestor. */
  isIgnored(relPath: string, isDir: boolean): boolean {
    if (this.rulesByDir.size === 0) return false;
    const parent = parentOf(relPath);
    if (parent !== '' && this.isDirIgnored(parent)) return true;
    return this.matchesOwnRules(relPath, isDir);
  }

  private isDirIgnored(dirRel: string): boolean {
    let verdict = this.dirVerdicts.get(dirRel);
    if (verdict === undefined) {
      const parent = parentOf(dirRel);
      verdict = (parent !== '' && this.isDirIgnored(parent)) || this.matchesOwnRules(dirRel, true);
      this.dirVerdicts.set(dirRel, verdict);
    }
    return verdict;
  }

  /** The deepest ignore file with an opinion on the path decides; a negation there re-includes it. */
  private matchesOwnRules(relPath: string, isDir: boolean): boolean {
    const suffix = isDir ? '/' : '';
    for (let dir = parentOf(relPath); ; dir = parentOf(dir)) {
      const rules = this.rulesByDir.get(dir);
      if (rules) {
        const local = (dir === '' ? relPath : relPath.slice(dir.length + 1)) + suffix;
        const verdict = safeTest(rules, local);
        if (verdict.ignored) return true;
        if (verdict.unignored) return false;
      }
      if (dir === '') return false;
    }
  }
}

function safeTest(rules: Ignore, local: string): { ignored: boolean; unignored: boolean } {
  try {
    return rules.test(local);
  } catch {
    // `ignore` rejects a few path shapes it cannot reason about; git would not ignore those either.
    return { ignored: false, unignored: false };
  }
}
