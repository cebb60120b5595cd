import { describe, expect, it } from "vitest";
import type { Json } from "../json.js";
import type { Message, Usage } from "../model.js";
import {
  type AnthropicDrop,
  AnthropicSplitMessages,
  anthropicBlockToCommon,
  anthropicContentToCommon,
  anthropicStopReasonToCommon,
  anthropicThinkingOf,
  anthropicUsageToCommon,
  commonBlockToAnthropic,
  commonUsageToAnthropic,
  isAnthropicStopReason,
  isAnthropicToolResultContent,
  largestUsage,
  toolResultContentToAnthropic,
  usageTotal,
} from "./index.js";

function read(block: Json) {
  const drops: AnthropicDrop[] = [];
  const read = anthropicBlockToCommon(block, 3, { onDrop: (drop) => drops.push(drop) });
  return { read, drops };
}

const usage = (input: number, output: number, cacheRead = 0, cacheCreation = 0): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadInputTokens: cacheRead,
  cacheCreationInputTokens: cacheCreation,
});

describe("content blocks, read", () => {
  it("reads each kind Common models", () => {
    expect(read({ type: "text", text: "hi" }).read).toEqual({ type: "text", text: "hi" });
    expect(read({ type: "thinking", thinking: "t", signature: "s" }).read).toEqual({
      type: "thinking",
      text: "t",
      signature: "s",
      provider: "anthropic",
    });
    expect(read({ type: "redacted_thinking", data: "d" }).read).toEqual({
      type: "thinking",
      text: "",
      encrypted: "d",
      provider: "anthropic",
    });
    expect(
      read({ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }).read,
    ).toEqual({
      type: "tool_use",
      id: "t1",
      tool: { name: "Bash", input: { command: "ls" } },
    });
    expect(
      read({ type: "tool_result", tool_use_id: "t1", content: "ok", is_error: true }).read,
    ).toEqual({
      type: "tool_result",
      toolUseId: "t1",
      content: "ok",
      isError: true,
    });
    expect(
      read({ type: "image", source: { type: "base64", media_type: "image/png", data: "AA" } }).read,
    ).toEqual({ type: "image", source: { type: "base64", mediaType: "image/png", data: "AA" } });
  });

  it('fills what the API may leave out: input {}, content "", is_error false', () => {
    expect(read({ type: "tool_use", id: "t", name: "x" }).read).toEqual({
      type: "tool_use",
      id: "t",
      tool: { name: "Raw", toolName: "x", input: {} },
    });
    expect(read({ type: "tool_result", tool_use_id: "t", content: null }).read).toEqual({
      type: "tool_result",
      toolUseId: "t",
      content: "",
      isError: false,
    });
  });

  it("keeps a thinking signature as written, and marks the provider only when asked", () => {
    expect(read({ type: "thinking", thinking: "", signature: "" }).read).toEqual({
      type: "thinking",
      text: "",
      signature: "",
      provider: "anthropic",
    });
    expect(
      anthropicBlockToCommon({ type: "thinking", thinking: "t" }, 0, { provider: false }),
    ).toEqual({
      type: "thinking",
      text: "t",
    });
  });

  it("reports a block missing a required field as malformed, with its index and key", () => {
    for (const [block, key] of [
      [{ type: "text" }, "text"],
      [{ type: "thinking", signature: "s" }, "thinking"],
      [{ type: "redacted_thinking" }, "data"],
      [{ type: "tool_use", id: "", name: "x" }, "id"],
      [{ type: "tool_use", id: "t" }, "name"],
      [{ type: "tool_result", content: "x" }, "tool_use_id"],
      [{ text: "no type" }, "type"],
    ] as const) {
      const { read: got, drops } = read(block);
      expect(got).toBeUndefined();
      expect(drops).toEqual([expect.objectContaining({ reason: "malformed", index: 3, key })]);
    }
    expect(read("text").drops).toEqual([
      expect.objectContaining({ reason: "malformed", index: 3 }),
    ]);
  });

  it("reports kinds Common does not model as unsupported", () => {
    for (const block of [
      { type: "document", source: {} },
      { type: "server_tool_use", id: "s", name: "web_search", input: {} },
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
    ]) {
      const { read: got, drops } = read(block);
      expect(got).toBeUndefined();
      expect(drops).toEqual([
        expect.objectContaining({ reason: "unsupported", index: 3, type: block.type }),
      ]);
    }
  });

  it("reads string content as one text block and skips dropped blocks of an array", () => {
    expect(anthropicContentToCommon("plain")).toEqual([{ type: "text", text: "plain" }]);
    expect(anthropicContentToCommon(undefined)).toEqual([]);
    const drops: AnthropicDrop[] = [];
    expect(
      anthropicContentToCommon([{ type: "document" }, { type: "text", text: "b" }], {
        onDrop: (drop) => drops.push(drop),
      }),
    ).toEqual([{ type: "text", text: "b" }]);
    expect(drops.map((drop) => drop.index)).toEqual([0]);
  });

  it("takes the tool and result mapping from the caller", () => {
    const blocks = anthropicContentToCommon(
      [
        { type: "tool_use", id: "t", name: "n", input: 1 },
        { type: "tool_result", tool_use_id: "t", content: "{}" },
      ],
      {
        tool: (name, input) => ({ name: "Raw", toolName: `x-${name}`, input }),
        resultContent: (content) => (content === "{}" ? {} : content),
      },
    );
    expect(blocks).toEqual([
      { type: "tool_use", id: "t", tool: { name: "Raw", toolName: "x-n", input: 1 } },
      { type: "tool_result", toolUseId: "t", content: {}, isError: false },
    ]);
  });
});

