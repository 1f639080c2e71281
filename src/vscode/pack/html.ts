// HTML shells for Cairn's webviews, with one strict Content Security Policy: nothing loads
// but the extension's own stylesheet(s) and, for scripted views, one script carrying a fresh nonce.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** Folders a webview may load from: the bundled scripts and the stylesheets. */
export function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export interface ShellOptions {
  title: string;
  /** Stylesheets under media/, e.g. `pack.css`. */
  styles: string[];
  /** A script under dist/webview/, e.g. `pack.js`; omitted for static views (then no script may run at all). */
  script?: string;
  /** Trusted markup built by the extension (every dynamic text escaped with escapeHtml). */
  body: string;
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, options: ShellOptions): string {
  const nonce = randomBytes(18).toString('base64');
  const csp = [
    "default-src 'none'",
    options.script ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  const styles = options.styles
    .map((s) => `<link rel="stylesheet" href="${webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', s)).toString()}">`)
    .join('\n    ');
  const script = options.script
    ? `<script nonce="${nonce}" src="${webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', options.script)).toString()}"></script>`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${csp}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeHtml(options.title)}</title>
  </head>
  <body>
${options.body}
    ${script}
  </body>
</html>`;
}
