// Turning comments and docstrings into plain documentation text for Chunk.docstring.

const DOC_MAX = 2000;

const OPENING = /^(?:\/\*+!?|\/\/[/!]?|#+!?|<!--|--+|\*+(?!\/))\s?/;
const CLOSING = /\s*(?:\*+\/|-->)$/;

/** Strips comment markers (`/** *\/`, `///`, `//`, `#`, leading `*`) and trims each line. */
export function cleanComment(text: string): string {
  // The result is capped anyway: long license blocks are not read to their end.
  const lines = text.slice(0, 2 * DOC_MAX).split('\n');
  for (let i = 0; i < lines.length; i++) lines[i] = lines[i]!.trim().replace(OPENING, '').replace(CLOSING, '');
  return cap(lines.join('\n').trim());
}

/** The text of a string literal used as a docstring (Python): quotes and prefixes removed, dedented. */
export function stringLiteralDoc(literal: string): string {
  const text = literal.trim();
  const open = /^[rRbBuUfF]{0,2}("""|'''|"|')/.exec(text);
  const quote = open?.[1] ?? '';
  const body = open ? text.slice(open[0].length, text.endsWith(quote) && text.length >= open[0].length + quote.length ? text.length - quote.length : text.length) : text;
  const lines = body.split('\n');
  const indents = lines.slice(1).filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const indent = indents.length > 0 ? Math.min(...indents) : 0;
  return cap([lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(indent).trimEnd())].join('\n').trim());
}

function cap(s: string): string {
  return s.length > DOC_MAX ? `${s.slice(0, DOC_MAX - 1)}…` : s;
}
