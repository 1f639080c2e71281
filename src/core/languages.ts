// The one table that says which files Cairn understands: suffix -> language id and bucket.
// Discovery's default allow-list, the chunkers' choice of strategy and the search filters
// (`lang:ts`) all derive from it, so adding a language is a one-line change here.

/** How a file's text should be treated: source code, prose for people, or configuration/data. */
export type Bucket = 'code' | 'prose' | 'config';

export interface LanguageInfo {
  /** Stable id used in chunks, filters and grammar lookup (`typescript`, `python`, `markdown`). */
  id: string;
  bucket: Bucket;
  /** What people call it (`TypeScript`, `C++`): how front ends show a language. */
  name: string;
  /** Short names accepted by filters (`ts`, `py`). The id itself is always accepted. */
  aliases?: string[];
}

const L = (id: string, name: string, bucket: Bucket, aliases?: string[]): LanguageInfo => ({ id, name, bucket, aliases });

const TYPESCRIPT = L('typescript', 'TypeScript', 'code', ['ts']);
const TSX = L('tsx', 'TypeScript JSX', 'code');
const JAVASCRIPT = L('javascript', 'JavaScript', 'code', ['js', 'jsx']);
const PYTHON = L('python', 'Python', 'code', ['py']);
const GO = L('go', 'Go', 'code', ['golang']);
const RUST = L('rust', 'Rust', 'code', ['rs']);
const JAVA = L('java', 'Java', 'code');
const KOTLIN = L('kotlin', 'Kotlin', 'code', ['kt']);
const SCALA = L('scala', 'Scala', 'code');
const C = L('c', 'C', 'code', ['h']);
const CPP = L('cpp', 'C++', 'code', ['c++', 'cc', 'hpp']);
const CSHARP = L('csharp', 'C#', 'code', ['cs', 'c#']);
const RUBY = L('ruby', 'Ruby', 'code', ['rb']);
const PHP = L('php', 'PHP', 'code');
const SWIFT = L('swift', 'Swift', 'code');
const BASH = L('bash', 'Shell Script', 'code', ['sh', 'shell', 'zsh']);
const CSS = L('css', 'CSS', 'code');
const SCSS = L('scss', 'SCSS', 'code', ['sass']);
const LESS = L('less', 'Less', 'code');
const HTML = L('html', 'HTML', 'code', ['htm']);
const VUE = L('vue', 'Vue', 'code');
const SVELTE = L('svelte', 'Svelte', 'code');
const SQL = L('sql', 'SQL', 'code');
const LUA = L('lua', 'Lua', 'code');
const DART = L('dart', 'Dart', 'code');
const ELIXIR = L('elixir', 'Elixir', 'code', ['ex']);
const ERLANG = L('erlang', 'Erlang', 'code', ['erl']);
const HASKELL = L('haskell', 'Haskell', 'code', ['hs']);
const OCAML = L('ocaml', 'OCaml', 'code', ['ml']);
const CLOJURE = L('clojure', 'Clojure', 'code', ['clj']);
const R = L('r', 'R', 'code');
const JULIA = L('julia', 'Julia', 'code', ['jl']);
const PERL = L('perl', 'Perl', 'code', ['pl']);
const ZIG = L('zig', 'Zig', 'code');
const OBJC = L('objc', 'Objective-C', 'code', ['objective-c', 'm']);
const POWERSHELL = L('powershell', 'PowerShell', 'code', ['ps1']);
const GROOVY = L('groovy', 'Groovy', 'code', ['gradle']);
const PROTO = L('proto', 'Protocol Buffers', 'code', ['protobuf']);
const GRAPHQL = L('graphql', 'GraphQL', 'code', ['gql']);
const SOLIDITY = L('solidity', 'Solidity', 'code', ['sol']);
const TERRAFORM = L('terraform', 'Terraform', 'config', ['tf', 'hcl']);
const DOCKERFILE = L('dockerfile', 'Dockerfile', 'config', ['docker']);
const MAKEFILE = L('makefile', 'Makefile', 'config', ['make']);
const CMAKE = L('cmake', 'CMake', 'config');
const MARKDOWN = L('markdown', 'Markdown', 'prose', ['md', 'mdx']);
const RST = L('restructuredtext', 'reStructuredText', 'prose', ['rst']);
const ASCIIDOC = L('asciidoc', 'AsciiDoc', 'prose', ['adoc']);
const TEXT = L('text', 'Plain Text', 'prose', ['txt', 'plaintext']);
const GHERKIN = L('gherkin', 'Gherkin', 'prose', ['feature', 'cucumber']);
const JSON_ = L('json', 'JSON', 'config', ['jsonc']);
const YAML = L('yaml', 'YAML', 'config', ['yml']);
const TOML = L('toml', 'TOML', 'config');
const INI = L('ini', 'INI', 'config', ['cfg', 'conf', 'properties']);
const XML = L('xml', 'XML', 'config');
const CSV = L('csv', 'CSV', 'config');

