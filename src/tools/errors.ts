/**
 * An expected failure of a tool call, shown to the model as the tool's error as is: a bad
 * argument, a path outside the root, a file that does not exist, an index still being built.
 * Anything else that goes wrong is reported as an internal error.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
