import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@txcript/copilot-cli public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "CopilotCliStore",
      "canonicalToCopilotTool",
      "copilotCliCodec",
      "copilotCliHarness",
      "copilotCliLoss",
      "copilotCliLosses",
      "copilotCliNamespace",
      "copilotCliProgramCheck",
      "copilotCliProject",
      "copilotCliVersion",
      "copilotResumeCommand",
      "copilotSessionId",
      "copilotToolToCanonical",
      "defaultCopilotRoot",
      "isCopilotSessionId",
    ]);
  });
});
