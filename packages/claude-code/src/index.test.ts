import { describePublicExports } from "@txcript/core/testing";
import * as api from "./index.js";

describePublicExports("@txcript/claude-code", api, [
  "ClaudeCodeStore",
  "claudeCodeCodec",
  "claudeCodeHarness",
  "claudeCodeLoss",
  "claudeCodeLosses",
  "claudeCodeNamespace",
  "claudeCodeProgramCheck",
  "claudeCodeProject",
  "claudeResumeCommand",
  "claudeSessionId",
  "commonToClaudeCodeLines",
  "missingResultText",
  "mungeClaudeProjectDir",
]);
