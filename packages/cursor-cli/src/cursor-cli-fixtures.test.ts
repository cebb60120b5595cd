import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { cursorCliCodec } from "./cursor-cli-codec.js";
import { cursorCliHarness } from "./cursor-cli-harness.js";
import { CursorCliStore } from "./cursor-cli-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/cursor-cli");
const store = new CursorCliStore({ root: path.join(directory, "store") });
const ids = readdirSync(directory)
  .filter((name) => name.endsWith(".cursor-chat.json"))
  .map((name) => name.slice(0, -".cursor-chat.json".length))
  .sort();

/** The read warnings' codes, each once, sorted. */
function readCodes(id: string): string[] {
  const warnings: Warning[] = [];
  const text = readFileSync(path.join(directory, `${id}.cursor-chat.json`), "utf8");
  cursorCliCodec.toCommon(cursorCliCodec.parse(text), {
    onWarning: (warning) => warnings.push(warning),
  });
  return [...new Set(warnings.map((warning) => warning.code))].sort();
}

describe("fixtures/cursor-cli", () => {
  it("the store lists every fixture chat, with the cwd its workspace directory hashes to", async () => {
    const listed = new Map<string, { title?: string; cwd?: string; messageCount?: number }>();
    for await (const found of store.discover()) listed.set(found.id, found);
    expect([...listed.keys()].sort()).toEqual(ids);
    expect(ids).toHaveLength(2);
    expect(listed.get("3f1c2a9e-5b7d-4e21-9a0c-6d8e4f2b1a07")).toMatchObject({
      title: "List files",
      cwd: "/home/dev/demo app",
      messageCount: 5,
    });
    expect(listed.get("b7e0d3c4-1f2a-4b6c-8d9e-0a1b2c3d4e5f")).toMatchObject({
      title: "Run tests",
      cwd: "/srv/work/api",
      messageCount: 4,
    });
  });

  for (const id of ids)
    it(`chat ${id}: the store reads as its .cursor-chat.json (by id and by file) and as its .common.json`, async () => {
      const documentText = readFileSync(path.join(directory, `${id}.cursor-chat.json`), "utf8");
      const loaded = await store.load(id);
      expect(cursorCliCodec.serialize(loaded)).toBe(documentText);
      const byFile = await cursorCliHarness.loadFile?.(await store.locate(id), { environment: {} });
      expect(byFile).toEqual(loaded);
      expect(cursorCliCodec.detect(documentText)).toBe(true);
      expect(cursorCliCodec.serialize(cursorCliCodec.parse(documentText))).toBe(documentText);
      // The fixture stores are in rollback-journal mode: reading them leaves nothing beside them.
      expect(readdirSync(path.dirname(await store.locate(id)))).toEqual(["store.db"]);
      const transcript = cursorCliCodec.toCommon(loaded);
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(
        readFileSync(path.join(directory, `${id}.common.json`), "utf8"),
      );
    });

  it("a plain chat: system prompt as context, reasoning as thinking, the Shell call and its result paired", () => {
    const text = readFileSync(
      path.join(directory, "3f1c2a9e-5b7d-4e21-9a0c-6d8e4f2b1a07.cursor-chat.json"),
      "utf8",
    );
    const transcript = cursorCliCodec.toCommon(cursorCliCodec.parse(text));
    expect(
      transcript.messages.map((message) => [
        message.role,
        message.content.map((block) => block.type),
      ]),
    ).toEqual([
      ["user", ["text"]],
      ["user", ["text"]],
      ["assistant", ["thinking", "text", "tool_use"]],
      ["user", ["tool_result"]],
      ["assistant", ["text"]],
    ]);
    expect(transcript.messages[0]?.context).toEqual({ kind: "system" });
    expect(transcript.meta).toMatchObject({
      model: "claude-4-sonnet",
      timestamp: "2026-06-12T09:22:25.540Z",
    });
    // The key that encrypts blobs is not in the document at all.
    expect(text).not.toContain("fixture-placeholder-not-a-key");
    expect(readCodes("3f1c2a9e-5b7d-4e21-9a0c-6d8e4f2b1a07")).toEqual([
      "cursor_cli.encryption-key",
      "cursor_cli.message-times",
      "cursor_cli.meta-field",
      "cursor_cli.root-field",
      "cursor_cli.turns",
    ]);
  });

  it("an inner node's messages come first, in tree order; the missing blob, the image and the extra keys are named", () => {
    const text = readFileSync(
      path.join(directory, "b7e0d3c4-1f2a-4b6c-8d9e-0a1b2c3d4e5f.cursor-chat.json"),
      "utf8",
    );
    const chat = cursorCliCodec.parse(text);
    expect(chat.messages.map((entry) => entry.message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(chat.missingBlobIds).toHaveLength(1);
    expect(readCodes("b7e0d3c4-1f2a-4b6c-8d9e-0a1b2c3d4e5f")).toEqual([
      "cursor_cli.message-field",
      "cursor_cli.message-times",
      "cursor_cli.meta-field",
      "cursor_cli.missing-blob",
      "cursor_cli.part",
    ]);
  });
});
