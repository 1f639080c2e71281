// Checks what the webview sends before acting on it. The script is ours, but a webview is a
// browser page: the extension takes nothing from it on trust (paths are opened only inside
// workspace folders by openSpan, budgets are clamped, unknown messages are dropped).
import type { InsertTarget, PackRequest, SpanTarget, ViewMessage } from '../../webview/pack/protocol';

export const MIN_BUDGET_TOKENS = 200;
export const MAX_BUDGET_TOKENS = 100_000;
const MAX_TASK_CHARS = 4000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, max = 4096): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined);
const line = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined);

export function clampBudget(n: unknown, fallback: number): number {
  return typeof n === 'number' && Number.isFinite(n) ? Math.min(MAX_BUDGET_TOKENS, Math.max(MIN_BUDGET_TOKENS, Math.round(n))) : fallback;
}

export function parseRequest(v: unknown, fallbackBudget: number): PackRequest | undefined {
  if (!isObject(v)) return undefined;
  // One line: the engine's exact-text search takes the task as a pattern, where a line break is not allowed.
  const task = str(v.task, MAX_TASK_CHARS)?.replace(/\s+/g, ' ').trim();
  if (!task) return undefined;
  const folder = str(v.folder, 1000);
  return { task, budgetTokens: clampBudget(v.budgetTokens, fallbackBudget), ...(folder ? { folder } : {}) };
}

function parseTarget(v: unknown): SpanTarget | undefined {
  if (!isObject(v)) return undefined;
  const folder = str(v.folder, 1000);
  const path = str(v.path);
  const startLine = line(v.startLine);
  const endLine = line(v.endLine);
  return folder !== undefined && path && startLine && endLine && endLine >= startLine ? { folder, path, startLine, endLine } : undefined;
}

export function parseViewMessage(raw: unknown, fallbackBudget: number): ViewMessage | undefined {
  if (!isObject(raw)) return undefined;
  switch (raw.type) {
    case 'ready': {
      if (raw.restored === undefined) return { type: 'ready' };
      const request = parseRequest(raw.restored, fallbackBudget);
      const hasResult = isObject(raw.restored) && raw.restored.hasResult === true;
      return request ? { type: 'ready', restored: { ...request, hasResult } } : { type: 'ready' };
    }
    case 'build': {
      const request = parseRequest(raw.request, fallbackBudget);
      return request ? { type: 'build', request } : undefined;
    }
    case 'open': {
      const target = parseTarget(raw.target);
      return target ? { type: 'open', target } : undefined;
    }
    case 'copyMarkdown':
    case 'clearBasket':
      return { type: raw.type };
    case 'insertMarkdown':
      return raw.target === 'newDocument' || raw.target === 'cursor' ? { type: 'insertMarkdown', target: raw.target as InsertTarget } : undefined;
    case 'guidance': {
      const id = str(raw.id, 300);
      const mode = raw.mode === 'entry' || raw.mode === 'full' ? raw.mode : undefined;
      const revision = str(raw.revision, 200);
      const sourceId = str(raw.sourceId, 200);
      return id && mode ? { type: 'guidance', id, mode, ...(revision ? { revision } : {}), ...(sourceId ? { sourceId } : {}) } : undefined;
    }
    case 'removeBasketItem': {
      const docid = str(raw.docid);
      return docid ? { type: 'removeBasketItem', docid } : undefined;
    }
    case 'refreshIndex': {
      const folder = str(raw.folder, 1000);
      return { type: 'refreshIndex', ...(folder ? { folder } : {}) };
    }
    default:
      return undefined;
  }
}
