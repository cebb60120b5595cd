import { readFileSync } from "node:fs";
import path from "node:path";
import { describePublicExports } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./fixtures-support.js";
import * as api from "./index.js";
import { streamJsonLoss } from "./stream-json-losses.js";

describePublicExports("@txcript/stream-json", api, [
  "StreamJsonAccumulator",
  "detectStreamJsonDialect",
  "readStreamJsonLines",
  "streamJsonCodec",
  "streamJsonHarness",
  "streamJsonLosses",
  "streamJsonProject",
  "toStreamJsonInput",
]);

describe("streamJsonLosses", () => {
  it("has unique codes prefixed stream_json., each explained in docs/formats/stream-json.md and the README", () => {
    const codes = api.streamJsonLosses.map((loss) => loss.code);
    expect(new Set(codes).size).toBe(codes.length);
    const doc = readFileSync(path.join(repoRoot, "docs/formats/stream-json.md"), "utf8");
    const readme = readFileSync(path.join(repoRoot, "packages/stream-json/README.md"), "utf8");
    for (const code of codes) {
      expect(code).toMatch(/^stream_json\.[a-z-]+$/);
      expect(doc, code).toContain(`| \`${code}\` |`);
      expect(readme, code).toContain(`\`${code}\``);
    }
  });
  it("lists every loss the codec can report, and reports every loss it lists", () => {
    const sources = [
      "stream-json-codec.ts",
      "stream-json-to-common.ts",
      "stream-json-messages.ts",
      "stream-json-live.ts",
      "common-to-stream-json.ts",
      "stream-json-write-blocks.ts",
    ].map((file) => readFileSync(path.join(repoRoot, "packages/stream-json/src", file), "utf8"));
    const text = sources.join("\n");
    // Reported as losses.<name>, streamJsonLoss.<name> or lost("<name>", ...).
    const used = new Set([
      ...[...text.matchAll(/(?<![-\w])(?:losses|streamJsonLoss)\.(\w+)/g)].map((m) => m[1]),
      ...[...text.matchAll(/\blost\(\s*"(\w+)"/g)].map((m) => m[1]),
    ]);
    expect([...used].sort()).toEqual(Object.keys(streamJsonLoss).sort());
    expect(api.streamJsonLosses).toEqual(Object.values(streamJsonLoss));
  });
});
