// The short guidance `cairn setup --instructions` puts in the client's instructions file: when
// an agent should reach for Cairn's MCP tools instead of grep and whole-file reads. It lives
// between markers, so a re-run replaces only its own section and the rest of the file stays.

export const BEGIN = '<!-- cairn -->';
export const END = '<!-- /cairn -->';

const GUIDANCE = [
  '## Finding code with Cairn',
  '',
  'This workspace is indexed by Cairn (MCP server `cairn`). Prefer its tools to grep and to reading whole files:',
  '',
  '- `search_code` — where something is handled or described, in words or identifiers; returns ranked `path:start-end` spans. Use it before grep for anything but an exact string (then pass `provider: "ripgrep"`).',
  '- `find_symbol` — go to a definition by name (`parseConfig`, `HttpServer.start`); exact matches come first.',
  '- `find_references` — where a name is used (callers, imports) before changing or renaming it: code only, never comments or strings; `[certain]` references resolve to the definition, `[name]` ones only share its name.',
  '- `get_context_pack` — before a change that spans files: what to read for the task, why, and what was left out, within a token budget.',
  '- `read_span` — read just the lines a result names (`src/app.ts:40-80`) instead of opening the whole file.',
  '- After editing files, call `refresh_index` so the next search sees the change.',
];

/** The marked section, markers included, ending with a newline. */
export function instructionsSection(): string {
  return [BEGIN, ...GUIDANCE, END, ''].join('\n');
}

/**
 * `existing` with Cairn's section put in: replaced where the markers already are, appended
 * after a blank line otherwise; a new file gets `preamble` (Cursor's rule front matter) first.
 */
export function withInstructions(existing: string | undefined, preamble = ''): string {
  const section = instructionsSection();
  if (existing === undefined || existing.trim() === '') return preamble + section;
  const begin = existing.indexOf(BEGIN);
  const end = begin >= 0 ? existing.indexOf(END, begin) : -1;
  if (begin >= 0 && end >= 0) {
    let after = end + END.length;
    if (existing.startsWith('\r\n', after)) after += 2;
    else if (existing[after] === '\n') after += 1;
    return existing.slice(0, begin) + section + existing.slice(after);
  }
  const separator = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return existing + separator + section;
}
