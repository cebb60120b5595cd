import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Transcript, Warning } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { findInexactNumbers, mayHoldLongDigitRun } from "./amp-numbers.js";
import { fixturesDir } from "./test-support.js";

const exported = readFileSync(path.join(fixturesDir, "export-thread.json"), "utf8");
const beyond = "9007199254740993"; // 2^53 + 1: JSON.parse reads 9007199254740992

function thread(extra: string): string {
  return `{\n  "v": 1,\n  "id": "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001",\n  "created": 1768178184664,${extra}\n  "messages": []\n}`;
}

describe("findInexactNumbers", () => {
  it("finds nothing without a run of 16 digits, or when every long number is exact", () => {
    expect(findInexactNumbers(exported)).toBeUndefined();
    expect(findInexactNumbers('{"a": 123456789012345, "b": -0.5}')).toBeUndefined();
    // 16 and 17 digits that a double holds, and long digit runs inside strings.
    expect(
      findInexactNumbers(`{"a": 1234567890123456, "b": 9007199254740992, "s": "${beyond}"}`),
    ).toBeUndefined();
  });
  it("names the first inexact number's path and counts them all", () => {
    const text = `{"a\\"b": [1, {"x": ${beyond}}], "k": "${beyond}", "z": [-${beyond}, 0.12345678901234567891]}`;
    expect(findInexactNumbers(text)).toEqual({ path: '$["a\\"b"][1].x', count: 3 });
    expect(findInexactNumbers(`[[[[${beyond}]]]]`)).toEqual({ path: "$[0][0][0][0]", count: 1 });
  });
  it("finds an inexact number deep in a large thread, wherever it falls on the 16-character stride", () => {
    // The quick look reads every 16th character: each offset of the number
    // against that stride, after 1 MB of harmless text, must still be found.
    const filler = `"${"ab 12.5 ".repeat(120_000)}"`;
    for (let pad = 0; pad < 16; pad++) {
      const text = `{"s": ${filler},${" ".repeat(pad)}"n": [${beyond}]}`;
      expect(findInexactNumbers(text)).toEqual({ path: "$.n[0]", count: 1 });
    }
    // Control: the same text with an exact number has none.
    expect(findInexactNumbers(`{"s": ${filler}, "n": [9007199254740992]}`)).toBeUndefined();
  });
  it("the quick look is never false where the regular expression would match", () => {
    const longDigitRun = /\d(?:\.?\d){15}/;
    const around = fc.array(fc.constantFrom("0", "1", "9", ".", "a", " ", "-", "e"), {
      maxLength: 60,
    });
    // Text without digits, of any length up to 80 (fast-check's arrays stay short unless told).
    const letters = fc
      .tuple(fc.constantFrom("a", " ", "-", "e", "."), fc.nat({ max: 80 }))
      .map(([character, count]) => character.repeat(count).split(""));
    // 16 digits, a point or none between each two: a run at every offset.
    const run = fc.array(fc.tuple(fc.constantFrom("0", "5", "9"), fc.boolean()), {
      minLength: 16,
      maxLength: 16,
    });
    fc.assert(
      fc.property(letters, run, letters, (before, digits, after) => {
        const middle = digits.map(([digit, point], index) =>
          point && index > 0 ? `.${digit}` : digit,
        );
        const text = [...before, ...middle, ...after].join("");
        expect(longDigitRun.test(text)).toBe(true);
        expect(mayHoldLongDigitRun(text)).toBe(true);
      }),
      lawParameters(5_000),
    );
    fc.assert(
      fc.property(around, (characters) => {
        const text = characters.join("");
        if (longDigitRun.test(text)) expect(mayHoldLongDigitRun(text)).toBe(true);
      }),
      lawParameters(5_000),
    );
    expect(mayHoldLongDigitRun("x".repeat(40))).toBe(false);
    expect(mayHoldLongDigitRun(`${"x".repeat(7)}1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6`)).toBe(true);
  });
  it("walks 100,000 levels without overflowing the stack", () => {
    const deep = `${"[".repeat(100_000)}${beyond}${"]".repeat(100_000)}`;
    expect(findInexactNumbers(deep)?.count).toBe(1);
  });
});

describe("serialize(parse(s)) = s with integers past 2^53", () => {
  it("reproduces the source text while the document is unchanged", () => {
    const text = exported.replace('"created": 1785177254351', `"created": ${beyond}`);
    expect(text).not.toBe(exported);
    const native = ampCodec.parse(text);
    expect(native.source?.inexact).toEqual({ path: "$.created", count: 1 });
    expect(ampCodec.serialize(native)).toBe(text);
    const compact = thread(` "n": [${beyond}, 1e-7],`);
    expect(ampCodec.serialize(ampCodec.parse(compact))).toBe(compact);
  });
  it("writes a changed document afresh, each inexact number as the nearest double", () => {
    const native = ampCodec.parse(thread(` "n": ${beyond},`));
    const changed = { ...native, document: { ...native.document, title: "t" } };
    const written = ampCodec.serialize(changed);
    expect(written).toContain('"n": 9007199254740992');
    expect(written).toContain('"title": "t"');
    // Mutating in place is a change too.
    native.document.v = 2;
    expect(ampCodec.serialize(native)).toContain('"v": 2');
  });
  it("keeps no source for an exact file or for what fromCommon builds", () => {
    expect(ampCodec.parse(exported).source).toBeUndefined();
    const transcript: Transcript = {
      meta: { id: "s", timestamp: "2026-01-10T10:00:00.000Z" },
      messages: [
        {
          role: "assistant",
          timestamp: "2026-01-10T10:00:01.000Z",
          content: [
            {
              type: "tool_use",
              id: "t",
              tool: { name: "Raw", toolName: "x", input: { n: 2 ** 60 } },
            },
          ],
        },
      ],
    };
    const built = ampCodec.fromCommon(transcript);
    expect(built.source).toBeUndefined();
    const text = ampCodec.serialize(built);
    expect(ampCodec.serialize(ampCodec.parse(text))).toBe(text);
  });
  it("names the loss on reading, with the first path and the count", () => {
    const warnings: Warning[] = [];
    ampCodec.toCommon(ampCodec.parse(thread(` "n": [${beyond}, ${beyond}],`)), {
      onWarning: (warning) => warnings.push(warning),
    });
    const inexact = warnings.filter((warning) => warning.code === "amp.inexact-number");
    expect(inexact).toEqual([expect.objectContaining({ path: "$.n[0]", count: 2 })]);
    expect(ampCodec.losses.map((loss) => loss.code)).toContain("amp.inexact-number");
    const clean: Warning[] = [];
    ampCodec.toCommon(ampCodec.parse(exported), { onWarning: (warning) => clean.push(warning) });
    expect(clean.map((warning) => warning.code)).not.toContain("amp.inexact-number");
  });
});
