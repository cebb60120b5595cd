// The heavy and exact hostile values of issue 7, applied deterministically to
// one sample of every parser (the fuzzers meet them only now and then): a
// 10 MiB string and 100,000-deep nesting at several places, every number
// literal past 2^53 or the double range, BOM and CRLF, and `__proto__` keys
// through Common and back as data.
import type { Transcript } from "@txcript/core";
import { describe, expect, it } from "vitest";
import {
  applyMutation,
  bigNumberLiterals,
  deepNestingDepth,
  hugeStringBytes,
  type Mutation,
} from "./mutations.js";
import { assertPrototypesClean, checkText } from "./oracle.js";
import { parsers, samplesOf } from "./parsers.js";

const picks = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377];

for (const parser of parsers) {
  const sample = samplesOf(parser.id)[0];
  describe(`${parser.id}: hostile values in ${sample?.name ?? "(no sample)"}`, () => {
    const cases: { name: string; mutation: Mutation }[] = [
      ...picks.map((pick) => ({
        name: `a 10 MiB string at node ${pick}`,
        mutation: { kind: "huge-string", pick, bytes: hugeStringBytes } as const,
      })),
      ...picks.flatMap((pick) =>
        (["[", '{"a":'] as const).map((open) => ({
          name: `nesting ${deepNestingDepth} deep (${open}) at node ${pick}`,
          mutation: { kind: "deep-nesting", pick, depth: deepNestingDepth, open } as const,
        })),
      ),
      ...bigNumberLiterals.flatMap((literal) =>
        picks.slice(0, 6).map((pick) => ({
          name: `the number ${literal} at node ${pick}`,
          mutation: { kind: "big-number", pick, literal } as const,
        })),
      ),
      { name: "a BOM", mutation: { kind: "bom" } },
      { name: "CRLF line ends", mutation: { kind: "crlf" } },
    ];
    for (const { name, mutation } of cases) {
      it(`${name}: read, or refused with a located TxcriptError`, () => {
        if (!sample) return;
        const outcome = checkText(parser, applyMutation(sample.text, parser.layout, mutation));
        expect(["read", "rejected", "known-bug"]).toContain(outcome.kind);
      });
    }
  });

  describe(`${parser.id}: prototype-named keys through Common stay data`, () => {
    it("a Raw tool input with __proto__, constructor and prototype keys comes back as own data", () => {
      const input = JSON.parse(
        '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":1}',
      );
      const transcript: Transcript = {
        meta: { id: "proto", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" },
        messages: [
          {
            role: "user",
            timestamp: "2026-01-01T00:00:00.000Z",
            content: [{ type: "text", text: "go" }],
          },
          {
            role: "assistant",
            timestamp: "2026-01-01T00:00:01.000Z",
            content: [
              {
                type: "tool_use",
                id: "toolu_1",
                tool: { name: "Raw", toolName: "mcp__x__y", input },
              },
            ],
          },
        ],
      };
      const text = parser.codec.serialize(parser.codec.fromCommon(transcript, {}));
      const back: Transcript = parser.codec.toCommon(parser.codec.parse(text), parser.readOptions);
      assertPrototypesClean();
      const block = back.messages
        .flatMap((message) => message.content)
        .find((item) => item.type === "tool_use");
      expect(block?.type).toBe("tool_use");
      if (block?.type !== "tool_use" || block.tool.name !== "Raw")
        throw new Error("the Raw tool did not come back");
      const carried = block.tool.input as Record<string, unknown>;
      expect(Object.hasOwn(carried, "__proto__")).toBe(true);
      expect(Object.getPrototypeOf(carried)).toBe(Object.prototype);
      expect(JSON.stringify(carried)).toBe(JSON.stringify(input));
    });
  });
}
