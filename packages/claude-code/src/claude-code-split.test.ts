// The split-message pattern issue 12 names: one API message (one message.id)
// written as three lines with a user line (the first call's result) between
// its parts, each part repeating the usage streamed so far. Usage is
// counted once (the largest part, as ccusage counts it: 107 tokens, not
// 207) and the blocks keep their order. stream-json's Claude dialect feeds
// the same pattern in its own test and must read the same.
import type { Json, Usage } from "@txcript/core";
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
