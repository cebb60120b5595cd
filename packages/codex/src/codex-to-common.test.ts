import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Block, Message, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { codexCodec } from "./codex-codec.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const realDirectory = path.resolve(repoRoot, "../shared/real/codex");
const realNames = existsSync(realDirectory)
  ? readdirSync(realDirectory)
      .filter((name) => name.endsWith(".jsonl"))
      .sort()
  : [];
if (realNames.length === 0)
  console.warn(`SKIPPED the real Codex rollouts: ${realDirectory} is absent`);

function read(text: string): { transcript: Transcript; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const transcript = codexCodec.toCommon(codexCodec.parse(text), {
    onWarning: (warning) => warnings.push(warning),
  });
  return { transcript, warnings };
}

type Loose = Record<string, unknown>;

/** The conversation items of a rollout, counted straight from its JSON (top level only). */
function countItems(text: string) {
  const counts = {
    calls: [] as string[],
    outputs: [] as string[],
    texts: 0,
    reasoning: 0,
    instructions: 0,
  };
  text.split("\n").forEach((lineText, index) => {
    if (lineText.trim() === "") return;
    const line = JSON.parse(lineText) as Loose;
    const payload = (typeof line.payload === "object" ? line.payload : line) as Loose;
    if (index === 0) {
      const base = payload.base_instructions as Loose | undefined;
      if (typeof base?.text === "string" || typeof payload.instructions === "string")
        counts.instructions += 1;
      return;
    }
    if (line.type !== "response_item" && typeof line.payload === "object") return;
    const type = payload.type;
    if (type === "message")
      for (const item of payload.content as Loose[])
        if (item.type === "input_text" || item.type === "output_text") counts.texts += 1;
    if (type === "reasoning") counts.reasoning += 1;
    if (
      ["function_call", "custom_tool_call", "local_shell_call", "tool_search_call"].includes(
        type as string,
      )
    )
      counts.calls.push(payload.call_id as string);
    if (type === "web_search_call") counts.calls.push("web_search");
    if (
      ["function_call_output", "custom_tool_call_output", "tool_search_output"].includes(
        type as string,
      )
    )
      counts.outputs.push(payload.call_id as string);
  });
  return counts;
}

function blocksOf(messages: readonly Message[]): Block[] {
  return messages.flatMap((message) => message.content);
}

describe("real rollouts reach Common whole", () => {
  if (realNames.length === 0) it.skip(`skipped: ${realDirectory} is absent`, () => {});
  for (const name of realNames) {
    it(`${name}: every message, reasoning, call and output, each once`, () => {
      const text = readFileSync(path.join(realDirectory, name), "utf8");
      const counts = countItems(text);
      const { transcript } = read(text);
      const blocks = blocksOf(transcript.messages);
      const uses = blocks.flatMap((block) => (block.type === "tool_use" ? [block] : []));
      const results = blocks.flatMap((block) => (block.type === "tool_result" ? [block] : []));
      expect(uses).toHaveLength(counts.calls.length);
      expect(results).toHaveLength(counts.outputs.length);
      expect(results.map((block) => block.toolUseId)).toEqual(counts.outputs);
      for (const id of counts.calls.filter((call) => call !== "web_search"))
        expect(uses.map((block) => block.id)).toContain(id);
      // Event echoes (user_message, agent_message) add nothing: texts are the message items' only.
      expect(blocks.filter((block) => block.type === "text")).toHaveLength(
        counts.texts + counts.instructions,
      );
      expect(blocks.filter((block) => block.type === "thinking")).toHaveLength(counts.reasoning);
      expect(transcript.messages.length).toBeGreaterThan(2);
    });
  }
});

/** The warnings but those of dropped session keys, turn settings and events (counted in codex-losses.test.ts). */
function conversationLosses<T extends { code: string }>(warnings: readonly T[]): T[] {
  const fields = [
    "codex.session-metadata",
    "codex.turn-settings",
    "codex.event-records",
    "codex.record-fields",
  ];
  return warnings.filter((warning) => !fields.includes(warning.code));
}

