import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { ClaudeCodeStore } from "./claude-code-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/claude-code");
const names = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();
/** Sessions laid out as in ~/.claude/projects, each with its 2.x subagent files beside it. */
const store = new ClaudeCodeStore({ root: path.join(directory, "store") });
const storeIds = readdirSync(store.root)
  .filter((name) => name.endsWith(".common.json"))
  .map((name) => name.slice(0, -".common.json".length))
  .sort();

describe("fixtures/claude-code", () => {
  it("holds the scenarios the issues name", () => {
    expect(names).toEqual(
      expect.arrayContaining([
        "split-messages.jsonl",
        "slash-commands.jsonl",
        "summary-title.jsonl",
        "images.jsonl",
        "thinking.jsonl",
        "compaction.jsonl",
        "compaction-missing-parent.jsonl",
      ]),
    );
    expect(storeIds).toEqual(["5e551011-0000-4000-8000-000000000009"]);
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
  for (const id of storeIds) {
    it(`store session ${id}, loaded with its subagent files, converts to its .common.json`, async () => {
      const expected = readFileSync(path.join(store.root, `${id}.common.json`), "utf8");
      const session = await store.load(id);
      expect(session.subagentFiles?.length).toBeGreaterThan(0);
      const transcript = claudeCodeCodec.toCommon(session);
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
});
