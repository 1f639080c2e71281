// No write leaves the root through a symbolic link: `ensureDirectoryInside` makes a folder under
// the root one component at a time, follows a link only while it stays inside the root, and
// refuses (without creating anything outside) one that leads out.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureDirectoryInside } from '../../src/core/fsRead';
import { checkAll } from './check';

interface Outcome {
  /** Where the folder was made, relative to the root's real path, or the refusal. */
  made: string;
  /** Whether anything appeared in the folder outside the root. */
  outsideTouched: boolean;
}

describe('writes inside the root: folders made component by component', () => {
  let base: string;
  before(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-inside-'));
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  /** Each case gets a root with `src/`, a folder `outside/` beside it, and the given links. */
  function run(links: Record<string, string>, dir: string): Outcome {
    const caseDir = fs.mkdtempSync(path.join(base, 'case-'));
    const root = path.join(caseDir, 'root');
    const outside = path.join(caseDir, 'outside');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    for (const [link, target] of Object.entries(links)) {
      fs.symlinkSync(target === 'OUTSIDE' ? outside : path.join(root, target), path.join(root, link));
    }
    let made: string;
    try {
      made = path.relative(fs.realpathSync(root), ensureDirectoryInside(root, path.join(root, dir))) || '.';
    } catch (e) {
      made = `refused: ${(e as Error).name}`;
    }
    return { made, outsideTouched: fs.readdirSync(outside).length > 0 };
  }

  checkAll<{ links: Record<string, string>; dir: string }, Outcome>(
    [
      { name: 'a new nested folder is made', input: { links: {}, dir: '.agent-context/packs' }, expected: { made: path.join('.agent-context', 'packs'), outsideTouched: false } },
      { name: 'an existing folder is used as it is', input: { links: {}, dir: 'src' }, expected: { made: 'src', outsideTouched: false } },
      { name: 'a link to another folder of the root is followed', input: { links: { docs: 'src' }, dir: 'docs/notes' }, expected: { made: path.join('src', 'notes'), outsideTouched: false } },
      { name: 'a link out of the root is refused, and nothing is made there', input: { links: { '.agent-context': 'OUTSIDE' }, dir: '.agent-context/packs' }, expected: { made: 'refused: OutsideRootError', outsideTouched: false } },
      { name: 'a link out of the root deeper down is refused', input: { links: { 'src/cache': 'OUTSIDE' }, dir: 'src/cache/x' }, expected: { made: 'refused: OutsideRootError', outsideTouched: false } },
      { name: 'a path that leaves the root by name is refused', input: { links: {}, dir: '../outside/x' }, expected: { made: 'refused: OutsideRootError', outsideTouched: false } },
    ],
    ({ links, dir }) => run(links, dir),
  );

  it('a file where a folder should be is refused, not replaced', () => {
    const root = fs.mkdtempSync(path.join(base, 'file-'));
    fs.writeFileSync(path.join(root, 'notes'), 'mine\n');
    assert.throws(() => ensureDirectoryInside(root, path.join(root, 'notes', 'x')), /not a folder/);
    assert.equal(fs.readFileSync(path.join(root, 'notes'), 'utf8'), 'mine\n');
  });
});
