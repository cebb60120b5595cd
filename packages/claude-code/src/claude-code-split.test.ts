// The split-message pattern issue 12 names: one API message (one message.id)
// written as three lines with a user line (the first call's result) between
// its parts, each part repeating the usage streamed so far. Usage is
// counted once (the largest part, as ccusage counts it: 107 tokens, not
// 207) and the blocks keep their order. The same lines as a Claude
// stream-json capture read the same through @txcript/stream-json (both use
// @txcript/core/anthropic); stream-json's own test feeds the pattern too.
import type { Json, Message, Usage } from "@txcript/core";
import { usageTotal } from "@txcript/core/anthropic";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";

const session = "5e551011-0000-4000-8000-00000000000b";
const envelope = {
  isSidechain: false,
  userType: "external",
  cwd: "/w",
  sessionId: session,
  version: "2.0.76",
  gitBranch: "",
};
const uuid = (n: number) => `cb000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const usage = (input: number, output: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: output,
});

function assistant(n: number, content: Json[], counts: Json, stop: string | null) {
  return {
    parentUuid: uuid(n - 1),
    ...envelope,
    message: {
      model: "claude-sonnet-4-5",
      id: "msg_01SplitPatternAAAAAAAAA",
      type: "message",
      role: "assistant",
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: counts,
    },
    requestId: "req_011SplitPatternAAAAAAA",
    type: "assistant",
    uuid: uuid(n),
    timestamp: `2026-03-03T10:00:0${n}.000Z`,
  };
}

const lines = [
  {
    parentUuid: null,
    ...envelope,
    type: "user",
    message: { role: "user", content: "read a and b" },
    uuid: uuid(1),
    timestamp: "2026-03-03T10:00:01.000Z",
  },
  assistant(2, [{ type: "text", text: "Reading both." }], usage(100, 0), null),
  assistant(
    3,
    [{ type: "tool_use", id: "toolu_a", name: "Read", input: { file_path: "/w/a" } }],
    usage(100, 0),
    null,
  ),
  {
    parentUuid: uuid(3),
    ...envelope,
    type: "user",
    message: {
      role: "user",
      content: [{ tool_use_id: "toolu_a", type: "tool_result", content: "A" }],
    },
    uuid: uuid(4),
    timestamp: "2026-03-03T10:00:04.000Z",
  },
  assistant(
    5,
    [{ type: "tool_use", id: "toolu_b", name: "Read", input: { file_path: "/w/b" } }],
    usage(100, 7),
    "tool_use",
  ),
  {
    parentUuid: uuid(5),
    ...envelope,
    type: "user",
    message: {
      role: "user",
      content: [{ tool_use_id: "toolu_b", type: "tool_result", content: "B" }],
    },
    uuid: uuid(6),
    timestamp: "2026-03-03T10:00:06.000Z",
  },
];

describe("a split API message with a user line between its parts", () => {
  it("reads as one assistant message: blocks in order, usage counted once", () => {
    const text = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    const { messages } = claudeCodeCodec.toCommon(claudeCodeCodec.parse(text));
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "user"]);
    const merged = messages[1];
    expect(
      merged?.content.map((block) => (block.type === "tool_use" ? block.id : block.type)),
    ).toEqual(["text", "toolu_a", "toolu_b"]);
    expect(merged?.stopReason).toBe("tool_use");
    const expected: Usage = {
      inputTokens: 100,
      outputTokens: 7,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    };
    expect(merged?.usage).toEqual(expected);
    const total = messages.reduce(
      (sum, message) => sum + (message.usage ? usageTotal(message.usage) : 0),
      0,
    );
    expect(total).toBe(107);
    expect(messages[2]?.content).toEqual([
      { type: "tool_result", toolUseId: "toolu_a", content: "A", isError: false },
    ]);
    expect(messages[3]?.content).toEqual([
      { type: "tool_result", toolUseId: "toolu_b", content: "B", isError: false },
    ]);
  });
});

describe("the same pattern as a Claude stream-json capture", () => {
  it("reads with the same usage and the same block order as the session file", async () => {
    const { streamJsonCodec } = await import("@txcript/stream-json");
    const text = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    const session = claudeCodeCodec.toCommon(claudeCodeCodec.parse(text));
    // The stream-json form of each line: the API message with the capture's envelope,
    // after an init line that names Claude Code (its dialect, not Amp's).
    const capture = [
      JSON.stringify({
        type: "system",
        subtype: "init",
        session_id: session.meta.id,
        cwd: "/w",
        tools: [],
        mcp_servers: [],
        claude_code_version: "2.0.76",
      }),
      ...lines.map((line) =>
        JSON.stringify({
          type: line.type,
          message: line.message,
          session_id: session.meta.id,
          parent_tool_use_id: null,
        }),
      ),
      "",
    ].join("\n");
    const stream = streamJsonCodec.toCommon(streamJsonCodec.parse(capture), {
      startTime: new Date("2026-03-03T10:00:00.000Z"),
    });
    const shape = (messages: Message[]) =>
      messages.map((message) => ({
        role: message.role,
        blocks: message.content.map((block) =>
          block.type === "tool_use"
            ? block.id
            : block.type === "tool_result"
              ? `→${block.toolUseId}`
              : block.type,
        ),
        usage: message.usage,
        stopReason: message.stopReason,
      }));
    expect(shape(stream.messages)).toEqual(shape(session.messages));
  });
});
