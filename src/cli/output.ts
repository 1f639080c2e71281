// Everything the CLI prints goes through Output: JSON lines or human text on stdout, notes
// and errors on stderr, and a reader that goes away (`cairn chunks | head`) ends the output
// quietly instead of crashing with EPIPE.
import type { OutputStream } from '../command/context';

/** A runtime failure with a stable code; `main` prints it and exits 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export type { OutputStream } from '../command/context';

export class Output {
  private stdoutClosed = false;

  constructor(
    readonly json: boolean,
    private readonly stdout: OutputStream = process.stdout,
    private readonly stderr: OutputStream = process.stderr,
  ) {
    // Without a listener, EPIPE on a closed pipe is an uncaught exception.
    stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') this.stdoutClosed = true;
      else throw e;
    });
  }

  /** True once the reader of stdout has gone away; commands should stop producing output. */
  get closed(): boolean {
    return this.stdoutClosed || this.stdout.destroyed;
  }

  /** Whether a person is reading stdout (a terminal) rather than a pipe or a file. */
  get interactive(): boolean {
    return this.stdout.isTTY === true;
  }

  /**
   * One line of text on stdout; control and bidirectional formatting characters a file name or a
   * file's text holds (a line feed included) are shown, not obeyed.
   */
  line(text: string): void {
    if (!this.closed) this.stdout.write(`${visible(text)}\n`);
  }

  /** Text of several lines on stdout (a file's content, a Markdown pack), each shown as `line` would. */
  block(text: string): void {
    if (!this.closed) this.stdout.write(`${visibleBlock(text)}\n`);
  }

  /** One JSON value as a line on stdout (JSON escapes control characters itself). */
  record(value: unknown): void {
    if (!this.closed) this.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** One line on stderr: progress, warnings, the human summary when stdout is piped. */
  note(text: string): void {
    this.stderr.write(`${visible(text)}\n`);
  }

  /** A failure: `{"error":{"code","message"}}` with --json, `cairn: message` otherwise. */
  error(code: string, message: string, prefix = 'cairn'): void {
    // JSON escapes control characters itself, and a `\u{…}` inside a JSON string would break it.
    if (this.json) this.stderr.write(`${JSON.stringify({ error: { code, message } })}\n`);
    else this.note(`${prefix}: ${message}`);
  }

  /** Waits until stdout can take more (or is gone), so large outputs do not pile up in memory. */
  async drain(): Promise<void> {
    if (this.closed || !this.stdout.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.stdout.off('drain', done).off('error', done).off('close', done);
        resolve();
      };
      this.stdout.on('drain', done).on('error', done).on('close', done);
    });
  }
}

// What a terminal would act on instead of showing: the C0 controls but tab (a line feed or a
// carriage return in a file name can forge another `path:line` row), DEL, the C1 controls
// (U+009B is a one-character CSI), and the bidirectional formatting characters (U+202E can make
// `txt.exe` read as `exe.txt`): embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069,
// the marks U+200E, U+200F and U+061C. Tab is left as it is: code is indented with it, and it
// moves the cursor along the line only.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SHOWN_ESCAPED = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same, but line feeds separate the lines of a block
const SHOWN_ESCAPED_IN_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16).toUpperCase()}}`;
}

/**
 * `text` as one line a terminal shows rather than obeys: every control and bidirectional
 * formatting character written out (`\x1b`, `\n`, `\u{202E}`), so a file named `ESC[31m…`,
 * holding `ESC]0;…BEL`, or with a line feed or U+202E in its name cannot recolour or retitle the
 * terminal, forge a row, or reorder what is shown.
 */
export function visible(text: string): string {
  return text.replace(SHOWN_ESCAPED, escapeOne);
}

/** `visible` for a block of lines: the line feeds between them stay. */
export function visibleBlock(text: string): string {
  return text.replace(SHOWN_ESCAPED_IN_BLOCK, escapeOne);
}
