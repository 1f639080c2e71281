// Definitions first: searching a defined name alone puts its definition first, above call sites
// and tests that mention the name more often, including a module constant that lives in an
// unnamed chunk; anything else (other words, another spelling) is ranked as before.
import * as assert from 'node:assert/strict';
import type { Engine } from '../../src/core/engine/engine';
import { SymbolDictionary } from '../../src/core/index/symbolDict';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

const FILES: Record<string, string> = {
  'src/signals.py': [
    'from blinker import Namespace',
    '',
    '_signals = Namespace()',
    'template_rendered = _signals.signal("template-rendered")',
    'request_started = _signals.signal("request-started")',
    '',
  ].join('\n'),
  'src/render.py': [
    'from .signals import template_rendered, request_started',
    '',
    '',
    'def render(app, template, context):',
    '    """Renders and tells template_rendered listeners; template_rendered is sent once."""',
    '    template_rendered.send(app, template=template, context=context)',
    '    request_started.send(app)',
    '    return template.render(context)',
    '',
  ].join('\n'),
  'tests/test_signals.py': [
    'from src.signals import template_rendered',
    '',
    '',
    'def test_template_rendered():',
    '    recorded = []',
    '    template_rendered.connect(recorded.append)',
    '    template_rendered.connect(print)',
    '    template_rendered.disconnect(print)',
    '    assert template_rendered.receivers',
    '',
  ].join('\n'),
  'lib/messages.js': [
    'function report(context, node) {',
    '  const data = getDefinedMessageData(node);',
    '  const again = getDefinedMessageData(node.parent);',
    '  return context.report({ node, data: getDefinedMessageData(node) || again });',
    '}',
    '',
    'function getDefinedMessageData(node) {',
    '  return node.data;',
    '}',
    '',
    'module.exports = { report, getDefinedMessageData };',
    '',
  ].join('\n'),
  // `html` defined by a module, and as the keys of anonymous objects that say html more often.
  'lib/users.js': ['exports.html = function (req, res) {', "  res.send('<ul></ul>');", '};', ''].join('\n'),
  'examples/pages.js': [
    'app.use(function (req, res) {',
    '  res.format({',
    '    html: function () {',
    "      res.render('html', { html: 'html page', title: 'html' });",
    '    },',
    '  });',
    '});',
    'app.get(function (req, res) {',
    '  res.format({',
    '    html() {',
    "      res.send('html html html');",
    '    },',
    '  });',
    '});',
    '',
  ].join('\n'),
  'tests/test_long.py': [
    'def helper():',
    '    return 1',
    '',
    '',
    'def test_method_field_passed_serialize_only_is_dump_only_on_load():',
    '    assert helper() == 1',
    '',
  ].join('\n'),
};

/** The first hit's `path:startLine-endLine`, and whether the first hit's lines hold the definition line. */
const first = async (engine: Engine, query: string): Promise<string> => {
  const hit = (await engine.search(query, { refresh: 'never', previewLines: 0 })).results[0];
  return hit ? `${hit.path}:${hit.nameLine ?? hit.startLine}` : '(nothing)';
};

describe('definitions first in search', function () {
  this.timeout(60000);
  let ws: TempWorkspace;
  let engine: Engine;
  before(async () => {
    ws = new TempWorkspace(FILES);
    engine = ws.engine();
    await engine.refresh();
  });
  after(() => ws.dispose());

  checkAll(
    [
      { name: 'a module constant (unnamed chunk) outranks the test and the caller that repeat its name', input: 'template_rendered', expected: 'src/signals.py:4' },
      { name: 'a function defined below three calls of it', input: 'getDefinedMessageData', expected: 'lib/messages.js:7' },
      { name: 'a name too long to be indexed as a word is still found where it is defined', input: 'test_method_field_passed_serialize_only_is_dump_only_on_load', expected: 'tests/test_long.py:5' },
      { name: "a module's function outranks keys of anonymous objects (res.format({ html })) that say the name more often", input: 'html', expected: 'lib/users.js:1' },
      { name: 'another spelling of the name is not pinned: plain ranking puts the caller first', input: 'TEMPLATE_RENDERED', expected: 'src/render.py:4' },
      { name: 'more words than the name: plain ranking', input: 'template_rendered connect', expected: 'tests/test_signals.py:4' },
    ],
    (q) => first(engine, q),
  );

  it('the pinned definition says why in its score breakdown, and scores still descend', async () => {
    const hits = (await engine.search('template_rendered', { refresh: 'never', previewLines: 0 })).results;
    assert.ok(hits[0]?.scoreBreakdown.some((p) => p.kind === 'match' && p.name === 'defines the name searched for (ranked first)'), JSON.stringify(hits[0]?.scoreBreakdown));
    for (let i = 1; i < hits.length; i++) assert.ok((hits[i - 1] as { score: number }).score >= (hits[i] as { score: number }).score);
    const total = (hits[0]?.scoreBreakdown ?? []).reduce((t, p) => t + p.value, 0);
    assert.ok(Math.abs(total - (hits[0]?.score ?? 0)) < 1e-3, 'the breakdown adds up to the score');
  });

  it('a one-word search reads only that name\'s rows of the symbol table, defined or not', async () => {
    // The near-name tiers (prefix, initials, edit distance over every name) find nothing a
    // pinned definition can use; reading them cost a one-word query a walk of every name.
    const proto = SymbolDictionary.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const tiers = ['named', 'prefixed', 'keyed', 'withInitials', 'all'] as const;
    const originals = tiers.map((t) => [t, proto[t]] as const);
    const asked: string[] = [];
    for (const [t, original] of originals) {
      proto[t] = function (this: unknown, ...args: unknown[]) {
        asked.push(t);
        return original?.apply(this, args);
      };
    }
    try {
      for (const q of ['template_rendered', 'walrus', 'rendered']) await engine.search(q, { refresh: 'never', previewLines: 0 });
    } finally {
      for (const [t, original] of originals) proto[t] = original as (...args: unknown[]) => unknown;
    }
    assert.ok(asked.length > 0, 'the symbol table was asked');
    assert.deepEqual([...new Set(asked)], ['named']);
  });

  it('a filter that excludes the definition leaves the other hits in plain order', async () => {
    const hits = (await engine.search('template_rendered', { refresh: 'never', previewLines: 0, paths: ['tests/**'] })).results;
    assert.deepEqual([...new Set(hits.map((h) => h.path))], ['tests/test_signals.py']);
  });
});
