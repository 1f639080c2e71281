// Stage times (`cairn index --timings`): nested stages are exclusive, so the printed stages add
// up to the work done, whatever the nesting; threads that adopt the buffer add to the same totals.
import * as assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { readTimings, startTimings, timed, timingsBuffer, timingsSince, type Stage, type StageTimes } from '../../src/core/timings';

/** A script of work: spend ms in a stage, or open a stage around more work. */
type Step = { spend: number } | { stage: Stage; steps: Step[] };

describe('stage timings', () => {
  let clock = 0;
  const realNow = performance.now.bind(performance);
  before(() => {
    startTimings(true);
    // A clock the steps move by hand: no test depends on how busy the machine is.
    performance.now = () => clock;
  });
  after(() => {
    performance.now = realNow;
  });

  const run = (steps: Step[]): void => {
    for (const s of steps) {
      if ('spend' in s) clock += s.spend;
      else timed(s.stage, () => run(s.steps));
    }
  };
  const check = (steps: Step[], expected: StageTimes) => {
    const before = readTimings();
    run(steps);
    assert.deepEqual(timingsSince(before), expected);
  };

  it('gives each stage its own time, less the stages inside it', () => {
    check([{ stage: 'parse', steps: [{ spend: 30 }] }], { parse: 30 });
    check([{ stage: 'chunk', steps: [{ spend: 20 }, { stage: 'parse', steps: [{ spend: 30 }] }, { spend: 5 }] }], { chunk: 25, parse: 30 });
    check([{ stage: 'chunk', steps: [{ stage: 'parse', steps: [{ stage: 'definitions', steps: [{ spend: 7 }] }, { spend: 3 }] }, { stage: 'occurrences', steps: [{ spend: 4 }] }] }], { parse: 3, definitions: 7, occurrences: 4 });
    check([{ spend: 50 }, { stage: 'build', steps: [{ spend: 1 }] }], { build: 1 });
  });

  it('adds the time of another thread that adopted the buffer', async () => {
    const before = readTimings();
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const t = require(${JSON.stringify(require.resolve('../../src/core/timings'))});
       t.adoptTimings(workerData);
       const end = performance.now() + 30;
       t.timed('analyze', () => { while (performance.now() < end); });
       parentPort.postMessage('done');`,
      { eval: true, workerData: timingsBuffer() },
    );
    await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    const analyze = timingsSince(before).analyze ?? 0;
    assert.ok(analyze >= 29, `the worker's 30 ms of analyze were not counted: ${analyze}`);
  });
});
