// The compiled query: a query's one interpretation, which the scorer, the ranking boosts and
// preview marking all read. Its clauses (fields, presence bits, each word whole, stemmed and in
// parts), the words boosts look for, the words previews mark; and a hit matched through a stem,
// a part or an expansion has that word marked in its preview.
import { checkAll } from './check';
import { compileQuery, type CompiledQuery } from '../../src/core/search/compiled';
import { c, searcher } from './helpers/snapshot';

/** A clause as the table below spells it: words are `whole/stem` plus `[part/stem …]`, then the presence bit. */
function clauses(q: CompiledQuery) {
  const form = (w: string, stem: string) => (stem === w ? w : `${w}/${stem || '∅'}`);
  return q.clauses.map((k) => ({
    raw: k.raw,
    fields: k.fields.length > 1 ? 'all' : k.fields.join(),
    presence: k.presence,
    boost: k.boost,
    terms: k.wildcard
      ? [`${k.wildcard.pattern} (prefix ${k.wildcard.prefix}) #${k.wildcard.bit}`]
      : k.words.map((w) => `${form(w.whole, w.stem)}${w.parts.length ? ` [${w.parts.map((p, i) => form(p, w.partStems[i] as string)).join(' ')}]` : ''}${k.editDistance ? ` ~${k.editDistance}` : ''} #${w.bit}`),
  }));
}

