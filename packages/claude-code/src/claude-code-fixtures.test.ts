import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { readSubagentFiles, subagentDirectory } from "./claude-code-subagent-files.js";

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
        "compaction.jsonl",
        "compaction-missing-parent.jsonl",
        "subagents.jsonl",
      ]),
    );
  });
  for (const name of names) {
    // A session's 2.x subagent files sit beside it as in the store: <name>/subagents/agent-*.jsonl.
    it(`${name} (with its subagent files) converts to its .common.json`, async () => {
      const file = path.join(directory, name);
      const text = readFileSync(file, "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
        "utf8",
      );
      expect(claudeCodeCodec.detect(text)).toBe(true);
      const subagentFiles = await readSubagentFiles(subagentDirectory(file));
      const transcript = claudeCodeCodec.toCommon({
        ...claudeCodeCodec.parse(text),
        subagentFiles,
      });
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
});
