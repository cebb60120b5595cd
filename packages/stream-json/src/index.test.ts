import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./fixtures-support.js";
import * as api from "./index.js";

describe("@txcript/stream-json public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "StreamJsonAccumulator",
      "detectStreamJsonDialect",
      "readStreamJsonLines",
      "streamJsonCodec",
      "streamJsonLosses",
      "streamJsonProject",
      "toStreamJsonInput",
    ]);
  });
});

describe("streamJsonLosses", () => {
  it("has unique codes, each explained in docs/formats/stream-json.md and the README", () => {
    const codes = api.streamJsonLosses.map((loss) => loss.code);
    expect(new Set(codes).size).toBe(codes.length);
    const doc = readFileSync(path.join(repoRoot, "docs/formats/stream-json.md"), "utf8");
    const readme = readFileSync(path.join(repoRoot, "packages/stream-json/README.md"), "utf8");
    for (const code of codes) {
      expect(doc, code).toContain(`| \`${code}\` |`);
      expect(readme, code).toContain(`\`${code}\``);
    }
  });
});
