// A user or context message between tool calls and their results (Codex
// injects developer notes there; a prompt typed while tools run lands
// there too) is written after the results (pi.message-order). The unit
// tests read the entries' order; the real pi (offline, a stub model on
// 127.0.0.1) then sends every tool message after its call, and the
// control, the same file with the context entry put back between the call
// and its result, has pi send an orphan tool message.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Message, Transcript, Warning } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { PiStore } from "./pi-store.js";
import { offlineAgentDir, runRpc } from "./test-support/pi-rpc.js";
import { startStubModel } from "./test-support/stub-model.js";

const at = "2026-02-24T10:35:00.000Z";
const call = (id: string): Message["content"][number] => ({
  type: "tool_use",
  id,
  tool: { name: "Bash", input: { command: `echo ${id}` } },
});
const result = (id: string): Message["content"][number] => ({
  type: "tool_result",
  toolUseId: id,
  content: `out ${id}`,
  isError: false,
});
const text = (value: string): Message["content"][number] => ({ type: "text", text: value });

function transcript(messages: Message[]): Transcript {
  return { meta: { id: "order-test", timestamp: at, cwd: "/tmp/order" }, messages };
}

/** What each written entry is, in file order: role or type, and the call id or text. */
function entries(source: Transcript, warnings: Warning[] = []): string[] {
  const session = piCodec.fromCommon(source, { onWarning: (warning) => warnings.push(warning) });
  return piCodec
    .serialize(session)
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((line) => line.type === "message" || line.type === "custom_message")
    .map((line) => {
      if (line.type === "custom_message") return `context ${line.content[0].text}`;
      const message = line.message;
      if (message.role === "toolResult") return `result ${message.toolCallId}`;
      if (message.role === "user") return `user ${message.content[0]?.text}`;
      const calls = message.content.filter((block: { type: string }) => block.type === "toolCall");
      return `assistant ${calls.map((block: { id: string }) => block.id).join(",")}`;
    });
}

const interjected = transcript([
  { role: "user", content: [text("list the files")], timestamp: at },
  { role: "assistant", content: [call("call_a"), call("call_b")], timestamp: at },
  {
    role: "user",
    content: [text("a developer note")],
    timestamp: at,
    context: { kind: "developer" },
  },
  { role: "user", content: [text("typed meanwhile")], timestamp: at },
  { role: "user", content: [result("call_a")], timestamp: at },
  { role: "user", content: [result("call_b")], timestamp: at },
  { role: "assistant", content: [text("done")], timestamp: at },
]);

describe("pi.message-order: messages between calls and their results", () => {
  it("are written after the last result, in their order, with a warning", () => {
    const warnings: Warning[] = [];
    expect(entries(interjected, warnings)).toEqual([
      "user list the files",
      "assistant call_a,call_b",
      "result call_a",
      "result call_b",
      "context a developer note",
      "user typed meanwhile",
      "assistant ",
    ]);
    const moved = warnings.filter((warning) => warning.code === "pi.message-order");
    expect(moved.map((warning) => warning.count)).toEqual([2]);
  });

  it("read back in that order (the law's projection agrees)", () => {
    const read = piCodec.toCommon(
      piCodec.parse(piCodec.serialize(piCodec.fromCommon(interjected))),
    );
    expect(read.messages.map((message) => message.content.map((block) => block.type))).toEqual([
      ["text"],
      ["tool_use", "tool_use"],
      ["tool_result", "tool_result"],
      ["text"],
      ["text"],
      ["text"],
    ]);
  });

  it("stay in place when no result follows them before the next assistant message", () => {
    const warnings: Warning[] = [];
    const unanswered = transcript([
      { role: "assistant", content: [call("call_a")], timestamp: at },
      { role: "user", content: [text("stop that")], timestamp: at },
      { role: "assistant", content: [text("stopped")], timestamp: at },
      { role: "user", content: [result("call_a")], timestamp: at },
    ]);
    expect(entries(unanswered, warnings)).toEqual([
      "assistant call_a",
      "user stop that",
      "assistant ",
      "result call_a",
    ]);
    expect(warnings.filter((warning) => warning.code === "pi.message-order")).toEqual([]);
  });

  it("go before a compaction, which is not moved", () => {
    const compacted = transcript([
      { role: "assistant", content: [call("call_a")], timestamp: at },
      { role: "user", content: [text("meanwhile")], timestamp: at },
      {
        role: "user",
        content: [{ type: "compaction", summary: "so far", preTokens: 9 }],
        timestamp: at,
      },
      { role: "user", content: [result("call_a")], timestamp: at },
    ]);
    expect(entries(compacted)).toEqual(["assistant call_a", "user meanwhile", "result call_a"]);
  });

  it("partial answers: the held messages wait for the last open call", () => {
    const partial = transcript([
      { role: "assistant", content: [call("call_a"), call("call_b")], timestamp: at },
      { role: "user", content: [result("call_a")], timestamp: at },
      { role: "user", content: [text("meanwhile")], timestamp: at },
      { role: "user", content: [result("call_b")], timestamp: at },
    ]);
    expect(entries(partial)).toEqual([
      "assistant call_a,call_b",
      "result call_a",
      "result call_b",
      "user meanwhile",
    ]);
  });
});

