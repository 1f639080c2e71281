// `@cairn` in the chat view: "where is …" (symbols, then search), "where is X used" / `/refs X`
// (references, the language server's where there is one) and "what do I need to read to …" (a
// context pack), answered with anchors to the exact spans. The spans always come from
// the engine; the request's model only phrases a short summary of them, marked as such.
import type { ContextPack, SearchHit, Span } from '../../core/api';
import * as vscode from 'vscode';
import type { CairnServices, FolderHit } from '../services';
import { count, formatNumber } from '../format';
import { OPEN_PACK_COMMAND } from '../pack/registerPack';
import type { LastEditor } from '../pack/folders';
import { findMergedReferences } from '../references/findReferences';

export const CHAT_PARTICIPANT_ID = 'cairn.chat';

export type ChatIntent = 'where' | 'refs' | 'pack';

const WHERE = /^\s*(?:where(?:'s|\s+is|\s+are|\s+do(?:es)?|\s+did)?|find|locate|show\s+me|which\s+file(?:s)?(?:\s+(?:has|have|contains?|defines?))?)\b/i;
/** "need to read", "should I look at", … followed by the task. */
const READ_FOR = /\b(?:(?:need|have|got)\s+to|should\s+I|must\s+I|do\s+I)\s+(?:read|look\s+at|inspect|understand|know)\s+(?:first\s+)?(?:(?:in\s+order\s+)?to|for|before|when|if\s+I\s+want\s+to)?\s*(.*)$/i;
const PACK = /\bcontext\s+(?:pack\s+)?for\b|\bto\s+(?:implement|fix|change|add|refactor|remove|rename|debug)\b/i;

/** "who calls X", "where is X used", "references to X", "usages of X", "callers of X". */
const REFS = /\b(?:who\s+(?:calls|uses|imports)|callers\s+of|(?:references|refs|usages?|uses)\s+(?:to|of)|where\s+(?:is|are)\s+\S+\s+(?:used|called|referenced|imported))\b/i;

/** What the user asks: the slash command decides, else the wording; short questions are lookups. */
export function classify(prompt: string, command?: string): ChatIntent {
  if (command === 'where') return 'where';
  if (command === 'refs') return 'refs';
  if (command === 'pack') return 'pack';
  if (REFS.test(prompt)) return 'refs';
  if (WHERE.test(prompt)) return 'where';
  if (READ_FOR.test(prompt) || PACK.test(prompt)) return 'pack';
  return prompt.trim().split(/\s+/).length <= 3 ? 'where' : 'pack';
}

/** The thing asked about: `a backticked name`, an identifier-looking word, else the question's words. */
export function whereSubject(prompt: string): { symbol?: string; query: string } {
  const query = prompt
    .replace(WHERE, '')
    .replace(/\b(?:the|a|an|is|are|defined|declared|implemented|located|code|for|of)\b/gi, ' ')
    .replace(/[?!.]+\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const ticked = /`([^`]+)`/.exec(prompt)?.[1]?.trim();
  if (ticked) return { symbol: ticked, query: query.replace(/`/g, '') || ticked };
  const identifier = query.split(' ').find((w) => /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(w) && (/[A-Z_.$]/.test(w.slice(1)) || /^[A-Z]/.test(w) || query.split(' ').length === 1));
  return { ...(identifier ? { symbol: identifier } : {}), query: query || prompt.trim() };
}

/** Words of a references question that are not its subject. */
const REFS_WORDS = new Set(['who', 'calls', 'uses', 'use', 'imports', 'callers', 'caller', 'references', 'reference', 'refs', 'usages', 'usage', 'where', 'is', 'are', 'the', 'a', 'an', 'used', 'called', 'referenced', 'imported', 'function', 'method', 'class', 'of', 'to', 'in', 'find', 'show', 'me', 'all']);

