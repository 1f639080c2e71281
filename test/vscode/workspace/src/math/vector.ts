/** An immutable 2D vector. */
export class Vector {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}

  static readonly zero = new Vector(0, 0);

  add(other: Vector): Vector {
    return new Vector(this.x + other.x, this.y + other.y);
  }

  scale(factor: number): Vector {
    return new Vector(this.x * factor, this.y * factor);
  }

  /** Euclidean length. */
  length(): number {
    return Math.hypot(this.x, this.y);
  }

  normalize(): Vector {
    const len = this.length();
    return len === 0 ? Vector.zero : this.scale(1 / len);
  }

  toString(): string {
    return `(${this.x}, ${this.y})`;
  }
}

export function dot(a: Vector, b: Vector): number {
  return a.x * b.x + a.y * b.y;
}

export function distance(a: Vector, b: Vector): number {
  return a.add(b.scale(-1)).length();
}
