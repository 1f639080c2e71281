// Everything the CLI prints goes through Output: JSON lines or human text on stdout, notes
// and errors on stderr, and a reader that goes away (`cairn chunks | head`) ends the output
// quietly instead of crashing with EPIPE.
import type { Writable } from 'node:stream';

/** A runtime failure with a stable code; `main` prints it and exits 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** Where Output writes: the process's streams, or (in `cairn serve`) buffers sent to a client. */
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };

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

  /** One line of text on stdout; control characters a file name or a file's text holds are shown, not obeyed. */
  line(text: string): void {
    if (!this.closed) this.stdout.write(`${visible(text)}\n`);
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
    this.note(this.json ? JSON.stringify({ error: { code, message } }) : `${prefix}: ${message}`);
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

// C0 controls but tab and newline, DEL, and the C1 controls (U+009B is a one-character CSI).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` with every control character a terminal would act on written as `\x1b`-style text:
 * a file named `ESC[31m…` or holding `ESC]0;…BEL` cannot recolour or retitle the terminal. A
 * carriage return could overwrite a line, so it is shown too.
 */
export function visible(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