/** The name in "who calls `parseConfig`", "where is Vector.length used", `/refs greet`. */
export function refsSubject(prompt: string): string | undefined {
  const ticked = /`([^`]+)`/.exec(prompt)?.[1]?.trim();
  if (ticked) return ticked;
  const words = prompt
    .replace(/[?!,]+/g, ' ')
    .split(/\s+/)
    .filter((w) => /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(w) && !REFS_WORDS.has(w.toLowerCase()));
  // Prefer what looks like code (camelCase, snake_case, a qualified name) over a plain word.
  return words.find((w) => /[A-Z_.$]/.test(w.slice(1)) || /^[A-Z]/.test(w)) ?? words[0];
}

/** The task in "what do I need to read to <task>". */
export function packTask(prompt: string): string {
  const task = READ_FOR.exec(prompt.trim())?.[1] ?? prompt;
  return task.replace(/[?]+\s*$/, '').trim() || prompt.trim();
}

function locationOf(folder: vscode.WorkspaceFolder, span: Span): vscode.Location {
  const uri = vscode.Uri.joinPath(folder.uri, ...span.path.split('/'));
  return new vscode.Location(uri, new vscode.Range(span.startLine - 1, 0, Math.max(span.startLine, span.endLine) - 1, Number.MAX_SAFE_INTEGER));
}

const docidOf = (s: Span): string => `${s.path}:${s.startLine}-${s.endLine}`;

function folderOfHit(hit: FolderHit, fallback: vscode.WorkspaceFolder): vscode.WorkspaceFolder {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === hit.folderUri) ?? fallback;
}

/** One line per span: an anchor to it, then what it is and why. */
function spanLine(stream: vscode.ChatResponseStream, folder: vscode.WorkspaceFolder, span: Span, prefix: string, detail: string): void {
  stream.markdown(prefix);
  stream.anchor(locationOf(folder, span), docidOf(span));
  stream.markdown(detail ? ` — ${detail}\n` : '\n');
}

const plain = (text: string): string => text.replace(/[\\*_[\]<>]/g, (c) => `\\${c}`);
/** Inline code: Markdown escapes are literal there, so a fence longer than any backtick run in the text. */
function code(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  return `${fence}${fence.length > 1 || text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text}${fence}`;
}

interface Answer {
  intent: ChatIntent;
  /** Offered after the answer (the pack view for a pack). */
  button?: vscode.Command;
  spans: string[];
  /** Text for the model's summary: the spans and their reasons, nothing else. */
  facts: string;
}

async function answerWhere(services: CairnServices, folder: vscode.WorkspaceFolder, prompt: string, stream: vscode.ChatResponseStream): Promise<Answer> {
  const subject = whereSubject(prompt);
  stream.progress(`Looking up ${subject.symbol ?? subject.query} in ${folder.name}…`);
  const spans: string[] = [];
  const facts: string[] = [];
  if (subject.symbol) {
    const symbols = await services.engine.findSymbol(subject.symbol, { folder, limit: 8 });
    const exact = symbols.results.filter((h) => h.match === 'exact' || h.match === 'exact-ignore-case' || h.match === 'qualified');
    if (exact.length) {
      stream.markdown(`**${plain(subject.symbol)}** is defined in ${exact.length === 1 ? 'one place' : `${exact.length} places`}:\n\n`);
      exact.forEach((h, i) => {
        spanLine(stream, folderOfHit(h, folder), h, `${i + 1}. `, `${h.kind} \`${h.qualifiedName || h.context || h.symbol}\``);
        spans.push(h.docid);
        facts.push(`${h.docid}: ${h.kind} ${h.qualifiedName || h.symbol}${h.signature ? ` ${h.signature}` : ''}`);
      });
      return { intent: 'where', spans, facts: facts.join('\n') };
    }
    if (symbols.results.length) stream.markdown(`No definition is named exactly **${plain(subject.symbol)}**. Searching the code instead.\n\n`);
  }
  const found = await services.engine.search(subject.query, { folder, limit: 8, previewLines: 1 });
  if (!found.results.length) {
    stream.markdown(`Nothing in ${plain(folder.name)}'s index matches “${plain(subject.query)}”. Try other words, or the exact name of a function or class.`);
    return { intent: 'where', spans, facts: '' };
  }
  stream.markdown(`The best matches for “${plain(subject.query)}”:\n\n`);
  found.results.forEach((h: FolderHit<SearchHit>, i) => {
    const name = h.context || h.symbol;
    spanLine(stream, folderOfHit(h, folder), h, `${i + 1}. `, `${h.kind}${name ? ` \`${name}\`` : ''}`);
    spans.push(h.docid);
    facts.push(`${h.docid}: ${h.kind} ${name} — ${h.preview.replace(/\s+/g, ' ').slice(0, 160)}`);
  });
  return { intent: 'where', spans, facts: facts.join('\n') };
}

/** References grouped by file: an anchor per reference at its line and column, marked certain or a name match and by whom. */
async function answerRefs(services: CairnServices, folder: vscode.WorkspaceFolder, prompt: string, stream: vscode.ChatResponseStream): Promise<Answer> {
  const name = refsSubject(prompt);
  if (!name) {
    stream.markdown('Name a function, class or method to find where it is used, e.g. `/refs parseConfig` or `/refs Server.start`.');
    return { intent: 'refs', spans: [], facts: '' };
  }
  stream.progress(`Finding the references to ${name} in ${folder.name}…`);
  const r = await findMergedReferences(services.engine, name, { folder, limit: 50, folderOf: () => folder });
  if (r.references.length === 0) {
    stream.markdown(`${plain(r.note ?? `No references to ${name} in ${folder.name}'s code.`)}\n`);
    return { intent: 'refs', spans: [], facts: '' };
  }
  stream.markdown(`**${plain(name)}**: ${count(r.total, 'reference')} (${formatNumber(r.certain)} certain) in ${count(r.byFile.length, 'file')} — _${plain(r.sources)}_\n\n`);
  const spans: string[] = [];
  const facts: string[] = [];
  let path: string | undefined;
  for (const ref of r.references.slice(0, 30)) {
    if (ref.path !== path) stream.markdown(`${path === undefined ? '' : '\n'}${code(ref.path)}\n\n`);
    path = ref.path;
    const at = `${ref.path}:${ref.line}:${ref.column}`;
    const uri = vscode.Uri.joinPath(folder.uri, ...ref.path.split('/'));
    stream.markdown('- ');
    stream.anchor(new vscode.Location(uri, new vscode.Position(ref.line - 1, ref.column - 1)), at);
    const mark = `${ref.certainty === 'certain' ? 'certain' : 'name match'}, ${ref.source}`;
    stream.markdown(` — ${mark}${ref.context ? ` in ${code(ref.context)}` : ''}\n`);
    spans.push(at);
    facts.push(`${at} (${mark}${ref.context ? `, in ${ref.context}` : ''}): ${ref.text}`);
  }
  if (r.references.length > 30 || r.truncated) stream.markdown(`\n_${formatNumber(r.total - Math.min(30, r.references.length))} more; the Results view lists them all._\n`);
  return { intent: 'refs', spans, facts: facts.join('\n'), button: { command: 'cairn.findReferences', title: 'Show in the Results view', arguments: [name] } };
}

function renderPackAnswer(stream: vscode.ChatResponseStream, folder: vscode.WorkspaceFolder, pack: ContextPack): string[] {
  const spans: string[] = [];
  if (!pack.mustInspect.length) {
    stream.markdown(`Nothing in ${plain(folder.name)}'s index matches this task. Name a file, a symbol or a \`path:start-end\` span to pin it.`);
    return spans;
  }
  stream.markdown(`**Read these first** (${formatNumber(pack.usedTokens)} of ${count(pack.budgetTokens, 'token')}):\n\n`);
  pack.mustInspect.forEach((item, i) => {
    spanLine(stream, folder, item, `${i + 1}. `, plain(item.reason));
    spans.push(item.docid);
  });
  if (pack.relatedFiles.length) {
    stream.markdown('\n**Related**\n\n');
    for (const r of pack.relatedFiles.slice(0, 6)) {
      const m = r.docid ? /^(.+):(\d+)-(\d+)$/.exec(r.docid) : null;
      const reason = plain(r.reason);
      if (m) spanLine(stream, folder, { path: m[1] as string, startLine: Number(m[2]), endLine: Number(m[3]) }, '- ', reason);
      else {
        // No best span known: the whole file.
        stream.markdown('- ');
        stream.anchor(vscode.Uri.joinPath(folder.uri, ...r.path.split('/')), r.path);
        stream.markdown(` — ${reason}\n`);
      }
    }
  }
  if (pack.rejectedFiles.length) stream.markdown(`\n_${pack.rejectedFiles.length} more candidates were considered and left out; the pack view lists them with reasons._\n`);
  return spans;
}

