import { describeCodecLaws } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { commonCodec } from "./common-codec.js";
import { TxcriptError } from "./errors.js";

describeCodecLaws({ codec: commonCodec, project: (transcript) => transcript });

describe("commonCodec.parse", () => {
  it("names the JSON path of the first invalid field", () => {
    const text = JSON.stringify({
      format: "txcript.common/v1",
      meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [{ role: "robot", content: [], timestamp: "2026-01-01T00:00:00.000Z" }],
    });
    try {
      commonCodec.parse(text, { file: "a.json" });
      expect.unreachable();
    } catch (error) {
      expect(TxcriptError.isInstance(error)).toBe(true);
      const txcript = error as TxcriptError;
      expect(txcript.code).toBe("INVALID_DOCUMENT");
      expect(txcript.location).toEqual({ file: "a.json", path: "$.messages[0].role" });
    }
  });
  it("refuses JSON without the format marker", () => {
    expect(() => commonCodec.parse("{}")).toThrowError(/txcript\.common\/v1/);
  });
  it("detects its own documents only", () => {
    expect(commonCodec.detect('{\n  "format": "txcript.common/v1"')).toBe(true);
    expect(commonCodec.detect('{"v": 1, "format": "other"}')).toBe(false);
  });
});
