import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { findInexactNumbers } from "./amp-numbers.js";
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
