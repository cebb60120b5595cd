import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@txcript/claude-code public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
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
  });
});