/** Suffix (lower case, with the dot) -> language. The default discovery allow-list is its keys. */
export const LANGUAGES_BY_SUFFIX: Readonly<Record<string, LanguageInfo>> = {
  '.ts': TYPESCRIPT, '.mts': TYPESCRIPT, '.cts': TYPESCRIPT,
  '.tsx': TSX,
  '.js': JAVASCRIPT, '.mjs': JAVASCRIPT, '.cjs': JAVASCRIPT, '.jsx': JAVASCRIPT,
  '.py': PYTHON, '.pyi': PYTHON,
  '.go': GO,
  '.rs': RUST,
  '.java': JAVA,
  '.kt': KOTLIN, '.kts': KOTLIN,
  '.scala': SCALA, '.sc': SCALA,
  '.c': C, '.h': C,
  '.cc': CPP, '.cpp': CPP, '.cxx': CPP, '.hpp': CPP, '.hh': CPP, '.hxx': CPP, '.ipp': CPP,
  '.cs': CSHARP,
  '.rb': RUBY, '.rake': RUBY, '.gemspec': RUBY,
  '.php': PHP,
  '.swift': SWIFT,
  '.sh': BASH, '.bash': BASH, '.zsh': BASH,
  '.css': CSS, '.scss': SCSS, '.sass': SCSS, '.less': LESS,
  '.html': HTML, '.htm': HTML,
  '.vue': VUE, '.svelte': SVELTE,
  '.sql': SQL,
  '.lua': LUA,
  '.dart': DART,
  '.ex': ELIXIR, '.exs': ELIXIR,
  '.erl': ERLANG, '.hrl': ERLANG,
  '.hs': HASKELL,
  '.ml': OCAML, '.mli': OCAML,
  '.clj': CLOJURE, '.cljs': CLOJURE, '.cljc': CLOJURE, '.edn': CLOJURE,
  '.r': R,
  '.jl': JULIA,
  '.pl': PERL, '.pm': PERL,
  '.zig': ZIG,
  '.m': OBJC, '.mm': OBJC,
  '.ps1': POWERSHELL, '.psm1': POWERSHELL,
  '.groovy': GROOVY, '.gradle': GROOVY,
  '.proto': PROTO,
  '.graphql': GRAPHQL, '.gql': GRAPHQL,
  '.sol': SOLIDITY,
  '.tf': TERRAFORM, '.hcl': TERRAFORM,
  '.cmake': CMAKE,
  '.md': MARKDOWN, '.mdx': MARKDOWN, '.markdown': MARKDOWN,
  '.rst': RST,
  '.adoc': ASCIIDOC,
  '.txt': TEXT,
  '.feature': GHERKIN,
  '.json': JSON_, '.jsonc': JSON_, '.json5': JSON_,
  '.yaml': YAML, '.yml': YAML,
  '.toml': TOML,
  '.ini': INI, '.cfg': INI, '.conf': INI, '.properties': INI,
  '.xml': XML, '.xsd': XML, '.plist': XML,
  '.csv': CSV,
};

