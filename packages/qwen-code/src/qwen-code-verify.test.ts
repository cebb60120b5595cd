// The shipped offline check (qwen-code-verify.ts) with the pinned Qwen Code:
// a session txcript wrote and the store saved is resumed by the real `qwen
// --resume=<id>`, and the request the model receives carries the written
// history (prompts, tool calls and their results). The controls fail: the
// same file moved to another project by its first record's cwd (Qwen Code
// refuses a foreign workspace's session), and a file whose records lost
// their identity fields. The check runs on a copy: the saved file is left
// as it was.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { QwenCodeStore } from "./qwen-code-store.js";
import { qwenCodeProgramCheck } from "./qwen-code-verify.js";

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
  realPrograms: Record<string, { version: string }>;
};
const skipAll = process.env.TXCRIPT_SKIP_REAL_PROGRAMS === "1";
const bin = skipAll ? undefined : programs.programBin("qwen");
const reason = skipAll
  ? "TXCRIPT_SKIP_REAL_PROGRAMS=1"
  : bin === undefined
    ? (programs.programSkipReason("qwen") ?? "not installed")
    : "";
if (bin === undefined) console.warn(`SKIPPED the Qwen Code offline check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-qwen-verify-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function sample(cwd: string): Transcript {
  const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
  return {
    meta: { id: "claude-session-7", timestamp: at(0), cwd, title: "a written session" },
    messages: [
      { role: "user", content: [{ type: "text", text: "please read notes-31" }], timestamp: at(0) },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading it." },
          {
            type: "tool_use",
            id: "call_read_1",
            tool: { name: "Read", input: { file_path: `${cwd}/notes.txt` } },
          },
        ],
        timestamp: at(1),
        model: "qwen3-coder-plus",
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "call_read_1",
            content: "NOTES-CONTENT-42",
            isError: false,
          },
        ],
        timestamp: at(2),
      },
      {
        role: "assistant",
        content: [
          {
            type: "tool_use",
            id: "call_bash_2",
            tool: { name: "Bash", input: { command: "false" } },
          },
        ],
        timestamp: at(3),
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "call_bash_2", content: "exit 1", isError: true },
        ],
        timestamp: at(4),
      },
      { role: "assistant", content: [{ type: "text", text: "All done-77" }], timestamp: at(5) },
      { role: "user", content: [{ type: "text", text: "second prompt-58" }], timestamp: at(6) },
      { role: "assistant", content: [{ type: "text", text: "noted" }], timestamp: at(7) },
    ],
  };
}

/** The sample with an empty assistant message and an empty text before its first call (a fitted copy's reasoning-only turn, once its reasoning was cut). */
function withEmptyModelTurns(transcript: Transcript): Transcript {
  const [prompt, call, ...rest] = transcript.messages;
  if (prompt === undefined || call === undefined) throw new Error("the sample has a call");
  return {
    ...transcript,
    messages: [
      prompt,
      { role: "assistant", content: [], timestamp: call.timestamp },
      { ...call, content: [{ type: "text", text: "" }, ...call.content] },
      ...rest,
    ],
  };
}

async function saveSample(label: string, edit = (transcript: Transcript) => transcript) {
  const cwd = path.join(root, label, "project");
  await fs.mkdir(cwd, { recursive: true });
  const store = new QwenCodeStore({ root: path.join(root, label, "qwen") });
  const saved = await store.save(qwenCodeCodec.fromCommon(edit(sample(cwd))));
  return { store, saved, cwd };
}

const check = (saved: { id: string; path: string }, storeRoot: string, cwd: string) =>
  qwenCodeProgramCheck.run(saved, { bin: bin as string, storeRoot, cwd, timeoutMs: 90_000 });

describe.skipIf(bin === undefined)(
  `Qwen Code ${programs.realPrograms.qwen?.version}: qwenCodeProgramCheck${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("resumes a session txcript wrote and sends the model its whole history", async () => {
      const { store, saved, cwd } = await saveSample("good");
      const before = await fs.readFile(saved.path);
      const result = await check(saved, store.root, cwd);
      expect(result.detail).toBe(
        "resumed the session: the model received 2 prompts, 2 tool calls and 2 results",
      );
      expect(result.ok).toBe(true);
      expect((await fs.readFile(saved.path)).equals(before)).toBe(true);
    }, 120_000);

    it("sends the calls of a session with an empty assistant message and an empty text (neither is written)", async () => {
      const { store, saved, cwd } = await saveSample("empty-turns", withEmptyModelTurns);
      const result = await check(saved, store.root, cwd);
      expect(result.detail).toBe(
        "resumed the session: the model received 2 prompts, 2 tool calls and 2 results",
      );
      expect(result.ok).toBe(true);
    }, 120_000);

    it("drops the first call when a model record with no parts precedes it (the control: why neither is written)", async () => {
      const { store, saved, cwd } = await saveSample("empty-parts", withEmptyModelTurns);
      const lines = (await fs.readFile(saved.path, "utf8")).split("\n");
      const first = JSON.parse(lines[0] as string) as Record<string, unknown>;
      const second = JSON.parse(lines[1] as string) as Record<string, unknown>;
      // A model record with no parts between the prompt and the call, as the writer wrote before.
      const empty = {
        ...second,
        uuid: "00000000-0000-4000-8000-000000000001",
        parentUuid: first.uuid,
        message: { role: "model", parts: [] },
      };
      second.parentUuid = empty.uuid;
      lines.splice(1, 1, JSON.stringify(empty), JSON.stringify(second));
      await fs.writeFile(saved.path, lines.join("\n"));
      const result = await check(saved, store.root, cwd);
      expect(result.ok, result.detail).toBe(false);
      expect(result.detail).toContain("call_read_1");
    }, 120_000);

    it("fails when the first record names another project (the control)", async () => {
      const { store, saved, cwd } = await saveSample("foreign");
      const text = await fs.readFile(saved.path, "utf8");
      await fs.writeFile(
        saved.path,
        text.replaceAll(JSON.stringify(cwd), JSON.stringify("/somewhere/else")),
      );
      const result = await check(saved, store.root, cwd);
      expect(result.ok, result.detail).toBe(false);
      // Qwen Code refuses the session (it belongs to another workspace) before any request.
      expect(result.detail).toMatch(/^exit 1: missing no request carried the prompt/);
      expect(result.detail).toMatch(/not found|different workspace|No saved session/i);
    }, 120_000);

    it("fails when the records lost their identity fields (the control)", async () => {
      const { store, saved, cwd } = await saveSample("broken");
      const text = await fs.readFile(saved.path, "utf8");
      await fs.writeFile(saved.path, text.replaceAll('"parentUuid":', '"parent":'));
      const result = await check(saved, store.root, cwd);
      expect(result.ok, result.detail).toBe(false);
      expect(result.detail).toMatch(/missing/);
    }, 120_000);
  },
);
