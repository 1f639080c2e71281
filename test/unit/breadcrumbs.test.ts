// Breadcrumbs as their language writes a path: Rust and C++ readers see `Runtime::block_on`,
// everyone else the index's `Greeter.greet`; the extension's labels use the same spelling.
import { checkAll } from './check';
import { displayBreadcrumb } from '../../src/core/api';
import { hitTitle } from '../../src/vscode/format';

describe('breadcrumbs in the language\'s own spelling', () => {
  checkAll(
    [
      { name: 'a Rust method', input: { crumb: 'Runtime.block_on', language: 'rust' }, expected: 'Runtime::block_on' },
      { name: 'a Rust module path', input: { crumb: 'runtime.scheduler.Handle.spawn', language: 'rust' }, expected: 'runtime::scheduler::Handle::spawn' },
      { name: 'a C++ out-of-line method', input: { crumb: 'ns.Foo.bar', language: 'cpp' }, expected: 'ns::Foo::bar' },
      { name: 'a top-level Rust function', input: { crumb: 'helper', language: 'rust' }, expected: 'helper' },
      { name: 'TypeScript keeps dots', input: { crumb: 'Greeter.greet', language: 'typescript' }, expected: 'Greeter.greet' },
      { name: 'C keeps dots', input: { crumb: 'point.x', language: 'c' }, expected: 'point.x' },
      { name: 'no language known', input: { crumb: 'Greeter.greet', language: undefined }, expected: 'Greeter.greet' },
      { name: 'a heading path with a dot is prose', input: { crumb: 'Guide > Version 1.2', language: 'rust' }, expected: 'Guide > Version 1.2' },
      { name: 'an unnamed JavaScript chunk has no name to show, not ""', input: { crumb: '', language: 'javascript' }, expected: '' },
      { name: 'an ESLint visitor key is quoted after ›', input: { crumb: 'create.Program:exit', language: 'javascript' }, expected: 'create › "Program:exit"' },
      { name: 'a selector key with spaces and >', input: { crumb: 'create.CallExpression > MemberExpression', language: 'javascript' }, expected: 'create › "CallExpression > MemberExpression"' },
      { name: 'a quoted key inside, identifiers after it keep their dots', input: { crumb: 'rules.no-unused-vars.create.fix', language: 'typescript' }, expected: 'rules › "no-unused-vars" › create.fix' },
      { name: 'a key alone', input: { crumb: 'Program:exit', language: 'tsx' }, expected: '"Program:exit"' },
      { name: 'identifier keys and private names read as before', input: { crumb: 'create.Identifier.#seen', language: 'javascript' }, expected: 'create.Identifier.#seen' },
    ],
    ({ crumb, language }: { crumb: string; language: string | undefined }) => displayBreadcrumb(crumb, language),
  );

  describe('a hit\'s label', () => {
    const span = { startLine: 4, endLine: 9 };
    checkAll(
      [
        { name: 'a Rust method', input: { ...span, symbol: 'block_on', context: 'Runtime.block_on', language: 'rust' }, expected: 'Runtime::block_on' },
        { name: 'a chunk inside a C++ method', input: { ...span, symbol: '', context: 'Foo.bar', language: 'cpp' }, expected: 'Foo::bar' },
        {
          name: 'a long Rust path loses its outer parts at `::`',
          input: { ...span, symbol: 'block_on', context: 'tokio.runtime.scheduler.multi_thread.worker.Handle.block_on', language: 'rust' },
          expected: '…::multi_thread::worker::Handle::block_on',
        },
        { name: 'Python keeps dots', input: { ...span, symbol: 'distance', context: 'Point.distance', language: 'python' }, expected: 'Point.distance' },
        { name: 'an ESLint visitor method', input: { ...span, symbol: 'Program:exit', context: 'create.Program:exit', language: 'javascript' }, expected: 'create › "Program:exit"' },
      ],
      hitTitle,
    );
  });
});
