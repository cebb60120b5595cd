import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeCodeHarness } from "./claude-code-harness.js";
import { claudeCodeProject } from "./claude-code-project.js";

describe("claudeCodeHarness", () => {
  it("names the codec, its normalization, the store and the resume command", () => {
    expect(claudeCodeHarness.id).toBe(claudeCodeCodec.id);
    expect(claudeCodeHarness.codec).toBe(claudeCodeCodec);
    expect(claudeCodeHarness.extension).toBe(".jsonl");
    const transcript = fc.sample(transcriptArbitrary(), { numRuns: 1, seed: 7 })[0];
    if (transcript === undefined) throw new Error("no sample");
    expect(claudeCodeHarness.project(transcript)).toEqual(claudeCodeProject(transcript));
    expect(claudeCodeHarness.resumeCommand?.("abc")).toEqual(["claude", "--resume=abc"]);
    expect(claudeCodeHarness.store?.({}, "/tmp/x").root).toBe("/tmp/x");
  });

  it("streams exactly serialize(fromCommon(t)), warnings included, for any shape", () => {
    const serializeChunks = claudeCodeHarness.serializeChunks;
    if (serializeChunks === undefined) throw new Error("claudeCodeHarness streams");
    fc.assert(
      fc.property(fc.oneof(transcriptArbitrary(), oddShapesArbitrary()), (transcript) => {
        const streamed: unknown[] = [];
        const written: unknown[] = [];
        const chunks = [...serializeChunks(transcript, { onWarning: (w) => streamed.push(w) })];
        const text = claudeCodeCodec.serialize(
          claudeCodeCodec.fromCommon(transcript, { onWarning: (w) => written.push(w) }),
        );
        expect(chunks.join("")).toBe(text);
        expect(
          chunks.every((chunk) => chunk.endsWith("\n") && chunk.indexOf("\n") === chunk.length - 1),
        ).toBe(true);
        expect(streamed).toEqual(written);
      }),
      lawParameters(200),
    );
  });
});
