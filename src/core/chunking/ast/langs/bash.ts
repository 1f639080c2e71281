// Bash: functions; everything else is script code.
import { field, fieldText, setOf, type LanguageSpec } from '../spec';

export const bashSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition(node, type) {
    if (type !== 'function_definition') return undefined;
    const name = fieldText(node, 'name');
    return name ? { kind: 'function', name, node, body: field(node, 'body') } : undefined;
  },
};
