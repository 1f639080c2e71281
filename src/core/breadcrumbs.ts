// A breadcrumb as a reader of its language writes it. The index joins a definition's path with
// `.` for every language (`Runtime.block_on`), and search matches either spelling, because both
// split into the same words; only what is shown to people changes, so a Rust or C++ reader sees
// `Runtime::block_on`, the path they would type in their own code.

/** Languages whose paths read with `::` (C++ out-of-line methods are indexed as `Foo.bar` too). */
const PATH_SEPARATORS: Readonly<Record<string, string>> = { rust: '::', cpp: '::' };

/** The separator between a breadcrumb's parts as its language writes it: `::` for Rust and C++, else `.`. */
export function breadcrumbSeparator(language: string | undefined): string {
  return (language && PATH_SEPARATORS[language]) || '.';
}

/**
 * An indexed breadcrumb (parts joined with `.`) for display in its language:
 * `Runtime.block_on` → `Runtime::block_on` for Rust and C++; other languages, and breadcrumbs
 * that are prose (Markdown heading paths, joined with ` > `), as they are.
 */
export function displayBreadcrumb(breadcrumb: string, language: string | undefined): string {
  if (!breadcrumb) return '';
  if (language && QUOTED_KEYS.has(language)) return keyPath(breadcrumb);
  const separator = breadcrumbSeparator(language);
  if (separator === '.' || breadcrumb.includes(' > ')) return breadcrumb;
  return breadcrumb.split('.').join(separator);
}

/** Languages whose object keys name chunks and may be any string (ESLint's `"Program:exit"(node) {…}`). */
const QUOTED_KEYS: ReadonlySet<string> = new Set(['javascript', 'typescript', 'tsx']);
const IDENTIFIER = /^#?[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * A script breadcrumb with its keys that are not identifiers quoted, as the code writes them,
 * after ` › ` (a dot before a quoted key would read as a member access): `create.Program:exit` →
 * `create › "Program:exit"`. The index keeps the key unquoted, so a search finds it as typed.
 */
function keyPath(breadcrumb: string): string {
  const parts = breadcrumb.split('.');
  if (parts.every((p) => IDENTIFIER.test(p))) return breadcrumb;
  return parts.reduce((out, part, i) => {
    const plain = IDENTIFIER.test(part);
    const shown = plain ? part : JSON.stringify(part);
    if (i === 0) return shown;
    return `${out}${plain && IDENTIFIER.test(parts[i - 1] as string) ? '.' : ' › '}${shown}`;
  }, '');
}
