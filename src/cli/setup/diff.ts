// A unified diff of two small texts (configuration and instructions files), shown before
// `cairn setup` writes and as the whole output of --dry-run. Line-level LCS: these files are
// short, so the quadratic table costs nothing, and the hunks are the minimal ones.

const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; text: string };

/** `--- a/FILE`, `+++ b/FILE` and @@ hunks; empty when the texts are equal. A missing file is `/dev/null`. */
export function unifiedDiff(file: string, before: string | undefined, after: string): string {
  if (before === after) return '';
  const ops = lineOps(splitLines(before ?? ''), splitLines(after));
  const out = [`--- ${before === undefined ? '/dev/null' : `a/${file}`}`, `+++ b/${file}`];
  for (const hunk of hunks(ops)) out.push(...hunk);
  return out.join('\n');
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function lineOps(a: string[], b: string[]): Op[] {
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i++]! });
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: '-', text: a[i++]! });
    else ops.push({ kind: '+', text: b[j++]! });
  }
  return ops;
}

function* hunks(ops: Op[]): Generator<string[]> {
  const changes = ops.flatMap((o, k) => (o.kind === ' ' ? [] : [k]));
  let g = 0;
  while (g < changes.length) {
    // One hunk: changes no further apart than twice the context, with the context around them.
    let h = g;
    while (h + 1 < changes.length && changes[h + 1]! - changes[h]! <= 2 * CONTEXT + 1) h++;
    const start = Math.max(0, changes[g]! - CONTEXT);
    const end = Math.min(ops.length, changes[h]! + CONTEXT + 1);
    let oldLine = 1;
    let newLine = 1;
    for (let m = 0; m < start; m++) {
      if (ops[m]!.kind !== '+') oldLine++;
      if (ops[m]!.kind !== '-') newLine++;
    }
    const slice = ops.slice(start, end);
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    // An empty side is numbered by the line before it, as diff -u does.
    yield [`@@ -${oldCount ? oldLine : oldLine - 1},${oldCount} +${newCount ? newLine : newLine - 1},${newCount} @@`, ...slice.map((o) => `${o.kind}${o.text}`)];
    g = h + 1;
  }
}
