// Syntax-error accounting for a parsed tree, walking only the paths that contain errors.
import type { Node } from 'web-tree-sitter';

export interface ErrorScan {
  /** ERROR and MISSING nodes. */
  count: number;
  /** Characters inside outermost ERROR regions (the root itself excepted: see below). */
  errorChars: number;
}

/** Caps the walk on pathological inputs; the count is then a lower bound. */
const MAX_VISITS = 200_000;

export function scanErrors(root: Node): ErrorScan {
  const scan: ErrorScan = { count: 0, errorChars: 0 };
  if (!root.hasError) return scan;
  if (root.isError) {
    scan.count++;
    // A root ERROR wraps the whole file even when most of it parsed: count only its loose tokens.
    for (const c of root.children) if (c && !c.isNamed) scan.errorChars += c.endIndex - c.startIndex;
  }
  const stack: Array<{ node: Node; inError: boolean }> = [];
  const pushChildren = (node: Node, inError: boolean): void => {
    for (const c of node.children) if (c && (c.hasError || c.isMissing)) stack.push({ node: c, inError });
  };
  pushChildren(root, false);
  for (let visits = 0; stack.length > 0 && visits < MAX_VISITS; visits++) {
    const { node, inError } = stack.pop()!;
    if (node.isMissing) scan.count++;
    if (node.isError) {
      scan.count++;
      if (!inError) scan.errorChars += node.endIndex - node.startIndex;
    }
    pushChildren(node, inError || node.isError);
  }
  return scan;
}
