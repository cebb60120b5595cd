// @txcript/opencode: OpenCode sessions ⇄ the txcript Common model — the
// export JSON `opencode export` prints and `opencode import` takes, the
// read-only store over OpenCode's live SQLite database (WAL included) and
// its pre-1.2 JSON storage tree, and continuing through `opencode import`.
export type { OpencodeWriteOptions } from "./common-to-opencode.js";
export { guessProvider, OPENCODE_SCHEMA_VERSION } from "./common-to-opencode.js";
export { opencodeCodec } from "./opencode-codec.js";
export { opencodeHarness } from "./opencode-harness.js";
export {
  isOpencodeSessionId,
  OPENCODE_ID_NAMESPACE,
  opencodeSessionId,
} from "./opencode-ids.js";
export type { OpencodeImportOptions, OpencodeImportResult } from "./opencode-import.js";
export { opencodeImport } from "./opencode-import.js";
export type { ImportProblem } from "./opencode-importable.js";
export { importProblems } from "./opencode-importable.js";
export { opencodeLosses } from "./opencode-losses.js";
export {
  opencodeDatabasePath,
  opencodeDataDir,
  opencodeResumeCommand,
  opencodeStagingDir,
  opencodeStorageDir,
} from "./opencode-paths.js";
export { opencodeProject } from "./opencode-project.js";
export type { OpencodeDocument, OpencodeEntry, OpencodeSession } from "./opencode-schema.js";
export type { OpencodeStoreOptions } from "./opencode-store.js";
export { OpencodeStore } from "./opencode-store.js";
export { opencodeToolToCommon } from "./opencode-tools.js";
export { opencodeProgramCheck } from "./opencode-verify.js";
