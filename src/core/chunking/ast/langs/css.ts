// CSS: rule sets (symbol = selector) and at-rules; `@media`/`@supports` contain rule sets.
import type { Node } from 'web-tree-sitter';
import { childOfType, oneLine, setOf, type DefInfo, type LanguageSpec } from '../spec';

const NESTING_AT_RULES = setOf('media_statement', 'supports_statement', 'at_rule');

/** The at-rule's prelude: `@media (max-width: 600px)`. */
function prelude(node: Node, block: Node | undefined): string {
  const end = block ? block.startIndex - node.startIndex : undefined;
  return oneLine(node.text.slice(0, end).replace(/;$/, ''), 120);
}

export const cssSpec: LanguageSpec = {
  comments: setOf('comment', 'js_comment'),
  definition(node, type): DefInfo | undefined {
    if (type === 'rule_set') {
      const selectors = childOfType(node, 'selectors');
      return { kind: 'rule', name: oneLine(selectors?.text ?? '', 120), node, body: childOfType(node, 'block') ?? null };
    }
    if (NESTING_AT_RULES.has(type)) {
      const block = childOfType(node, 'block');
      const info: DefInfo = { kind: 'rule', name: prelude(node, block), node, body: block ?? null };
      if (block) info.members = block;
      return info;
    }
    if (type === 'keyframes_statement') {
      const block = childOfType(node, 'keyframe_block_list');
      return { kind: 'rule', name: prelude(node, block), node, body: block ?? null };
    }
    return undefined;
  },
};
