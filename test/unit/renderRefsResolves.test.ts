// The MCP references tool's marks and JSON: a certain reference says which definition it
// resolves to (another file's, in its marks; always, in its JSON).
import { checkAll } from './check';
import { compactReference, referenceMarks, type ToolReference } from '../../src/tools/renderRefs';

const ref = (over: Partial<ToolReference>): ToolReference => ({
  path: 'lib/boot.js', line: 2, column: 1, endColumn: 11, role: 'code', context: '', contextKind: 'code', text: "loadConfig('b');", certainty: 'certain', reason: 'imports it from lib/legacy.js', language: 'javascript', ...over,
});

describe('references as the MCP tool shows them', () => {
  checkAll<ToolReference, string>(
    [
      { name: 'certain through an import: the definition it resolves to', input: ref({ resolvesTo: { path: 'lib/legacy.js', line: 1 } }), expected: '[certain, resolves to lib/legacy.js:1]' },
      { name: 'certain in the defining file: nothing more to say', input: ref({ path: 'lib/legacy.js', line: 5, resolvesTo: { path: 'lib/legacy.js', line: 1 } }), expected: '[certain]' },
      { name: 'a name match resolves to nothing', input: ref({ certainty: 'name-match', reason: "the receiver's type is not known" }), expected: '[name]' },
    ],
    referenceMarks,
  );
  checkAll<ToolReference, unknown>(
    [
      { name: 'json carries resolvesTo', input: ref({ resolvesTo: { path: 'lib/legacy.js', line: 1 } }), expected: { path: 'lib/legacy.js', line: 1 } },
      { name: 'json of a name match has none', input: ref({ certainty: 'name-match' }), expected: undefined },
    ],
    (r) => compactReference(r).resolvesTo,
  );
});