/** Well-known extensionless (or oddly named) files, matched case-insensitively on the basename. */
export const LANGUAGES_BY_FILENAME: Readonly<Record<string, LanguageInfo>> = {
  dockerfile: DOCKERFILE,
  containerfile: DOCKERFILE,
  makefile: MAKEFILE,
  gnumakefile: MAKEFILE,
  'cmakelists.txt': CMAKE,
  license: TEXT,
  licence: TEXT,
  copying: TEXT,
  notice: TEXT,
  authors: TEXT,
  contributors: TEXT,
  readme: TEXT,
  changelog: TEXT,
  changes: TEXT,
  history: TEXT,
  gemfile: RUBY,
  rakefile: RUBY,
  podfile: RUBY,
  brewfile: RUBY,
  vagrantfile: RUBY,
  procfile: CONFIG_TEXT(),
  jenkinsfile: GROOVY,
  justfile: MAKEFILE,
  'build.bazel': CONFIG_TEXT(),
  build: CONFIG_TEXT(),
  workspace: CONFIG_TEXT(),
  '.gitignore': CONFIG_TEXT(),
  '.gitattributes': CONFIG_TEXT(),
  '.dockerignore': CONFIG_TEXT(),
  '.editorconfig': INI,
  '.cairnignore': CONFIG_TEXT(),
};

function CONFIG_TEXT(): LanguageInfo {
  return L('text', 'Plain Text', 'config');
}

const UNKNOWN: LanguageInfo = L('text', 'Plain Text', 'prose');

/** The POSIX basename of a relative path. */
export function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** The lower-cased suffix including the dot (`.ts`), or '' when there is none. Dotfiles have no suffix. */
export function suffixOf(path: string): string {
  const name = basename(path);
  const i = name.lastIndexOf('.');
  return i <= 0 ? '' : name.slice(i).toLowerCase();
}

/** Language of a path by well-known file name first, then by suffix; `undefined` when unknown. */
export function languageForPath(path: string): LanguageInfo | undefined {
  const name = basename(path).toLowerCase();
  return LANGUAGES_BY_FILENAME[name] ?? LANGUAGES_BY_SUFFIX[suffixOf(path)];
}

/** Like languageForPath, but never undefined: unknown text is treated as prose. */
export function languageInfo(path: string): LanguageInfo {
  return languageForPath(path) ?? UNKNOWN;
}

const ALL_LANGUAGES: LanguageInfo[] = [
  ...new Map(
    [...Object.values(LANGUAGES_BY_SUFFIX), ...Object.values(LANGUAGES_BY_FILENAME)].map((l) => [l.id, l] as const),
  ).values(),
];

/** Bucket of a language id (`code` for unknown ids, the safest default for ranking). */
export function bucketOf(languageId: string): Bucket {
  return ALL_LANGUAGES.find((l) => l.id === languageId)?.bucket ?? 'code';
}

/** The name people know a language id by (`typescript` → `TypeScript`); an unknown id as it is. */
export function languageName(languageId: string): string {
  return ALL_LANGUAGES.find((l) => l.id === languageId)?.name ?? languageId;
}

/**
 * Resolves what a user typed in a language filter (`ts`, `TypeScript`, `py`) to language ids.
 * `ts` also matches `tsx`, `js` also matches `jsx` files (same id), since users think in families.
 */
export function resolveLanguageFilter(name: string): string[] {
  const q = name.trim().toLowerCase();
  const ids = new Set<string>();
  for (const l of ALL_LANGUAGES) {
    if (l.id === q || l.aliases?.includes(q)) ids.add(l.id);
  }
  if (ids.has('typescript')) ids.add('tsx');
  if (ids.size === 0) ids.add(q);
  return [...ids].sort();
}

/** Every known language id, sorted; used to document and validate settings. */
export function knownLanguageIds(): string[] {
  return [...new Set(ALL_LANGUAGES.map((l) => l.id))].sort();
}
