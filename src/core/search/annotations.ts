// The type a receiver's annotation gives it: a parameter or variable declared with a type
// (Python `user: User`, TypeScript `h: Handle`, `const k: Handle = …`, Rust `h: &Handle`,
// `mut r: &mut Runtime`) is a receiver of known type, so `h.run()` is that type's `run`.
// Textual, like jsBindings.ts: read from the lines of the chunk that holds the call, the last
// annotation of the name before the call counting. Languages that write the type first (Java,
// Go, C#) are not read: a name match stays one.

/** Languages whose declarations annotate a name with `name: Type`. */
const COLON_ANNOTATED: ReadonlySet<string> = new Set(['python', 'typescript', 'tsx', 'rust']);

const escape = (s: string): string => s.replace(/[$]/g, '\\$');

/**
 * Before the name, what makes `name: Type` a declaration rather than an object key or a
 * ternary: an opening parenthesis or a comma (a parameter list), a declaration keyword, or
 * the start of the line (Python's `owner: User = …`).
 */
const DECLARES = String.raw`(?:^\s*|[(,]\s*|\b(?:const|let|var|readonly|public|private|protected|mut)\s+)`;

/**
 * The type `name` is annotated with in `lines` (the chunk's lines up to the use), its last
 * segment (`models.User` → `User`, `crate::rt::Handle` → `Handle`); undefined when none is.
 * References, generics' arguments and Python's quoted forward references are looked through.
 */
export function annotatedType(lines: readonly string[], name: string, language: string): string | undefined {
  if (!COLON_ANNOTATED.has(language)) return undefined;
  const n = escape(name);
  const lead = language === 'rust' ? String.raw`&\s*(?:'\w+\s+)?(?:mut\s+)?` : language === 'python' ? `['"]` : '';
  const re = new RegExp(String.raw`${DECLARES}${n}\s*\??\s*:(?!:)\s*(?:${lead})?((?:[\p{L}_$][\p{L}\p{N}_$]*\s*(?:\.|::)\s*)*[\p{L}_$][\p{L}\p{N}_$]*)`, 'u');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = re.exec(lines[i] as string);
    if (m) return (m[1] as string).split(/\s*(?:\.|::)\s*/).pop();
  }
  return undefined;
}
