import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { GeminiCliStore } from "./gemini-cli-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/gemini-cli");
const names = readdirSync(directory)
  .filter((name) => /\.jsonl?$/.test(name) && !name.endsWith(".common.json"))
  .sort();
const store = new GeminiCliStore({ root: path.join(directory, "store") });
const storeIds = readdirSync(store.root)
  .filter((name) => name.endsWith(".common.json"))
  .map((name) => name.slice(0, -".common.json".length))
  .sort();

describe("fixtures/gemini-cli", () => {
  it("holds both eras and the store layout", () => {
    expect(names).toEqual(["jsonl-records.jsonl", "legacy-document.json"]);
    expect(storeIds).toEqual([
      "0ld5e551-0000-4000-8000-000000000028",
      "aa11bb22-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
    ]);
  });
  for (const name of names) {
    it(`${name} converts to its .common.json`, () => {
      const text = readFileSync(path.join(directory, name), "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl?$/, ".common.json")),
        "utf8",
      );
      expect(geminiCliCodec.detect(text)).toBe(true);
      const transcript = geminiCliCodec.toCommon(geminiCliCodec.parse(text));
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
  for (const id of storeIds) {
    it(`store session ${id}, as the store loads it, converts to its .common.json`, async () => {
      const expected = readFileSync(path.join(store.root, `${id}.common.json`), "utf8");
      const session = await store.load(id);
      expect(geminiCliCodec.serialize(session)).toBe(readFileSync(await store.locate(id), "utf8"));
      const transcript = geminiCliCodec.toCommon(session);
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
});
