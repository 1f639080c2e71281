import { checkAll } from './check';
import { AstChunker } from '../../src/core/chunking/ast';
import { DEFAULT_POLICY } from '../../src/core/chunking/policy';
import { GRAMMARS_DIR } from './helpers/workspace';

describe('import specifiers (tree-sitter)', () => {
  let chunker: AstChunker;
  before(async () => {
    chunker = await AstChunker.create({ grammarsDir: GRAMMARS_DIR });
  });
  after(() => chunker.dispose());

  checkAll(
    [
      { name: 'typescript', input: ['typescript', 'a.ts', 'import {x} from "./b";\nimport "./side";\nexport * from "../lib/c";\nconst y = require("./d");\nexport class Foo {}\n'], expected: ['./b', './side', '../lib/c', './d'] },
      { name: 'javascript dynamic import', input: ['javascript', 'a.js', 'const m = await import("./lazy.js");\n'], expected: ['./lazy.js'] },
      { name: 'python', input: ['python', 'p.py', 'import os, a.b as c\nfrom .models import User\nfrom . import utils, io\nfrom ..pkg.x import y\n\ndef f(): pass\n'], expected: ['os', 'a.b', '.models', '.utils', '.io', '..pkg.x'] },
      { name: 'go', input: ['go', 'm.go', 'package main\nimport (\n  "fmt"\n  "github.com/acme/app/internal/store"\n)\nfunc main(){}\n'], expected: ['fmt', 'github.com/acme/app/internal/store'] },
      { name: 'rust', input: ['rust', 'lib.rs', 'mod net;\nuse crate::net::http::{Client, Server};\nfn main(){}\n'], expected: ['./net', 'crate::net::http'] },
      { name: 'java', input: ['java', 'A.java', 'package x;\nimport com.acme.Order;\nimport static com.acme.Util.*;\nclass A {}\n'], expected: ['com.acme.Order', 'com.acme.Util'] },
      { name: 'c (quoted includes only)', input: ['c', 'u.c', '#include "util.h"\n#include <stdio.h>\n#ifdef X\n#include "x.h"\n#endif\nint main(){return 0;}\n'], expected: ['util.h', 'x.h'] },
      { name: 'ruby', input: ['ruby', 'a.rb', 'require "json"\nrequire_relative "lib/thing"\nclass A; end\n'], expected: ['json', './lib/thing'] },
      { name: 'css', input: ['css', 'a.css', '@import "base.css";\n.a { color: red }\n'], expected: ['./base.css'] },
      { name: 'no imports', input: ['python', 'x.py', 'def f():\n    import inside_function\n'], expected: [] },
    ],
    async ([language, path, text]) => {
      const r = await chunker.chunk({ path: path as string, text: text as string, size: 1, mtimeMs: 1, hash: 'h', language: language as string }, DEFAULT_POLICY);
      return r?.imports ?? [];
    },
  );
});
