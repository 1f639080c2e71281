// The webview imports the engine's plain-data result types (type-only) so the protocol never
// re-declares them. A few of those core files name a Node type in a signature; this project has
// no Node types (webview code must not see `process` or `require`), so the one such name used is
// declared here, as narrowly as the engine uses it.
declare namespace NodeJS {
  interface ErrnoException extends Error {
    code?: string;
  }
}
