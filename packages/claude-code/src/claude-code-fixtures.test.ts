import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/claude-code");
const names = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();

describe("fixtures/claude-code", () => {
  it("holds the scenarios the issue names", () => {
    expect(names).toEqual(
      expect.arrayContaining([
        "split-messages.jsonl",
        "slash-commands.jsonl",
        "summary-title.jsonl",
        "images.jsonl",
        "thinking.jsonl",
      ]),
    );
  });
  for (const name of names) {
    it(`${name} converts to its .common.json`, () => {
      const text = readFileSync(path.join(directory, name), "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
        "utf8",
      );
      expect(claudeCodeCodec.detect(text)).toBe(true);
      const transcript = claudeCodeCodec.toCommon(claudeCodeCodec.parse(text));
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
});
