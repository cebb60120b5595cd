// Subagents both ways: a 2.x session with subagent files in the store →
// the Common document → back into a store gives the subagent files back;
// the inline (1.0.x-style) sidechain form of a single file carries them too.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Json, type Transcript, type Warning } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { ClaudeCodeStore } from "./claude-code-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtureStore = path.join(repoRoot, "fixtures/claude-code/store");
const id = "5e551011-0000-4000-8000-000000000009";
const agentId = "a4f2c1d9e8b7a6c51";

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-claude-subagents-"));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const linesOf = async (file: string) =>
  (await fs.readFile(file, "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, Json>);

/** Every file under `directory`, relative, sorted. */
async function files(directory: string): Promise<string[]> {
  const found = await fs.readdir(directory, { recursive: true, withFileTypes: true });
  return found
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe("Claude Code subagents", () => {
  it("a session with subagent files → Common document → back gives the subagent files back", async () => {
    const source = new ClaudeCodeStore({ root: fixtureStore });
    const read = claudeCodeCodec.toCommon(await source.load(id));
    expect(read.subagents?.map((subagent) => subagent.id)).toEqual([agentId]);
    expect(read.subagents?.[0]).toMatchObject({
      toolUseId: "toolu_01SubTaskAAAAAAAAAAAAAA",
      title: "Find retry logic",
      agentType: "Explore",
    });
    // Through the Common document's text, as `txcript export` / `convert --from common` do.
    const document = commonCodec.serialize(commonCodec.fromCommon(read));
    const common = commonCodec.toCommon(commonCodec.parse(document));
    const warnings: Warning[] = [];
    const native = claudeCodeCodec.fromCommon(common, {
      onWarning: (warning) => warnings.push(warning),
    });
    const target = new ClaudeCodeStore({ root });
    const saved = await target.save(native);
    expect(await files(root)).toEqual([
      `-workspace/${id}.jsonl`,
      `-workspace/${id}/subagents/agent-${agentId}.jsonl`,
    ]);
    expect(saved.path).toBe(path.join(root, "-workspace", `${id}.jsonl`));
    // The session file keeps no sidechain line; the subagent file holds only its own.
    expect((await linesOf(saved.path)).some((line) => line.isSidechain === true)).toBe(false);
    const agentLines = await linesOf(
      path.join(root, "-workspace", id, "subagents", `agent-${agentId}.jsonl`),
    );
    expect(agentLines.every((line) => line.isSidechain === true && line.agentId === agentId)).toBe(
      true,
    );
    // And it reads back as the same conversation and the same subagent.
    const back = claudeCodeCodec.toCommon(await target.load(id));
    expect(back.subagents).toEqual(read.subagents);
    expect(back.messages).toEqual(read.messages);
    // Saving it again without overwrite writes nothing; with it, the files are replaced, and a
    // session that has no subagents any more leaves no stale subagent file behind.
    await expect(target.save(native)).rejects.toMatchObject({ code: "CONFLICT" });
    const { subagents: _, ...without } = common;
    await target.save(claudeCodeCodec.fromCommon(without), { overwrite: true });
    expect(await files(root)).toEqual([`-workspace/${id}.jsonl`]);
    await target.save(native, { overwrite: true });
    // Deleting the session removes its subagent files too.
    await target.delete(id);
    expect(await files(root)).toEqual([]);
  });

  it("writes subagents inline in a single file and reads them back, nested ones too", () => {
    const at = "2026-02-01T00:00:00.000Z";
    const transcript: Transcript = {
      meta: { id: "00000000-0000-4000-8000-00000000aaaa", timestamp: at, cwd: "/w" },
      messages: [
        { role: "user", content: [{ type: "text", text: "go" }], timestamp: at },
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "toolu_task",
              tool: { name: "Raw", toolName: "Task", input: { prompt: "look" } },
            },
          ],
          timestamp: at,
          stopReason: "tool_use",
        },
        {
          role: "user",
          content: [
            { type: "tool_result", toolUseId: "toolu_task", content: "found", isError: false },
          ],
          timestamp: at,
        },
      ],
      subagents: [
        {
          id: "agent one",
          toolUseId: "toolu_task",
          title: "Look",
          agentType: "Explore",
          model: "claude-haiku-4-5",
          messages: [
            { role: "user", content: [{ type: "text", text: "look" }], timestamp: at },
            {
              role: "assistant",
              content: [
                {
                  type: "tool_use",
                  id: "toolu_inner",
                  tool: { name: "Raw", toolName: "Task", input: {} },
                },
              ],
              timestamp: at,
            },
            {
              role: "user",
              content: [
                { type: "tool_result", toolUseId: "toolu_inner", content: "ok", isError: false },
              ],
              timestamp: at,
            },
          ],
          subagents: [{ id: "deep", toolUseId: "toolu_inner", messages: [] }],
        },
        {
          id: "unlinked",
          messages: [{ role: "user", content: [{ type: "text", text: "x" }], timestamp: at }],
        },
      ],
    };
    const warnings: Warning[] = [];
    const text = claudeCodeCodec.serialize(
      claudeCodeCodec.fromCommon(transcript, { onWarning: (warning) => warnings.push(warning) }),
    );
    expect(warnings).toEqual([]);
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, Json>);
    // An id Claude Code could not name a file by gets a derived agentId; the Common id rides along.
    const agentIds = [
      ...new Set(lines.flatMap((line) => (typeof line.agentId === "string" ? [line.agentId] : []))),
    ];
    expect(agentIds).toHaveLength(3);
    expect(agentIds).toContain("deep");
    expect(agentIds).toContain("unlinked");
    expect(agentIds.every((agent) => /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(agent))).toBe(true);
    expect(claudeCodeCodec.toCommon(claudeCodeCodec.parse(text))).toEqual(transcript);
  });
});
