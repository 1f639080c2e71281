// Commit messages as evaluation queries: which messages describe a change in words, and the
// message cleaned of what a person asking for that change would not have typed (issue
// references, conventional-commit prefixes, trailers, links).

/** Why a commit's message disqualifies it as a retrieval task. */
export type MessageSkipReason = 'version-bump' | 'formatting' | 'dependencies' | 'typo' | 'revert' | 'too-short';

/** Conventional-commit types; only these are stripped (`Engine: ...` names a component and stays). */
const CONVENTIONAL_PREFIX = /^\s*(?:feat|feature|fix|bugfix|hotfix|chore|docs?|style|refactor|perf|test|tests|build|ci|revert|deps|improvement|enhancement)(?:\([^)]*\))?!?\s*:\s*/i;

const VERSION_BUMP = [
  /^v?\d+(?:\.\d+)+(?:[-+.][\w.-]+)?$/i, // "1.4.0", "v2.0.0-rc.1"
  /^(?:release|releasing|prepare(?:d)? (?:for )?release|publish(?:ed)?|cut)\b.*\d+\.\d+/i,
  /\b(?:bump|bumped|bumping|set|update|updated)\s+(?:the\s+)?(?:package\s+)?version(?:\s+(?:to|number)\b|\s+v?\d|\s*\.?$)/i,
  /^(?:bump|version)\s+(?:to\s+)?v?\d+\.\d+/i,
  /^chore\(release\)/i,
];

const FORMATTING = [
  /^style(?:\([^)]*\))?!?:/i,
  /\b(?:re-?format(?:s|ted|ting)?|prettier|prettify|gofmt|rustfmt|clang-format|eslint --fix)\b/i,
  /^(?:format(?:ting)?|lint(?:ing)?)(?:\s+(?:the\s+)?(?:code(?:base)?|files|sources?|all|everything))?\s*\.?$/i,
  /^fix(?:e[sd])?\s+(?:lint|linting|formatting|whitespace)\b/i,
];

const DEPENDENCIES = [
  /^(?:build|chore|fix)\((?:deps|deps-dev|dependencies)\)/i,
  /^(?:bump|upgrade|update|updated|pin|unpin)\s+\S+\s+(?:from\s+\S+\s+)?to\s+v?\d/i, // "Bump lodash from 4.1 to 4.2"
  /\b(?:bump|upgrade|update|updated)\s+(?:all\s+|the\s+)?(?:deps|dependencies|dependency|packages|lock ?files?|package-lock|yarn\.lock|requirements)\b/i,
  /\b(?:dependabot|renovate|greenkeeper)\b/i,
];

const TYPO = [/\b(?:fix(?:e[sd])?|correct(?:s|ed)?)\b.*\btypos?\b/i, /^typos?\b/i, /\btypos?\s+(?:fix|in)\b/i, /\b(?:fix|correct)\w*\s+(?:the\s+)?spelling\b|^spelling\b/i, /\bmisspel/i];

const REVERT = /^revert\b/i;

/** Trailer lines (`Signed-off-by: ...`) and other metadata lines that are not part of the task. */
const METADATA_LINE = /^(?:[A-Z][\w-]*-by|Change-Id|Cc|See-also|Refs?|Fixes|Closes|Resolves|Bug|Issue|Related|Part-of|Backport-of|PR-URL|Reviewed-on|Link|Git-svn-id)\s*:.*$|^\(cherry picked from commit [0-9a-f]+\)$/gim;
const ISSUE_REF = String.raw`(?:[\w.-]+\/[\w.-]+)?(?:#|\bGH-)\d+`;
const ISSUE_LIST = String.raw`${ISSUE_REF}(?:\s*(?:,|and)\s*${ISSUE_REF})*`;
const ISSUE_VERB = String.raw`(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|refs?|see|part of|related to|for)`;
/** `(#123)`, `(fixes #12)`, `[GH-7]`. */
const PARENTHESISED_ISSUES = new RegExp(String.raw`[(\[]\s*(?:${ISSUE_VERB}:?\s+)?${ISSUE_LIST}\s*[)\]]`, 'gi');
/** `fixes #12`, `closes owner/repo#3`. */
const VERB_ISSUES = new RegExp(String.raw`\b${ISSUE_VERB}:?\s+${ISSUE_LIST}`, 'gi');
const BARE_ISSUES = new RegExp(ISSUE_REF, 'gi');
const URL = /\bhttps?:\/\/[^\s)\]>]+/gi;
/** Characters the index's query language gives a meaning (field:term, +required, -excluded, term^2, term~1, prefix*). */
const QUERY_SYNTAX = /[:^~+*\\"`]|(?<![\p{L}\p{N}_$])-+/gu;

/** Longest query, in words: a long commit body says more than a person asking would. */
export const MAX_QUERY_WORDS = 64;
/** Fewer words than this (after cleaning) is not a description of a change. */
export const MIN_QUERY_WORDS = 3;

/** Why the message disqualifies the commit, or undefined when it is a usable task. */
export function messageSkipReason(message: string): MessageSkipReason | undefined {
  const subject = subjectOf(message);
  if (REVERT.test(subject)) return 'revert';
  if (VERSION_BUMP.some((re) => re.test(subject))) return 'version-bump';
  if (DEPENDENCIES.some((re) => re.test(subject))) return 'dependencies';
  if (TYPO.some((re) => re.test(subject))) return 'typo';
  if (FORMATTING.some((re) => re.test(subject))) return 'formatting';
  if (wordCount(cleanCommitMessage(message)) < MIN_QUERY_WORDS) return 'too-short';
  return undefined;
}

export function subjectOf(message: string): string {
  return (message.trim().split('\n')[0] ?? '').trim();
}

/**
 * The query a commit message stands for: subject and body without trailers, issue
 * references, links, conventional-commit prefixes or query syntax; one line, at most
 * MAX_QUERY_WORDS words.
 */
export function cleanCommitMessage(message: string): string {
  const withoutMetadata = message.replace(/\r\n?/g, '\n').replace(METADATA_LINE, '');
  const lines = withoutMetadata.split('\n');
  const subject = (lines[0] ?? '').replace(CONVENTIONAL_PREFIX, '');
  let text = [subject, ...lines.slice(1)].join('\n');
  text = text
    .replace(URL, ' ')
    .replace(PARENTHESISED_ISSUES, ' ')
    .replace(VERB_ISSUES, ' ')
    .replace(BARE_ISSUES, ' ')
    .replace(QUERY_SYNTAX, ' ')
    .replace(/^\s*[*•]\s+/gm, ' ')
    .replace(/\(\s*\)|\[\s*\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const words = text.split(' ');
  return (words.length > MAX_QUERY_WORDS ? words.slice(0, MAX_QUERY_WORDS) : words).join(' ').replace(/[\s,;.]+$/, '');
}

/** Words made of letters (identifiers count; bare numbers and punctuation do not). */
export function wordCount(text: string): number {
  return (text.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? []).length;
}
