// Bridge from tests running in the extension host to the launcher that drives the workbench page
// (scripts/vscode-host/run-offline.mjs, Playwright + chromium). The extension host cannot touch the
// workbench DOM, so a request travels as a tagged line on the extension-host console (forwarded to
// the browser console, which the launcher watches) and the launcher answers by writing
// `<id>.reply.json` into $VSCODE_TEST_UI_DIR, which this module polls. Launcher and server share one
// machine, so the file system is the reply channel.
//
// Only the offline host has the bridge. Under @vscode/test-electron (run-electron.mjs) uiAvailable()
// is false: guard UI checks with `if (!uiAvailable()) this.skip();`.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where to look for an element: the workbench page, the webview frames, or both (default). */
export type Frame = 'any' | 'main' | 'webview';

/** An element by CSS selector or by (substring, unless exact) visible text. */
export interface Target {
  selector?: string;
  text?: string;
  exact?: boolean;
  frame?: Frame;
}

export interface ClickTarget extends Target {
  button?: 'left' | 'right' | 'middle';
  clickCount?: number;
  modifiers?: Array<'Alt' | 'Control' | 'Meta' | 'Shift' | 'ControlOrMeta'>;
}

/** Steps run by the launcher in this order: click, type, press, waitForSelector, waitForText, getText, screenshot. */
export interface UiRequest {
  click?: ClickTarget | string;
  /** Typed into whatever has keyboard focus. */
  type?: string;
  /** Playwright key names: 'Enter', 'Escape', 'ArrowDown', 'Control+Shift+P', ... */
  press?: string | string[];
  waitForSelector?: string;
  waitForText?: string;
  /** Reply's `text` is the innerText of the first visible match (a string is a CSS selector). */
  getText?: Target | string;
  /** Saves <artifacts>/<name>.png. */
  screenshot?: string;
  /** CSS selector to clip the screenshot to, e.g. '.part.sidebar', '.part.panel', 'iframe.webview'. */
  clip?: string;
  /** Default frame for waitForText/waitForSelector/click/getText. */
  frame?: Frame;
  /** Per wait; default 20000. */
  timeoutMs?: number;
}

export interface UiReply {
  ok: boolean;
  error?: string;
  /** Absolute path of the PNG written for `screenshot`. */
  screenshot?: string;
  /** innerText for `getText`. */
  text?: string;
}

/** True when the launcher answers UI requests (the offline code-server host). */
export function uiAvailable(): boolean {
  return !!process.env.VSCODE_TEST_UI_DIR;
}

/** Folder for artifacts the tests want to keep (screenshots land here too); undefined if not set. */
export function artifactsDir(): string | undefined {
  return process.env.VSCODE_TEST_ARTIFACTS;
}

let seq = 0;

/** Sends one request to the launcher and waits for its reply. Never throws for a failed step: check `ok`. */
export async function ui(request: UiRequest): Promise<UiReply> {
  const dir = process.env.VSCODE_TEST_UI_DIR;
  if (!dir) throw new Error('UI bridge unavailable: VSCODE_TEST_UI_DIR is not set (only run-offline.mjs provides it; guard with uiAvailable())');
  const id = `ui-${process.pid}-${++seq}`;
  const replyFile = path.join(dir, `${id}.reply.json`);
  console.log(`[vscode-test:ui] ${JSON.stringify({ id, ...request })}`);
  // Enough for every wait the launcher may do, plus slack for the console hop.
  const waits = 1 + Number(!!request.click) + Number(!!request.waitForSelector) + Number(request.waitForText !== undefined)
    + Number(!!request.getText) + Number(!!request.screenshot);
  const deadline = Date.now() + waits * (request.timeoutMs ?? 20000) + 15000;
  while (Date.now() < deadline) {
    if (fs.existsSync(replyFile)) {
      const reply = JSON.parse(fs.readFileSync(replyFile, 'utf8')) as UiReply;
      fs.rmSync(replyFile, { force: true });
      return reply;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ok: false, error: `no reply from the launcher for UI request ${id} (${JSON.stringify(request)})` };
}

/** Throws with the launcher's error unless the request succeeded. */
export async function uiOk(request: UiRequest): Promise<UiReply> {
  const reply = await ui(request);
  if (!reply.ok) throw new Error(`UI request failed: ${reply.error ?? 'unknown error'} (${JSON.stringify(request)})`);
  return reply;
}

export const waitForText = (text: string, opts: { frame?: Frame; timeoutMs?: number } = {}): Promise<UiReply> =>
  uiOk({ waitForText: text, ...opts });

/** Screenshot of the whole page, or of the first element matching `clip` (a CSS selector). */
export const screenshot = (name: string, opts: { clip?: string; waitForText?: string; timeoutMs?: number } = {}): Promise<UiReply> =>
  uiOk({ screenshot: name, ...opts });

export const click = (target: ClickTarget | string, opts: { frame?: Frame; timeoutMs?: number } = {}): Promise<UiReply> =>
  uiOk({ click: target, ...opts });

export const press = (keys: string | string[]): Promise<UiReply> => uiOk({ press: keys });

export const typeText = (text: string): Promise<UiReply> => uiOk({ type: text });

export async function getText(target: Target | string, opts: { frame?: Frame; timeoutMs?: number } = {}): Promise<string> {
  return (await uiOk({ getText: target, ...opts })).text ?? '';
}
