import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@txcript/gemini-cli public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "GeminiCliStore",
      "canonicalToGeminiTool",
      "defaultGeminiRoot",
      "geminiCliCodec",
      "geminiCliHarness",
      "geminiCliLoss",
      "geminiCliLosses",
      "geminiCliNamespace",
      "geminiCliProgramCheck",
      "geminiCliProject",
      "geminiProjectHash",
      "geminiProjectSlug",
      "geminiResumeCommand",
      "geminiSessionFileName",
      "geminiSessionId",
      "geminiToolToCanonical",
      "isGeminiSessionId",
      "readProjects",
      "registerGeminiProject",
    ]);
  });
});
