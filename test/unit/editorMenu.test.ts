// The editor's context menu: Cairn's items sit in one "Cairn" submenu, so nobody takes them for
// VS Code's own Find References or Copy; nothing of Cairn's is left loose among VS Code's items.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkAll } from './check';

interface MenuItem { command?: string; submenu?: string; when?: string; group?: string }
interface Contributes {
  commands: Array<{ command: string; title: string }>;
  submenus?: Array<{ id: string; label: string }>;
  menus: Record<string, MenuItem[]>;
  keybindings: Array<{ command: string; key: string }>;
}

const contributes = (JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { contributes: Contributes }).contributes;

/** Where a command shows in the editor's context menu, as a user reads the path to it ('' when it is not there). */
function editorMenuPath(command: string): string {
  const title = contributes.commands.find((c) => c.command === command)?.title ?? command;
  const walk = (menu: string, trail: string[]): string => {
    for (const item of contributes.menus[menu] ?? []) {
      if (item.command === command) return [...trail, title].join(' > ');
      if (item.submenu) {
        const label = contributes.submenus?.find((s) => s.id === item.submenu)?.label ?? `(${item.submenu}: no label)`;
        const found = walk(item.submenu, [...trail, label]);
        if (found) return found;
      }
    }
    return '';
  };
  return walk('editor/context', []);
}

describe('the editor context menu', () => {
  checkAll(
    [
      { input: 'cairn.findReferences', expected: 'Cairn > Find References' },
      { input: 'cairn.copySpanReference', expected: 'Cairn > Copy Span Reference' },
      { input: 'cairn.addToContextPack', expected: 'Cairn > Add to Context Pack' },
    ],
    editorMenuPath,
  );

  it('holds nothing of Cairn\'s but the Cairn submenu', () => {
    assert.deepEqual(contributes.menus['editor/context']?.map((i) => i.command ?? `submenu ${i.submenu}`), ['submenu cairn.editorContext']);
  });

  it('keeps every keybinding on a contributed command', () => {
    const commands = new Set(contributes.commands.map((c) => c.command));
    assert.deepEqual(contributes.keybindings.filter((k) => !commands.has(k.command)), []);
    assert.deepEqual(contributes.keybindings.map((k) => `${k.command} ${k.key}`), [
      'cairn.search ctrl+alt+f',
      'cairn.goToSymbol ctrl+alt+s',
      'cairn.copyResultReference ctrl+c',
      'cairn.showSearchInResults ctrl+enter',
    ]);
  });
});
