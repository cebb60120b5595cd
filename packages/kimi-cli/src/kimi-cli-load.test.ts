// A context file outside a store's layout that records no id reads under an
// id of its own, derived from where it lies as the layout names sessions;
// one default id for all made one session replace another in `opencode
// import`. A text with no file (stdin) keeps the one deterministic default.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { loadSessionFile, type Transcript } from "@txcript/core";
import { scratchDirectory } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import { kimiCliHarness } from "./kimi-cli-harness.js";
import { looseFileId } from "./kimi-cli-load.js";
import { unnamedSessionId } from "./kimi-cli-to-common.js";

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/kimi-cli/odd-lines.jsonl",
);
const scratch = scratchDirectory("txcript-kimi-load-");
function tempRoot(): string {
  return mkdtempSync(path.join(scratch, "case-"));
}

async function idOf(file: string): Promise<string> {
  const session = await loadSessionFile(kimiCliHarness, file, { environment: {} });
  return kimiCliCodec.toCommon(session).meta.id;
}

describe("the id of a loose Kimi CLI context file", () => {
  it("the fixture records no id: read alone (stdin) it goes by the one default", () => {
    const text = readFileSync(fixture, "utf8");
    expect(kimiCliCodec.toCommon(kimiCliCodec.parse(text)).meta.id).toBe(unnamedSessionId);
  });

  it("two files without ids read under two ids: their directories' names, or their file names", async () => {
    const root = tempRoot();
    const files = [
      path.join(root, "first", "context.jsonl"),
      path.join(root, "second", "context.jsonl"),
      path.join(root, "third.jsonl"),
      path.join(root, "fourth.jsonl"),
    ];
    for (const file of files) {
      mkdirSync(path.dirname(file), { recursive: true });
      copyFileSync(fixture, file);
    }
    const ids = await Promise.all(files.map(idOf));
    expect(ids).toEqual(["first", "second", "third", "fourth"]);
    expect(new Set(ids).size).toBe(files.length);
    expect(ids).not.toContain(unnamedSessionId);
  });

  it("control: the same file read twice gives the same id, and a relative path the absolute one's", async () => {
    const root = tempRoot();
    const file = path.join(root, "same", "context.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(fixture, file);
    expect(await idOf(file)).toBe(await idOf(file));
    expect(looseFileId(path.relative(process.cwd(), file))).toBe(looseFileId(file));
    expect(looseFileId("session")).toBe("session");
  });

  it("control: an id the file records (txcript's meta line) still wins over the file's place", async () => {
    const transcript: Transcript = {
      meta: { id: "recorded", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "hi" }],
          timestamp: "2026-01-01T00:00:00.000Z",
        },
      ],
    };
    const text = kimiCliCodec.serialize(kimiCliCodec.fromCommon(transcript));
    const alone = kimiCliCodec.toCommon(kimiCliCodec.parse(text)).meta.id;
    expect(alone).not.toBe(unnamedSessionId);
    const file = path.join(tempRoot(), "elsewhere.jsonl");
    writeFileSync(file, text);
    expect(await idOf(file)).toBe(alone);
  });
});
