// A server runs with a 1 MB semi-space (SERVER_NODE_FLAGS: an idle server's memory), but the
// threads it starts for a big refresh allocate fast; unshrinkYoungGenerationOfThreads gives them
// V8's usual young generation while the server's own heap keeps its small one.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const PROTOCOL = path.resolve(__dirname, '..', '..', 'src', 'server', 'protocol.js');

/** New-space sizes (bytes) of this thread and of a worker started after `reset` ran or not. */
function newSpaces(reset: boolean): { main: number; worker: number } {
  const script = `
    const v8 = require('node:v8');
    const { Worker } = require('node:worker_threads');
    const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    if (${reset}) require(${JSON.stringify(PROTOCOL)}).unshrinkYoungGenerationOfThreads(v8.setFlagsFromString);
    const churn = () => { let keep = []; for (let i = 0; i < 3e6; i++) { keep.push({ a: i, b: "x" + i }); if (keep.length > 1000) keep = []; } };
    churn();
    const w = new Worker(\`
      const v8 = require('node:v8');
      let keep = []; for (let i = 0; i < 3e6; i++) { keep.push({ a: i, b: "x" + i }); if (keep.length > 1000) keep = []; }
      require('node:worker_threads').parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
    \`, { eval: true });
    w.on('message', (worker) => { console.log(JSON.stringify({ main: size(), worker })); w.terminate(); });
  `;
  const r = spawnSync(process.execPath, ['--max-semi-space-size=1', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { main: number; worker: number };
}

describe("a server's threads get their own young generation", function () {
  this.timeout(60_000);
  const MB = 1024 * 1024;

  it('without the reset, a worker inherits the server\'s 1 MB semi-space', () => {
    const { worker } = newSpaces(false);
    assert.ok(worker <= 2 * MB, `worker new space ${worker}`);
  });

  it('with it, a worker started afterwards gets 16 MB semi-spaces, and the server keeps its small one', () => {
    const { main, worker } = newSpaces(true);
    assert.deepEqual({ mainSmall: main <= 2 * MB, workerLarge: worker >= 16 * MB }, { mainSmall: true, workerLarge: true }, `main ${main}, worker ${worker}`);
  });
});
