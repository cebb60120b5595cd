import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { fixtureReadOptions, fixturesDirectory } from "./fixtures-support.js";
import { detectStreamJsonDialect, streamJsonCodec } from "./index.js";

const captures = readdirSync(fixturesDirectory).filter((name) => name.endsWith(".jsonl"));

describe("fixtures/stream-json", () => {
  it("holds the hand-written captures", () => {
    expect(captures.sort()).toEqual([
      "amp-multi-run.jsonl",
      "claude-multi-run.jsonl",
      "claude-replay-partial.jsonl",
      "claude-tools.jsonl",
    ]);
  });
  for (const name of captures) {
    const text = readFileSync(path.join(fixturesDirectory, name), "utf8");
    it(`${name} converts to its .common.json`, () => {
      const expected = commonCodec.toCommon(
        commonCodec.parse(
          readFileSync(
            path.join(fixturesDirectory, name.replace(/\.jsonl$/, ".common.json")),
            "utf8",
          ),
        ),
      );
      const transcript = streamJsonCodec.toCommon(streamJsonCodec.parse(text), fixtureReadOptions);
      expect(transcript).toEqual(expected);
    });
    it(`${name} is detected, in the dialect its name says`, () => {
      expect(streamJsonCodec.detect(text)).toBe(true);
      expect(detectStreamJsonDialect(text)).toBe(name.startsWith("amp-") ? "amp" : "claude");
    });
  }
});
