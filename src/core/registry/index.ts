// The context registry: guidance packs that travel with a repository (see registry.ts).
export { ContextRegistry, ADVISORY_NOTICE, DEFAULT_REGISTRY_DIR, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './registry';
export { REGISTRY_DIAGNOSTIC_CODES } from './diagnostics';
export { ANNOTATION_KINDS, ANNOTATION_LABEL, ANNOTATIONS_DIR } from './annotations';
export { MANIFEST_FILE, PRIMARY_NAMES, buildManifest, computeContentHash, parseManifest, type ManifestFields, type PackManifest } from './manifest';
export { INDEX_FILE } from './scan';
export { loadRegistryConfig, CONFIG_FILE, type RegistryConfig } from './config';
export * from './types';
