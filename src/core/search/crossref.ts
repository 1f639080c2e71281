// Docs ↔ code: the code names a piece of prose mentions, so search can add their definitions.

const BACKTICKED = /`([^`\n]{2,120})`/g;
/** Whole relative file paths with an extension (`src/api/client.ts`), not just the extension. */
const FILE_PATH = /(?:^|[\s(["'`])((?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+\.[A-Za-z0-9]{1,8})(?=$|[\s)\]"'`:,;.!?])/g;
const CAMEL = /\b[A-Z]?[a-z]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g;
const SNAKE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
const IDENT = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*$/;

/**
 * Likely code names in prose, most specific first: file paths, backticked identifiers
 * (`Foo.bar` yields `bar` too), CamelCase and snake_case words. Deduplicated, order-stable.
 */
export function crossReferenceNames(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (name: string) => {
    const n = name.replace(/\(\)$/, '');
    if (n.length < 3 || seen.has(n)) return;
    seen.add(n);
    out.push(n);
  };
  for (const m of text.matchAll(FILE_PATH)) add((m[1] as string).replace(/^\.\//, ''));
  for (const m of text.matchAll(BACKTICKED)) {
    const inner = (m[1] as string).trim().replace(/\(.*\)$/, '');
    if (inner.includes('/') && /\.[A-Za-z0-9]{1,8}$/.test(inner)) add(inner.replace(/^\.\//, ''));
    else if (IDENT.test(inner)) {
      const parts = inner.split(/\.|::|#/);
      add(parts[parts.length - 1] as string);
    }
  }
  for (const m of text.matchAll(CAMEL)) add(m[0]);
  for (const m of text.matchAll(SNAKE)) add(m[0]);
  return out;
}
