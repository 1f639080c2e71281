import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';
import type { Engine } from '../../src/core/engine/engine';
import { ImportGraph } from '../../src/core/pack/graph';
import { estimateTokens, renderPackMarkdown } from '../../src/core/pack/markdown';
import { calledNames } from '../../src/core/pack/gather';
import { useOf } from '../../src/core/pack/callers';
import type { ChunkKind } from '../../src/core/types';

const repo = {
  'src/io/files.ts': 'export function readFileText(path: string): string {\n  return fs.readFileSync(path, "utf8");\n}\n',
  'src/config/parse.ts': [
    "import { readFileText } from '../io/files';",
    '',
    '/** Parses the configuration file into a Config. */',
    'export function parseConfig(path: string): Config {',
    '  const raw = readFileText(path);',
    '  const data = JSON.parse(raw);',
    '  return validateConfig(data);',
    '}',
    '',
    'export function validateConfig(data: unknown): Config {',
    "  if (!data || typeof data !== 'object') throw new ConfigError('config must be an object');",
    '  return data as Config;',
    '}',
    '',
  ].join('\n'),
  'src/config/errors.ts': 'export class ConfigError extends Error {\n  constructor(message: string) {\n    super(message);\n  }\n}\n',
  'src/app.ts': "import { parseConfig } from './config/parse';\n\nexport function main() {\n  const config = parseConfig('app.json');\n  start(config);\n}\n",
  'test/config/parse.test.ts': "import { parseConfig } from '../../src/config/parse';\n\nit('parses config', () => {\n  parseConfig('fixture.json');\n});\n",
  'docs/configuration.md': '# Configuration\n\nThe app reads `app.json` with `parseConfig`. Invalid files raise `ConfigError`.\n',
  'vendor/legacy/parse.js': 'function parseConfig(s) { return eval(s) }\n',
  'src/unrelated/colors.ts': 'export const RED = "#f00";\nexport function mixColors(a, b) { return a + b }\n',
  'src/report/build.ts': `export function buildReport(rows: Row[]): string {\n${Array.from({ length: 120 }, (_, i) => `  const line${i} = format(rows[${i}]);`).join('\n')}\n  return lines.join('\\n');\n}\n`,
};

