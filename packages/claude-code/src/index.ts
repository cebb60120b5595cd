// @txcript/claude-code: Claude Code session files (`~/.claude/projects/<munged
// cwd>/<session>.jsonl`) — the lossless codec to and from the Common model,
// its normalization as code, the store, and the resume command. The CLI
// composes these; nothing here launches Claude Code.

export { claudeCodeCodec } from "./claude-code-codec.js";
export { claudeCodeHarness } from "./claude-code-harness.js";
export { claudeCodeLoss, claudeCodeLosses } from "./claude-code-losses.js";
export type { ClaudeResumeCommand } from "./claude-code-paths.js";
export {
  claudeCodeNamespace,
  claudeResumeCommand,
  claudeSessionId,
  mungeClaudeProjectDir,
} from "./claude-code-paths.js";
export { claudeCodeProject, missingResultText } from "./claude-code-project.js";
export type {
  ClaudeCodeFile,
  ClaudeCodeLine,
  ClaudeCodeSession,
  ClaudeCodeSubagentFile,
} from "./claude-code-schema.js";
export type { ClaudeCodeSaveOptions, ClaudeCodeStoreOptions } from "./claude-code-store.js";
export { ClaudeCodeStore } from "./claude-code-store.js";
export type { ClaudeCodeReadOptions } from "./claude-code-to-common.js";
export { claudeCodeProgramCheck } from "./claude-code-verify.js";
export type { ClaudeCodeWriteOptions } from "./common-to-claude-code.js";
export { commonToClaudeCodeLines } from "./common-to-claude-code.js";
