import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("@txcript/stream-json public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "StreamJsonAccumulator",
      "detectStreamJsonDialect",
      "readStreamJsonLines",
      "streamJsonCodec",
      "streamJsonLosses",
      "streamJsonProject",
      "toStreamJsonInput",
    ]);
  });
});
