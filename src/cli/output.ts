// Everything the CLI prints goes through Output: JSON lines or human text on stdout, notes
// and errors on stderr, and a reader that goes away (`cairn chunks | head`) ends the output
// quietly instead of crashing with EPIPE.

/** A runtime failure with a stable code; `main` prints it and exits 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export class Output {
  private stdoutClosed = false;

  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WriteStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
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

  /** One line of text on stdout. */
  line(text: string): void {
    if (!this.closed) this.stdout.write(`${text}\n`);
  }

  /** One JSON value as a line on stdout. */
  record(value: unknown): void {
    this.line(JSON.stringify(value));
  }

  /** One line on stderr: progress, warnings, the human summary when stdout is piped. */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
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
