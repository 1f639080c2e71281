// A store folder is Cairn's only when it carries Cairn's marker (or is empty, or is an unmarked
// index an earlier Cairn wrote for the same root): any other folder is refused before anything
// is written or removed, and a rebuild removes the index's own files and nothing else.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

/** The user's files that looked like a store's to the Cairn before the marker. */
const USER_FILES: Record<string, string> = {
  'manifest.json': '{"name": "my-app", "version": "1.0.0"}\n',
  'state-machine.json': '{"initial": "idle"}\n',
  'state-2024.json': '[1, 2, 3]\n',
  'build.tmp': 'scratch\n',
};

type Setup =
  | { kind: 'user-folder' }
  | { kind: 'user-folder-via-link' }
  | { kind: 'empty-folder' }
  | { kind: 'earlier-cairn-store'; root: 'same' | 'other' }
  | { kind: 'marked-store'; root: 'same' | 'other' }
  | { kind: 'damaged-store-with-user-files' }
  | { kind: 'project-with-an-earlier-index' };

interface Outcome {
  /** A refusal's code, or how the refresh went: kept (the index was used), built, rebuilt after damage. */
  result: string;
  /** The store folder's entries afterwards, Cairn's generated names written as patterns. */
  left: string[];
  /** The user's files still there with their content. */
  userFilesIntact: boolean;
}

/** Lists a folder with generated names as patterns, so cases compare across runs. */
function entries(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .map((n) => n.replace(/^seg-[0-9a-z]+-[0-9a-f]{8}\.cseg$/, 'seg-*.cseg').replace(/^state-\d+-[0-9a-f]{6}\.cstate$/, 'state-*.cstate'))
    .filter((n, i, all) => all.indexOf(n) === i)
    .sort();
}

function writeUserFiles(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(USER_FILES)) fs.writeFileSync(path.join(dir, name), text);
}

function userFilesIntact(dir: string, names: string[]): boolean {
  return names.every((n) => fs.existsSync(path.join(dir, n)) && fs.readFileSync(path.join(dir, n), 'utf8') === USER_FILES[n]);
}

async function run(setup: Setup): Promise<Outcome> {
  const ws = new TempWorkspace({ 'src/a.py': 'def alpha():\n    return 1\n' });
  const other = new TempWorkspace({ 'lib/b.py': 'def beta():\n    return 2\n' });
  try {
    let storeDir = ws.storeDir;
    let checkDir = ws.storeDir;
    let userNames: string[] = [];
    switch (setup.kind) {
      case 'user-folder':
        writeUserFiles(storeDir);
        userNames = Object.keys(USER_FILES);
        break;
      case 'user-folder-via-link':
        writeUserFiles(ws.storeDir);
        storeDir = `${ws.storeDir}-link`;
        fs.symlinkSync(ws.storeDir, storeDir);
        userNames = Object.keys(USER_FILES);
        break;
      case 'empty-folder':
        fs.mkdirSync(storeDir);
        break;
      case 'earlier-cairn-store':
      case 'marked-store': {
        const owner = setup.root === 'same' ? ws.root : other.root;
        await ws.engine({ root: owner, strategy: 'lines' }).refresh();
        if (setup.kind === 'earlier-cairn-store') fs.rmSync(path.join(storeDir, 'cairn-store.json'));
        break;
      }
      case 'damaged-store-with-user-files': {
        await ws.engine({ strategy: 'lines' }).refresh();
        fs.writeFileSync(path.join(storeDir, 'manifest.json'), '{"format": "cairn-ind');
        const { ['manifest.json']: _, ...rest } = USER_FILES;
        for (const [name, text] of Object.entries(rest)) fs.writeFileSync(path.join(storeDir, name), text);
        userNames = Object.keys(rest);
        break;
      }
      case 'project-with-an-earlier-index': {
        // `--store .` with an earlier Cairn: its index among the project's own files.
        await ws.engine({ strategy: 'lines' }).refresh();
        fs.rmSync(path.join(storeDir, 'cairn-store.json'));
        const { ['manifest.json']: _, ...rest } = USER_FILES;
        for (const [name, text] of Object.entries(rest)) fs.writeFileSync(path.join(storeDir, name), text);
        userNames = Object.keys(rest);
        break;
      }
    }
    checkDir = ws.storeDir;
    let result: string;
    try {
      const report = await ws.engine({ storeDir, strategy: 'lines' }).refresh();
      result = report.diagnostics.some((d) => d.code === 'store-corrupt') ? 'rebuilt after damage' : report.rebuilt ? 'built' : 'kept';
    } catch (e) {
      result = (e as { code?: string }).code ?? String(e);
    }
    return { result, left: entries(checkDir), userFilesIntact: userFilesIntact(checkDir, userNames) };
  } finally {
    await ws.dispose();
    await other.dispose();
  }
}

const INDEX = ['cairn-store.json', 'manifest.json', 'seg-*.cseg', 'state-*.cstate'];
const USER = Object.keys(USER_FILES).sort();

describe('store ownership: which folders Cairn writes and deletes in', function () {
  this.timeout(30000);

  checkAll<Setup, Outcome>(
    [
      { name: "a user's folder with manifest.json, state-*.json, build.tmp: refused, untouched", input: { kind: 'user-folder' }, expected: { result: 'store-not-cairn', left: USER, userFilesIntact: true } },
      { name: "a symbolic link to a user's folder: refused, untouched", input: { kind: 'user-folder-via-link' }, expected: { result: 'store-not-cairn', left: USER, userFilesIntact: true } },
      { name: 'an empty folder: taken and marked', input: { kind: 'empty-folder' }, expected: { result: 'built', left: INDEX, userFilesIntact: true } },
      { name: "an earlier Cairn's unmarked store of this root: adopted, its index kept", input: { kind: 'earlier-cairn-store', root: 'same' }, expected: { result: 'kept', left: INDEX, userFilesIntact: true } },
      { name: "an earlier Cairn's unmarked store of another root: refused", input: { kind: 'earlier-cairn-store', root: 'other' }, expected: { result: 'store-other-root', left: INDEX.filter((n) => n !== 'cairn-store.json'), userFilesIntact: true } },
      { name: 'a store marked for another root: refused', input: { kind: 'marked-store', root: 'other' }, expected: { result: 'store-other-root', left: INDEX, userFilesIntact: true } },
      { name: 'a store marked for this root: used', input: { kind: 'marked-store', root: 'same' }, expected: { result: 'kept', left: INDEX, userFilesIntact: true } },
      {
        name: "a damaged store holding the user's files: the index rebuilt, their files kept",
        input: { kind: 'damaged-store-with-user-files' },
        expected: { result: 'rebuilt after damage', left: [...INDEX, 'build.tmp', 'state-2024.json', 'state-machine.json'].sort(), userFilesIntact: true },
      },
      {
        name: "a project holding an earlier Cairn's index among its files: refused, untouched",
        input: { kind: 'project-with-an-earlier-index' },
        expected: { result: 'store-not-cairn', left: ['build.tmp', 'manifest.json', 'seg-*.cseg', 'state-*.cstate', 'state-2024.json', 'state-machine.json'], userFilesIntact: true },
      },
    ],
    run,
  );
});
