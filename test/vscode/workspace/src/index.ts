import { createGreeter } from './greeter';
import { Vector, distance } from './math/vector';

export function main(argv: readonly string[]): string {
  const greeter = createGreeter('Hi');
  const origin = Vector.zero;
  const target = new Vector(3, 4);
  return [greeter.greetAll(argv), `distance to ${target.toString()}: ${distance(origin, target)}`].join('\n');
}
