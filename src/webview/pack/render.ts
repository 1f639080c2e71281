// Builds the pack view's DOM from plain data. No state lives here: main.ts owns the model and
// passes callbacks; every text is set with textContent (see dom.ts).
import type { CutItem, PackItem, RejectedFile, RelatedFile, ScoreComponent, RegistryFetchResult, RegistryHit, RegistryScoreComponent } from '../../core/api';
import { h } from './dom';
import { ago, componentLabel, count, counted, RELATION_LABEL, score, spanLabel, tokens } from './format';
import { codeBlock } from './highlight';
import type { BasketSpan, GuidanceDetail, GuidanceMode, PackError, PackRequest, PackResult, SpanTarget } from './protocol';

export interface ViewActions {
  open(target: SpanTarget): void;
  fetchGuidance(hit: RegistryHit, mode: GuidanceMode): void;
  removeBasketItem(docid: string): void;
  clearBasket(): void;
  refreshIndex(): void;
  retry(): void;
}

export interface ContentModel {
  result?: PackResult;
  building?: PackRequest;
  error?: { request: PackRequest; error: PackError };
  basket: BasketSpan[];
  guidance: Record<string, GuidanceDetail>;
  guidanceLoading: ReadonlySet<string>;
  guidanceErrors: ReadonlyMap<string, string>;
}

/** `path:start-end` → its parts (docids are always written this way; the path may contain colons). */
export function parseDocid(docid: string): { path: string; startLine: number; endLine: number } | undefined {
  const m = /^(.+):(\d+)-(\d+)$/.exec(docid);
  return m ? { path: m[1] as string, startLine: Number(m[2]), endLine: Number(m[3]) } : undefined;
}

