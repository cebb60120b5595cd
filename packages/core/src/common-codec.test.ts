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

describe("hostile depth", () => {
  const deepInput = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const documentWith = (depth: number) =>
    `{"format":"txcript.common/v1","meta":{"id":"x","timestamp":"2026-01-01T00:00:00.000Z"},"messages":[{"role":"assistant","timestamp":"2026-01-01T00:00:00.000Z","content":[{"type":"tool_use","id":"t","tool":{"name":"Raw","toolName":"X","input":${deepInput(depth)}}}]}]}`;
  it("commonCodec.parse turns zod's recursion limit into TOO_LARGE", () => {
    for (const depth of [3_000, 100_000]) {
      let caught: unknown;
      try {
        commonCodec.parse(documentWith(depth), { file: "deep.json" });
      } catch (error) {
        caught = error;
      }
      expect(TxcriptError.isInstance(caught), `depth ${depth}: ${String(caught)}`).toBe(true);
      expect((caught as TxcriptError).code).toBe("TOO_LARGE");
      expect((caught as TxcriptError).location.file).toBe("deep.json");
    }
  });
  it("toText shows a deeply nested tool input as a note instead of throwing", async () => {
    const { toText } = await import("./text.js");
    let input: unknown = [];
    for (let index = 0; index < 100_000; index += 1) input = [input];
    const text = toText({
      meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [
        {
          role: "assistant",
          timestamp: "2026-01-01T00:00:00.000Z",
          content: [
            {
              type: "tool_use",
              id: "t",
              tool: { name: "Raw", toolName: "X", input: input as never },
            },
          ],
        },
      ],
    });
    expect(text).toContain("→ X (nested too deeply to show)");
  });
});
