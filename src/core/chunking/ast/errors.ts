// Syntax-error accounting for a parsed tree, walking only the paths that contain errors.
import type { Node } from 'web-tree-sitter';

export interface ErrorScan {
  /** ERROR and MISSING nodes found. */
  count: number;
  /** True when the walk stopped at its cap: `count` is then a lower bound. */
  capped: boolean;
  /** Characters inside outermost ERROR regions (the root itself excepted: see below). */
  errorChars: number;
}

/**
 * Nodes visited at most. The walk is breadth-first, so the outermost ERROR regions (what
 * errorChars measures) are found first; only the count of deeply nested errors is cut short.
 */
const MAX_VISITS = 4000;

export function scanErrors(root: Node): ErrorScan {
  const scan: ErrorScan = { count: 0, capped: false, errorChars: 0 };
  if (!root.hasError) return scan;
  if (root.isError) {
    scan.count++;
    // A root ERROR wraps the whole file even when most of it parsed: count only its loose tokens.
    for (const c of root.children) if (c && !c.isNamed) scan.errorChars += c.endIndex - c.startIndex;
  }
  const queue: Array<{ node: Node; inError: boolean }> = [];
  const enqueueChildren = (node: Node, inError: boolean): void => {
    // hasError also holds for MISSING nodes (they carry an error cost).
    for (const c of node.children) if (c?.hasError) queue.push({ node: c, inError });
  };
  enqueueChildren(root, false);
  let head = 0;
  for (; head < queue.length && head < MAX_VISITS; head++) {
    const { node, inError } = queue[head]!;
    if (node.isMissing) scan.count++;
    const isError = node.isError;
    if (isError) {
      scan.count++;
      if (!inError) scan.errorChars += node.endIndex - node.startIndex;
    }
    enqueueChildren(node, inError || isError);
  }
  scan.capped = head < queue.length;
  return scan;
}
