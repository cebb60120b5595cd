// @txcript/qwen-code: Qwen Code chat recordings (`~/.qwen/projects/<cwd>/
// chats/<sessionId>.jsonl`, their agents' transcripts in `subagents/
// <sessionId>/`) — the lossless codec to and from the Common
// model, its normalization as code, the store, and the resume command. The
// CLI composes these; nothing here launches Qwen Code.
export type { QwenCodeWriteOptions } from "./common-to-qwen-code.js";
export { qwenCodeCodec } from "./qwen-code-codec.js";
export { qwenCodeHarness } from "./qwen-code-harness.js";
export { qwenCodeLoss, qwenCodeLosses } from "./qwen-code-losses.js";
export {
  defaultQwenRoot,
  isQwenFileId,
  isQwenSessionId,
  qwenCodeNamespace,
  qwenProjectDirName,
  qwenResumeCommand,
  qwenSessionId,
} from "./qwen-code-paths.js";
export { qwenCodeProject, qwenCodeStoreProject } from "./qwen-code-project.js";
export type { QwenCodeLine, QwenCodeSession, QwenCodeSubagentFile } from "./qwen-code-schema.js";
export type { QwenCodeSaveOptions, QwenCodeStoreOptions } from "./qwen-code-store.js";
export { QwenCodeStore } from "./qwen-code-store.js";
export type { QwenCodeReadOptions } from "./qwen-code-to-common.js";
export { canonicalToQwenTool, qwenToolToCanonical } from "./qwen-code-tools.js";
export { qwenCodeProgramCheck } from "./qwen-code-verify.js";
