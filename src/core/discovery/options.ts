// What discovery considers: the allow-list, the pruned directories, the secret deny-list and
// the size cap. Defaults derive from the language table so a new language is indexed at once.
import { LANGUAGES_BY_FILENAME, LANGUAGES_BY_SUFFIX } from '../languages';

export interface DiscoveryOptions {
  /** Allow-list of suffixes including the dot, lower case (`.ts`). Multi-part suffixes (`.d.ts`) work. */
  extensions: string[];
  /** Well-known extensionless basenames (`Dockerfile`), matched case-insensitively. */
  filenames: string[];
  /**
   * Directory names pruned during the walk (never entered). An entry containing `*` is a glob
   * on the directory name (`*.egg-info`). `.git`, `.hg` and `.svn` are pruned whatever this says.
   */
  excludeDirs: string[];
  /**
   * Deny-list of secret-looking file names: globs matched case-insensitively against the
   * basename, or, for a glob containing a slash (the Docker client's `.docker/config.json`), against the whole
   * relative path, for credential files whose name alone is common (`config.json`). This is a
   * name-based guard, not content scanning: a secret pasted into `config.ts` is not detected,
   * and a harmless file that happens to match is left out.
   */
  secretPatterns: string[];
  /** Files larger than this are skipped as `too-large`. */
  maxFileBytes: number;
  /** Inside a git work tree, list candidates with `git ls-files` (honours .gitignore exactly as git does). */
  useGit: boolean;
  /** Extra gitignore-syntax files honoured at every directory level (`.cairnignore`). */
  ignoreFiles: string[];
  /** picomatch globs relative to the root; a file must match one. Empty means everything. */
  include: string[];
  /** picomatch globs relative to the root; a file matching one is left out. */
  exclude: string[];
}

/** Version-control metadata is never content, so these are pruned even if `excludeDirs` is overridden. */
export const ALWAYS_EXCLUDED_DIRS: readonly string[] = Object.freeze(['.git', '.hg', '.svn']);

export const DEFAULT_EXCLUDE_DIRS: readonly string[] = Object.freeze([
  ...ALWAYS_EXCLUDED_DIRS,
  // dependencies
  'node_modules', 'bower_components', 'vendor', '.venv', 'venv',
  // build output
  'dist', 'build', 'out', 'target', 'bazel-out', '*.egg-info',
  // tool caches and state
  '__pycache__', '.tox', '.mypy_cache', '.pytest_cache', '.ruff_cache', '.next', '.nuxt', '.svelte-kit',
  '.cache', '.parcel-cache', '.turbo', '.terraform', '.gradle', 'coverage', '.nyc_output',
  // editor state
  '.idea',
]);

export const DEFAULT_SECRET_PATTERNS: readonly string[] = Object.freeze([
  // environment files
  '.env', '.env.*', '.envrc',
  // private keys and key stores
  '*.pem', '*.key', '*.p12', '*.pfx', '*.p8', '*.asc', '*.ppk', '*.keystore', '*.jks', '*.keytab', '*.kdbx',
  'id_rsa*', 'id_dsa*', 'id_ecdsa*', 'id_ed25519*',
  // credential stores of common tools
  'credentials*', 'secrets.*', '.npmrc', '.pypirc', '.netrc', '_netrc', '.pgpass', '.htpasswd',
  '.git-credentials', '.dockercfg', '.s3cfg', '.boto', '*.ovpn',
  // terraform state and variables hold resolved secrets; its CLI config holds API tokens
  '*.tfstate', '*.tfstate.*', '*.tfvars', '*.tfvars.json', '.terraformrc', 'terraform.rc',
  // cloud and cluster credentials as their tools download or write them: data files only, so
  // code about them (`serviceAccount.ts`, `tokenizer.ts`, `kubeconfig.go`) stays indexed
  'client_secret*.json', '*service-account*.json', '*service_account*.json', '*-firebase-adminsdk-*.json',
  'kubeconfig', 'kubeconfig.y?(a)ml', 'kubeconfig.json', '*.kubeconfig', 'local.settings.json',
  // stored tokens (Google's quickstarts write token.json) and deployment secrets
  'token.txt', 'token.json', '.vault-token', 'wp-config.php',
  'secret.y?(a)ml', 'secret.json', 'secret.toml', 'secret.txt', '*.env',
  // paths: names too common to refuse anywhere else
  '**/.docker/config.json', '**/.kube/config',
]);

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

const frozen = (items: readonly string[]): string[] => Object.freeze([...items]) as string[];

export const DEFAULT_DISCOVERY_OPTIONS: DiscoveryOptions = Object.freeze({
  extensions: frozen(Object.keys(LANGUAGES_BY_SUFFIX)),
  filenames: frozen(Object.keys(LANGUAGES_BY_FILENAME)),
  excludeDirs: frozen(DEFAULT_EXCLUDE_DIRS),
  secretPatterns: frozen(DEFAULT_SECRET_PATTERNS),
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
  useGit: true,
  ignoreFiles: frozen(['.cairnignore']),
  include: frozen([]),
  exclude: frozen([]),
});

/** `ts` and `.TS` both mean `.ts`: settings are typed by people. */
function normaliseSuffix(suffix: string): string {
  const s = suffix.trim().toLowerCase();
  return s.startsWith('.') ? s : `.${s}`;
}

const nonEmpty = (items: readonly string[]): string[] => items.map((s) => s.trim()).filter((s) => s.length > 0);

/**
 * Fills in defaults for every option left out (or `undefined`) and normalises what was given.
 * Arrays replace the defaults rather than extending them. The result is a fresh object.
 */
export function resolveDiscoveryOptions(partial: Partial<DiscoveryOptions> = {}): DiscoveryOptions {
  const d = DEFAULT_DISCOVERY_OPTIONS;
  const maxFileBytes = partial.maxFileBytes;
  return {
    extensions: nonEmpty(partial.extensions ?? d.extensions).map(normaliseSuffix),
    filenames: nonEmpty(partial.filenames ?? d.filenames).map((n) => n.toLowerCase()),
    excludeDirs: nonEmpty(partial.excludeDirs ?? d.excludeDirs),
    secretPatterns: nonEmpty(partial.secretPatterns ?? d.secretPatterns),
    maxFileBytes:
      typeof maxFileBytes === 'number' && Number.isFinite(maxFileBytes) && maxFileBytes >= 0 ? maxFileBytes : d.maxFileBytes,
    useGit: partial.useGit ?? d.useGit,
    ignoreFiles: nonEmpty(partial.ignoreFiles ?? d.ignoreFiles),
    include: nonEmpty(partial.include ?? d.include),
    exclude: nonEmpty(partial.exclude ?? d.exclude),
  };
}