describe("the tool_result content rule", () => {
  it("allows a string or a non-empty array of plain text and base64 image blocks", () => {
    const image = {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "AA" },
    };
    expect(isAnthropicToolResultContent("")).toBe(true);
    expect(isAnthropicToolResultContent([{ type: "text", text: "a" }, image])).toBe(true);
    for (const content of [
      [],
      { a: 1 },
      1,
      null,
      [{ type: "text", text: "a", cache_control: {} }],
      [{ type: "text", text: 1 }],
      [{ type: "image", source: { type: "url", url: "u" } }],
      [{ ...image, source: { ...image.source, extra: 1 } }],
      ["a"],
    ] as Json[])
      expect(isAnthropicToolResultContent(content), JSON.stringify(content)).toBe(false);
  });

  it("flattens anything else to its JSON text and says so", () => {
    expect(toolResultContentToAnthropic("x")).toEqual({ content: "x", flattened: false });
    expect(toolResultContentToAnthropic({ a: [1] })).toEqual({
      content: '{"a":[1]}',
      flattened: true,
    });
  });
});

describe("content blocks, written", () => {
  it("writes what it reads back to the same Common block", () => {
    const blocks: Json[] = [
      { type: "text", text: "a" },
      { type: "thinking", thinking: "t", signature: "s" },
      { type: "redacted_thinking", data: "d" },
      { type: "tool_use", id: "t", name: "Bash", input: { command: "ls" } },
      {
        type: "tool_result",
        tool_use_id: "t",
        content: [{ type: "text", text: "o" }],
        is_error: false,
      },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AA" } },
    ];
    const common = anthropicContentToCommon(blocks);
    expect(common.map((block) => commonBlockToAnthropic(block))).toEqual(blocks);
  });

  it("has no block for a compaction marker", () => {
    expect(commonBlockToAnthropic({ type: "compaction", summary: "s" })).toBeUndefined();
  });

  it("sends back only thinking the API accepts", () => {
    expect(anthropicThinkingOf({ type: "thinking", text: "t" })).toBeUndefined();
    expect(
      anthropicThinkingOf({ type: "thinking", text: "t", signature: "s", provider: "openai" }),
    ).toBeUndefined();
    expect(anthropicThinkingOf({ type: "thinking", text: "x", encrypted: "e" })).toBeUndefined();
    expect(anthropicThinkingOf({ type: "thinking", text: "", encrypted: "e" })).toEqual({
      block: { type: "redacted_thinking", data: "e" },
      encryptedDropped: false,
    });
    expect(
      anthropicThinkingOf({ type: "thinking", text: "t", signature: "s", encrypted: "e" }),
    ).toEqual({
      block: { type: "thinking", thinking: "t", signature: "s" },
      encryptedDropped: true,
    });
  });
});

