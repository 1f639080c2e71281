// Task texts localized through the engine, on small repositories: an error message found
// verbatim leads to the line saying it, a named test to the code it calls, and the files a
// strong candidate imports or is imported by get a share of its score.
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';
import { messageRun, quotedMessages } from '../../src/core/search/taskMessages';

/** Words that make a file rank high for the texts below without saying any message. */
const DECOY = `def keep_in_order(items, chosen):
    """Keep the select items, in order: a sequence."""
    return [e for e in items if e in chosen]
`;

const REPO = {
  'pkg/parser/grammar.py': DECOY,
  'pkg/parser/helpers.py': `def check_still_complete(segments_in, matched, unmatched):
    initial_str = "".join(s.raw for s in segments_in)
    current_str = "".join(s.raw for s in matched + unmatched)
    if initial_str != current_str:
        raise RuntimeError(
            "Dropped elements in sequence "
            "matching! {!r} != {!r}".format(initial_str, current_str)
        )
    return True
`,
  'pkg/rules/aliases.py': `class Rule_L031:
    """Avoid table aliases in from clauses and join conditions."""

    def _eval(self, segment):
        return LintResult(anchor=segment, description="Avoid using aliases in join condition")
`,
  'pkg/rules/joins.py': `class Rule_L032:
    """Joins: aliases in join conditions, join aliases, aliases in a join, join condition aliases."""

    def _eval(self, segment):
        """An alias in a join condition: join aliases, condition aliases."""
        return None
`,
  'tests/test_helpers.py': `import pytest
from pkg.parser.helpers import check_still_complete


def test_dropped_elements():
    with pytest.raises(RuntimeError, match="Dropped elements in sequence matching"):
        check_still_complete([], [], [])
`,
  'pkg/render.py': `def render_rows(rows, header):
    lines = [header]
    for row in rows:
        lines.append(" | ".join(row))
    return "\\n".join(lines)
`,
  'pkg/printer.py': `"""The table printer: prints a table, its header line, its rows; an empty table prints its header."""


def print_table(table, header):
    """Print the table: header line first, then each table row; no rows print the header line."""
    print(header)
`,
  'tests/test_output.py': `from pkg.output import show


def test_empty_table_keeps_header():
    assert render_rows([], "a") == "a"
`,
  'pkg/values.py': `def convert_value(raw):
    return int(raw)
`,
  'pkg/records.py': `from pkg.values import convert_value


class Dataset(dict):
    def as_dict(self):
        return {k: convert_value(v) for k, v in self.items()}
`,
  'pkg/jsonrep.py': `def json_dict(dataset):
    """A json dict of a dataset: json first."""
    return dict(dataset)
`,
  'pkg/output.py': `from pkg.render import render_rows


def show(rows):
    return render_rows(rows, "a")
`,
};

describe('task messages: what is looked for verbatim', () => {
  checkAll(
    [
      { name: 'values filled in are left out', input: "RuntimeError: Dropped elements in sequence matching! 'select id;;' != ';'", expected: ['Dropped elements in sequence matching'] },
      { name: 'a path in the message ends its run', input: 'F0010: error while parsing\nAstroidBuildingError: Unable to load file src\\project\\__init__.py:', expected: ['Unable to load file'] },
      { name: 'a quoted phrase in prose', input: 'L031 incorrectly triggers "Avoid using aliases in join condition" when no join present', expected: ['Avoid using aliases in join condition'] },
      { name: "the runtime's own message is left to the keywords", input: "AttributeError: 'AsStringVisitor' object has no attribute 'visit_unknown'", expected: [] },
      { name: 'too short to be telling', input: 'KeyError: \'name\'\nit says "not found"', expected: [] },
    ],
    (text) => quotedMessages(text).flatMap((m) => messageRun(m) ?? []),
  );
});

describe('localization: messages, named tests and neighbours, through the engine', () => {
  let ws: TempWorkspace;
  before(async function () {
    this.timeout(60_000);
    ws = new TempWorkspace(REPO);
    await ws.engine().refresh();
  });
  after(() => ws.dispose());

  const SIGNALS = new Set(['message-found', 'named-test']);
  const top = async (text: string) => {
    const r = await ws.engine().searchFiles(text, { refresh: 'never', limit: 10 });
    const first = r.files.find((f) => !f.path.startsWith('tests/'));
    return {
      path: first?.path,
      signals: (first?.scoreBreakdown ?? []).map((p) => ('name' in p ? p.name.split(':')[0] : '')).filter((n) => SIGNALS.has(n as string)),
      span: first?.spans[0]?.startLine,
      // The evidence's spans are read without previews; the files shown get theirs.
      previewed: (first?.spans ?? []).map((h) => h.preview !== ''),
      // The first span says which evidence shows it, and scores by it.
      spanWhy: (first?.spans[0]?.scoreBreakdown ?? []).flatMap((p) => (p.kind === 'match' && (first?.spans[0]?.score ?? 0) > 0 ? [p.name.split(':')[0]] : [])),
      // A task text is not a list of words every file must hold.
      partial: r.files.some((f) => f.partial || f.spans.some((h) => h.partial)),
    };
  };

  checkAll(
    [
      {
        name: 'an exception message, its values filled in, leads to the lines raising it (cut into two literals)',
        input: "Linting a query with two semicolons fails\nsqlfluff lint of `select id from tbl;;` gives\nRuntimeError: Dropped elements in sequence matching! 'select id from tbl;;' != ';'",
        expected: { path: 'pkg/parser/helpers.py', signals: ['message-found'], span: 1, previewed: [true], spanWhy: ['message-found'], partial: false },
      },
      {
        name: 'a quoted message leads to the rule that reports it',
        input: 'L031 incorrectly triggers "Avoid using aliases in join condition" when no join present\nBoth queries should pass; only the alias differs.',
        expected: { path: 'pkg/rules/aliases.py', signals: ['message-found'], span: 4, previewed: [true, true], spanWhy: ['message-found'], partial: false },
      },
      {
        name: 'a named test leads to the code its body calls, not only to the test',
        input: 'tests/test_output.py::test_empty_table_keeps_header fails since 2.1\nAn empty table printed with no rows loses its header line; the table printer should print the header.',
        expected: { path: 'pkg/render.py', signals: ['named-test'], span: 1, previewed: [true], spanWhy: ['named-test'], partial: false },
      },
    ],
    top,
  );

  checkAll(
    [
      {
        name: 'the file calling the named definition passes a file that only shares words',
        input: 'Converting a dataset to a json dict fails\nconvert_value raises on 2.0 in an IS field',
        expected: [
          ['pkg/values.py', ['definition-named-in-text']],
          ['pkg/records.py', ['imports-candidate']],
          ['pkg/jsonrep.py', []],
        ],
      },
    ],
    async (text) => {
      const r = await ws.engine().searchFiles(text, { refresh: 'never', limit: 3 });
      return r.files.map((f) => [f.path, f.scoreBreakdown.map((p) => ('name' in p ? p.name.split(':')[0] : '')).filter((n) => /-(?:text|candidate)$/.test(n as string))]);
    },
  );

  checkAll(
    [
      {
        name: "the pack's first span is where the message is raised, as file search has it",
        input: "Linting a query with two semicolons fails\nsqlfluff lint of `select id from tbl;;` gives\nRuntimeError: Dropped elements in sequence matching! 'select id from tbl;;' != ';'",
        expected: 'pkg/parser/helpers.py',
      },
    ],
    async (text) => (await ws.engine().buildPack(text, { refresh: 'never' })).mustInspect[0]?.path,
  );
});
