import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@txcript/pi public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "PiStore",
      "commonToPiLines",
      "commonToolToPi",
      "mungePiCwd",
      "piAgentDir",
      "piCodec",
      "piHarness",
      "piLoss",
      "piLosses",
      "piNamespace",
      "piProgramCheck",
      "piProject",
      "piReadStream",
      "piResumeCommand",
      "piSessionFileName",
      "piSessionId",
      "piSessionsRoot",
      "piToolToCommon",
    ]);
  });
});
