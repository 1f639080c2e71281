// Filter options shared by search and symbol.
import type { OptionSpec } from './args';

export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  lang: { type: 'string', valueName: 'L', description: 'only these languages (ts, py, go…; comma-separated or repeated)', multiple: true },
  kind: { type: 'string', valueName: 'K', description: 'only these kinds (function, class, method…)', multiple: true },
  path: { type: 'string', valueName: 'GLOB', description: "only paths matching (src/**, !test/**; plain text matches a substring)", multiple: true },
};
