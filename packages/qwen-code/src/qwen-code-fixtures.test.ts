import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { QwenCodeStore } from "./qwen-code-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const store = new QwenCodeStore({ root: path.join(repoRoot, "fixtures/qwen-code/store") });
const ids = readdirSync(store.root)
  .filter((name) => name.endsWith(".common.json"))
  .map((name) => name.slice(0, -".common.json".length))
  .sort();

describe("fixtures/qwen-code", () => {
  it("holds the two recordings Qwen Code 0.24.4 wrote, and the store lists both", async () => {
    expect(ids).toEqual([
      "5f5c417b-55ad-47a6-ad93-dce2ab9d96e2",
      "9e1f3d57-714e-488a-b6b5-f36d3f36878c",
    ]);
    const listed: string[] = [];
    for await (const found of store.discover()) {
      listed.push(found.id);
      expect(found.cwd).toBe("/tmp/qwork/p");
    }
    expect(listed).toEqual(ids);
  });
  for (const id of ids) {
    it(`${id}: byte-exact round trip, detected, and read as its .common.json`, async () => {
      const file = await store.locate(id);
      const text = readFileSync(file, "utf8");
      expect(qwenCodeCodec.detect(text)).toBe(true);
      const session = await store.load(id);
      expect(qwenCodeCodec.serialize(session)).toBe(text);
      const warnings: Warning[] = [];
      const transcript = qwenCodeCodec.toCommon(session, {
        onWarning: (warning) => warnings.push(warning),
      });
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(
        readFileSync(path.join(store.root, `${id}.common.json`), "utf8"),
      );
      // ui_telemetry and attribution_snapshot records are named, not silently dropped.
      expect(warnings.map((warning) => warning.code)).toContain("qwen_code.system-record");
    });
  }
  it("reads the tools of the real calls as typed canonical tools", async () => {
    const transcript = qwenCodeCodec.toCommon(
      await store.load("9e1f3d57-714e-488a-b6b5-f36d3f36878c"),
    );
    const tools = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.tool.name] : [])),
    );
    expect(tools).toEqual(["Write", "Edit", "Glob", "Grep"]);
  });
});
