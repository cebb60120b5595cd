// Every fixture under fixtures/kimi-cli: each loose context file and each
// session of the store under store/ reads exactly as its .common.json,
// serializes back byte for byte, is detected as Kimi CLI, and names what it
// drops. The fixtures are built from Kimi CLI's published models (no public
// repository holds a real session file: see fixtures/kimi-cli/README.md).
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import type { KimiCliSession } from "./kimi-cli-schema.js";
import { KimiCliStore } from "./kimi-cli-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/kimi-cli");
const store = new KimiCliStore({ root: path.join(directory, "store") });
const loose = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();
const ids = readdirSync(store.root)
  .filter((name) => name.endsWith(".common.json"))
  .map((name) => name.slice(0, -".common.json".length))
  .sort();

function readsAs(text: string, session: KimiCliSession, expected: string): string[] {
  expect(kimiCliCodec.detect(text)).toBe(true);
  expect(kimiCliCodec.serialize(session)).toBe(text);
  const warnings: Warning[] = [];
  const transcript = kimiCliCodec.toCommon(session, {
    onWarning: (warning) => warnings.push(warning),
  });
  expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
  const codes = warnings.map((warning) => warning.code);
  for (const code of codes) expect(kimiCliCodec.losses.map((loss) => loss.code)).toContain(code);
  return codes;
}

describe("fixtures/kimi-cli", () => {
  it("holds three loose context files, and the store lists its three sessions", async () => {
    expect(loose).toEqual(["compacted.jsonl", "odd-lines.jsonl", "shell-read-error.jsonl"]);
    expect(ids).toEqual([
      "4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90",
      "9b8e7d6c-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
      "c3d2e1f0-aaaa-4bbb-8ccc-dddd00001111",
    ]);
    const listed: string[] = [];
    for await (const found of store.discover()) listed.push(found.id);
    expect(listed.sort()).toEqual(ids);
  });
  for (const name of loose)
    it(`${name}: byte-exact round trip, detected, and read as its .common.json`, () => {
      const text = readFileSync(path.join(directory, name), "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
        "utf8",
      );
      const codes = readsAs(text, kimiCliCodec.parse(text), expected);
      // _checkpoint and _usage lines are named, never silently dropped; so are the times.
      expect(codes).toContain("kimi_cli.bookkeeping");
      expect(codes).toContain("kimi_cli.timestamps");
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
  it("odd-lines.jsonl: each line Kimi CLI skips, and each part it cannot carry, is named", () => {
    const text = readFileSync(path.join(directory, "odd-lines.jsonl"), "utf8");
    const warnings: Warning[] = [];
    kimiCliCodec.toCommon(kimiCliCodec.parse(text), {
      onWarning: (warning) => warnings.push(warning),
    });
    const count = (code: string) =>
      warnings
        .filter((warning) => warning.code === code)
        .reduce((sum, warning) => sum + warning.count, 0);
    // _usage "many", role _note, a video_frames part, a message without content.
    expect(count("kimi_cli.skipped-line")).toBe(4);
    expect(count("kimi_cli.media")).toBe(1);
    expect(count("kimi_cli.message-fields")).toBe(2);
    expect(count("kimi_cli.tool-arguments")).toBe(2);
  });
  it("compacted.jsonl: the message compaction writes reads as a compaction marker", () => {
    const text = readFileSync(path.join(directory, "compacted.jsonl"), "utf8");
    const transcript = kimiCliCodec.toCommon(kimiCliCodec.parse(text));
    const marker = transcript.messages[1];
    expect(marker?.content).toEqual([
      {
        type: "compaction",
        summary: expect.stringContaining("Adding a greeting to main.py."),
      },
    ]);
    // Control: the same message without the prefix part is a plain user message.
    const plain = text.replace(
      '{"type":"text","text":"<system>Previous context has been compacted. Here is the compaction output:</system>"},',
      "",
    );
    expect(plain).not.toBe(text);
    expect(kimiCliCodec.toCommon(kimiCliCodec.parse(plain)).messages[1]?.content[0]?.type).toBe(
      "text",
    );
  });
  it("shell-read-error.jsonl: a result with Kimi CLI's error prefix is an error, others are not", () => {
    const text = readFileSync(path.join(directory, "shell-read-error.jsonl"), "utf8");
    const results = kimiCliCodec
      .toCommon(kimiCliCodec.parse(text))
      .messages.flatMap((message) => message.content)
      .flatMap((block) => (block.type === "tool_result" ? [block.isError] : []));
    expect(results).toEqual([false, false, true]);
  });
  it("the stored session gets its id, work dir, title, start and linked subagent from its directory", async () => {
    const transcript = kimiCliCodec.toCommon(
      await store.load("4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90"),
    );
    expect(transcript.meta).toEqual({
      id: "4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90",
      timestamp: "2026-06-09T10:13:20.250Z",
      cwd: "/home/dev/hello",
      title: "Explain main.py",
    });
    expect(
      transcript.subagents?.map(({ id, toolUseId, agentType }) => ({ id, toolUseId, agentType })),
    ).toEqual([{ id: "a1b2c3d4", toolUseId: "Agent:0", agentType: "coder" }]);
    // Control: the same file read alone knows none of it.
    const alone = kimiCliCodec.toCommon(
      kimiCliCodec.parse(
        readFileSync(await store.locate("4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90"), "utf8"),
      ),
    );
    expect(alone.meta).toEqual({ id: "kimi-cli-session", timestamp: "1970-01-01T00:00:00.000Z" });
    expect(alone.subagents).toBeUndefined();
  });
});
