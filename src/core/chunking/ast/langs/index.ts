// Language id → definition spec. Grammars without a spec here are not chunked by AST.
import type { LanguageSpec } from '../spec';
import { bashSpec } from './bash';
import { cSpec } from './c';
import { cppSpec } from './cpp';
import { csharpSpec } from './csharp';
import { cssSpec } from './css';
import { goSpec } from './go';
import { htmlSpec } from './html';
import { javaSpec } from './java';
import { jsonSpec } from './json';
import { phpSpec } from './php';
import { pythonSpec } from './python';
import { rubySpec } from './ruby';
import { rustSpec } from './rust';
import { swiftSpec } from './swift';
import { typescriptSpec } from './typescript';

const SPECS: Readonly<Record<string, LanguageSpec>> = {
  typescript: typescriptSpec,
  tsx: typescriptSpec,
  javascript: typescriptSpec,
  python: pythonSpec,
  go: goSpec,
  rust: rustSpec,
  java: javaSpec,
  c: cSpec,
  cpp: cppSpec,
  csharp: csharpSpec,
  ruby: rubySpec,
  php: phpSpec,
  swift: swiftSpec,
  bash: bashSpec,
  css: cssSpec,
  html: htmlSpec,
  json: jsonSpec,
};

export function specFor(language: string): LanguageSpec | undefined {
  return SPECS[language];
}
