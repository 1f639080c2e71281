// Prism colours every `code[class*="language-"]` of the page when it loads unless told not to:
// the pack view colours only the blocks it builds. Imported before Prism (highlight.ts).
(globalThis as { Prism?: { manual?: boolean } }).Prism = { manual: true };
