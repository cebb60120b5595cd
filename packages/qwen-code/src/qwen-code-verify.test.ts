// The shipped offline check (qwen-code-verify.ts) with the pinned Qwen Code:
// a session txcript wrote and the store saved is resumed by the real `qwen
// --resume=<id>`, and the request the model receives carries the written
// history (prompts, tool calls and their results). The controls fail: the
// same file moved to another project by its first record's cwd (Qwen Code
// refuses a foreign workspace's session), and a file whose records lost
// their identity fields. The check runs on a copy: the saved file is left
// as it was.
import { promises as fs } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { QwenCodeStore } from "./qwen-code-store.js";
import { qwenCodeProgramCheck, runQwen } from "./qwen-code-verify.js";

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

    it("does not resume an archived session (chats/archive/<id>.jsonl), which is why the store does not list them; the control: the same file in chats/ resumes", async () => {
      const { store, saved, cwd } = await saveSample("archived");
      const good = await check(saved, store.root, cwd);
      expect(good.ok, good.detail).toBe(true);
      const archived = path.join(path.dirname(saved.path), "archive", path.basename(saved.path));
      await fs.mkdir(path.dirname(archived));
      await fs.rename(saved.path, archived);
      const result = await check({ ...saved, path: archived }, store.root, cwd);
      expect(result.ok, result.detail).toBe(false);
      expect(result.detail).toMatch(/No saved session found with ID/);
    }, 200_000);

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

/** The sample with an `agent` call answered, and that agent's conversation as a subagent. */
function withSubagent(transcript: Transcript): Transcript {
  const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 1, second)).toISOString();
  return {
    ...transcript,
    messages: [
      ...transcript.messages,
      { role: "user", content: [{ type: "text", text: "ask a helper-12" }], timestamp: at(0) },
      {
        role: "assistant",
        content: [
          {
            type: "tool_use",
            id: "call_agent_3",
            tool: {
              name: "Task",
              input: {
                description: "look",
                prompt: "look at notes",
                subagent_type: "general-purpose",
              },
            },
          },
        ],
        timestamp: at(1),
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "call_agent_3",
            content: "HELPER-SAID-5",
            isError: false,
          },
        ],
        timestamp: at(4),
      },
      { role: "assistant", content: [{ type: "text", text: "helped" }], timestamp: at(5) },
    ],
    subagents: [
      {
        id: "general-purpose-call_agent_3",
        toolUseId: "call_agent_3",
        agentType: "general-purpose",
        title: "AGENT-DESCRIPTION-8",
        messages: [
          { role: "user", content: [{ type: "text", text: "look at notes" }], timestamp: at(2) },
          {
            role: "assistant",
            content: [{ type: "text", text: "HELPER-SAID-5" }],
            timestamp: at(3),
          },
        ],
      },
    ],
  };
}

/**
 * A model stub whose first answer to the resumed prompt is a `list_agents`
 * call (then "ok" to everything): the tool's result, in the next request, is
 * Qwen Code's own roster of the agents it restored from the session's files.
 */
