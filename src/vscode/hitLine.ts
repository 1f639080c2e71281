// Which line of a hit the views show and the editor opens at: the preview's line (the chunk's
// best match), as VS Code's own Search view shows and opens a match. Plain functions of a hit,
// without `vscode`, so they are tested in plain Node.

/** A place in a file: 1-based line (as every Cairn line), 0-based column in UTF-16 units (VS Code's `character`). */
export interface CaretPosition {
  line: number;
  column?: number;
}

/** What opening a hit needs to know beyond its span. */
export interface CaretHints {
  startLine: number;
  endLine: number;
  /** An explicit place, which wins over everything else. */
  at?: CaretPosition;
  /** Where the hit's definition is named (1-based line and column), for symbol hits and definition chunks. */
  nameLine?: number;
  nameColumn?: number;
  preview?: string;
  previewLine?: number;
  matchLines?: readonly number[];
}

/**
 * Where opening a hit puts the caret: the explicit place; else, for a search hit (one with
 * `matchLines`), the preview's line when it matched, or the first matching line, or the preview's
 * line; else, for a symbol, its name (not the doc comment or decorator its range starts with).
 * Undefined for a plain span (nothing to point at): the caret then goes to its first line.
 */
export function caretOf(hit: CaretHints): CaretPosition | undefined {
  if (hit.at) return hit.at;
  if (!hit.matchLines) return hit.nameLine !== undefined ? { line: hit.nameLine, column: Math.max(0, (hit.nameColumn ?? 1) - 1) } : undefined;
  const line = hit.previewLine !== undefined && hit.matchLines.includes(hit.previewLine) ? hit.previewLine : (hit.matchLines[0] ?? hit.previewLine ?? hit.startLine);
  return { line };
}

/** The first word marked «…» in the preview's first line (what the caret goes before), if any. */
export function firstMarkedWord(preview: string | undefined): string | undefined {
  const first = preview?.split('\n', 1)[0] ?? '';
  return /«([^»]+)»/.exec(first)?.[1];
}

/** The column of `word` as a whole word in `lineText`, else of its first non-blank character. */
export function caretColumn(lineText: string, word: string | undefined): number {
  if (word) {
    for (let i = lineText.indexOf(word); i >= 0; i = lineText.indexOf(word, i + 1)) {
      const before = lineText[i - 1];
      const after = lineText[i + word.length];
      if ((before === undefined || !/[\p{L}\p{N}_$]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}_$]/u.test(after))) return i;
    }
  }
  const indent = /^\s*/.exec(lineText)?.[0].length ?? 0;
  return indent < lineText.length ? indent : 0;
}

/**
 * The column of the preview's first marked word in `lineText`: the occurrence the preview shows,
 * found with the text before it in the preview. A piece of a minified line previews its own
 * characters, so the word's first occurrence in the whole line is often another piece's, far
 * from the match; the text before the word pins the right one. Without a marked word, or when
 * the preview's text is not in the line (a numbered ripgrep preview, a changed file), as
 * `caretColumn` finds it.
 */
export function matchColumn(lineText: string, preview: string | undefined): number {
  const first = preview?.split('\n', 1)[0] ?? '';
  const word = firstMarkedWord(first);
  const marker = first.indexOf('«');
  if (word === undefined || marker < 0) return caretColumn(lineText, word);
  // The preview's text around the word as the file has it: no markers, no `…` where a long line was cut.
  const before = first.slice(0, marker).replace(/[«»]/g, '').replace(/^…/, '').trimStart();
  const after = first.slice(marker + word.length + 2).replace(/[«»]/g, '').replace(/…$/, '');
  for (const [head, tail] of [[before, after], [before, ''], ['', after]] as const) {
    if (!head && !tail) continue;
    const at = lineText.indexOf(`${head}${word}${tail}`);
    if (at >= 0) return at + head.length;
  }
  return caretColumn(lineText, word);
}

/** The line a view shows for a hit: its number and text (trimmed, markers removed); text '' without a preview. */
export function shownLine(hit: { preview: string; previewLine?: number; startLine: number }): { line: number; text: string } {
  const lines = hit.preview.split('\n');
  const k = lines.findIndex((l) => l.trim().length > 0);
  const text = k >= 0 ? (lines[k] as string).trim().replace(/[«»]/g, '') : '';
  // A ripgrep preview numbers its lines already (`12: text`).
  const numbered = /^(\d+): (.*)$/.exec(text);
  if (numbered && Number(numbered[1]) === hit.previewLine) return { line: hit.previewLine, text: numbered[2] as string };
  return { line: (hit.previewLine ?? hit.startLine) + Math.max(k, 0), text };
}
