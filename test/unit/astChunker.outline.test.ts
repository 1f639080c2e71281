// The AST chunker's outline per language: which definitions become chunks, with what kind,
// symbol, breadcrumb and line range. One table per fixture under test/fixtures/chunking/.
import { checkAll } from './check';
import { chunkDoc, fixtureDoc, outline, type OutlineRow } from './astChunkerSupport';

interface OutlineCase {
  fixture: string;
  /** policy.astMaxChars; the default policy's 2400 when absent. */
  budget?: number;
  /** Include `parent` in the rows (where the breadcrumb is not physical nesting). */
  withParent?: boolean;
}

async function outlineOf(c: OutlineCase): Promise<OutlineRow[]> {
  const result = await chunkDoc(fixtureDoc(c.fixture), c.budget ?? 2400);
  return outline(result.chunks, c.withParent ?? false);
}

const code = (lines: string, context = ''): OutlineRow => ({ kind: 'code', symbol: '', context, lines });

describe('AstChunker outline', function () {
  this.timeout(20000);

  describe('python', () => {
    checkAll<OutlineCase, OutlineRow[]>(
      [
        {
          name: 'decorated classes and functions, methods, nested class, UPPER_CASE constants',
          input: { fixture: 'python/shapes.py', withParent: true },
          expected: [
            code('1-6'),
            { kind: 'constant', symbol: 'MAX_SIDES', context: 'MAX_SIDES', lines: '8-8' },
            { kind: 'constant', symbol: 'DEFAULT_COLOR', context: 'DEFAULT_COLOR', lines: '9-9' },
            code('10-10'),
            { kind: 'class', symbol: 'Point', context: 'Point', lines: '13-30', decorators: ['@dataclass(frozen=True)'] },
            { kind: 'method', symbol: 'norm', context: 'Point.norm', lines: '20-23', parent: 'Point', decorators: ['@property'] },
            { kind: 'method', symbol: 'origin', context: 'Point.origin', lines: '25-27', parent: 'Point', decorators: ['@staticmethod'] },
            { kind: 'method', symbol: '_scaled', context: 'Point._scaled', lines: '29-30', parent: 'Point' },
            { kind: 'class', symbol: 'Polygon', context: 'Polygon', lines: '33-48' },
            { kind: 'constructor', symbol: '__init__', context: 'Polygon.__init__', lines: '36-37', parent: 'Polygon' },
            { kind: 'method', symbol: 'perimeter', context: 'Polygon.perimeter', lines: '39-44', parent: 'Polygon' },
            { kind: 'class', symbol: 'Builder', context: 'Polygon.Builder', lines: '46-48', parent: 'Polygon' },
            { kind: 'method', symbol: 'add', context: 'Polygon.Builder.add', lines: '47-48', parent: 'Polygon.Builder' },
            { kind: 'function', symbol: 'regular', context: 'regular', lines: '51-53', decorators: ['@lru_cache(maxsize=None)'] },
            { kind: 'function', symbol: 'load', context: 'load', lines: '56-57' },
            code('60-61'),
          ],
        },
      ],
      outlineOf,
    );
  });

  describe('typescript / tsx / javascript', () => {
    checkAll<OutlineCase, OutlineRow[]>(
      [
        {
          name: 'interfaces, type aliases, enums, abstract and generic classes with in/out variance, namespaces, arrow functions, export default',
          input: { fixture: 'typescript/shapes.ts' },
          expected: [
            code('1-2'),
            { kind: 'interface', symbol: 'Shape', context: 'Shape', lines: '4-8' },
            { kind: 'type', symbol: 'Mapper', context: 'Mapper', lines: '10-10' },
            { kind: 'enum', symbol: 'Unit', context: 'Unit', lines: '12-15' },
            { kind: 'class', symbol: 'Drawable', context: 'Drawable', lines: '17-39' },
            code('20-23', 'Drawable'),
            { kind: 'constructor', symbol: 'constructor', context: 'Drawable.constructor', lines: '25-27' },
            { kind: 'method', symbol: 'size', context: 'Drawable.size', lines: '31-34', decorators: ['@memoize()'] },
            { kind: 'method', symbol: '#reset', context: 'Drawable.#reset', lines: '36-38' },
            { kind: 'class', symbol: 'Circle', context: 'Circle', lines: '41-51' },
            { kind: 'method', symbol: 'area', context: 'Circle.area', lines: '44-46' },
            { kind: 'method', symbol: 'draw', context: 'Circle.draw', lines: '48-50' },
            { kind: 'namespace', symbol: 'Geometry', context: 'Geometry', lines: '53-66' },
            { kind: 'constant', symbol: 'EPSILON', context: 'Geometry.EPSILON', lines: '54-54' },
            { kind: 'function', symbol: 'nearlyEqual', context: 'Geometry.nearlyEqual', lines: '56-58' },
            { kind: 'class', symbol: 'Vector', context: 'Geometry.Vector', lines: '60-65' },
            { kind: 'constructor', symbol: 'constructor', context: 'Geometry.Vector.constructor', lines: '61-61' },
            { kind: 'method', symbol: 'length', context: 'Geometry.Vector.length', lines: '62-64' },
            { kind: 'function', symbol: 'load', context: 'load', lines: '68-71' },
            { kind: 'function', symbol: 'createShape', context: 'createShape', lines: '73-75' },
            { kind: 'function', symbol: 'helper', context: 'helper', lines: '77-77' },
            code('79-80'),
          ],
        },
        {
          name: 'a function over the budget is split at its statements, keeping its symbol',
          input: { fixture: 'typescript/reducer.ts' },
          expected: [
            code('1-2'),
            { kind: 'function', symbol: 'reducer', context: 'reducer', lines: '4-43' },
            { kind: 'function', symbol: 'reducer', context: 'reducer', lines: '44-53' },
            { kind: 'variable', symbol: 'initialState', context: 'initialState', lines: '55-55' },
          ],
        },
        {
          name: 'broken syntax: definitions outside the broken region survive, the region is code',
          input: { fixture: 'typescript/broken.ts' },
          expected: [
            code('1-1'),
            { kind: 'function', symbol: 'good', context: 'good', lines: '3-5' },
            code('7-11'),
            { kind: 'function', symbol: 'alsoGood', context: 'alsoGood', lines: '13-15' },
          ],
        },
        {
          name: 'tsx: components, arrow components, export default class',
          input: { fixture: 'tsx/Button.tsx' },
          expected: [
            code('1-1'),
            { kind: 'interface', symbol: 'ButtonProps', context: 'ButtonProps', lines: '3-6' },
            { kind: 'function', symbol: 'Button', context: 'Button', lines: '8-16' },
            { kind: 'function', symbol: 'Icon', context: 'Icon', lines: '18-18' },
            { kind: 'class', symbol: 'Panel', context: 'Panel', lines: '20-24' },
            { kind: 'method', symbol: 'render', context: 'Panel.render', lines: '21-23' },
          ],
        },
        {
          name: 'flow-typed .js: what the JavaScript grammar cannot parse is read with the TSX grammar',
          input: { fixture: 'javascript/location.js' },
          expected: [
            code('1-2'),
            { kind: 'type', symbol: 'Range', context: 'Range', lines: '4-4' },
            { kind: 'class', symbol: 'SourceLocation', context: 'SourceLocation', lines: '6-26' },
            { kind: 'constructor', symbol: 'constructor', context: 'SourceLocation.constructor', lines: '14-18' },
            { kind: 'method', symbol: 'range', context: 'SourceLocation.range', lines: '20-25' },
            { kind: 'function', symbol: 'span', context: 'span', lines: '28-30' },
          ],
        },
        {
          name: 'jsx: classes with private fields, CommonJS and prototype assignments',
          input: { fixture: 'javascript/server.jsx', withParent: true },
          expected: [
            code('1-2'),
            { kind: 'function', symbol: 'handler', context: 'handler', lines: '4-6' },
            { kind: 'function', symbol: 'App', context: 'App', lines: '8-8' },
            { kind: 'class', symbol: 'Server', context: 'Server', lines: '10-21' },
            { kind: 'constructor', symbol: 'constructor', context: 'Server.constructor', lines: '12-14', parent: 'Server' },
            { kind: 'method', symbol: 'create', context: 'Server.create', lines: '15-17', parent: 'Server' },
            { kind: 'method', symbol: 'start', context: 'Server.start', lines: '18-20', parent: 'Server' },
            { kind: 'function', symbol: 'createServer', context: 'createServer', lines: '23-25' },
            { kind: 'method', symbol: 'stop', context: 'Server.stop', lines: '27-27', parent: 'Server' },
            code('29-29'),
          ],
        },
      ],
      outlineOf,
    );
  });

  describe('go / rust / c / c++', () => {
    checkAll<OutlineCase, OutlineRow[]>(
      [
        {
          name: 'go: methods take their receiver type as parent; grouped type specs are separate',
          input: { fixture: 'go/server.go', withParent: true },
          expected: [
            code('1-9'),
            { kind: 'struct', symbol: 'Server', context: 'Server', lines: '11-15' },
            code('17-17'),
            { kind: 'type', symbol: 'Handler', context: 'Handler', lines: '18-19' },
            { kind: 'interface', symbol: 'Store', context: 'Store', lines: '20-23' },
            { kind: 'function', symbol: 'New', context: 'New', lines: '25-31' },
            { kind: 'method', symbol: 'Start', context: 'Server.Start', lines: '33-41', parent: 'Server' },
            { kind: 'method', symbol: 'handle', context: 'Server.handle', lines: '43-45', parent: 'Server' },
            { kind: 'method', symbol: 'Key', context: 'Pair.Key', lines: '47-47', parent: 'Pair' },
            { kind: 'struct', symbol: 'Pair', context: 'Pair', lines: '49-52' },
          ],
        },
        {
          name: 'rust: impl and trait summaries with methods under the type, attributes as decorators',
          input: { fixture: 'rust/lib.rs', withParent: true },
          expected: [
            code('1-3'),
            { kind: 'constant', symbol: 'MAX_KEYS', context: 'MAX_KEYS', lines: '5-5' },
            { kind: 'constant', symbol: 'GREETING', context: 'GREETING', lines: '6-6' },
            { kind: 'struct', symbol: 'Entry', context: 'Entry', lines: '8-13', decorators: ['#[derive(Debug, Clone, PartialEq)]'] },
            { kind: 'enum', symbol: 'Op', context: 'Op', lines: '15-18' },
            { kind: 'trait', symbol: 'Backend', context: 'Backend', lines: '20-26' },
            { kind: 'method', symbol: 'len', context: 'Backend.len', lines: '23-25', parent: 'Backend' },
            { kind: 'struct', symbol: 'Store', context: 'Store', lines: '28-31' },
            { kind: 'impl', symbol: 'Store', context: 'Store', lines: '33-43' },
            { kind: 'method', symbol: 'new', context: 'Store.new', lines: '34-36', parent: 'Store' },
            { kind: 'method', symbol: 'get', context: 'Store.get', lines: '38-42', parent: 'Store' },
            { kind: 'impl', symbol: 'Entry', context: 'Entry', lines: '45-49' },
            { kind: 'method', symbol: 'fmt', context: 'Entry.fmt', lines: '46-48', parent: 'Entry' },
            { kind: 'macro', symbol: 'entry', context: 'entry', lines: '51-55' },
            { kind: 'module', symbol: 'util', context: 'util', lines: '57-61' },
            { kind: 'function', symbol: 'checksum', context: 'util.checksum', lines: '58-60', parent: 'util' },
            { kind: 'type', symbol: 'Map', context: 'Map', lines: '63-63' },
            { kind: 'module', symbol: 'tests', context: 'tests', lines: '65-74', decorators: ['#[cfg(test)]'] },
            { kind: 'function', symbol: 'makes_entry', context: 'tests.makes_entry', lines: '69-73', parent: 'tests', decorators: ['#[test]'] },
          ],
        },
        {
          name: 'c: macros, structs, typedefs, unions, functions inside #ifdef',
          input: { fixture: 'c/list.c' },
          expected: [
            code('1-2'),
            { kind: 'macro', symbol: 'LIST_MIN', context: 'LIST_MIN', lines: '4-4' },
            { kind: 'macro', symbol: 'MAX', context: 'MAX', lines: '5-5' },
            { kind: 'struct', symbol: 'list', context: 'list', lines: '7-12' },
            { kind: 'struct', symbol: 'point_t', context: 'point_t', lines: '14-16' },
            { kind: 'type', symbol: 'compare_fn', context: 'compare_fn', lines: '18-18' },
            { kind: 'enum', symbol: 'color', context: 'color', lines: '20-20' },
            { kind: 'union', symbol: 'value', context: 'value', lines: '22-25' },
            code('27-27'),
            { kind: 'function', symbol: 'list_new', context: 'list_new', lines: '29-35' },
            { kind: 'function', symbol: 'list_push', context: 'list_push', lines: '37-44' },
            code('46-46'),
            { kind: 'function', symbol: 'list_dump', context: 'list_dump', lines: '47-49' },
            code('50-50'),
          ],
        },
        {
          name: 'a C++ header named .h: what the C grammar cannot parse is read with the C++ one',
          input: { fixture: 'c/widget.h', withParent: true },
          expected: [
            code('1-3'),
            { kind: 'namespace', symbol: 'ui', context: 'ui', lines: '5-19' },
            { kind: 'class', symbol: 'Widget', context: 'ui.Widget', lines: '7-17', parent: 'ui' },
            { kind: 'constructor', symbol: 'Widget', context: 'ui.Widget.Widget', lines: '9-9', parent: 'ui.Widget' },
            { kind: 'method', symbol: '~Widget', context: 'ui.Widget.~Widget', lines: '10-10', parent: 'ui.Widget' },
            { kind: 'method', symbol: 'name', context: 'ui.Widget.name', lines: '11-11', parent: 'ui.Widget' },
            { kind: 'method', symbol: 'as', context: 'ui.Widget.as', lines: '12-13', parent: 'ui.Widget' },
          ],
        },
        {
          name: 'c++: namespaces, templates, inline methods, out-of-class Foo::bar definitions',
          input: { fixture: 'cpp/shape.cpp', withParent: true },
          expected: [
            code('1-2'),
            { kind: 'namespace', symbol: 'geo', context: 'geo', lines: '4-34' },
            { kind: 'class', symbol: 'Shape', context: 'geo.Shape', lines: '6-16', parent: 'geo' },
            { kind: 'method', symbol: '~Shape', context: 'geo.Shape.~Shape', lines: '10-10', parent: 'geo.Shape' },
            { kind: 'method', symbol: 'name', context: 'geo.Shape.name', lines: '12-12', parent: 'geo.Shape' },
            { kind: 'struct', symbol: 'Point', context: 'geo.Point', lines: '18-23', parent: 'geo' },
            { kind: 'method', symbol: 'dot', context: 'geo.Point.dot', lines: '22-22', parent: 'geo.Point' },
            { kind: 'class', symbol: 'Circle', context: 'geo.Circle', lines: '25-32', parent: 'geo' },
            { kind: 'constructor', symbol: 'Circle', context: 'geo.Circle.Circle', lines: '27-27', parent: 'geo.Circle' },
            { kind: 'constructor', symbol: 'Shape', context: 'geo.Shape.Shape', lines: '36-36', parent: 'geo.Shape' },
            { kind: 'method', symbol: 'area', context: 'geo.Circle.area', lines: '38-40', parent: 'geo.Circle' },
            { kind: 'function', symbol: 'main', context: 'main', lines: '42-45' },
          ],
        },
      ],
      outlineOf,
    );
  });

  describe('java / c# / php / ruby / swift', () => {
    checkAll<OutlineCase, OutlineRow[]>(
      [
        {
          name: 'java: classes, nested class and enum with methods, interface default methods, records',
          input: { fixture: 'java/Repository.java' },
          expected: [
            code('1-4'),
            { kind: 'class', symbol: 'Repository', context: 'Repository', lines: '6-46', decorators: ['@Repository'] },
            { kind: 'constructor', symbol: 'Repository', context: 'Repository.Repository', lines: '14-16' },
            { kind: 'method', symbol: 'findAll', context: 'Repository.findAll', lines: '18-21', decorators: ['@Override'] },
            { kind: 'method', symbol: 'add', context: 'Repository.add', lines: '23-27' },
            { kind: 'class', symbol: 'Snapshot', context: 'Repository.Snapshot', lines: '31-37' },
            { kind: 'constructor', symbol: 'Snapshot', context: 'Repository.Snapshot.Snapshot', lines: '34-36' },
            { kind: 'enum', symbol: 'State', context: 'Repository.State', lines: '39-45' },
            { kind: 'method', symbol: 'isOpen', context: 'Repository.State.isOpen', lines: '42-44' },
            { kind: 'interface', symbol: 'Store', context: 'Store', lines: '48-54' },
            { kind: 'method', symbol: 'count', context: 'Store.count', lines: '51-53' },
            { kind: 'class', symbol: 'Pair', context: 'Pair', lines: '56-60' },
            { kind: 'constructor', symbol: 'Pair', context: 'Pair.Pair', lines: '57-59' },
          ],
        },
        {
          name: 'c#: namespace, attributes, expression-bodied members, structs, enums, records',
          input: { fixture: 'csharp/Inventory.cs' },
          expected: [
            code('1-2'),
            { kind: 'namespace', symbol: 'Shop.Inventory', context: 'Shop.Inventory', lines: '4-39' },
            { kind: 'class', symbol: 'Inventory', context: 'Shop.Inventory.Inventory', lines: '6-24', decorators: ['[Serializable]'] },
            { kind: 'constructor', symbol: 'Inventory', context: 'Shop.Inventory.Inventory.Inventory', lines: '14-16' },
            { kind: 'method', symbol: 'Add', context: 'Shop.Inventory.Inventory.Add', lines: '18-21' },
            { kind: 'method', symbol: 'Has', context: 'Shop.Inventory.Inventory.Has', lines: '23-23' },
            { kind: 'interface', symbol: 'IInventory', context: 'Shop.Inventory.IInventory', lines: '26-29' },
            { kind: 'struct', symbol: 'Sku', context: 'Shop.Inventory.Sku', lines: '31-34' },
            { kind: 'enum', symbol: 'Unit', context: 'Shop.Inventory.Unit', lines: '36-36' },
            { kind: 'class', symbol: 'Item', context: 'Shop.Inventory.Item', lines: '38-38' },
          ],
        },
        {
          name: 'php: class with attribute, interface, trait, function',
          input: { fixture: 'php/User.php' },
          expected: [
            code('1-6'),
            { kind: 'class', symbol: 'User', context: 'User', lines: '8-31', decorators: ['#[Entity]'] },
            { kind: 'constructor', symbol: '__construct', context: 'User.__construct', lines: '19-23' },
            { kind: 'method', symbol: 'find', context: 'User.find', lines: '25-28' },
            { kind: 'interface', symbol: 'HasName', context: 'HasName', lines: '33-36' },
            { kind: 'trait', symbol: 'Notifiable', context: 'Notifiable', lines: '38-44' },
            { kind: 'method', symbol: 'notify', context: 'Notifiable.notify', lines: '40-43' },
            { kind: 'function', symbol: 'slugify', context: 'slugify', lines: '46-49' },
          ],
        },
        {
          name: 'ruby: module, class, singleton methods, class << self, constants',
          input: { fixture: 'ruby/account.rb' },
          expected: [
            code('1-1'),
            { kind: 'constant', symbol: 'MAX_BALANCE', context: 'MAX_BALANCE', lines: '3-3' },
            { kind: 'module', symbol: 'Bank', context: 'Bank', lines: '5-37' },
            { kind: 'constant', symbol: 'VERSION', context: 'Bank.VERSION', lines: '6-6' },
            { kind: 'class', symbol: 'Account', context: 'Bank.Account', lines: '8-36' },
            { kind: 'constructor', symbol: 'initialize', context: 'Bank.Account.initialize', lines: '12-15' },
            { kind: 'method', symbol: 'open', context: 'Bank.Account.open', lines: '17-19' },
            { kind: 'method', symbol: 'deposit', context: 'Bank.Account.deposit', lines: '21-23' },
            { kind: 'method', symbol: 'audit!', context: 'Bank.Account.audit!', lines: '27-29' },
            { kind: 'method', symbol: 'registry', context: 'Bank.Account.registry', lines: '32-34' },
            { kind: 'function', symbol: 'helper', context: 'helper', lines: '39-39' },
          ],
        },
        {
          name: 'swift: protocol, class, struct, enum, extension, typealias',
          input: { fixture: 'swift/Shapes.swift' },
          expected: [
            code('1-1'),
            { kind: 'interface', symbol: 'Drawable', context: 'Drawable', lines: '3-6' },
            { kind: 'class', symbol: 'Shape', context: 'Shape', lines: '8-23', decorators: ['@available(iOS 13, *)'] },
            { kind: 'constructor', symbol: 'init', context: 'Shape.init', lines: '12-14' },
            { kind: 'method', symbol: 'draw', context: 'Shape.draw', lines: '16-18' },
            { kind: 'method', symbol: 'deinit', context: 'Shape.deinit', lines: '20-22' },
            { kind: 'struct', symbol: 'Point', context: 'Point', lines: '25-32' },
            { kind: 'method', symbol: 'distance', context: 'Point.distance', lines: '29-31' },
            { kind: 'enum', symbol: 'Direction', context: 'Direction', lines: '34-40' },
            { kind: 'method', symbol: 'opposite', context: 'Direction.opposite', lines: '37-39' },
            { kind: 'impl', symbol: 'Shape', context: 'Shape', lines: '42-44' },
            { kind: 'method', symbol: 'describe', context: 'Shape.describe', lines: '43-43' },
            { kind: 'type', symbol: 'Callback', context: 'Callback', lines: '46-46' },
            { kind: 'function', symbol: 'makeShapes', context: 'makeShapes', lines: '48-50' },
          ],
        },
      ],
      outlineOf,
    );
  });

  describe('bash / css / html / json', () => {
    checkAll<OutlineCase, OutlineRow[]>(
      [
        {
          name: 'bash: both function syntaxes, case statements, script code around them',
          input: { fixture: 'bash/deploy.sh' },
          expected: [
            code('1-2'),
            { kind: 'function', symbol: 'build', context: 'build', lines: '4-8' },
            { kind: 'function', symbol: 'deploy', context: 'deploy', lines: '10-16' },
            code('18-22'),
          ],
        },
        {
          name: 'css: rule sets by selector, @media as a container, at-rules',
          input: { fixture: 'css/site.css' },
          expected: [
            code('1-1'),
            { kind: 'rule', symbol: ':root', context: ':root', lines: '3-5' },
            { kind: 'rule', symbol: '.nav a, .nav button:hover', context: '.nav a, .nav button:hover', lines: '7-11' },
            { kind: 'rule', symbol: '@media (max-width: 600px)', context: '@media (max-width: 600px)', lines: '13-21' },
            { kind: 'rule', symbol: '.nav', context: '@media (max-width: 600px)..nav', lines: '14-16' },
            { kind: 'rule', symbol: '.menu', context: '@media (max-width: 600px)..menu', lines: '18-20' },
            { kind: 'rule', symbol: '@keyframes spin', context: '@keyframes spin', lines: '23-26' },
            { kind: 'rule', symbol: '@font-face', context: '@font-face', lines: '28-31' },
          ],
        },
        {
          name: 'html: structural elements, script/style blocks, tag#id symbols',
          input: { fixture: 'html/index.html' },
          expected: [
            code('1-1'),
            { kind: 'element', symbol: 'html', context: 'html', lines: '2-24' },
            { kind: 'element', symbol: 'head', context: 'html.head', lines: '3-9' },
            { kind: 'element', symbol: 'style', context: 'html.head.style', lines: '6-8' },
            { kind: 'element', symbol: 'body', context: 'html.body', lines: '10-23' },
            { kind: 'element', symbol: 'nav#main-nav', context: 'html.body.nav#main-nav', lines: '11-13' },
            { kind: 'element', symbol: 'section', context: 'html.body.section', lines: '15-18' },
            { kind: 'element', symbol: 'script', context: 'html.body.script', lines: '19-19' },
            { kind: 'element', symbol: 'script', context: 'html.body.script', lines: '20-22' },
          ],
        },
        {
          name: 'json: one chunk per top-level key',
          input: { fixture: 'json/package.json' },
          expected: [
            { kind: 'key', symbol: 'name', context: 'name', lines: '1-2' },
            { kind: 'key', symbol: 'version', context: 'version', lines: '3-3' },
            { kind: 'key', symbol: 'scripts', context: 'scripts', lines: '4-7' },
            { kind: 'key', symbol: 'dependencies', context: 'dependencies', lines: '8-10' },
            { kind: 'key', symbol: 'files', context: 'files', lines: '11-12' },
          ],
        },
        {
          name: 'json: an object value over the budget is summarised and its keys chunked one level down',
          input: { fixture: 'json/package.json', budget: 60, withParent: true },
          expected: [
            { kind: 'key', symbol: 'name', context: 'name', lines: '1-2' },
            { kind: 'key', symbol: 'version', context: 'version', lines: '3-3' },
            { kind: 'key', symbol: 'scripts', context: 'scripts', lines: '4-7' },
            { kind: 'key', symbol: 'build', context: 'scripts.build', lines: '5-5', parent: 'scripts' },
            { kind: 'key', symbol: 'test', context: 'scripts.test', lines: '6-6', parent: 'scripts' },
            { kind: 'key', symbol: 'dependencies', context: 'dependencies', lines: '8-10' },
            { kind: 'key', symbol: 'files', context: 'files', lines: '11-12' },
          ],
        },
      ],
      outlineOf,
    );
  });
});
