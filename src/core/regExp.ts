// Text placed inside a regular expression as itself.

/** `s` with every character a RegExp gives a meaning escaped, so the pattern matches `s` literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
