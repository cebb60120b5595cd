// @txcript/kimi-cli: Kimi CLI sessions (`~/.kimi/sessions/<md5 of the work
// dir>/<session id>/context.jsonl`) — the lossless codec to and from the
// Common model, its normalization as code, the store, and the resume
// command. The CLI composes these; nothing here launches Kimi CLI.
export type { KimiCliWriteOptions } from "./common-to-kimi-cli.js";
export { kimiCliCodec } from "./kimi-cli-codec.js";
export { kimiCliHarness } from "./kimi-cli-harness.js";
export { loadKimiSession } from "./kimi-cli-load.js";
export { kimiCliLoss, kimiCliLosses } from "./kimi-cli-losses.js";
export {
  isKimiSessionId,
  kimiCliNamespace,
  kimiResumeCommand,
  kimiSessionId,
  kimiWorkDirHash,
} from "./kimi-cli-paths.js";
export { kimiCliProject } from "./kimi-cli-project.js";
export type {
  KimiCliLine,
  KimiCliSession,
  KimiCliSessionInfo,
  KimiCliSubagentFile,
} from "./kimi-cli-schema.js";
export type { KimiCliSaveOptions, KimiCliStoreOptions } from "./kimi-cli-store.js";
export { KimiCliStore } from "./kimi-cli-store.js";
export { defaultKimiRoot, kimiCliStoreLocation, kimiSessionPaths } from "./kimi-cli-store-root.js";
export type { KimiCliReadOptions } from "./kimi-cli-to-common.js";
export { canonicalToKimiTool, kimiToolToCanonical } from "./kimi-cli-tools.js";
