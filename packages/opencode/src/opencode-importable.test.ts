import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { importProblems } from "./opencode-importable.js";
import { fixtureSamples } from "./test-support.js";

describe("importProblems", () => {
  it("finds nothing in what the writer produces", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        expect(importProblems(opencodeCodec.fromCommon(transcript).document)).toEqual([]);
      }),
      lawParameters(200),
    );
  });

  it("finds nothing in what OpenCode itself exported", () => {
    for (const sample of fixtureSamples())
      expect(importProblems(opencodeCodec.parse(sample.text).document), sample.name).toEqual([]);
  });

  it("names each required field import's decode would reject", () => {
    const native = opencodeCodec.fromCommon({
      meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z", title: "t", cliVersion: "1.18.33" },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "hi" }],
          timestamp: "2026-01-01T00:00:01.000Z",
        },
        {
          role: "assistant",
          content: [{ type: "text", text: "yo" }],
          timestamp: "2026-01-01T00:00:02.000Z",
        },
      ],
    });
    const [user, assistant] = native.document.messages;
    if (user === undefined || assistant === undefined) throw new Error("two messages expected");
    native.document.info.slug = 3;
    user.info.agent = null;
    delete assistant.info.mode;
    const part = assistant.parts[1];
    if (part === undefined) throw new Error("a text part expected");
    part.type = "thinking";
    expect(importProblems(native.document)).toEqual([
      { path: "$.info.slug", expected: "a string" },
      { path: "$.messages[0].info.agent", expected: "a string" },
      { path: "$.messages[1].info.mode", expected: "a string" },
      {
        path: "$.messages[1].parts[1].type",
        expected: expect.stringContaining("one of text, reasoning, tool"),
      },
    ]);
  });
});
