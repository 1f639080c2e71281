// The benchmark corpus: real source trees already on this machine (no network). By default the
// project's own node_modules plus, when installed, the offline VS Code test host (code-server's
// sources and dependencies). They are copied into one folder so every tool under test sees the
// same tree at one root. Copies, not hard links: discovery refuses a file with several names (it
// may be a secret under an innocent one), and a link would also make the source tree's own
// files refused while the corpus exists.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { languageForPath } from '../core/languages';

export interface Corpus {
  root: string;
  sources: string[];
  files: number;
  bytes: number;
  /** Files with a tree-sitter grammar (what parse-only measures). */
  parseableFiles: number;
}

/** Skip what no search tool should index: nested VCS, caches, binaries, huge generated files. */
const SKIP_DIRS = new Set(['.git', '.hg', '.svn', '.cache', 'coverage', '__pycache__']);
const MAX_FILE = 1024 * 1024;

export function defaultSources(repoRoot: string): string[] {
  const out = [path.join(repoRoot, 'node_modules')];
  const hostBase = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'vscode-test-host');
  if (fs.existsSync(hostBase)) {
    for (const d of fs.readdirSync(hostBase)) {
      const nm = path.join(hostBase, d, 'node_modules');
      if (fs.existsSync(nm)) out.push(nm);
    }
  }
  return out.filter((p) => fs.existsSync(p));
}

/**
 * Builds (or reuses) `dest` as a copy (a reflink where the file system has them) of the eligible text files of `sources`,
 * one sub-folder per source. Returns its size.
 */
export function assembleCorpus(dest: string, sources: readonly string[], maxFiles = Infinity): Corpus {
  const marker = `${dest}.json`;
  // `copies`: a corpus assembled from hard links by an earlier build is made again.
  const wanted = JSON.stringify({ sources, maxFiles: Number.isFinite(maxFiles) ? maxFiles : null, copies: true });
  if (fs.existsSync(marker)) {
    const saved = JSON.parse(fs.readFileSync(marker, 'utf8')) as Corpus & { key: string };
    if (saved.key === wanted) return saved;
  }
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  let files = 0;
  let bytes = 0;
  let parseableFiles = 0;
  sources.forEach((src, i) => {
    const base = path.join(dest, `src${i}-${path.basename(path.dirname(src))}`);
    const stack = [src];
    while (stack.length && files < maxFiles) {
      const dir = stack.pop() as string;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name)) stack.push(p);
          continue;
        }
        if (!e.isFile() || files >= maxFiles) continue;
        const lang = languageForPath(e.name);
        if (!lang) continue;
        const size = fs.statSync(p).size;
        if (size === 0 || size > MAX_FILE) continue;
        const target = path.join(base, path.relative(src, p));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.copyFileSync(p, target, fs.constants.COPYFILE_FICLONE);
        files++;
        bytes += size;
        if (['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'swift', 'bash', 'css', 'html', 'json'].includes(lang.id)) parseableFiles++;
      }
    }
  });
  const corpus: Corpus = { root: dest, sources: [...sources], files, bytes, parseableFiles };
  fs.writeFileSync(marker, JSON.stringify({ ...corpus, key: wanted }));
  return corpus;
}
