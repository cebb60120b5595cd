// @txcript/search: full-text search over coding-agent sessions — an SQLite
// FTS5 index of every store's messages, tool inputs and outputs, refreshed
// incrementally by each session's fingerprint.
export type { Difference, Snapshot } from "./freshness.js";
export { compareSnapshot, takeSnapshot } from "./freshness.js";
export type { ParsedQuery } from "./query.js";
export { parseQuery } from "./query.js";
export type {
  IndexSource,
  RefreshOptions,
  RefreshProgress,
  RefreshStats,
  SearchFilters,
  SearchHit,
  StreamOptions,
} from "./search-index.js";
export {
  defaultIndexFile,
  defaultStreamMinBytes,
  indexVersion,
  SearchIndex,
} from "./search-index.js";
export type { IndexedMessage } from "./session-text.js";
export { blockSearchText, PartTexts, sessionTexts } from "./session-text.js";
