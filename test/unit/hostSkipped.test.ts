// The Index view lists a long-lived host's skipped files: a file skipped by a refresh of some
// paths (a save, a checkout's changed files) is listed at once, and one indexed again leaves
// the list, without waiting for a whole-root refresh.
import { EngineHost } from '../../src/core/engine/host';
import { checkAll } from './check';
import { GRAMMARS_DIR, TempWorkspace } from './helpers/workspace';

const LIMIT = 200;
const big = 'x'.repeat(LIMIT + 50);

type Change = { write: string; text: string } | { remove: string };

describe('engine host: skipped files after a refresh of some paths', function () {
  this.timeout(30000);
  checkAll<Change[], string[]>(
    [
      { name: 'a file grown past the size limit', input: [{ write: 'src/a.ts', text: big }], expected: ['src/a.ts too-large', 'src/huge.ts too-large'] },
      { name: 'a new file over the limit', input: [{ write: 'src/new.ts', text: big }], expected: ['src/huge.ts too-large', 'src/new.ts too-large'] },
      { name: 'a skipped file made small again', input: [{ write: 'src/huge.ts', text: 'export const small = 1;\n' }], expected: [] },
      { name: 'a skipped file deleted', input: [{ remove: 'src/huge.ts' }], expected: [] },
    ],
    async (changes) => {
      const ws = new TempWorkspace({ 'src/a.ts': 'export const a = 1;\n', 'src/huge.ts': big });
      const host = new EngineHost();
      const key = 'root';
      try {
        await host.open(key, { root: ws.root, storeDir: ws.storeDir, grammarsDir: GRAMMARS_DIR, workers: 0, strategy: 'lines', discovery: { maxFileBytes: LIMIT } });
        await host.request(key, {});
        const only: string[] = [];
        for (const c of changes) {
          if ('write' in c) ws.write(c.write, c.text);
          else ws.remove(c.remove);
          only.push('write' in c ? c.write : c.remove);
        }
        await host.request(key, { only });
        return host.state(key).status.skipped.map((s) => `${s.path} ${s.reason}`);
      } finally {
        await host.closeAll();
        await ws.dispose();
      }
    },
  );
});
