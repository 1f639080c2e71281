// Where chunks start in their file's bytes. A hit's preview then reads the file from its
// first line: previews of chunks deep in large files read most of the time of a fresh
// `cairn search` when they scanned from the top for line breaks.

/** An offset that is not known: a line past the end, or a document built from chunks without their file's text. */
export const NO_START_BYTE = 0xffffffff;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The byte offset in the file of the start of each line of `lines` (1-based, any order), for
 * a file of `fileSize` bytes whose text is `text` (decoded UTF-8, BOM stripped; lines end at
 * `\n`, as the chunkers count them). A line past the end, or every line when the size does not
 * match the text (the file changed between its stat and its read), is NO_START_BYTE.
 */
export function lineStartBytes(text: string, fileSize: number, lines: readonly number[]): Uint32Array {
  const out = new Uint32Array(lines.length).fill(NO_START_BYTE);
  const ascii = !NON_ASCII.test(text);
  const textBytes = ascii ? text.length : Buffer.byteLength(text, 'utf8');
  const bom = fileSize - textBytes;
  if (bom !== 0 && bom !== 3) return out;
  const order = Array.from(lines.keys()).sort((a, b) => (lines[a] as number) - (lines[b] as number));
  let line = 1;
  let char = 0;
  let byte = 0;
  for (const k of order) {
    const target = lines[k] as number;
    if (!(target >= 1)) continue;
    while (line < target) {
      const nl = text.indexOf('\n', char);
      if (nl < 0) return out; // past the last line: this and every later target stay unknown
      byte += ascii ? nl + 1 - char : Buffer.byteLength(text.slice(char, nl + 1), 'utf8');
      char = nl + 1;
      line++;
    }
    out[k] = bom + byte;
  }
  return out;
}
