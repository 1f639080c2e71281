// The engine's runtime entry for front ends that open and run an engine (the CLI's commands,
// `cairn serve` and `cairn mcp`, the editor's engine thread): the Engine, the host that keeps one
// per root, chunking, and the store's ownership and lock. clientApi.ts holds what runs without an
// engine, api.ts the plain data. This module only re-exports, and nothing in src/core imports it,
// so it closes no import circle. The extension host and the webview take only types from here
// (eslint.config.mjs).
export { Engine } from './engine/engine';
export { EngineHost } from './engine/host';
export { ENGINE_HOST_METHODS, type EngineHostApi, type EngineHostEvents, type EngineHostListeners, type EngineThreadApi, type HostRefreshRequest, type Remote } from './engine/hostApi';
export { DEFAULT_MIN_INTERVAL_MS, QUERY_WAIT_MS } from './engine/refreshQueue';
export { ChunkPool } from './chunking/pool';
export type { FileChunks, SourceDocument } from './types';
export { claimStore, StoreOwnershipError } from './store/owner';
export { describeHolder, processAlive, StoreLocationError } from './store/lock';
export { placeOf } from './search/refs';
export { startTimings, TIMINGS_ENV } from './timings';