const programsModule = new URL("../../../scripts/real-programs.mjs", import.meta.url).href;
const programs = (await import(programsModule)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};
const skipReason = programs.programSkipReason("pi");
const bin = programs.programBin("pi");
if (skipReason !== undefined) console.warn(`SKIPPED pi-message-order real pi: ${skipReason}`);

let temporary: string;
beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-order-"));
});
afterAll(async () => {
  if (temporary !== undefined) await fs.rm(temporary, { recursive: true, force: true });
});

/**
 * The ids of `tool` messages in a chat completions request that do not
 * answer the assistant message right before them (only `tool` messages
 * between): OpenAI's rule, which a user message in between breaks.
 */
function orphanToolMessages(request: Record<string, unknown> | undefined): string[] {
  let open = new Set<string>();
  const orphans: string[] = [];
  for (const message of (request?.messages ?? []) as Record<string, unknown>[]) {
    if (message.role === "tool") {
      if (!open.has(String(message.tool_call_id))) orphans.push(String(message.tool_call_id));
      continue;
    }
    open = new Set();
    if (message.role === "assistant")
      for (const item of (message.tool_calls ?? []) as { id: string }[]) open.add(item.id);
  }
  return orphans;
}

/** Write `interjected`, let `edit` change its lines, and have pi send it with one prompt. */
async function sentRequest(name: string, edit: (lines: string[]) => string[]) {
  const stub = await startStubModel([{ text: "OK" }, { text: "OK (spare)" }]);
  try {
    const { agentDir, home } = await offlineAgentDir(path.join(temporary, name), stub.baseUrl);
    const cwd = path.join(temporary, name, "project");
    await fs.mkdir(cwd, { recursive: true });
    const store = new PiStore({ root: path.join(agentDir, "sessions") });
    const saved = await store.save(piCodec.fromCommon(interjected, { cwd }));
    const lines = (await fs.readFile(saved.path, "utf8")).trimEnd().split("\n");
    await fs.writeFile(saved.path, `${edit(lines).join("\n")}\n`);
    const run = await runRpc(bin as string, {
      sessionArg: saved.id,
      cwd,
      agentDir,
      home,
      commands: [{ type: "prompt", message: "Go on.", until: "agent_end" }],
    });
    expect(run.status, run.stderr).toBe(0);
    return stub.requests[0];
  } finally {
    await stub.close();
  }
}

describe.skipIf(skipReason !== undefined)(
  `pi 0.73.1 sends a message written between calls and results${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    it("with every tool message after its call, and the moved texts sent", async () => {
      const request = await sentRequest("ours", (lines) => lines);
      expect(request).toBeDefined();
      expect(orphanToolMessages(request)).toEqual([]);
      const sent = JSON.stringify(request?.messages);
      expect(sent).toContain("a developer note");
      expect(sent).toContain("typed meanwhile");
    }, 120_000);

    it("control: the context entry put back between the call and its results makes orphans", async () => {
      const request = await sentRequest("control", (lines) => {
        // Move the custom_message right after the assistant entry with the calls, re-chaining parentIds.
        const parsed = lines.map((line) => JSON.parse(line));
        const from = parsed.findIndex((line) => line.type === "custom_message");
        const to = parsed.findIndex((line) => line.message?.role === "toolResult");
        const [moved] = parsed.splice(from, 1);
        parsed.splice(to, 0, moved);
        for (let index = 1; index < parsed.length; index += 1)
          parsed[index].parentId = parsed[index - 1].id ?? null;
        parsed[1].parentId = null;
        return parsed.map((line) => JSON.stringify(line));
      });
      expect(orphanToolMessages(request)).toEqual(["call_a", "call_b"]);
    }, 120_000);
  },
);
