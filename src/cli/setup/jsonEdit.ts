// Setting one member of a JSON object by editing the text rather than rewriting it: every other
// byte of the file (its other servers, their layout, key order, spacing) stays as it was. The
// text is known to be valid JSON (JSON.parse read it first), so a small scanner that skips
// strings and nested brackets is enough to find where members start and end.

interface Member {
  key: string;
  /** Where the key's opening quote is. */
  keyStart: number;
  valueStart: number;
  /** One past the value's last character. */
  valueEnd: number;
}

interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (; i < text.length; i++) {
      const d = text[i];
      if (d === '"') i = skipString(text, i) - 1;
      else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return i;
  }
  while (i < text.length && !/[\s,}\]]/.test(text[i]!)) i++;
  return i;
}

function objectAt(text: string, open: number): ObjectSpan {
  const members: Member[] = [];
  let i = skipSpace(text, open + 1);
  while (text[i] === '"') {
    const keyStart = i;
    i = skipString(text, i);
    const key = JSON.parse(text.slice(keyStart, i)) as string;
    i = skipSpace(text, skipSpace(text, i) + 1); // past ':'
    const valueStart = i;
    i = skipValue(text, i);
    members.push({ key, keyStart, valueStart, valueEnd: i });
    i = skipSpace(text, i);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return { open, close: i, members };
}

/** The whitespace that starts the line holding `index`. */
function lineIndent(text: string, index: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** `value` as JSON text placed at a line indented by `indent`. */
function render(value: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(eol + indent);
}

/** `text` with `obj[key] = value` for the object opening at `open`, the rest untouched. */
function setMember(text: string, open: number, key: string, value: unknown, unit: string, eol: string): string {
  const span = objectAt(text, open);
  const existing = span.members.find((m) => m.key === key);
  if (existing) {
    return text.slice(0, existing.valueStart) + render(value, lineIndent(text, existing.keyStart), unit, eol) + text.slice(existing.valueEnd);
  }
  const last = span.members[span.members.length - 1];
  if (last) {
    const indent = lineIndent(text, last.keyStart);
    return `${text.slice(0, last.valueEnd)},${eol}${indent}${JSON.stringify(key)}: ${render(value, indent, unit, eol)}${text.slice(last.valueEnd)}`;
  }
  const outer = lineIndent(text, open);
  const inner = outer + unit;
  return `${text.slice(0, open)}{${eol}${inner}${JSON.stringify(key)}: ${render(value, inner, unit, eol)}${eol}${outer}}${text.slice(span.close + 1)}`;
}

/**
 * `text` (a valid JSON object) with `text[outerKey][name] = entry`, edited in place; the
 * object `outerKey` is added when missing. Undefined when the edit cannot be done in place
 * or is not worth it (a one-line file); the caller then rewrites the whole file. The parse
 * check at the end makes sure an edit says exactly what `expected` says.
 */
export function setNestedMember(text: string, outerKey: string, name: string, entry: unknown, expected: unknown): string | undefined {
  const top = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  // A file on one line has no layout worth keeping: rewritten, it becomes readable.
  if (text[top] !== '{' || !text.trim().includes('\n')) return undefined;
  const unit = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const outer = objectAt(text, top).members.find((m) => m.key === outerKey);
  let edited: string;
  if (outer && text[outer.valueStart] === '{') edited = setMember(text, outer.valueStart, name, entry, unit, eol);
  else if (!outer) edited = setMember(text, top, outerKey, { [name]: entry }, unit, eol);
  else return undefined;
  try {
    return JSON.stringify(JSON.parse(edited)) === JSON.stringify(expected) ? edited : undefined;
  } catch {
    return undefined;
  }
}
