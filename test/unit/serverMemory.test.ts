// What an idle `cairn serve` process keeps after it lets go of its caches: the collection it
// runs then must hand the freed heap back at once, not when the process next allocates.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../src/server/protocol';

const PROTOCOL_MODULE = path.join(__dirname, '..', '..', 'src', 'server', 'protocol.js');

/**
 * In a process started as the server is: fills the heap with caches of small objects, keeps one
 * object in a hundred (what outlives a release), drops the rest and runs the server's collection.
 * Prints the heap V8 holds before and after, in MB.
 */
const SCRIPT = `
const v8 = require('node:v8');
const { fullCollection } = require(${JSON.stringify(PROTOCOL_MODULE)});
let caches = [];
for (let i = 0; i < 400000; i++) caches.push({ doc: i, term: 'term' + i, span: [i, i + 1] });
const kept = caches.filter((_, i) => i % 100 === 0);
caches = null;
const before = v8.getHeapStatistics().total_heap_size;
fullCollection(globalThis.gc)();
const after = v8.getHeapStatistics().total_heap_size;
process.stdout.write(JSON.stringify({ before: before / 1048576, after: after / 1048576, kept: kept.length }));
`;

describe('serve: memory after a release', function () {
  this.timeout(30000);

  it("hands the heap pages that held the released caches back in the release's own collection", () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', SCRIPT], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(run.status, 0, run.stderr);
    const { before, after, kept } = JSON.parse(run.stdout) as { before: number; after: number; kept: number };
    assert.equal(kept, 4000);
    assert.ok(before > 40, `the caches filled ${before.toFixed(1)} MB of heap`);
    // The kept objects need about 1 MB; one collection alone left the caches' pages (60+ MB) held.
    assert.ok(after < 16, `V8 still holds ${after.toFixed(1)} MB of heap after the collection`);
  });
});
