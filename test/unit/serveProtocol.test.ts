// The pieces of `cairn serve` that decide without a process: how the socket's byte stream is cut
// into messages, who may talk to whom (versions, socket owners) and which store a command line
// names. (What a batch of watcher events asks for: watchPlan.test.ts.)
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { checkAll } from './check';
import { identityMismatch, LineDecoder, parseClientMessage, parseServerMessage, shortSocketDir, socketPathFor } from '../../src/server/protocol';
import { scanCommandLine, socketRefusal, type StatFn } from '../../src/server/client';

describe('serve protocol: framing', () => {
  checkAll<string[], unknown[]>(
    [
      { name: 'one message a line', input: ['{"a":1}\n{"b":2}\n'], expected: [{ a: 1 }, { b: 2 }] },
      { name: 'a message split across chunks', input: ['{"type":"he', 'llo"}', '\n'], expected: [{ type: 'hello' }] },
      { name: 'blank lines are skipped', input: ['\n\n{"a":1}\n\n'], expected: [{ a: 1 }] },
      { name: 'an unfinished line waits', input: ['{"a":1}\n{"b"'], expected: [{ a: 1 }] },
      { name: 'a multi-byte character split across chunks', input: ['{"s":"\xe2', '\x82\xac"}\n'], expected: [{ s: '€' }] },
    ],
    (chunks) => {
      const d = new LineDecoder(1024);
      return chunks.flatMap((c) => d.push(Buffer.from(c, 'latin1')));
    },
  );

  it('refuses a line that is not JSON, and one over the size limit', () => {
    assert.throws(() => new LineDecoder(1024).push(Buffer.from('hello\n')), /not JSON/);
    const d = new LineDecoder(16);
    assert.throws(() => {
      d.push(Buffer.from('{"a":"0123456'));
      d.push(Buffer.from('789abcdef"}'));
    }, /longer than 16 bytes/);
  });
});

describe('serve protocol: versions', () => {
  const ours = { version: '1.2.3', protocol: 4 };
  checkAll(
    [
      { input: { version: '1.2.3', protocol: 4, build: '10-20' }, expected: undefined },
      { input: { version: '1.2.4', protocol: 4 }, expected: 'cairn 1.2.4 (protocol 4) cannot talk to cairn 1.2.3 (protocol 4); the client answers in its own process' },
      { input: { version: '1.2.3', protocol: 5 }, expected: 'cairn 1.2.3 (protocol 5) cannot talk to cairn 1.2.3 (protocol 4); the client answers in its own process' },
      { name: 'a build, and one that does not say', input: { version: '1.2.3', protocol: 4 }, expected: 'cairn 1.2.3 (build unknown) cannot talk to cairn 1.2.3 (build 10-20): one of them was rebuilt; the client answers in its own process' },
      {
        name: 'the same version, rebuilt',
        input: { version: '1.2.3', protocol: 4, build: '11-30' },
        expected: 'cairn 1.2.3 (build 11-30) cannot talk to cairn 1.2.3 (build 10-20): one of them was rebuilt; the client answers in its own process',
      },
    ],
    (theirs) => identityMismatch(theirs, { ...ours, build: '10-20' }),
  );
});

describe('serve protocol: messages are checked field by field', () => {
  const run = { type: 'run', argv: ['search', 'x'], cwd: '/w', root: '/w', storeDir: '/s', stdoutIsTTY: false };
  checkAll<unknown, unknown>(
    [
      { name: 'hello', input: { type: 'hello', version: '1', protocol: 1, extra: true }, expected: { type: 'hello', version: '1', protocol: 1 } },
      { name: 'hello with a build', input: { type: 'hello', version: '1', protocol: 1, build: '5-6' }, expected: { type: 'hello', version: '1', protocol: 1, build: '5-6' } },
      { name: 'hello without a protocol', input: { type: 'hello', version: '1' }, expected: 'hello needs version and protocol' },
      { name: 'run', input: run, expected: run },
      { name: 'run with a relative cwd', input: { ...run, cwd: 'w' }, expected: 'run needs an absolute cwd, a root and a storeDir' },
      { name: 'run with no command', input: { ...run, argv: [] }, expected: 'run needs argv (strings, the command first)' },
      { name: 'run with a non-string argument', input: { ...run, argv: ['search', 1] }, expected: 'run needs argv (strings, the command first)' },
      { name: 'exit', input: { type: 'exit' }, expected: { type: 'exit' } },
      { name: 'an array', input: [1], expected: 'a message must be a JSON object' },
      { name: 'an unknown type', input: { type: 'rm' }, expected: 'unknown message type "rm"' },
    ],
    parseClientMessage,
  );
  checkAll<unknown, unknown>(
    [
      { name: 'a result', input: { type: 'result', stdout: 'a\n', stderr: '', exitCode: 0 }, expected: { type: 'result', stdout: 'a\n', stderr: '', exitCode: 0 } },
      { name: 'a result without an exit code', input: { type: 'result', stdout: '', stderr: '' }, expected: 'result needs stdout, stderr and exitCode' },
      { name: 'a welcome without a pid', input: { type: 'welcome', version: '1', protocol: 1 }, expected: 'welcome needs version, protocol and pid' },
    ],
    parseServerMessage,
  );
});

