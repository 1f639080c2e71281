/** Options for {@link Greeter}. */
export interface GreeterOptions {
  /** Word used before the name, e.g. "Hello". */
  salutation: string;
  /** Appended after the name. */
  punctuation?: string;
}

/** Builds greetings for people by name. */
export class Greeter {
  private count = 0;

  constructor(private readonly options: GreeterOptions = { salutation: 'Hello' }) {}

  /** Returns a greeting for `name`, e.g. "Hello, Ada!". */
  greet(name: string): string {
    this.count++;
    const trimmed = name.trim() || 'stranger';
    return `${this.options.salutation}, ${trimmed}${this.options.punctuation ?? '!'}`;
  }

  /** Greets everyone in `names`, one line each. */
  greetAll(names: readonly string[]): string {
    return names.map((n) => this.greet(n)).join('\n');
  }

  /** How many greetings this instance has produced. */
  get greeted(): number {
    return this.count;
  }
}

export function createGreeter(salutation = 'Hello'): Greeter {
  return new Greeter({ salutation });
}