describe("usage", () => {
  it("reads the four counts and names what did not fit", () => {
    expect(
      anthropicUsageToCommon({
        input_tokens: 1,
        output_tokens: 2.5,
        cache_read_input_tokens: 3,
        service_tier: "standard",
      }),
    ).toEqual({
      usage: usage(1, 0, 3, 0),
      absent: ["cache_creation_input_tokens"],
      invalid: ["output_tokens"],
      details: ["service_tier"],
    });
    expect(anthropicUsageToCommon(null)).toBeUndefined();
  });

  it("writes the four counts back", () => {
    const counts = usage(1, 2, 3, 4);
    expect(anthropicUsageToCommon(commonUsageToAnthropic(counts))?.usage).toEqual(counts);
  });

  it("keeps the part with the largest total, the earlier on a tie", () => {
    const first = usage(10, 1);
    const tie = usage(1, 10);
    expect(usageTotal(usage(1, 2, 3, 4))).toBe(10);
    expect(largestUsage(first, tie)).toBe(first);
    expect(largestUsage(first, usage(10, 2))).toEqual(usage(10, 2));
    expect(largestUsage(undefined, first)).toBe(first);
    expect(largestUsage(first, undefined)).toBe(first);
  });
});

describe("stop reasons", () => {
  it("reads any non-empty string verbatim, nothing for null or empty", () => {
    expect(anthropicStopReasonToCommon("tool_use")).toBe("tool_use");
    expect(anthropicStopReasonToCommon("harness_word")).toBe("harness_word");
    expect(anthropicStopReasonToCommon(null)).toBeUndefined();
    expect(anthropicStopReasonToCommon("")).toBeUndefined();
    expect(isAnthropicStopReason("pause_turn")).toBe(true);
    expect(isAnthropicStopReason("aborted")).toBe(false);
  });
});

describe("a message split over lines", () => {
  it("merges parts across a user line between them, keeping block order and counting usage once", () => {
    const split = new AnthropicSplitMessages();
    const messages: Message[] = [];
    const timestamp = "2026-01-01T00:00:00.000Z";
    const parts = [
      { id: "msg_1", blocks: [{ type: "text", text: "looking" }], usage: usage(100, 0) },
      {
        id: "msg_1",
        blocks: [{ type: "tool_use", id: "a", name: "Read", input: {} }],
        usage: usage(100, 0),
      },
      { user: [{ type: "tool_result", tool_use_id: "a", content: "one" }] },
      {
        id: "msg_1",
        blocks: [{ type: "tool_use", id: "b", name: "Read", input: {} }],
        usage: usage(100, 7),
        stop: "tool_use",
      },
      { id: "msg_2", blocks: [{ type: "text", text: "done" }], usage: usage(5, 5) },
    ];
    for (const part of parts) {
      if ("user" in part) {
        messages.push({
          role: "user",
          content: anthropicContentToCommon(part.user as Json),
          timestamp,
        });
        continue;
      }
      const read = {
        content: anthropicContentToCommon(part.blocks as Json),
        usage: part.usage,
        stopReason: anthropicStopReasonToCommon(part.stop),
      };
      if (split.merge(part.id, read)) continue;
      const message: Message = {
        role: "assistant",
        content: [...read.content],
        timestamp,
        usage: read.usage,
      };
      messages.push(message);
      split.started(part.id, message);
    }
    expect(messages.map((message) => message.role)).toEqual(["assistant", "user", "assistant"]);
    const [first] = messages as [Message];
    expect(
      first.content.map((block) => (block.type === "tool_use" ? block.id : block.type)),
    ).toEqual(["text", "a", "b"]);
    expect(first.usage).toEqual(usage(100, 7));
    expect(first.stopReason).toBe("tool_use");
    const total = messages.reduce(
      (sum, message) => sum + (message.usage ? usageTotal(message.usage) : 0),
      0,
    );
    expect(total).toBe(117);
  });

  it("never merges parts without an id", () => {
    const split = new AnthropicSplitMessages();
    const message: Message = {
      role: "assistant",
      content: [],
      timestamp: "2026-01-01T00:00:00.000Z",
    };
    split.started(undefined, message);
    split.started("", message);
    expect(split.merge(undefined, { content: [] })).toBe(false);
    expect(split.merge("", { content: [] })).toBe(false);
  });
});
