// File discovery and reading: which files of a workspace Cairn indexes, and their validated text.
export { DEFAULT_DISCOVERY_OPTIONS, resolveDiscoveryOptions, type DiscoveryOptions } from './options';
export { discoverFiles, type DiscoverFilesOptions } from './discover';
export { hashBytes, loadDocument, loadDocuments, type LoadOutcome, type ReadOptions } from './read';
export { isEligiblePath, isIgnoreRuleFile, type IneligibleReason } from './rules';
export { checkEligibility, readEligibleFile, refusalOfSkip } from './eligibility';
export { stillServable } from './servable';
