// Commands in registry content: every line of a fenced shell block, and every line starting with
// `$ ` anywhere. They are surfaced so a person can see what the guidance would have them run;
// Cairn never runs them, and they are always marked untrusted.
import type { SuggestedCommand } from './types';

/** Fence languages whose every line is a command. */
const SCRIPT_LANGUAGES = new Set(['sh', 'bash', 'shell', 'zsh', 'fish', 'ksh', 'powershell', 'pwsh', 'ps1', 'ps', 'cmd', 'bat', 'batch', 'bash-session']);
/** Fence languages showing a terminal session: only prompt lines are commands, the rest is output. */
const SESSION_LANGUAGES = new Set(['console', 'shell-session', 'sh-session', 'terminal', 'shellsession']);
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)/;
const PROMPT = /^\s*\$ (.*\S)\s*$/;
export const MAX_SUGGESTED_COMMANDS = 200;

export function extractCommands(file: string, text: string): SuggestedCommand[] {
  const found: SuggestedCommand[] = [];
  const lines = text.split(/\r?\n/);
  let fence: { marker: string; kind: 'script' | 'session' | 'other' } | undefined;
  let pending: { command: string; line: number } | undefined;
  const push = (command: string, line: number, origin: SuggestedCommand['origin']): void => {
    if (command) found.push({ command, file, line, trusted: false, origin });
  };
  for (let i = 0; i < lines.length && found.length < MAX_SUGGESTED_COMMANDS; i++) {
    const line = lines[i] as string;
    const fenceMatch = FENCE.exec(line);
    if (!fence && fenceMatch) {
      const marker = fenceMatch[1] as string;
      const lang = (fenceMatch[2] ?? '').toLowerCase();
      fence = { marker, kind: SCRIPT_LANGUAGES.has(lang) ? 'script' : SESSION_LANGUAGES.has(lang) ? 'session' : 'other' };
      continue;
    }
    if (fence && fenceMatch && fenceMatch[1]?.startsWith(fence.marker) && fenceMatch[2] === '') {
      if (pending) push(pending.command, pending.line, 'fenced-block');
      pending = undefined;
      fence = undefined;
      continue;
    }
    const prompt = PROMPT.exec(line);
    if (fence?.kind === 'script') {
      const body = (prompt ? (prompt[1] as string) : line).trim();
      if (pending) {
        pending.command += ` ${body.replace(/\\$/, '').trim()}`;
        if (!body.endsWith('\\')) {
          push(pending.command, pending.line, 'fenced-block');
          pending = undefined;
        }
      } else if (body && !body.startsWith('#') && !body.startsWith('REM ')) {
        if (body.endsWith('\\')) pending = { command: body.replace(/\\$/, '').trim(), line: i + 1 };
        else push(body, i + 1, 'fenced-block');
      }
    } else if (prompt) {
      push((prompt[1] as string).trim(), i + 1, 'prompt-line');
    }
  }
  if (pending) push(pending.command, pending.line, 'fenced-block');
  return found;
}