describe('the compiled query', () => {
  describe('clauses: fields, presence, boost, each word whole, stemmed and in parts, its presence bit', () => {
    checkAll(
      [
        {
          input: 'parsing fetchUserNames',
          expected: [
            { raw: 'parsing', fields: 'all', presence: 'optional', boost: 1, terms: ['parsing/pars #0'] },
            { raw: 'fetchUserNames', fields: 'all', presence: 'optional', boost: 1, terms: ['fetchusernames/fetchusernam [fetch user names/name] #1'] },
          ],
        },
        {
          input: '+parse -test',
          expected: [
            { raw: 'parse', fields: 'all', presence: 'required', boost: 1, terms: ['parse/pars #0'] },
            { raw: 'test', fields: 'all', presence: 'prohibited', boost: 1, terms: ['test #1'] },
          ],
        },
        {
          name: 'a field term of two words: one clause, a bit per word',
          input: 'path:src/api handler',
          expected: [
            { raw: 'src/api', fields: 'path', presence: 'optional', boost: 1, terms: ['src #0', 'api #1'] },
            { raw: 'handler', fields: 'all', presence: 'optional', boost: 1, terms: ['handler #2'] },
          ],
        },
        {
          input: 'fetch* user',
          expected: [
            { raw: 'fetch*', fields: 'all', presence: 'optional', boost: 1, terms: ['fetch* (prefix fetch) #0'] },
            { raw: 'user', fields: 'all', presence: 'optional', boost: 1, terms: ['user #1'] },
          ],
        },
        { input: 'tokenzie~1', expected: [{ raw: 'tokenzie', fields: 'all', presence: 'optional', boost: 1, terms: ['tokenzie/tokenzi ~1 #0'] }] },
        { input: 'name:Greeter^3', expected: [{ raw: 'Greeter', fields: 'symbol', presence: 'optional', boost: 3, terms: ['greeter #0'] }] },
        {
          name: 'stop words of a long query weigh 0.2, and prose has no stem for them',
          input: 'fix the session cookie',
          expected: [
            { raw: 'fix', fields: 'all', presence: 'optional', boost: 1, terms: ['fix #0'] },
            { raw: 'the', fields: 'all', presence: 'optional', boost: 0.2, terms: ['the/∅ #1'] },
            { raw: 'session', fields: 'all', presence: 'optional', boost: 1, terms: ['session #2'] },
            { raw: 'cookie', fields: 'all', presence: 'optional', boost: 1, terms: ['cookie/cooki #3'] },
          ],
        },
      ],
      (q) => clauses(compileQuery(q)),
    );
  });

  describe('presence: required bits and excluded groups', () => {
    checkAll(
      [
        { input: '+parse -test', expected: { required: 0b1, prohibited: [0b10] } },
        { name: 'an excluded term of two words is one group', input: 'config -path:src/legacy +load', expected: { required: 0b1000, prohibited: [0b110] } },
        { input: 'plain words', expected: { required: 0, prohibited: [] } },
      ],
      (q) => {
        const { required, prohibited } = compileQuery(q);
        return { required, prohibited: [...prohibited] };
      },
    );
  });

  describe('positive words: marked in previews, names for the definition and file-name boosts', () => {
    checkAll(
      [
        {
          name: 'excluded words are none of them',
          input: '+parse -test',
          expected: { marked: ['parse'], identifiers: ['parse'], fileNames: ['parse'], joinedNames: [] },
        },
        {
          name: 'a path-only term names files but is not marked in previews (nor joined with a word of other fields)',
          input: 'path:router handler',
          expected: { marked: ['handler'], identifiers: ['router', 'handler'], fileNames: ['router', 'handler'], joinedNames: [] },
        },
        {
          name: 'a wildcard is marked by its prefix, and names nothing',
          input: 'fetch* user',
          expected: { marked: ['fetch', 'user'], identifiers: ['user'], fileNames: ['user'], joinedNames: [] },
        },
        {
          name: 'in a longer query only identifier-looking words name definitions; stop words are marked as such',
          input: 'fix the parseArgs call',
          expected: { marked: ['fix', 'the (stop word)', 'parseargs', 'call'], identifiers: ['parseargs'], fileNames: ['fix', 'the', 'parseargs', 'call', 'fixthe', 'fix_the'], joinedNames: ['fixthe', 'fix_the'] },
        },
        {
          name: 'adjacent words spell names',
          input: 'parse args',
          expected: { marked: ['parse', 'args'], identifiers: ['parse', 'args'], fileNames: ['parse', 'args', 'parseargs', 'parse_args'], joinedNames: ['parseargs', 'parse_args'] },
        },
      ],
      (q) => {
        const p = compileQuery(q);
        return {
          marked: p.marked.map((t) => (t.stopWord ? `${t.whole} (stop word)` : t.whole)),
          identifiers: [...p.identifiers],
          fileNames: [...p.fileNames],
          joinedNames: [...p.joinedNames],
        };
      },
    );
  });

  describe('what the scorer matched, the preview marks', () => {
    const search = searcher([
      c('docs/guide.md:1-1 section', 'Parsing the settings happens once at startup.'),
      c('src/profile.ts:1-3 function loadUserProfile', 'export function loadUserProfile(id) {\n  return db.get(id);\n}'),
      c('src/fetch.ts:1-1 text', 'const account = await fetch(url);'),
      c('src/settings.ts:1-1 text', 'export const value = readConfiguration();'),
      c('src/inbox.ts:1-1 text', 'inbox.receive(message);'),
    ]);
    checkAll(
      [
        { name: 'a prose stem (parses → pars)', input: 'parses', expected: { docid: 'docs/guide.md:1-1', terms: ['pars'], preview: '«Parsing» the settings happens once at startup.' } },
        {
          name: 'a query word that is a part of an identifier (user → loadUserProfile)',
          input: 'user',
          expected: { docid: 'src/profile.ts:1-3', terms: ['user'], preview: 'export function «loadUserProfile»(id) {\n  return db.get(id);\n}' },
        },
        { name: 'the parts of a camelCase query (fetchAccount → fetch, account)', input: 'fetchAccount', expected: { docid: 'src/fetch.ts:1-1', terms: ['fetch', 'account'], preview: 'const «account» = await «fetch»(url);' } },
        { name: 'a wildcard expansion (config* → the part configuration)', input: 'config*', expected: { docid: 'src/settings.ts:1-1', terms: ['config*→configuration'], preview: 'export const value = «readConfiguration»();' } },
        { name: 'a fuzzy expansion (recieve~1 → receive)', input: 'recieve~1', expected: { docid: 'src/inbox.ts:1-1', terms: ['recieve~receive'], preview: 'inbox.«receive»(message);' } },
      ],
      (q) => {
        const hit = search(q).hits[0];
        if (!hit) return undefined;
        const terms = [...new Set(hit.scoreBreakdown.flatMap((p) => (p.kind === 'field' && p.field !== 'path' ? [p.term] : [])))];
        return { docid: hit.docid, terms, preview: hit.preview };
      },
    );
  });
});
