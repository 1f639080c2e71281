// JSON: one chunk per top-level key; a key whose object value exceeds the budget gets a summary
// and one chunk per nested key (one level down only).
import { field, setOf, unquote, type LanguageSpec } from '../spec';

export const jsonSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition(node, type, ctx) {
    if (type !== 'pair') return undefined;
    const key = field(node, 'key');
    if (!key) return undefined;
    const name = unquote(key.text);
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
