// Explicit index commands while indexing is paused: ask before resuming rather than queueing
// work the user may wait for in vain.
import * as vscode from 'vscode';
import type { EngineClient } from '../services';

/** True when the command may go ahead (indexing runs, or the user chose to resume it). */
export async function resumeIfPaused(engine: EngineClient, what: string): Promise<boolean> {
  if (!engine.paused) return true;
  const choice = await vscode.window.showInformationMessage(`Cairn: indexing is paused. Resume it and ${what}?`, 'Resume');
  if (choice !== 'Resume') return false;
  engine.resume();
  return true;
}
