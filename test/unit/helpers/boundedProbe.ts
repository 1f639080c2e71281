// One read of a fixture tree, run in a child process by boundedReads.test.ts: a read that blocks
// on a FIFO blocks its whole thread, so only a separate process can be timed out and killed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverFiles } from '../../../src/core/discovery';
import { loadRegistryConfig } from '../../../src/core/registry/config';
import { locatePacks } from '../../../src/core/registry/scan';
import { FileReader } from '../../../src/core/search/hydrate';

export type ProbeOp = 'discover' | 'discover-walk' | 'registry-config' | 'registry-index' | 'preview';

/** What a user would see of the operation: listed files and skips, diagnostics, or a preview's text. */
export async function runProbe(op: ProbeOp, root: string): Promise<unknown> {
  switch (op) {
    case 'discover':
    case 'discover-walk': {
      const r = await discoverFiles(root, op === 'discover-walk' ? { useGit: false } : {});
      return { files: r.files.map((f) => f.path), skipped: r.skipped };
    }
    case 'registry-config':
      return loadRegistryConfig(root).diagnostics.map((d) => `${d.code}: ${d.message.replace(root, 'ROOT')}`);
    case 'registry-index': {
      const dir = fs.realpathSync(path.join(root, '.agent-context', 'registry'));
      return (await locatePacks(dir, (abs) => path.relative(root, abs))).diagnostics.map((d) => `${d.code}: ${d.message.replace(dir, 'REGISTRY')}`);
    }
    case 'preview':
      return new FileReader(root).text('src/a.ts', 1, 1) ?? null;
  }
}
