import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { geminiCliHarness } from "./gemini-cli-harness.js";

const now = new Date("2026-12-01T00:00:00.000Z");

describe("geminiCliHarness", () => {
  it("is named gemini_cli, alias gemini, and resumes with gemini --resume=<id>", () => {
    expect(geminiCliHarness.id).toBe("gemini_cli");
    expect(geminiCliHarness.aliases).toContain("gemini");
    expect(geminiCliHarness.resumeCommand?.("2d9ea14f-1e4e-44f6-8bf5-7a7819cb1cd9")).toEqual([
      "gemini",
      "--resume=2d9ea14f-1e4e-44f6-8bf5-7a7819cb1cd9",
    ]);
    expect(geminiCliHarness.continueRefusal).toBeUndefined();
  });
  it("streams the writer's text line by line", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const chunks = [...(geminiCliHarness.serializeChunks?.(transcript, { now }) ?? [])];
        expect(chunks.join("")).toBe(
          geminiCliCodec.serialize(geminiCliCodec.fromCommon(transcript, { now })),
        );
        for (const chunk of chunks) expect(chunk.indexOf("\n")).toBe(chunk.length - 1);
      }),
      lawParameters(50),
    );
  });
  it("opens the store at $GEMINI_CLI_HOME/.gemini", () => {
    expect(geminiCliHarness.store?.({ GEMINI_CLI_HOME: "/g", HOME: "/h" }).root).toBe("/g/.gemini");
    expect(geminiCliHarness.store?.({ HOME: "/h" }).root).toBe("/h/.gemini");
  });
});
