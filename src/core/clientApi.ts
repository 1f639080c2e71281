// The engine's runtime entry for front ends that do not open an engine themselves (the VS Code
// extension host, the agent tools' rendering): defaults shown as settings, the language tables,
// which files are eligible, a pack as Markdown, crash-safe writes, the RPC client, the context
// registry. engineApi.ts holds what opens and runs an engine; api.ts the plain data. This module
// only re-exports, and nothing in src/core imports it. Kept apart from engineApi.ts so a bundle
// that imports these does not load the engine's index, search and store code with them.

// Files: which are eligible, how they are read, the defaults front ends show as settings.
export { DEFAULT_EXCLUDE_DIRS, DEFAULT_MAX_FILE_BYTES, type DiscoveryOptions } from './discovery/options';
export { checkEligibility, discoverFiles, isEligiblePath, isIgnoreRuleFile, loadDocuments, readEligibleFile, refusalOfSkip, resolveDiscoveryOptions } from './discovery';
export { bucketOf, languageName, LANGUAGES_BY_FILENAME, LANGUAGES_BY_SUFFIX, resolveLanguageFilter, type Bucket } from './languages';
export { discoveryWithoutStore } from './discovery/withoutStore';
export { FLOOD_EVENTS, planWatchEvents, rootRelative, WatchBatcher, watchIgnore, type WatchEvent, type WatchPlan, type WatchScope } from './discovery/watchPlan';
export { ensureDirectoryInside, readRegularSync } from './fsRead';
export { writeFileAtomic, writeFileAtomicAsync } from './store/atomic';
export { DEFAULT_POLICY, resolvePolicy, type ChunkingPolicy } from './chunking/policy';

// Packs as text.
export { DEFAULT_BUDGET } from './pack/build';
export { estimateTokens, renderPackMarkdown } from './pack/markdown';
export { registryGuidance } from './pack/guidance';

// The context registry.
export { ADVISORY_NOTICE, ANNOTATION_KINDS, ContextRegistry, loadRegistryConfig } from './registry';
export { isInsideRoot } from './registry/config';

// Talking to an engine on another thread.
export { rpcClient, serveRpc, type RpcClient, type RpcHandlers } from './engine/rpc';
