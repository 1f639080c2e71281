// Which servers `cairn serve --list` and `--stop` find (src/server/registry.ts): the records
// running servers leave in the user's cache, the ones of processes that are gone dropped.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from './check';
import { recordServer, runningServers, type ServerProbe } from '../../src/server/registry';
import { formatUptime } from '../../src/cli/commands/serve';

const START = '2026-01-01T00:00:00.000Z';
const record = (pid: number, root: string) => ({ pid, root, storeDir: `${root}/.s`, socket: `${root}/.s/serve.sock`, startedAt: START });

describe('serve --list: the servers that still run', () => {
  checkAll<{ live: number[]; answering: number[]; extra?: Record<string, string> }, Array<[number, string, boolean]>>(
    [
      { name: 'every recorded server runs', input: { live: [11, 12], answering: [11, 12] }, expected: [[12, '/a', true], [11, '/b', true]] },
      { name: 'a killed server is left out', input: { live: [12], answering: [12] }, expected: [[12, '/a', true]] },
      { name: 'a stopped server is listed as not answering', input: { live: [11, 12], answering: [12] }, expected: [[12, '/a', true], [11, '/b', false]] },
      { name: 'a damaged or misnamed record is ignored', input: { live: [11, 12, 13], answering: [11, 12, 13], extra: { '13.json': '{"pid":', '14.json': JSON.stringify(record(99, '/x')) } }, expected: [[12, '/a', true], [11, '/b', true]] },
    ],
    async ({ live, answering, extra }) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-servers-'));
      try {
        recordServer(dir, record(11, '/b'));
        recordServer(dir, record(12, '/a'));
        for (const [name, text] of Object.entries(extra ?? {})) fs.writeFileSync(path.join(dir, name), text);
        const probe: ServerProbe = { isServer: (pid) => live.includes(pid), rssBytes: () => 1024, hello: async (_s, pid) => answering.includes(pid) };
        const found = await runningServers(dir, probe, 300, Date.parse(START) + 5000);
        assert.ok(found.every((s) => s.uptimeMs === 5000 && s.rssBytes === 1024));
        // Records of processes that are gone are removed as they are found.
        assert.deepEqual(fs.readdirSync(dir).filter((n) => !Object.keys(extra ?? {}).includes(n)).sort(), live.filter((p) => p < 13).map((p) => `${p}.json`));
        return found.map((s): [number, string, boolean] => [s.pid, s.root, s.answering]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  checkAll(
    [
      { input: 42_000, expected: '42s' },
      { input: 303_000, expected: '5m03s' },
      { input: 7_500_000, expected: '2h05m' },
    ],
    formatUptime,
  );
});