async function rosterOf(saved: { id: string }, storeRoot: string, cwd: string): Promise<string> {
  // A home of its own holding a copy of the store as its .qwen.
  const home = await fs.mkdtemp(path.join(root, "home-"));
  await fs.mkdir(path.join(home, "tmp"));
  await fs.cp(storeRoot, path.join(home, ".qwen"), { recursive: true });
  const bodies: unknown[] = [];
  let listed = false;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      bodies.push(JSON.parse(text || "{}"));
      const base = {
        id: "chatcmpl-stub",
        created: 1,
        model: "stub-model",
        object: "chat.completion.chunk",
      };
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      const list = !listed && text.includes("roster-please") && !text.includes("memory extraction");
      if (list) listed = true;
      const delta = list
        ? {
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: "call_list",
                type: "function",
                function: { name: "list_agents", arguments: "{}" },
              },
            ],
          }
        : { role: "assistant", content: "ok" };
      const events = [
        { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
        {
          ...base,
          choices: [{ index: 0, delta: {}, finish_reason: list ? "tool_calls" : "stop" }],
          usage,
        },
      ];
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("")}data: [DONE]\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const run = await runQwen(
      bin as string,
      home,
      cwd,
      ["--auth-type", "openai", "--yolo", `--resume=${saved.id}`, "roster-please"],
      origin,
      90_000,
    );
    expect(run.status, run.output).toBe(0);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  for (const body of bodies) {
    const messages = (
      body as { messages?: { role?: string; tool_call_id?: string; content?: unknown }[] }
    ).messages;
    const result = messages?.find(
      (message) => message.role === "tool" && message.tool_call_id === "call_list",
    );
    if (result !== undefined) return JSON.stringify(result.content);
  }
  throw new Error("no request carried the list_agents result");
}

describe.skipIf(bin === undefined)(
  `Qwen Code ${programs.realPrograms.qwen?.version}: a session saved with subagents${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("still resumes with its whole history (the agents' files beside it)", async () => {
      const { store, saved, cwd } = await saveSample("with-agent", withSubagent);
      const agents = path.join(path.dirname(path.dirname(saved.path)), "subagents", saved.id);
      expect((await fs.readdir(agents)).sort()).toEqual([
        "agent-general-purpose-call_agent_3.jsonl",
        "agent-general-purpose-call_agent_3.meta.json",
      ]);
      const result = await check(saved, store.root, cwd);
      expect(result.detail).toBe(
        "resumed the session: the model received 3 prompts, 3 tool calls and 3 results",
      );
      expect(result.ok).toBe(true);
    }, 120_000);

    // Qwen Code restores a session's background agents from subagents/<id>/ on resume and
    // lists them with list_agents; txcript writes its agents as finished foreground ones
    // (isBackgrounded: false), which it keeps but does not restore. Marked background, the
    // written files show that Qwen Code finds them and takes the transcript as the agent's own
    // (can_message: no identity, cwd or missing-transcript block).
    async function backgrounded(label: string, spoil?: (agents: string) => Promise<void>) {
      const { store, saved, cwd } = await saveSample(label, withSubagent);
      const agents = path.join(path.dirname(path.dirname(saved.path)), "subagents", saved.id);
      const metaFile = path.join(agents, "agent-general-purpose-call_agent_3.meta.json");
      const meta = JSON.parse(await fs.readFile(metaFile, "utf8"));
      await fs.writeFile(metaFile, JSON.stringify({ ...meta, isBackgrounded: true }, null, 2));
      await spoil?.(agents);
      return rosterOf(saved, store.root, cwd);
    }

    it("finds the written agent where it looks, and takes its transcript as the agent's own", async () => {
      const roster = await backgrounded("roster");
      expect(roster).toContain('\\"task_id\\":\\"general-purpose-call_agent_3\\"');
      expect(roster).toContain("AGENT-DESCRIPTION-8");
      expect(roster).toContain('\\"can_message\\":true');
    }, 120_000);

    it("the controls: written as is (foreground) it is not restored; with records naming another session it cannot be messaged", async () => {
      const { store, saved, cwd } = await saveSample("foreground", withSubagent);
      expect(await rosterOf(saved, store.root, cwd)).not.toContain("general-purpose-call_agent_3");
      const foreign = await backgrounded("foreign-agent", async (agents) => {
        const file = path.join(agents, "agent-general-purpose-call_agent_3.jsonl");
        const text = await fs.readFile(file, "utf8");
        await fs.writeFile(file, text.replaceAll(saved.id, "99999999-9999-4999-8999-999999999999"));
      });
      expect(foreign).toContain("general-purpose-call_agent_3");
      expect(foreign).toContain('\\"can_message\\":false');
    }, 200_000);
  },
);
