import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@txcript/kimi-cli public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "KimiCliStore",
      "canonicalToKimiTool",
      "defaultKimiRoot",
      "isKimiSessionId",
      "kimiCliCodec",
      "kimiCliHarness",
      "kimiCliLoss",
      "kimiCliLosses",
      "kimiCliNamespace",
      "kimiCliProject",
      "kimiCliStoreLocation",
      "kimiResumeCommand",
      "kimiSessionId",
      "kimiSessionPaths",
      "kimiToolToCanonical",
      "kimiWorkDirHash",
      "loadKimiSession",
    ]);
  });
});