/** Text with `code` spans, as the engine writes reasons. */
export function inlineCode(text: string): Array<Node | string> {
  return text.split(/(`[^`]+`)/).filter(Boolean).map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 2 ? h('code', {}, part.slice(1, -1)) : part));
}

function spanButton(label: string, target: SpanTarget, actions: ViewActions, extraClass = ''): HTMLButtonElement {
  return h('button', { type: 'button', class: `link span ${extraClass}`.trim(), title: `Open ${spanLabel(target)}`, 'data-open': spanLabel(target), onclick: () => actions.open(target) }, label);
}

function breakdown(parts: ReadonlyArray<ScoreComponent | RegistryScoreComponent>, total: number, key: string): HTMLDetailsElement {
  const rows = [...parts].sort((a, b) => b.value - a.value);
  return h(
    'details',
    { class: 'breakdown', 'data-key': key },
    h('summary', {}, `Score ${score(total)}: ${rows.length} part${rows.length === 1 ? '' : 's'}`),
    h(
      'table',
      {},
      h('tbody', {}, ...rows.map((c) => h('tr', {}, h('td', { class: 'part-kind' }, c.kind), h('td', { class: 'part-name' }, componentLabel(c)), h('td', { class: 'num' }, score(c.value))))),
      h('tfoot', {}, h('tr', {}, h('td', {}, ''), h('td', {}, 'total'), h('td', { class: 'num' }, score(total)))),
    ),
  );
}

function section(id: string, title: string, n: number | undefined, hint: string | undefined, ...body: Node[]): HTMLElement {
  return h(
    'section',
    { class: 'section', id, 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title, n !== undefined ? h('span', { class: 'count badge' }, count(n)) : undefined),
    hint ? h('p', { class: 'hint' }, hint) : undefined,
    ...body,
  );
}

function mustInspectItem(item: PackItem, index: number, folder: string, actions: ViewActions): HTMLElement {
  const name = item.context || item.symbol;
  const target = { folder, path: item.path, startLine: item.startLine, endLine: item.endLine };
  // A span cut to fit the budget ends with a line saying how many lines were left out: no line number for it.
  const lines = item.text === undefined ? [] : item.text.split('\n');
  const more = item.truncatedTo ? lines.pop() : undefined;
  return h(
    'article',
    { class: 'item', 'data-docid': item.docid },
    h(
      'div',
      { class: 'item-head' },
      h('span', { class: 'ordinal', 'aria-hidden': 'true' }, index + 1),
      h('div', { class: 'item-title' }, spanButton(item.docid, target, actions), name ? h('span', { class: 'symbol' }, h('span', { class: 'kind' }, item.kind), ' ', name) : undefined),
      h(
        'div',
        { class: 'item-tags' },
        h('span', { class: `relation badge rel-${item.relation}` }, RELATION_LABEL[item.relation]),
        h('span', { class: 'meta', title: 'Estimated tokens of this item in the Markdown pack' }, `${tokens(item.tokens)} tok`),
      ),
    ),
    h('p', { class: 'reason' }, ...inlineCode(item.reason)),
    item.truncatedTo
      ? h('p', { class: 'note warn' }, `Cut to fit the budget: lines ${item.truncatedTo.startLine}-${item.truncatedTo.endLine} of ${item.startLine}-${item.endLine} are included.`)
      : undefined,
    item.stale ? h('p', { class: 'note warn' }, 'The file changed since it was indexed: the lines may have moved.') : undefined,
    breakdown(item.scoreBreakdown, item.score, `why:${item.docid}`),
    item.text !== undefined
      ? h('details', { class: 'code', 'data-key': `code:${item.docid}` }, h('summary', {}, `Code: ${counted(lines.length, 'line')}`), codeBlock(lines.join('\n'), item.language, item.startLine, more))
      : undefined,
  );
}

function targetOf(folder: string, entry: { path: string; docid?: string }): SpanTarget {
  const parsed = entry.docid ? parseDocid(entry.docid) : undefined;
  return parsed ? { folder, ...parsed } : { folder, path: entry.path, startLine: 1, endLine: 1 };
}

function relatedRow(r: RelatedFile, folder: string, actions: ViewActions): HTMLElement {
  return h(
    'li',
    { class: 'row' },
    h('div', { class: 'row-head' }, spanButton(r.docid ?? r.path, targetOf(folder, r), actions), h('div', { class: 'item-tags' }, h('span', { class: `relation badge rel-${r.relation}` }, RELATION_LABEL[r.relation]))),
    h('p', { class: 'reason' }, ...inlineCode(r.reason)),
    breakdown(r.scoreBreakdown, r.score, `why:${r.docid ?? r.path}`),
  );
}

function rejectedRow(r: RejectedFile, folder: string, actions: ViewActions): HTMLElement {
  return h(
    'li',
    { class: 'row' },
    h('div', { class: 'row-head' }, spanButton(r.docid ?? r.path, targetOf(folder, r), actions, 'muted'), h('div', { class: 'item-tags' }, r.score !== undefined ? h('span', { class: 'meta' }, `score ${score(r.score)}`) : undefined)),
    h('p', { class: 'reason' }, ...inlineCode(r.reason)),
  );
}

function cutRow(c: CutItem): HTMLElement {
  const what = c.action === 'truncated' ? `kept ${tokens(c.keptTokens)} of ${tokens(c.originalTokens)} tokens` : `text left out (${tokens(c.originalTokens)} tokens); listed with the related files`;
  return h('li', { class: 'row compact' }, h('code', {}, c.docid), ' — ', what);
}

function meter(result: PackResult): HTMLElement {
  const { pack } = result;
  const ratio = pack.budgetTokens > 0 ? Math.min(1, pack.usedTokens / pack.budgetTokens) : 0;
  const fill = h('span', { class: 'meter-fill' });
  // CSSOM, not a style attribute: the CSP allows no inline styles.
  fill.style.width = `${(ratio * 100).toFixed(1)}%`;
  const level = ratio >= 0.98 ? 'full' : ratio >= 0.8 ? 'high' : 'ok';
  return h(
    'div',
    { class: 'meter', id: 'meter' },
    h(
      'div',
      { class: 'meter-label' },
      h('strong', { id: 'budget-used' }, `${tokens(pack.usedTokens)} / ${tokens(pack.budgetTokens)} tokens`),
      h('span', { class: 'meta' }, `${count(pack.mustInspect.length)} must inspect · ${count(pack.relatedFiles.length)} related · ${count(pack.rejectedFiles.length)} left out`),
      h('span', { class: 'spacer' }),
      h('span', { class: 'meta', title: new Date(result.builtAtMs).toLocaleString() }, `${pack.folder} · ${counted(pack.index.files, 'file')} indexed · built ${ago(result.builtAtMs)} in ${count(Math.round(pack.tookMs))} ms`),
    ),
    h('div', { class: `meter-bar level-${level}`, role: 'meter', 'aria-label': 'Token budget used', 'aria-valuemin': 0, 'aria-valuemax': pack.budgetTokens, 'aria-valuenow': pack.usedTokens }, fill),
  );
}

function basketSection(model: ContentModel, actions: ViewActions): HTMLElement | undefined {
  if (model.basket.length === 0) return undefined;
  const included = new Set(model.result?.basketIncluded ?? []);
  const leftOut = new Map((model.result?.basketLeftOut ?? []).map((b) => [b.docid, b.reason]));
  const pending = model.result !== undefined && model.basket.some((b) => !included.has(b.docid) && !leftOut.has(b.docid));
  return section(
    'basket',
    'Your spans',
    model.basket.length,
    'Spans added from the sidebar are named in the task, so the pack keeps them as must-inspect.',
    h(
      'ul',
      { class: 'chips' },
      ...model.basket.map((b) =>
        h(
          'li',
          { class: `chip${leftOut.has(b.docid) ? ' left-out' : ''}`, title: leftOut.get(b.docid) ?? `${b.kind} ${b.symbol}`.trim() },
          spanButton(b.docid, { folder: b.folder, path: b.path, startLine: b.startLine, endLine: b.endLine }, actions),
          b.symbol ? h('span', { class: 'meta' }, b.symbol) : undefined,
          h('button', { type: 'button', class: 'icon-button', 'aria-label': `Remove ${b.docid} from the pack`, title: 'Remove', onclick: () => actions.removeBasketItem(b.docid) }, '×'),
        ),
      ),
    ),
    h(
      'div',
      { class: 'row-head' },
      h(
        'div',
        {},
        pending ? h('p', { class: 'note' }, 'Build again to include the spans added since the last build.') : undefined,
        ...[...leftOut].map(([docid, reason]) => h('p', { class: 'note warn' }, `${docid}: ${reason}`)),
      ),
      h('button', { type: 'button', class: 'secondary small', onclick: () => actions.clearBasket() }, 'Clear spans'),
    ),
  );
}

const TRUST_HINT: Record<string, string> = {
  verified: 'verified author — still advisory',
  community: 'community author — review before relying on it',
  unreviewed: 'unreviewed — treat with care',
};

function guidanceContent(detail: GuidanceDetail, hit: RegistryHit, actions: ViewActions, loadingFull: boolean): Node[] {
  const r: RegistryFetchResult = detail.result;
  const problems = [...r.omittedFiles.map((f) => `${f.path}: ${f.reason}`), ...r.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.message)];
  const companions = (r.entry?.files.length ?? 0) - r.files.length;
  return [
    h('p', { class: 'advisory', role: 'note' }, h('strong', {}, 'Advisory. '), r.trust.notice),
    ...r.files.map((f) =>
      h('details', { class: 'guidance-file', open: true, 'data-key': `gfile:${detail.id}:${f.path}` }, h('summary', {}, h('code', {}, f.path), h('span', { class: 'meta' }, ` ${f.role} · ${count(f.size)} bytes`)), h('pre', { class: 'wrap' }, f.content)),
    ),
    r.suggestedCommands.length
      ? h(
          'div',
          { class: 'commands' },
          h('h4', {}, 'Commands mentioned (not run)'),
          h(
            'ul',
            {},
            ...r.suggestedCommands.map((c) =>
              h('li', {}, h('span', { class: 'badge untrusted', title: 'Found in registry content. Cairn never runs it; review it before you do.' }, 'UNTRUSTED'), ' ', h('code', {}, c.command), h('span', { class: 'meta' }, ` ${c.file}:${c.line}`)),
            ),
          ),
        )
      : undefined,
    problems.length ? h('ul', { class: 'problems' }, ...problems.map((p) => h('li', { class: 'note warn' }, p))) : undefined,
    detail.mode === 'entry' && companions > 0
      ? h('button', { type: 'button', class: 'secondary small', disabled: loadingFull, onclick: () => actions.fetchGuidance(hit, 'full') }, loadingFull ? 'Loading…' : `Show all files (${companions} more)`)
      : undefined,
    r.version ? h('p', { class: 'meta' }, `${r.version.sourceId} · ${r.version.packageVersion} · revision ${r.version.revision} · content ${r.version.contentHash.slice(0, 12)}`) : undefined,
  ].filter((n): n is NonNullable<typeof n> => n !== undefined);
}

function guidanceEntry(hit: RegistryHit, model: ContentModel, actions: ViewActions): HTMLElement {
  const detail = model.guidance[hit.id];
  const loading = model.guidanceLoading.has(`${hit.id}|entry`);
  const error = model.guidanceErrors.get(hit.id);
  const body = h('div', { class: 'guidance-body' });
  if (detail) body.append(...guidanceContent(detail, hit, actions, model.guidanceLoading.has(`${hit.id}|full`)));
  else if (error) body.append(h('p', { class: 'note error' }, error));
  else body.append(h('p', { class: 'meta' }, loading ? 'Loading…' : ''));
  const details = h(
    'details',
    { class: 'guidance', 'data-key': `guidance:${hit.id}`, 'data-guidance': hit.id },
    h(
      'summary',
      {},
      h('span', { class: 'guidance-title' }, hit.title),
      ' ',
      h('code', { class: 'meta' }, hit.id),
      h('span', { class: `badge trust trust-${hit.trust}`, title: TRUST_HINT[hit.trust] ?? hit.trust }, hit.trust),
      hit.integrity === 'problems' ? h('span', { class: 'badge untrusted', title: 'A file does not match its declared hash' }, 'integrity problems') : undefined,
    ),
    hit.description ? h('p', { class: 'reason' }, hit.description) : undefined,
    body,
  );
  details.addEventListener('toggle', () => {
    if (details.open && !model.guidance[hit.id] && !model.guidanceLoading.has(`${hit.id}|entry`)) actions.fetchGuidance(hit, 'entry');
  });
  return details;
}

function errorState(e: { request: PackRequest; error: PackError }, actions: ViewActions): HTMLElement {
  const { error } = e;
  const titles: Record<PackError['kind'], string> = {
    'no-folder': 'No folder to build the pack in',
    'no-index': 'This folder has no index yet',
    indexing: 'Indexing the workspace…',
    engine: 'Could not build the pack',
  };
  const p = error.progress;
  return h(
    'div',
    { class: `state state-${error.kind}`, id: 'error-state', role: error.kind === 'engine' ? 'alert' : 'status' },
    h('h2', {}, titles[error.kind]),
    h('p', {}, error.message),
    error.kind === 'indexing' && p && p.total > 0 ? h('p', { class: 'meta' }, `${p.phase}: ${tokens(p.done)} of ${tokens(p.total)}`) : undefined,
    error.kind === 'indexing' ? h('div', { class: 'progress', 'aria-hidden': 'true' }, h('span', {})) : undefined,
    error.kind === 'no-index' ? h('button', { type: 'button', class: 'primary', onclick: () => actions.refreshIndex() }, 'Build the index') : undefined,
    error.kind === 'engine' ? h('button', { type: 'button', class: 'secondary', onclick: () => actions.retry() }, 'Try again') : undefined,
  );
}

function emptyState(): HTMLElement {
  return h(
    'div',
    { class: 'state state-empty', id: 'empty-state' },
    h('h2', {}, 'What are you working on?'),
    h('p', {}, 'Describe a task above. Cairn picks the spans to read first, the files around them, and what it considered and left out, all within a token budget.'),
    h(
      'ul',
      { class: 'tips' },
      h('li', {}, 'Name files, symbols or ', h('code', {}, 'path:start-end'), ' spans in the task to pin them.'),
      h('li', {}, 'Add spans from the Cairn sidebar with ', h('em', {}, 'Add to Context Pack'), '.'),
      h('li', {}, 'Copy the pack as Markdown or put it into an editor for your agent.'),
    ),
  );
}

/** The whole content area below the form. */
export function renderContent(model: ContentModel, actions: ViewActions): HTMLElement {
  const root = h('div', { class: `content${model.building ? ' is-building' : ''}`, 'aria-busy': model.building ? 'true' : undefined });
  if (model.building) {
    root.append(h('div', { class: 'building', role: 'status' }, h('div', { class: 'progress', 'aria-hidden': 'true' }, h('span', {})), h('span', {}, `Building the pack for “${model.building.task}”…`)));
  }
  const basket = basketSection(model, actions);
  const result = model.result;
  if (model.error && !model.building) root.append(errorState(model.error, actions));
  else if (!result && !model.building) root.append(emptyState());
  if (basket) root.append(basket);
  if (!result || (model.error && !model.building)) return root;

  const { pack } = result;
  const folder = pack.folder;
  root.append(meter(result));
  const problems = [...pack.warnings, ...pack.diagnostics.filter((d) => d.severity !== 'info').map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))];
  if (problems.length) root.append(h('ul', { class: 'problems' }, ...problems.map((p) => h('li', { class: 'note warn' }, p))));

  root.append(
    section(
      'must-inspect',
      'Must inspect',
      pack.mustInspect.length,
      pack.mustInspect.length ? undefined : 'Nothing in the index matches this task. Try other words, or name a file or symbol.',
      ...pack.mustInspect.map((item, i) => mustInspectItem(item, i, folder, actions)),
    ),
  );
  if (pack.cut.length) root.append(section('cut', 'Cut to fit the budget', pack.cut.length, 'Raise the budget to keep more of these.', h('ul', { class: 'rows' }, ...pack.cut.map(cutRow))));
  if (pack.relatedFiles.length) root.append(section('related', 'Related', pack.relatedFiles.length, 'Worth a look; not included as code.', h('ul', { class: 'rows' }, ...pack.relatedFiles.map((r) => relatedRow(r, folder, actions)))));
  if (pack.rejectedFiles.length) {
    root.append(
      section(
        'left-out',
        'Considered and left out',
        pack.rejectedFiles.length,
        undefined,
        h('details', { class: 'left-out', 'data-key': 'left-out' }, h('summary', {}, 'Show what was left out and why'), h('ul', { class: 'rows' }, ...pack.rejectedFiles.map((r) => rejectedRow(r, folder, actions)))),
      ),
    );
  }
  if (result.guidance.length || result.guidanceProblem) {
    root.append(
      section(
        'guidance',
        'Guidance from the context registry',
        result.guidance.length,
        'Reference material about libraries and workflows. Advisory: it may be outdated or wrong, and nothing in it is run.',
        ...result.guidance.map((hit) => guidanceEntry(hit, model, actions)),
        ...(result.guidanceProblem ? [h('p', { class: 'note warn' }, result.guidanceProblem)] : []),
      ),
    );
  }
  return root;
}