describe('serve client: which store a command line names', () => {
  const env = { CAIRN_STORE: undefined };
  const scan = (argv: string[], extra: NodeJS.ProcessEnv = {}): unknown => {
    const t = scanCommandLine(argv, '/work/tree', { ...env, ...extra });
    return t && { command: t.command, root: t.root, storeDir: t.storeDir };
  };
  checkAll<{ argv: string[]; env?: NodeJS.ProcessEnv }, unknown>(
    [
      { input: { argv: ['search', 'q', '--store', 's'] }, expected: { command: 'search', root: '/work/tree', storeDir: '/work/tree/s' } },
      { input: { argv: ['search', 'q', '--root', 'sub', '--store=/st'] }, expected: { command: 'search', root: '/work/tree/sub', storeDir: '/st' } },
      { input: { argv: ['symbol', '--path', '--root', 'x', '--store', '/st'] }, expected: { command: 'symbol', root: '/work/tree', storeDir: '/st' } },
      { input: { argv: ['status', '../other', '--store', '/st'] }, expected: { command: 'status', root: '/work/other', storeDir: '/st' } },
      { input: { argv: ['status', '--store', '/st', '--json'] }, expected: { command: 'status', root: '/work/tree', storeDir: '/st' } },
      { input: { argv: ['pack', 'task', '--not', 'a', '--root', '/r'], env: { CAIRN_STORE: '/env-store' } }, expected: { command: 'pack', root: '/r', storeDir: '/env-store' } },
      { name: 'not a served command', input: { argv: ['index', '--store', '/st'] }, expected: undefined },
      { name: '--no-server', input: { argv: ['search', 'q', '--no-server', '--store', '/st'] }, expected: undefined },
      { name: 'CAIRN_SERVER=0', input: { argv: ['search', 'q', '--store', '/st'], env: { CAIRN_SERVER: '0' } }, expected: undefined },
      { name: 'help', input: { argv: ['symbol', '--help'] }, expected: undefined },
      { name: 'an empty --store', input: { argv: ['symbol', 'x', '--store', ''] }, expected: undefined },
    ],
    ({ argv, env: extra }) => scan(argv, extra),
  );
});

describe('serve client: whose socket it talks to', () => {
  const stats = (socket: { uid: number; socket?: boolean }, dirUid = socket.uid): StatFn => (p) => {
    const isDir = p === '/store';
    return { uid: isDir ? dirUid : socket.uid, mode: 0, ino: 1, isSocket: () => !isDir && socket.socket !== false, isDirectory: () => isDir };
  };
  checkAll<{ socket: { uid: number; socket?: boolean }; dirUid?: number; uid: number | undefined }, string | undefined>(
    [
      { name: 'its own socket in its own folder', input: { socket: { uid: 1000 }, uid: 1000 }, expected: undefined },
      { name: "another user's socket", input: { socket: { uid: 1001 }, uid: 1000 }, expected: '/store/serve.sock belongs to uid 1001, not to you (uid 1000)' },
      { name: "its socket in another user's folder", input: { socket: { uid: 1000 }, dirUid: 0, uid: 1000 }, expected: '/store belongs to uid 0, not to you (uid 1000)' },
      { name: 'a plain file in its place', input: { socket: { uid: 1000, socket: false }, uid: 1000 }, expected: '/store/serve.sock is not a socket' },
      { name: 'no user ids on this platform', input: { socket: { uid: 5 }, uid: undefined }, expected: undefined },
    ],
    ({ socket, dirUid, uid }) => socketRefusal('/store/serve.sock', uid, stats(socket, dirUid)),
  );
});

describe('serve: the socket address of a store', () => {
  if (process.platform === 'win32') return;
  it('is serve.sock in the store, or for a store too deep for an address, a short one named after it', () => {
    assert.equal(socketPathFor('/home/u/.cache/cairn/stores/abc'), '/home/u/.cache/cairn/stores/abc/serve.sock');
    const deep = `/tmp/vscode/user-data/User/workspaceStorage/${'f'.repeat(32)}/cairn-dev.cairn/index/d32ce3855c28ae75`;
    const short = socketPathFor(deep)!;
    assert.equal(path.dirname(short), shortSocketDir());
    assert.match(path.basename(short), /^[0-9a-f]{24}\.sock$/);
    assert.equal(socketPathFor(`${deep}/`), short, 'named after the resolved store path');
    assert.notEqual(socketPathFor(`${deep}x`), short);
  });
});
