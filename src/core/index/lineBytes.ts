// Where chunks start in their file's bytes. A hit's preview then reads the file from its
// first line: previews of chunks deep in large files read most of the time of a fresh
// `cairn search` when they scanned from the top for line breaks. A chunk that stands for
// characters rather than lines (a piece of a minified line) records their byte range, so its
// text is read back without reading, or printing, the whole line.

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
  const bom = bomBytes(text, fileSize, ascii);
  if (bom === undefined) return out;
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

/**
 * The byte range in the file of each character range of `text` (UTF-16 offsets, end exclusive):
 * `out[2k]..out[2k+1]` for `spans[k]`, NO_START_BYTE for a missing span, or for all when the size
 * does not match the text. One pass over the text whatever the number of spans (a minified line
 * holds thousands).
 */
export function spanBytes(text: string, fileSize: number, spans: ReadonlyArray<readonly [number, number] | undefined>): Uint32Array {
  const out = new Uint32Array(spans.length * 2).fill(NO_START_BYTE);
  const ascii = !NON_ASCII.test(text);
  const bom = bomBytes(text, fileSize, ascii);
  if (bom === undefined) return out;
  const order: number[] = [];
  spans.forEach((s, k) => {
    if (!s || !(s[0] >= 0 && s[0] <= s[1] && s[1] <= text.length)) return;
    if (ascii) {
      out[2 * k] = bom + s[0];
      out[2 * k + 1] = bom + s[1];
    } else order.push(2 * k, 2 * k + 1);
  });
  if (order.length === 0) return out;
  const offsetOf = (i: number): number => (spans[i >> 1] as readonly [number, number])[i & 1];
  order.sort((a, b) => offsetOf(a) - offsetOf(b));
  let char = 0;
  let byte = bom;
  for (const i of order) {
    const target = offsetOf(i);
    if (target > char) {
      byte += Buffer.byteLength(text.slice(char, target), 'utf8');
      char = target;
    }
    out[i] = byte;
  }
  return out;
}

/** The BOM's bytes (0 or 3) for a file of `fileSize` bytes holding `text`, or undefined when they do not fit. */
function bomBytes(text: string, fileSize: number, ascii: boolean): number | undefined {
  const bom = fileSize - (ascii ? text.length : Buffer.byteLength(text, 'utf8'));
  return bom === 0 || bom === 3 ? bom : undefined;
}
