// The editor serves its index to `cairn` clients: a `cairn` run in the integrated terminal (where
// CAIRN_STORE names the folder's store) is answered by the extension's engine thread, watched,
// and sees an edit written just before it.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { api, fixturePath, poll, ready, setSetting } from './cairnHelpers';

const run = promisify(execFile);
const CLI = path.resolve(__dirname, '../../../../dist/cli.js');

describe('Cairn: serving the editor\'s index to cairn', function () {
  this.timeout(90000);

  after(() => setSetting('agent.serveTerminal', undefined));

  it('answers cairn in the terminal from the engine thread, watched, with an edit made just before', async () => {
    const a = await api();
    await ready(a);
    assert.equal(a.services.context.environmentVariableCollection.get('CAIRN_STORE'), undefined, 'not served unless asked');
    await setSetting('agent.serveTerminal', true);
    const storeDir = a.services.engine.states()[0]!.status!.storeDir;
    const terminalEnv = await poll('terminals to get CAIRN_STORE', () => a.services.context.environmentVariableCollection.get('CAIRN_STORE'));
    assert.equal(terminalEnv.value, storeDir, 'terminals get CAIRN_STORE');
    const env = { ...process.env, CAIRN_STORE: storeDir, CAIRN_DEBUG: '1', CAIRN_SERVER: '1', ELECTRON_RUN_AS_NODE: '1' };
    const cairn = (args: string[]) => run(process.execPath, [CLI, ...args], { env, cwd: path.dirname(fixturePath('README.md')) });
    // The thread starts watching in the background; status says when it is live.
    const status = await poll('the served status to say a watcher is live', async () => {
      const r = await cairn(['status', '--json']);
      const s = JSON.parse(r.stdout) as { server?: { pid: number }; freshness: { watching?: boolean } };
      return s.server && s.freshness.watching ? s : undefined;
    }, 30000, 500);
    assert.equal(status.server?.pid, process.pid, 'served by the extension host process (its engine thread)');
    const file = fixturePath('src/servedJustNow.ts');
    try {
      fs.writeFileSync(file, 'export function servedJustNowMarker() {\n  return 1;\n}\n');
      await new Promise((r) => setTimeout(r, 200));
      const r = await cairn(['symbol', 'servedJustNowMarker', '--json']);
      assert.match(r.stderr, /answered by the server/);
      const found = JSON.parse(r.stdout) as { exact: boolean; results: Array<{ path: string }> };
      assert.equal(found.exact, true, r.stdout);
      assert.equal(found.results[0]?.path, 'src/servedJustNow.ts');
    } finally {
      fs.rmSync(file, { force: true });
    }
    await setSetting('agent.serveTerminal', false);
    await poll('CAIRN_STORE to be withdrawn', () => a.services.context.environmentVariableCollection.get('CAIRN_STORE') === undefined);
    const after = await cairn(['status', '--json']);
    assert.equal((JSON.parse(after.stdout) as { server?: unknown }).server, undefined, 'no longer served');
  });
});
