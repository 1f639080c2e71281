// The tool-use counters in a real VS Code: the language-model tools count into the folder's
// store (written a few seconds after the calls, off the tool call), the Index view shows an
// "Agent tool use" node with the figures, and `cairn.agent.usageCounters: false` stops counting.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { USAGE_FLUSH_MS, type UsageSummary } from '../../../src/tools/usage';
import { api, poll, ready, setSetting, sleep } from './cairnHelpers';
import { click, screenshot, uiAvailable, waitForText } from './ui';

async function invoke(name: string, input: Record<string, unknown>): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
}

function counted(file: string): UsageSummary | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as UsageSummary;
  } catch {
    return undefined;
  }
}

describe('Agent tool use counters', function () {
  this.timeout(60000);
  let file: string;

  before(async () => {
    const a = await api();
    await ready(a);
    const storeDir = a.services.engine.states()[0]?.status?.storeDir;
    assert.ok(storeDir);
    file = path.join(storeDir, 'usage.json');
  });

  it('the language-model tools count into the folder\'s store, and the Index view shows it', async () => {
    // Calls of earlier suites may still be unwritten: let their flush land before counting from it.
    await sleep(USAGE_FLUSH_MS + 1500);
    const before = counted(file)?.tools ?? {};
    const found = await invoke('cairn_search_code', { query: 'Greeter greet' });
    const next = /^next: read_span (\{.*\}) — /m.exec(found)?.[1];
    assert.ok(next, found);
    await invoke('cairn_read_span', JSON.parse(next) as Record<string, unknown>);
    const after = await poll(
      'the counters to be written',
      () => {
        const tools = counted(file)?.tools;
        return tools && (tools.search_code?.calls ?? 0) > (before.search_code?.calls ?? 0) && (tools.read_span?.calls ?? 0) > (before.read_span?.calls ?? 0) ? tools : undefined;
      },
      USAGE_FLUSH_MS + 10_000,
    );
    assert.equal(after.search_code!.calls, (before.search_code?.calls ?? 0) + 1);
    assert.equal(after.search_code!.spansLaterRead, (before.search_code?.spansLaterRead ?? 0) + 1, 'the span the search returned was read');
    assert.ok(after.search_code!.wholeFileTokens > (before.search_code?.wholeFileTokens ?? 0));
    if (uiAvailable()) {
      await vscode.commands.executeCommand('workbench.view.extension.cairn');
      await vscode.commands.executeCommand('cairn.index.focus');
      await waitForText('Agent tool use');
      await click({ text: 'Agent tool use', exact: true });
      await waitForText('search_code');
      await waitForText('whole files');
      await screenshot('sidebar-index-usage', { clip: '.part.sidebar' });
      await click({ text: 'Agent tool use', exact: true });
    }
  });

  it('with cairn.agent.usageCounters off, calls are not counted', async () => {
    await setSetting('agent.usageCounters', false);
    try {
      const before = counted(file)?.tools.search_code?.calls ?? 0;
      await invoke('cairn_search_code', { query: 'Vector normalize' });
      await sleep(USAGE_FLUSH_MS + 1500);
      assert.equal(counted(file)?.tools.search_code?.calls ?? 0, before);
      if (uiAvailable()) {
        await vscode.commands.executeCommand('cairn.index.focus');
        await waitForText('(counting off)');
      }
    } finally {
      await setSetting('agent.usageCounters', undefined);
    }
  });
});
