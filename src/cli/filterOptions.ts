// Filter options shared by search, symbol and pack, and what they mean to the engine.

import type { OptionSpec, OptionValues } from './args';
import { listOption } from './engineSetup';
import type { RefreshMode } from '../core/api';

export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  lang: { type: 'string', valueName: 'L', description: 'only these languages (ts, py, go…; comma-separated or repeated)', multiple: true },
  kind: { type: 'string', valueName: 'K', description: 'only these kinds (function, class, method…)', multiple: true },
  path: { type: 'string', valueName: 'GLOB', description: "only paths matching (src/**, !test/**; plain text matches a substring)", multiple: true },
};

/** The engine filters the options ask for (undefined when not given). */
export function filterValues(values: OptionValues): { languages?: string[]; kinds?: string[]; paths?: string[] } {
  return { languages: listOption(values, 'lang'), kinds: listOption(values, 'kind'), paths: listOption(values, 'path') };
}

/** `--no-refresh` answers from the index as it is (building it only when there is none). */
export function refreshMode(values: OptionValues): RefreshMode {
  return values['no-refresh'] ? 'if-missing' : 'always';
}