async function answerPack(services: CairnServices, folder: vscode.WorkspaceFolder, prompt: string, stream: vscode.ChatResponseStream): Promise<Answer> {
  const task = packTask(prompt);
  stream.progress(`Building a context pack in ${folder.name}…`);
  const pack = await services.engine.buildPack(task, { folder });
  const spans = renderPackAnswer(stream, folder, pack);
  const facts = pack.mustInspect.map((i) => `${i.docid}: ${i.kind} ${i.context || i.symbol} — ${i.reason}`).join('\n');
  return { intent: 'pack', spans, facts, button: { command: OPEN_PACK_COMMAND, title: 'Open in the Context Pack view', arguments: [{ task, folder: folder.name }] } };
}

/** A two-sentence summary phrased by the request's model from the engine's spans only. */
async function summarise(request: vscode.ChatRequest, answer: Answer, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, log: vscode.LogOutputChannel): Promise<void> {
  if (!answer.facts || !request.model) return;
  const instruction = [
    'You summarise search results for a developer in at most two sentences.',
    'Use only the spans listed below; do not invent files, lines or symbols. Refer to spans as `path:start-end`.',
    `Question: ${request.prompt}`,
    'Spans:',
    answer.facts,
  ].join('\n');
  try {
    const response = await request.model.sendRequest([vscode.LanguageModelChatMessage.User(instruction)], { justification: 'Cairn summarises the spans it found for your question.' }, token);
    let text = '';
    for await (const chunk of response.text) text += chunk;
    if (text.trim()) stream.markdown(`\n\n**Summary** _(written by ${plain(request.model.name)} from the spans above)_: ${text.trim()}\n`);
  } catch (e) {
    log.info(`chat: no model summary (${e instanceof Error ? e.message : String(e)})`);
  }
}

export function registerChatParticipant(services: CairnServices, lastEditor: LastEditor): vscode.Disposable[] {
  const handler: vscode.ChatRequestHandler = async (request, _context, stream, token) => {
    const folder = lastEditor.defaultFolder();
    if (!folder) {
      stream.markdown('Open a folder first: Cairn answers from the index of the workspace folders.');
      return {};
    }
    const intent = classify(request.prompt, request.command);
    try {
      const answer =
        intent === 'where' ? await answerWhere(services, folder, request.prompt, stream) : intent === 'refs' ? await answerRefs(services, folder, request.prompt, stream) : await answerPack(services, folder, request.prompt, stream);
      if (!token.isCancellationRequested) await summarise(request, answer, stream, token, services.log);
      if (answer.button) stream.button(answer.button);
      return { metadata: { intent: answer.intent, spans: answer.spans } };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      services.log.warn(`chat: ${intent} failed: ${message}`);
      return { errorDetails: { message: /no index/i.test(message) ? `${folder.name} has no index yet: wait for indexing to finish, or run "Cairn: Refresh Index".` : message } };
    }
  };
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, handler);
  participant.iconPath = new vscode.ThemeIcon('search');
  return [participant];
}