describe("a 0.118 exec rollout", () => {
  const name = "codex-0.118.0-exec-legacy.jsonl";
  it.skipIf(!realNames.includes(name))(
    "maps roles, context, reasoning, tools and per-response usage",
    () => {
      const { transcript, warnings } = read(readFileSync(path.join(realDirectory, name), "utf8"));
      expect(conversationLosses(warnings)).toEqual([]);
      expect(transcript.meta).toMatchObject({
        id: "01a232b1-249e-7af3-88de-58d50150feb5",
        cwd: "/home/dev/proj",
        cliVersion: "0.118.0",
        model: "gpt-5.4",
        timestamp: "2026-12-01T17:39:59.885Z",
      });
      const shape = transcript.messages.map((message) => [
        message.role,
        message.context?.kind ?? null,
        message.content.map((block) => block.type).join(","),
      ]);
      expect(shape).toEqual([
        ["user", "system", "text"],
        ["user", "developer", "text,text"],
        ["user", "injected", "text"],
        ["user", null, "text"],
        ["assistant", null, "thinking,tool_use"],
        ["user", null, "tool_result"],
        ["assistant", null, "text"],
      ]);
      expect(transcript.messages[0]?.context).toEqual({
        kind: "system",
        source: "base_instructions",
      });
      expect(transcript.messages[2]?.context).toEqual({
        kind: "injected",
        source: "environment_context",
      });
      const [thinking, call] = transcript.messages[4]?.content ?? [];
      expect(thinking).toEqual({
        type: "thinking",
        text: "**Planning** run echo",
        encrypted: "gAAAAfakeEncryptedBlob==",
        provider: "openai",
      });
      expect(call).toMatchObject({
        type: "tool_use",
        id: "call_1",
        tool: { name: "Raw", toolName: "exec_command" },
      });
      // last_token_usage per response; input_tokens include the cached ones. The repeated count is not added.
      expect(transcript.messages[4]?.usage).toEqual({
        inputTokens: 900,
        outputTokens: 50,
        cacheReadInputTokens: 100,
        cacheCreationInputTokens: 0,
        reasoningOutputTokens: 7,
      });
      expect(transcript.messages[6]?.usage).toEqual({
        inputTokens: 1800,
        outputTokens: 100,
        cacheReadInputTokens: 200,
        cacheCreationInputTokens: 0,
        reasoningOutputTokens: 14,
      });
      expect(transcript.messages[4]?.model).toBe("gpt-5.4");
    },
  );
});

describe("a Codex session written back", () => {
  const name = "codex-0.118.0-exec-legacy.jsonl";
  it.skipIf(!realNames.includes(name))(
    "keeps Codex's base instructions in session_meta, not as a message",
    () => {
      const text = readFileSync(path.join(realDirectory, name), "utf8");
      const original = JSON.parse(text.split("\n")[0] as string).payload.base_instructions
        .text as string;
      const written = codexCodec.serialize(codexCodec.fromCommon(read(text).transcript));
      const lines = written
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines[0].payload.base_instructions).toEqual({ text: original });
      expect(written.split(JSON.stringify(original).slice(1, 200)).length).toBe(2);
      expect(read(written).transcript.messages[0]?.context).toEqual({
        kind: "system",
        source: "base_instructions",
      });
    },
  );
});

describe("a 0.104 rollout with a compaction", () => {
  const name = "rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl";
  it.skipIf(!realNames.includes(name))(
    "keeps the replacement history in the compaction block",
    () => {
      const { transcript } = read(readFileSync(path.join(realDirectory, name), "utf8"));
      const markers = transcript.messages.filter(
        (message) => message.content[0]?.type === "compaction",
      );
      expect(markers).toHaveLength(1);
      const block = markers[0]?.content[0];
      if (block?.type !== "compaction") throw new Error("no compaction block");
      expect(block.summary).toBe("[REDACTED_MESSAGE len=0 sha=e3b0c442]");
      expect(block.history?.length).toBeGreaterThan(3);
      expect(block.history?.[0]?.role).toBe("user");
      // The history before the marker stays in the conversation.
      expect(transcript.messages.indexOf(markers[0] as Message)).toBeGreaterThan(100);
    },
  );
});