describe('context packs', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  before(async () => {
    ws = new TempWorkspace(repo);
    await ws.engine().refresh();
  });
  after(() => ws.dispose());

  it('puts the exact definition first, follows calls, tests and docs, and explains every item', async () => {
    const pack = await ws.engine().buildPack('fix validation errors in parseConfig');
    const first = pack.mustInspect[0]!;
    assert.equal(first.docid, 'src/config/parse.ts:3-8');
    assert.equal(first.relation, 'named-symbol');
    assert.match(first.text ?? '', /export function parseConfig/);
    const docids = pack.mustInspect.map((i) => i.docid);
    assert.ok(docids.includes('src/config/parse.ts:10-13'), `validateConfig is called by parseConfig: ${docids}`);
    assert.ok(docids.includes('src/io/files.ts:1-3'), `readFileText is called by parseConfig: ${docids}`);
    const all = [...pack.mustInspect.map((i) => [i.path, i.relation]), ...pack.relatedFiles.map((r) => [r.path, r.relation])];
    const testItem = [...pack.mustInspect, ...pack.relatedFiles].find((i) => i.path === 'test/config/parse.test.ts');
    assert.ok(testItem && /test (importing|for) src\/config\/parse\.ts/.test(testItem.reason), JSON.stringify(all));
    assert.ok(all.some(([p, r]) => p === 'docs/configuration.md' && (r === 'doc' || r === 'lexical')), JSON.stringify(all));
    for (const item of pack.mustInspect) {
      assert.ok(item.reason.length > 5);
      const sum = item.scoreBreakdown.reduce((s, p) => s + p.value, 0);
      assert.ok(Math.abs(sum - item.score) < 1e-4, `${item.docid}: ${sum} vs ${item.score}`);
    }
    // The vendored copy is considered but never outranks source.
    const vendorIndex = docids.indexOf('vendor/legacy/parse.js:1-1');
    assert.ok(vendorIndex === -1 || vendorIndex > 2);
  });

  it('follows the import graph: the file importing the top hit is related', async () => {
    const pack = await ws.engine().buildPack('parseConfig', { refresh: 'never' });
    const all = [...pack.mustInspect.map((i) => [i.path, i.relation, i.reason]), ...pack.relatedFiles.map((r) => [r.path, r.relation, r.reason])];
    const app = all.find(([p]) => p === 'src/app.ts');
    assert.ok(app && /imports src\/config\/parse\.ts/.test(app[2] as string), JSON.stringify(all));
    const io = all.find(([p]) => p === 'src/io/files.ts');
    assert.ok(io && /imported by src\/config\/parse\.ts|defines `readFileText`/.test(io[2] as string), JSON.stringify(all));
  });

  it('exact ids in the task outrank everything else', async () => {
    const pack = await ws.engine().buildPack('look at src/unrelated/colors.ts:2-2 and parseConfig');
    assert.equal(pack.mustInspect[0]?.docid, 'src/unrelated/colors.ts:2-2');
    assert.equal(pack.mustInspect[0]?.relation, 'named-span');
    assert.deepEqual(pack.warnings, [], 'a span in a task is not query syntax');
  });

  it('a task over several lines, with operators in its prose, still builds', async () => {
    const pack = await ws.engine().buildPack('parseConfig:\n  -  make it\n  +stricter (C++ style) ~maybe', { refresh: 'never' });
    assert.equal(pack.mustInspect[0]?.symbol, 'parseConfig');
    assert.deepEqual(pack.warnings, []);
    assert.deepEqual(pack.diagnostics.filter((d) => d.code !== 'ripgrep-missing'), []);
  });

  it("honours the caller's negative examples", async () => {
    const pack = await ws.engine().buildPack('parseConfig', { negatives: ['test/**', 'src/io/files.ts:1-3'] });
    const included = [...pack.mustInspect.map((i) => i.docid), ...pack.relatedFiles.map((r) => r.docid)];
    assert.ok(!included.some((d) => d?.startsWith('test/')), JSON.stringify(included));
    assert.ok(!included.includes('src/io/files.ts:1-3'));
    assert.ok(pack.rejectedFiles.some((r) => r.reason === 'marked irrelevant by the caller'));
  });

  it('never exceeds the token budget and lists what it cut', async () => {
    for (const budget of [200, 300, 450, 700, 1200, 4000]) {
      const pack = await ws.engine().buildPack('fix validation errors in parseConfig', { budgetTokens: budget, refresh: 'never' });
      const used = estimateTokens(renderPackMarkdown(pack));
      assert.ok(used <= budget, `budget ${budget}: used ${used}`);
      assert.equal(pack.usedTokens, used);
      assert.ok(pack.mustInspect.length >= 1, `budget ${budget} still shows the top span`);
      if (budget <= 300) {
        const accounted = [...pack.relatedFiles, ...pack.rejectedFiles].some((r) => /no room/i.test(r.reason)) || pack.warnings.some((w) => /no room/.test(w));
        assert.ok(accounted, `budget ${budget}: what did not fit is listed with its reason`);
      }
      for (const item of pack.mustInspect.filter((i) => i.truncatedTo)) {
        assert.ok(pack.cut.some((c) => c.docid === item.docid && c.action === 'truncated'));
      }
    }
  });

  it('cuts a span that is too big to its first lines, and says so', async () => {
    const pack = await ws.engine().buildPack('buildReport', { budgetTokens: 500, refresh: 'never' });
    const item = pack.mustInspect[0]!;
    assert.equal(item.symbol, 'buildReport');
    assert.ok(item.truncatedTo && item.truncatedTo.endLine < item.endLine);
    assert.match(item.text ?? '', /… \(\d+ more lines\)$/);
    assert.deepEqual(pack.cut.map((c) => [c.docid, c.action]), [[item.docid, 'truncated']]);
    assert.ok(pack.cut[0]!.keptTokens < pack.cut[0]!.originalTokens);
    assert.match(renderPackMarkdown(pack), /Cut to fit the budget: `src\/report\/build\.ts:1-\d+` \(kept \d+ of \d+ tokens\)/);
  });

  it('renders Markdown a person or an agent can read', async () => {
    const pack = await ws.engine().buildPack('parseConfig', { refresh: 'never' });
    const md = renderPackMarkdown(pack);
    assert.match(md, /^# Context pack/);
    assert.match(md, /### 1\. `src\/config\/parse\.ts:3-8` — function parseConfig/);
    assert.match(md, /```ts\n\/\*\* Parses the configuration file into a Config\. \*\/\nexport function parseConfig/);
    assert.match(md, /## Considered and left out|## Related files/);
  });

  it('is stable: the same task gives the same pack', async () => {
    const a = await ws.engine().buildPack('config errors', { refresh: 'never' });
    const b = await ws.engine().buildPack('config errors', { refresh: 'never' });
    assert.deepEqual(a.mustInspect.map((i) => i.docid), b.mustInspect.map((i) => i.docid));
    assert.deepEqual(a.relatedFiles, b.relatedFiles);
  });
});

// A seed that calls builtin members (`items.add`, `prices.keys()`), a name three files define
// (`comments`), a name two files define (one imported), and a distinctive helper nobody imports.
const sharedNames = {
  'src/cart/cart.ts': [
    "import { computeTax } from './tax';",
    "import { formatTotal } from './money';",
    '',
    'export function checkoutCart(order: Order, items: Set<string>, prices: Map<string, number>): string {',
    "  items.add('receipt');",
    '  const notes = order.comments();',
    '  let sum = 0;',
    '  for (const key of prices.keys()) sum += prices.get(key) ?? 0;',
    '  const taxed = computeTax(sum);',
    '  distinctiveRounding(taxed);',
    '  return formatTotal(taxed);',
    '}',
    '',
    'export function cartSize(items: Set<string>): number {',
    '  return items.size;',
    '}',
    '',
  ].join('\n'),
  'src/cart/tax.ts': 'export function computeTax(sum: number): number {\n  return sum * 1.2;\n}\n',
  'src/cart/money.ts': 'export function formatTotal(n: number): string {\n  return n.toFixed(2);\n}\n',
  'src/aaa/tax.ts': 'export function computeTax(sum: number): number {\n  return sum * 1.1;\n}\n',
  'src/rounding/round.ts': 'export function distinctiveRounding(n: number): number {\n  return Math.round(n);\n}\n',
  'src/bag/bag.ts': 'export class Bag {\n  add(item: string): void {\n    this.items.push(item);\n  }\n  keys(): string[] {\n    return [];\n  }\n}\n',
  'src/graph/nodes.ts': 'export class Nodes {\n  add(node: Node): void {\n    this.list.push(node);\n  }\n}\n',
  'src/queue/queue.ts': 'export class Queue {\n  add(job: Job): void {\n    this.jobs.push(job);\n  }\n}\n',
  'src/blog/post.ts': 'export class Post {\n  comments(): Comment[] {\n    return this.thread;\n  }\n}\n',
  'src/forum/topic.ts': 'export class Topic {\n  comments(): Comment[] {\n    return this.replies;\n  }\n}\n',
  'src/review/review.ts': 'export class Review {\n  comments(): Comment[] {\n    return this.notes;\n  }\n}\n',
  'docs/checkout.md': '# Checkout totals\n\nThe checkoutCart totals include tax. Call `applyCoupon()` first.\n',
  'src/coupon/coupon.ts': '/** Lowers the totals. */\nexport function applyCoupon(code: string): number {\n  return code.length;\n}\n',
  'src/cart/cart.test.ts': "import { checkoutCart } from './cart';\n\nit('checks out', () => {\n  checkoutCart(new Set(), new Map());\n});\n",
  'src/app.ts': "import { checkoutCart } from './cart/cart';\n\nexport function main() {\n  checkoutCart(new Set(), new Map());\n}\n",
  'test/size.test.ts': "import { cartSize } from '../src/cart/cart';\n\nit('counts', () => {\n  cartSize(new Set());\n});\n",
  'test/receipt.test.ts': "import { checkoutCart } from '../src/cart/cart';\n\nit('prints a receipt', () => {\n  checkoutCart(order, new Set(), new Map());\n});\n",
  'src/cli.ts': "import { checkoutCart } from './cart/cart';\n\nexport function cli() {\n  checkoutCart(new Set(), new Map());\n}\n",
};

describe('context packs: relations by a shared name', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  before(async () => {
    ws = new TempWorkspace(sharedNames);
    await ws.engine().refresh();
  });
  after(() => ws.dispose());

  const everything = (pack: Awaited<ReturnType<Engine['buildPack']>>) => [...pack.mustInspect, ...pack.relatedFiles];

  it('does not call a definition "used by" when only a common name links them', async () => {
    const pack = await ws.engine().buildPack('fix checkoutCart totals', { refresh: 'never' });
    const usedBy = everything(pack).filter((i) => /used by src\/cart\/cart\.ts/.test(i.reason)).map((i) => i.path);
    for (const p of ['src/bag/bag.ts', 'src/graph/nodes.ts', 'src/queue/queue.ts', 'src/blog/post.ts', 'src/forum/topic.ts', 'src/review/review.ts']) {
      assert.ok(!usedBy.includes(p), `${p} is not called by checkoutCart: ${usedBy}`);
    }
    const left = (name: string) => pack.rejectedFiles.find((r) => r.reason.includes(`common name \`${name}\``))?.reason ?? '';
    const imports = 'no import of src/cart/cart.ts leads to it';
    assert.ok(left('comments').endsWith(`(defined in 3 files; ${imports})`), `\`comments\` is listed as left out: ${JSON.stringify(pack.rejectedFiles)}`);
    assert.ok(left('add').endsWith(`(defined in 3 files; ${imports})`), left('add'));
    assert.ok(left('keys').endsWith(`(also a builtin method; ${imports})`), left('keys'));
  });

  it('follows the import to the definition a call reaches, and keeps distinctive names', async () => {
    const pack = await ws.engine().buildPack('fix checkoutCart totals', { refresh: 'never' });
    const called = everything(pack).flatMap((i) => [...i.reason.matchAll(/defines `(\w+)`, used by/gi)].map((m) => `${m[1]} ${i.path}`)).sort();
    assert.deepEqual(called, ['computeTax src/cart/tax.ts', 'distinctiveRounding src/rounding/round.ts', 'formatTotal src/cart/money.ts'], JSON.stringify(everything(pack).map((i) => [i.path, i.reason])));
  });

  it('follows calls from code only: a name in prose is not a call', async () => {
    const pack = await ws.engine().buildPack('fix checkoutCart totals', { refresh: 'never' });
    assert.ok(everything(pack).some((i) => i.path === 'docs/checkout.md'), 'the doc is in the pack');
    const fromDocs = everything(pack).filter((i) => /used by docs\//.test(i.reason));
    assert.deepEqual(fromDocs.map((i) => [i.path, i.reason]), []);
  });

  it('puts the test of a must-inspect span first among the related files', async () => {
    const pack = await ws.engine().buildPack('fix checkoutCart totals', { refresh: 'never', maxMustInspect: 2 });
    assert.equal(pack.mustInspect[0]?.path, 'src/cart/cart.ts');
    assert.equal(pack.relatedFiles[0]?.path, 'src/cart/cart.test.ts', JSON.stringify(pack.relatedFiles.map((r) => [r.path, r.reason])));
    assert.equal(pack.relatedFiles[0]?.relation, 'test');
    assert.match(pack.relatedFiles[0]?.reason ?? '', /^Test for src\/cart\/cart\.ts \(by name\)/);
    // Then the tests importing it that use the span's symbol; a test of another function of the file is no test of this span.
    assert.equal(pack.relatedFiles[1]?.path, 'test/receipt.test.ts');
    assert.match(pack.relatedFiles[1]?.reason ?? '', /^Test importing src\/cart\/cart\.ts and using `checkoutCart`/);
    assert.ok(!pack.relatedFiles.some((r) => r.path === 'test/size.test.ts' && /checkoutCart/.test(r.reason)), JSON.stringify(pack.relatedFiles));
  });

  it("says a lexical match matches the task's words, with no search rank that the pack's order would contradict", async () => {
    const pack = await ws.engine().buildPack('fix checkoutCart totals', { refresh: 'never' });
    for (const item of everything(pack)) assert.doesNotMatch(item.reason, /\brank\b/, item.reason);
    assert.ok(everything(pack).some((i) => /matches the task's words/i.test(i.reason)));
  });
});

const callerRepo = {
  'src/geo/distance.ts': '/** Straight-line distance between two points. */\nexport function distance(a: Point, b: Point): number {\n  return Math.hypot(a.x - b.x, a.y - b.y);\n}\n',
  'src/route.ts': "import { distance } from './geo/distance';\n\nexport function routeLength(points: Point[]): number {\n  return distance(points[0], points[1]);\n}\n",
  'src/map/scale.ts': "import { distance } from '../geo/distance';\n\nexport function scaleBar(a: Point, b: Point): string {\n  return `${distance(a, b)} km`;\n}\n",
  // Calls a `distance` it never imports: the same name, not a certain reference.
  'src/legacy.ts': 'export function legacyLength(p: Point): number {\n  return distance(p, p);\n}\n',
  // A member of something else.
  'src/sensor.ts': 'export function sensorRange(s: Sensor): number {\n  return s.distance(s.origin);\n}\n',
  // A class: constructed, extended and used as a type by the files importing it.
  'src/shop/cart.ts': 'export class Cart {\n  items: string[] = [];\n}\n',
  'src/checkout.ts': "import { Cart } from './shop/cart';\n\nexport function checkout(): number {\n  return new Cart().items.length;\n}\n",
  'src/bigCart.ts': "import { Cart } from './shop/cart';\n\nexport class BigCart extends Cart {\n  limit = 100;\n}\n",
  'src/summary.ts': "import { Cart } from './shop/cart';\n\nexport function summary(cart: Cart): string {\n  return cart.items.join(', ');\n}\n",
  'shop/models.py': 'class Order:\n    def total(self):\n        return 0\n',
  'shop/views.py': 'from .models import Order\n\ndef show():\n    return Order().total()\n',
  'shop/special.py': 'from .models import Order\n\nclass Special(Order):\n    pass\n',
};

describe('what a caller does with a definition', () => {
  checkAll<[ChunkKind, string, string, string], string>(
    [
      { name: 'a function is called', input: ['function', 'typescript', 'distance(a, b)', 'distance'], expected: 'calls' },
      { name: 'a method is called', input: ['method', 'python', 'cart.total()', 'total'], expected: 'calls' },
      { name: 'new X', input: ['class', 'typescript', 'const c = new Cart();', 'Cart'], expected: 'constructs' },
      { name: 'new with a qualifier', input: ['class', 'java', 'Cart c = new shop.Cart();', 'Cart'], expected: 'constructs' },
      { name: 'PHP new with a namespace', input: ['class', 'php', '$c = new \\Shop\\Cart();', 'Cart'], expected: 'constructs' },
      { name: 'a Python class called', input: ['class', 'python', '    order = Order(items)', 'Order'], expected: 'constructs' },
      { name: 'Ruby X.new', input: ['class', 'ruby', 'cart = Cart.new', 'Cart'], expected: 'constructs' },
      { name: 'Java X::new', input: ['class', 'java', 'Supplier<Cart> s = Cart::new;', 'Cart'], expected: 'constructs' },
      { name: 'a Go composite literal', input: ['struct', 'go', 'c := &Cart{Items: nil}', 'Cart'], expected: 'constructs' },
      { name: 'a Go slice of them is not', input: ['struct', 'go', 'cs := []Cart{}', 'Cart'], expected: 'uses' },
      { name: 'a TypeScript class called without new is used, not constructed', input: ['class', 'typescript', 'Cart(1)', 'Cart'], expected: 'uses' },
      { name: 'TS extends', input: ['class', 'typescript', 'export class BigCart extends Cart {', 'Cart'], expected: 'extends' },
      { name: 'an interface extending several', input: ['interface', 'typescript', 'interface Big extends Small, Cart {', 'Cart'], expected: 'extends' },
      { name: 'implements after extends', input: ['interface', 'java', 'public class A extends B implements Runnable, Cart {', 'Cart'], expected: 'implements' },
      { name: 'Python bases', input: ['class', 'python', 'class Special(Base, Order):', 'Order'], expected: 'extends' },
      { name: 'a Python metaclass is not a base', input: ['class', 'python', 'class Special(Base, metaclass=Order):', 'Order'], expected: 'uses' },
      { name: 'Ruby <', input: ['class', 'ruby', 'class Admin < User', 'User'], expected: 'extends' },
      { name: 'C# :', input: ['class', 'csharp', 'public sealed class Admin : User, IDisposable', 'User'], expected: 'extends' },
      { name: 'Rust impl Trait for', input: ['trait', 'rust', 'impl Display for Cart {', 'Display'], expected: 'implements' },
      { name: 'a generic bound in a function is not a heritage clause', input: ['interface', 'typescript', 'function f<T extends Cart>(t: T) {', 'Cart'], expected: 'uses' },
      { name: 'a type annotation', input: ['class', 'typescript', 'function summary(cart: Cart): string {', 'Cart'], expected: 'uses' },
      { name: 'a constant', input: ['constant', 'typescript', 'return LIMIT * 2;', 'LIMIT'], expected: 'uses' },
    ],
    ([kind, language, line, name]) => {
      const column = line.lastIndexOf(name) + 1;
      return useOf(kind, language, line, column, column + name.length);
    },
  );
});

describe('context packs: the certain callers of a must-inspect definition', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  before(async () => {
    ws = new TempWorkspace(callerRepo);
    await ws.engine().refresh();
  });
  after(() => ws.dispose());

  it("lists the code that certainly calls the definition as related, with the reason 'calls X', and no same-name caller", async () => {
    const pack = await ws.engine().buildPack('fix rounding in distance', { refresh: 'never', maxMustInspect: 1 });
    assert.equal(pack.mustInspect[0]?.docid, 'src/geo/distance.ts:1-4');
    const callers = pack.relatedFiles.filter((r) => r.relation === 'caller');
    assert.deepEqual(callers.map((r) => [r.path, r.docid]).sort(), [
      ['src/map/scale.ts', 'src/map/scale.ts:3-5'],
      ['src/route.ts', 'src/route.ts:3-5'],
    ], JSON.stringify(pack.relatedFiles.map((r) => [r.path, r.relation, r.reason])));
    for (const c of callers) assert.match(c.reason, /^Calls `distance` \(src\/geo\/distance\.ts:1-4\)/);
    const everything = [...pack.mustInspect, ...pack.relatedFiles];
    for (const p of ['src/legacy.ts', 'src/sensor.ts']) assert.ok(!everything.some((i) => i.path === p && /calls `distance`/i.test(i.reason)), `${p} only shares the name`);
  });

  it("says what a caller does with a class: constructs, extends or uses it, never 'calls'", async () => {
    const reasons = async (task: string) => {
      const pack = await ws.engine().buildPack(task, { refresh: 'never', maxMustInspect: 1 });
      return [pack.mustInspect[0]?.docid, ...pack.relatedFiles.filter((r) => r.relation === 'caller').map((r) => `${r.docid} ${r.reason.replace(/ \(.*/, '')}`).sort()];
    };
    assert.deepEqual(await reasons('fix the Cart class'), [
      'src/shop/cart.ts:1-3',
      'src/bigCart.ts:3-5 Extends `Cart`',
      'src/checkout.ts:3-5 Constructs `Cart`',
      'src/summary.ts:3-5 Uses `Cart`',
    ]);
    assert.deepEqual(await reasons('fix the Order class'), ['shop/models.py:1-3', 'shop/special.py:3-4 Extends `Order`', 'shop/views.py:3-4 Constructs `Order`']);
  });

  it('keeps the callers within the token budget', async () => {
    const pack = await ws.engine().buildPack('fix rounding in distance', { refresh: 'never', maxMustInspect: 1, budgetTokens: 200 });
    assert.ok(pack.usedTokens <= 200, `${pack.usedTokens} tokens`);
  });
});

describe('import graph resolution', () => {
  const files = ['src/app.ts', 'src/config/parse.ts', 'src/config/index.ts', 'pkg/models/__init__.py', 'pkg/models/user.py', 'pkg/util.py', 'cmd/server/main.go', 'internal/store/store.go', 'internal/store/db.go', 'src/lib.rs', 'src/net/mod.rs', 'include/util.h', 'src/util.c', 'com/acme/Order.java'];
  const graph = new ImportGraph(new Map(), files);
  checkAll(
    [
      { name: 'relative TS import', input: ['src/app.ts', './config/parse'], expected: ['src/config/parse.ts'] },
      { name: 'directory import resolves index.ts', input: ['src/app.ts', './config'], expected: ['src/config/index.ts'] },
      { name: 'python relative', input: ['pkg/models/user.py', '..util'], expected: ['pkg/util.py'] },
      { name: 'python absolute', input: ['pkg/util.py', 'pkg.models.user'], expected: ['pkg/models/user.py'] },
      { name: 'python package', input: ['pkg/util.py', 'pkg.models'], expected: ['pkg/models/__init__.py'] },
      { name: 'go package dir', input: ['cmd/server/main.go', 'github.com/acme/app/internal/store'], expected: ['internal/store/db.go', 'internal/store/store.go'] },
      { name: 'rust module path', input: ['src/lib.rs', 'crate::net'], expected: ['src/net/mod.rs'] },
      { name: 'C include', input: ['src/util.c', 'util.h'], expected: ['include/util.h'] },
      { name: 'java import', input: ['src/app.ts', 'com.acme.Order'], expected: ['com/acme/Order.java'] },
      { name: 'external package', input: ['src/app.ts', 'lodash'], expected: [] },
    ],
    ([from, spec]) => graph.resolve(from as string, spec as string).sort(),
  );

  it('answers both directions', () => {
    const g = new ImportGraph(new Map([['src/app.ts', ['./config/parse']], ['src/config/parse.ts', ['./index']]]), files);
    assert.deepEqual(g.importsOf('src/app.ts'), ['src/config/parse.ts']);
    assert.deepEqual(g.importersOf('src/config/parse.ts'), ['src/app.ts']);
    assert.deepEqual(g.importersOf('src/config/index.ts'), ['src/config/parse.ts']);
  });
});

describe('import graph resolution: which of several files a module name means', () => {
  const cases: Array<{ name: string; input: [string[], string]; expected: string[] }> = [
    { name: 'the shortest path ending with the module', input: [['lib/a/zz.py', 'x/zz.py'], 'zz'], expected: ['x/zz.py'] },
    { name: 'of one length, the first in code-point order, whatever order they were indexed in', input: [['b/zz.py', 'a/zz.py'], 'zz'], expected: ['a/zz.py'] },
    { name: 'of one length, a file named as the module before a package', input: [['zz/__init__.py', 'abcdefgh/zz.py'], 'zz'], expected: ['abcdefgh/zz.py'] },
    { name: "a package's file when no file is named so, the shortest", input: [['zz/__init__.py', 'y/zz/index.ts'], 'zz'], expected: ['y/zz/index.ts'] },
    { name: 'a segment is matched whole, never a part of one', input: [['src/xzz.py'], 'zz'], expected: [] },
    { name: 'the first folder in code-point order ending with a package path', input: [['b/app/store/s.go', 'a/app/store/t.go', 'a/app/store/u.go'], 'example.com/app/store'], expected: ['a/app/store/t.go', 'a/app/store/u.go'] },
    { name: 'a name from outside the repository', input: [['com/acme/Order.java'], 'java.util.List'], expected: [] },
    // Names are ruled out by their last part before any path is tried: these must still resolve.
    { name: 'a declaration file', input: [['types/api.d.ts'], 'api'], expected: ['types/api.d.ts'] },
    { name: 'a file named with its extension and a dot in its stem', input: [['web/styles/main.min.css'], 'styles/main.min.css'], expected: ['web/styles/main.min.css'] },
    { name: 'a header found anywhere', input: [['include/util.h'], 'util.h'], expected: ['include/util.h'] },
    { name: "a folder's module file, no file so named", input: [['src/zz/mod.rs', 'src/zz/a.rs'], 'crate::zz'], expected: ['src/zz/mod.rs'] },
    { name: 'a nested folder named as the module', input: [['a/b/zz/__init__.py', 'a/b/zz/c.py'], 'b.zz'], expected: ['a/b/zz/__init__.py'] },
  ];
  checkAll(cases, ([files, spec]) => new ImportGraph(new Map(), files).resolve('main.py', spec).sort());
});

describe('names a chunk calls', () => {
  checkAll(
    [
      { input: 'const raw = readFileText(path); return validateConfig(JSON.parse(raw));', expected: ['readFileText', 'validateConfig', 'parse'] },
      { input: 'throw new ConfigError("x")', expected: ['ConfigError'] },
      { input: 'if (x) { return }', expected: [] },
    ],
    calledNames,
  );
});

describe('context packs: working-tree text discovery would no longer read', function () {
  this.timeout(20000);
  let ws: TempWorkspace;
  afterEach(() => ws.dispose());

  it('leaves out the text of an indexed file that became a hard link to .env', async () => {
    ws = new TempWorkspace({ '.env': 'API_TOKEN=hunter2\n', 'src/notes.ts': 'export function loadNotes(): string {\n  return "notes";\n}\n' });
    const engine = ws.engine();
    await engine.refresh();
    ws.remove('src/notes.ts');
    fs.linkSync(path.join(ws.root, '.env'), path.join(ws.root, 'src/notes.ts'));
    const pack = await engine.buildPack('loadNotes', { refresh: 'never', provider: 'index' });
    assert.ok(pack.mustInspect.some((i) => i.path === 'src/notes.ts'), 'the index still names the file');
    assert.doesNotMatch(renderPackMarkdown(pack), /hunter2/);
  });
});
