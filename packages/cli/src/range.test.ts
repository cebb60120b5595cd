// Ranges by printed ordinals, and the rule that a copy never cuts a tool
// call from its result (the refusal names the smallest valid range around).
import { TxcriptError } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { sampleTranscript } from "../test/sample.js";
import { nearestValidRange, sliceForCopy, splitRange } from "./range.js";

describe("splitRange", () => {
  it("reads the four range forms", () => {
    expect(splitRange("abc#7")).toEqual({ ref: "abc", range: { from: 7, to: 7, text: "#7" } });
    expect(splitRange("abc#5-12")).toEqual({
      ref: "abc",
      range: { from: 5, to: 12, text: "#5-12" },
    });
    expect(splitRange("abc#5-")).toEqual({ ref: "abc", range: { from: 5, text: "#5-" } });
    expect(splitRange("abc#-10")).toEqual({ ref: "abc", range: { to: 10, text: "#-10" } });
  });
  it("leaves a ref whose # suffix is not a range whole", () => {
    expect(splitRange("notes#draft.json")).toEqual({ ref: "notes#draft.json" });
    expect(splitRange("plain")).toEqual({ ref: "plain" });
  });
});

describe("sliceForCopy", () => {
  it("keeps a range that holds each call with its result", () => {
    const { range } = splitRange("x#2-3");
    expect(sliceForCopy(sampleTranscript, range).messages).toEqual(
      sampleTranscript.messages.slice(1, 3),
    );
  });
  it("refuses a range that cuts, naming the nearest valid range", () => {
    const { range } = splitRange("x#2");
    try {
      sliceForCopy(sampleTranscript, range);
      expect.unreachable();
    } catch (error) {
      expect(TxcriptError.isInstance(error)).toBe(true);
      expect((error as TxcriptError).code).toBe("REFUSED");
      expect((error as TxcriptError).hint).toBe("the nearest valid range is #2-3");
    }
  });
  it("grows until closed under chained calls", () => {
    const chained = {
      meta: sampleTranscript.meta,
      messages: [
        ...sampleTranscript.messages.slice(0, 3),
        {
          role: "assistant" as const,
          content: [
            {
              type: "tool_use" as const,
              id: "t2",
              tool: { name: "Bash" as const, input: { command: "pwd" } },
            },
          ],
          timestamp: "2026-03-01T10:00:03.000Z",
        },
        {
          role: "user" as const,
          content: [
            { type: "tool_result" as const, toolUseId: "t2", content: "/", isError: false },
          ],
          timestamp: "2026-03-01T10:00:04.000Z",
        },
      ],
    };
    expect(nearestValidRange(chained, 3, 4)).toEqual({ from: 2, to: 5 });
  });
});