describe("eras and odd lines", () => {
  it("reads a 2025 bare-header rollout and names the instructions as system context", () => {
    const text = [
      '{"id":"cf4def41-21e0-4b91-adb4-5397c1492084","timestamp":"2025-09-10T18:58:38.331Z","instructions":"Be brief."}',
      '{"record_type":"state"}',
      '{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}',
      '{"type":"function_call","name":"shell","arguments":"{\\"command\\":[\\"bash\\",\\"-lc\\",\\"ls\\"]}","call_id":"c1"}',
      '{"type":"function_call_output","call_id":"c1","output":"a\\nb"}',
      "",
    ].join("\n");
    const { transcript, warnings } = read(text);
    expect(warnings).toEqual([]);
    expect(transcript.meta).toEqual({
      id: "cf4def41-21e0-4b91-adb4-5397c1492084",
      timestamp: "2025-09-10T18:58:38.331Z",
    });
    expect(transcript.messages.map((message) => message.content)).toEqual([
      [{ type: "text", text: "Be brief." }],
      [{ type: "text", text: "hi" }],
      [{ type: "tool_use", id: "c1", tool: { name: "Bash", input: { command: "ls" } } }],
      [{ type: "tool_result", toolUseId: "c1", content: "a\nb", isError: false }],
    ]);
    expect(codexCodec.serialize(codexCodec.parse(text))).toBe(text);
  });

  it("reads a {session, items} document rollout", () => {
    const text = JSON.stringify({
      session: {
        id: "4e2cd7a1-6fa4-4c4c-9c7e-1d2b3a4f5e6d",
        timestamp: "2025-04-01T10:00:00.000Z",
      },
      items: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] },
      ],
    });
    expect(codexCodec.detect(text)).toBe(true);
    const { transcript } = read(text);
    expect(transcript.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", [{ type: "text", text: "hello" }]],
      ["assistant", [{ type: "text", text: "hi" }]],
    ]);
    expect(codexCodec.serialize(codexCodec.parse(text))).toBe(text);
  });

  it("names unpaired calls and outputs, skipped lines and unmodeled items", () => {
    const text = [
      '{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"019a93b9-f380-7600-98ff-940e6b99603c","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","originator":"x","cli_version":"0.1"}}',
      '{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"x","arguments":"{}","call_id":"lonely"}}',
      "not json",
      '{"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"stray","output":"?"}}',
      '{"timestamp":"2026-01-01T00:00:03.000Z","type":"response_item","payload":{"type":"ghost_snapshot","ghost_commit":{}}}',
    ].join("\n");
    const { transcript, warnings } = read(text);
    expect(
      conversationLosses(warnings)
        .map((warning) => warning.code)
        .sort(),
    ).toEqual([
      "codex.call-without-output",
      "codex.invalid-line",
      "codex.output-without-call",
      "codex.unmodeled-item",
    ]);
    expect(blocksOf(transcript.messages).map((block) => block.type)).toEqual([
      "tool_use",
      "tool_result",
    ]);
    expect(codexCodec.serialize(codexCodec.parse(text))).toBe(text);
  });

  it("refuses a file whose first record is not session metadata, as Codex does", () => {
    for (const text of [
      "",
      '{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{}}',
    ])
      expect(() => codexCodec.parse(text)).toThrow(/session metadata|empty/);
  });
});

describe("usage", () => {
  const rollout = (usage: string) =>
    [
      '{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"019a93b9-f380-7600-98ff-940e6b99603c","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","originator":"x","cli_version":"0.1"}}',
      '{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}}',
      `{"timestamp":"2026-01-01T00:00:02.000Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":${usage}}}}`,
    ].join("\n");

  it("reads a count past 2^53 − 1 as 0, with codex.usage-count", () => {
    const { transcript, warnings } = read(
      rollout(
        '{"input_tokens":9007199254740993,"cached_input_tokens":9007199254740993,"output_tokens":5,"reasoning_output_tokens":9007199254740993}',
      ),
    );
    expect(transcript.messages[0]?.usage).toEqual({
      inputTokens: 0,
      outputTokens: 5,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    });
    expect(conversationLosses(warnings).map((warning) => [warning.code, warning.path])).toEqual([
      ["codex.usage-count", "line 3"],
      ["codex.usage-count", "line 3"],
      ["codex.usage-count", "line 3"],
    ]);
  });

  it("reads safe counts as they are, without a warning (the control)", () => {
    const { transcript, warnings } = read(
      rollout(
        '{"input_tokens":30,"cached_input_tokens":20,"output_tokens":5,"reasoning_output_tokens":2}',
      ),
    );
    expect(transcript.messages[0]?.usage).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      reasoningOutputTokens: 2,
      cacheReadInputTokens: 20,
      cacheCreationInputTokens: 0,
    });
    expect(conversationLosses(warnings)).toEqual([]);
  });
});
