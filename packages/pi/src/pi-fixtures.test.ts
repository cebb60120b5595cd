import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/pi");
const names = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();

describe("fixtures/pi", () => {
  it("holds the scenarios of the format doc", () => {
    expect(names).toEqual([
      "compaction.jsonl",
      "tree-branches.jsonl",
      "v1-linear.jsonl",
      "v2-hook-message.jsonl",
    ]);
  });
  for (const name of names) {
    it(`${name} converts to its .common.json`, () => {
      const text = readFileSync(path.join(directory, name), "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
        "utf8",
      );
      expect(piCodec.detect(text)).toBe(true);
      const transcript = piCodec.toCommon(piCodec.parse(text));
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
});
