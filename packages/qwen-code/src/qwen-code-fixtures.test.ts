import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import type { QwenCodeSession } from "./qwen-code-schema.js";
import { QwenCodeStore } from "./qwen-code-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/qwen-code");
const store = new QwenCodeStore({ root: path.join(directory, "store") });
const loose = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();
const ids = readdirSync(store.root)
  .filter((name) => name.endsWith(".common.json"))
  .map((name) => name.slice(0, -".common.json".length))
  .sort();

function readsAs(text: string, session: QwenCodeSession, expected: string): void {
  expect(qwenCodeCodec.detect(text)).toBe(true);
  expect(qwenCodeCodec.serialize(session)).toBe(text);
  const warnings: Warning[] = [];
  const transcript = qwenCodeCodec.toCommon(session, {
    onWarning: (warning) => warnings.push(warning),
  });
  expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
  // ui_telemetry and attribution_snapshot records are named, not silently dropped.
  expect(warnings.map((warning) => warning.code)).toContain("qwen_code.system-record");
}

describe("fixtures/qwen-code", () => {
  it("holds the recordings Qwen Code 0.24.4 wrote, and the store lists its one", async () => {
    expect(loose).toEqual(["write-edit-search.jsonl"]);
    expect(ids).toEqual(["5f5c417b-55ad-47a6-ad93-dce2ab9d96e2"]);
    const listed: string[] = [];
    for await (const found of store.discover()) {
      listed.push(found.id);
      expect(found.cwd).toBe("/tmp/qwork/p");
      expect(found.title).toBe("read notes.txt and run echo hi");
    }
    expect(listed).toEqual(ids);
  });
  for (const name of loose)
    it(`${name}: byte-exact round trip, detected, and read as its .common.json`, () => {
      const text = readFileSync(path.join(directory, name), "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
        "utf8",
      );
      readsAs(text, qwenCodeCodec.parse(text), expected);
    });
  for (const id of ids)
    it(`store session ${id}: byte-exact round trip, detected, and read as its .common.json`, async () => {
      const text = readFileSync(await store.locate(id), "utf8");
      readsAs(
        text,
        await store.load(id),
        readFileSync(path.join(store.root, `${id}.common.json`), "utf8"),
      );
    });
  it("reads the tools of the real calls as typed canonical tools", () => {
    const text = readFileSync(path.join(directory, "write-edit-search.jsonl"), "utf8");
    const transcript = qwenCodeCodec.toCommon(qwenCodeCodec.parse(text));
    const tools = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.tool.name] : [])),
    );
    expect(tools).toEqual(["Write", "Edit", "Glob", "Grep"]);
  });
});
