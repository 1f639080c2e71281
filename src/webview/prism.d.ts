// Prism's core without its bundled plugins: the same API as the `prismjs` package typings.
declare module 'prismjs/components/prism-core' {
  import Prism = require('prismjs');
  export = Prism;
}
