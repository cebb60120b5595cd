// @txcript/codex: Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/
// rollout-<time>-<uuid>.jsonl`, also `.jsonl.zst`) — the lossless codec
// reading every era, its normalization as code, the store, and the harness
// definition with `codex resume <id>`, and Codex's own offline check of a
// saved rollout (run only when asked: `continue --verify`).
export { codexCodec } from "./codex-codec.js";
export { codexHarness } from "./codex-harness.js";
export { codexLoss, codexLosses } from "./codex-losses.js";
export {
  codexResumeCommand,
  codexSessionId,
  defaultCodexHome,
  rolloutIdOf,
  rolloutRelativePath,
} from "./codex-paths.js";
export { codexProject } from "./codex-project.js";
export type {
  CodexDocumentRollout,
  CodexLine,
  CodexLinesRollout,
  CodexRollout,
} from "./codex-schema.js";
export type { CodexSaveOptions, CodexStoreOptions } from "./codex-store.js";
export { CodexStore } from "./codex-store.js";
export { readRolloutFile } from "./codex-store-reads.js";
export type { CodexReadOptions } from "./codex-to-common.js";
export { codexToolToCommon, commonToolToCodex } from "./codex-tools.js";
export { codexProgramCheck } from "./codex-verify.js";
export { isZstd, rolloutText } from "./codex-zstd.js";
export type { CodexWriteOptions } from "./common-to-codex.js";
export { commonToCodexLines } from "./common-to-codex.js";
