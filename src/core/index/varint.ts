// LEB128 unsigned varints: postings are mostly small deltas and term frequencies of 1.

/** A growable byte buffer that appends varints. */
export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(initialCapacity = 16) {
    this.bytes = new Uint8Array(initialCapacity);
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let cap = this.bytes.length * 2;
    while (cap < this.length + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  byte(value: number): void {
    this.ensure(1);
    this.bytes[this.length++] = value;
  }

  varint(value: number): void {
    this.ensure(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  /**
   * Appends `s` as UTF-8 and returns its byte length. ASCII (nearly every identifier, path and
   * signature) is copied char by char: a TextEncoder call per short string cost a segment
   * build most of a second.
   */
  utf8(s: string): number {
    const n = s.length;
    this.ensure(n);
    const bytes = this.bytes;
    const start = this.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        const wide = utf8Encoder.encode(s);
        this.length = start;
        this.append(wide);
        return wide.length;
      }
      bytes[start + i] = c;
    }
    this.length = start + n;
    return n;
  }

  /** Appends a varint byte length and then `s` as UTF-8. */
  lengthPrefixedUtf8(s: string): void {
    if (isAscii(s)) {
      this.varint(s.length);
      this.utf8(s);
      return;
    }
    const wide = utf8Encoder.encode(s);
    this.varint(wide.length);
    this.append(wide);
  }

  append(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

const utf8Encoder = new TextEncoder();

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Thrown when encoded data runs past its bounds: the caller treats the segment as corrupt. */
export class CorruptDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptDataError';
  }
}

/** Reads varints from `bytes` starting at `pos`; bounds-checked against `end`. */
export class ByteReader {
  constructor(
    private readonly source: Uint8Array,
    public pos: number,
    private readonly end: number,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  byte(): number {
    if (this.pos >= this.end) throw new CorruptDataError('read past end of postings');
    return this.source[this.pos++] as number;
  }

  /** The next `n` bytes, as a view. */
  bytes(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.end) throw new CorruptDataError('read past end of data');
    const view = this.source.subarray(this.pos, this.pos + n);
    this.pos += n;
    return view;
  }

  /** Moves past the next `n` bytes. */
  skip(n: number): void {
    if (n < 0 || this.pos + n > this.end) throw new CorruptDataError('read past end of data');
    this.pos += n;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new CorruptDataError('truncated varint');
      const b = this.source[this.pos++] as number;
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
      if (shift > 35) throw new CorruptDataError('varint too long');
    }
  }
}
