// JSON: one chunk per top-level key; a key whose object value exceeds the budget gets a summary
// and one chunk per nested key (one level down only).
import type { Node } from 'web-tree-sitter';
import { field, setOf, unquote, type LanguageSpec } from '../spec';

/**
 * A pair's key read from its text when it opens with a plain string literal: a JSON file is
 * mostly one-line keys, and the key field costs a node object and two calls into wasm each.
 * Anything else (a number key, an unterminated string) is left to the field.
 */
const STRING_KEY = /"((?:[^"\\\n]|\\.)*)"/y;

function keyName(node: Node, source: string): string | undefined {
  STRING_KEY.lastIndex = node.startIndex;
  const quoted = STRING_KEY.exec(source)?.[1];
  if (quoted !== undefined) return quoted;
  const key = field(node, 'key');
  return key ? unquote(key.text) : undefined;
}

export const jsonSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition(node, type, ctx) {
    if (type !== 'pair') return undefined;
    const name = keyName(node, ctx.source);
    if (name === undefined) return undefined;
    // The value is read only for a top-level pair over the budget: each read is a call into wasm.
    if (ctx.depth === 0 && node.endIndex - node.startIndex > ctx.budget) {
      const value = field(node, 'value');
      if (value?.type === 'object') return { kind: 'key', name, node, body: value, members: value };
    }
    return { kind: 'key', name, node };
  },
  // The root object's keys are the file's top-level definitions.
  flatten: (node, type, ctx) => (type === 'object' && ctx.depth === 0 && node.parent?.type === 'document' ? node : undefined),
};
