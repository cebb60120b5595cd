import type { Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { ampThreadId } from "./amp-ids.js";

const usage = {
  inputTokens: 10,
  outputTokens: 20,
  cacheReadInputTokens: 30,
  cacheCreationInputTokens: 40,
};

const transcript: Transcript = {
  meta: {
    id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    timestamp: "2026-01-10T10:00:00.000Z",
    cwd: "/work/100% dir #1",
    gitBranch: "main",
    cliVersion: "2.0.76",
    model: "claude-opus-4-5-20251101",
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "hi" }],
      timestamp: "2026-01-10T10:00:01.000Z",
    },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_1", tool: { name: "Bash", input: { command: "ls" } } },
      ],
      timestamp: "2026-01-10T10:00:02.000Z",
      model: "claude-opus-4-5-20251101",
      stopReason: "tool_use",
      usage,
    },
    {
      role: "user",
      content: [{ type: "tool_result", toolUseId: "toolu_1", content: { code: 2 }, isError: true }],
      timestamp: "2026-01-10T10:00:03.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "x" }],
      timestamp: "2026-01-10T10:00:04.000Z",
    },
    {
      role: "assistant",
      content: [],
      timestamp: "2026-01-10T10:00:05.000Z",
      stopReason: "aborted",
      usage,
    },
  ],
};

function write(input: Transcript, warnings: Warning[] = []) {
  return ampCodec.fromCommon(input, { onWarning: (warning) => warnings.push(warning) })
    .document as unknown as {
    [key: string]: unknown;
    messages: Record<string, unknown>[];
  };
}

describe("ampCodec.fromCommon", () => {
  it("writes the fields the era-matched CLI needs, in Amp's shape", () => {
    const document = write(transcript);
    expect(Object.keys(document)).toEqual([
      "v",
      "id",
      "created",
      "agentMode",
      "nextMessageId",
      "env",
      "messages",
      "usageLedger",
    ]);
    expect(document.id).toBe(ampThreadId(transcript.meta.id));
    expect(document.created).toBe(Date.parse("2026-01-10T10:00:00.000Z"));
    expect(document.nextMessageId).toBe(5);
    expect(document.env).toEqual({
      initial: {
        trees: [
          {
            uri: "file:///work/100%25%20dir%20%231",
            displayName: "100% dir #1",
            repository: { type: "git", ref: "refs/heads/main" },
          },
        ],
        platform: { clientVersion: "2.0.76" },
      },
    });
    expect(document.messages.map((message) => message.messageId)).toEqual([0, 1, 2, 3, 4]);
    expect(document.messages.map((message) => message.state)).toEqual([
      undefined,
      { type: "complete", stopReason: "tool_use" },
      undefined,
      { type: "complete", stopReason: "end_turn" },
      { type: "cancelled" },
    ]);
    expect(document.messages[0]?.meta).toEqual({ sentAt: Date.parse("2026-01-10T10:00:01.000Z") });
    expect(document.messages[2]?.meta).toBeUndefined();
    expect(document.messages[1]?.content).toEqual([
      { type: "tool_use", complete: true, id: "toolu_1", name: "Bash", input: { cmd: "ls" } },
    ]);
    expect(document.messages[2]?.content).toEqual([
      {
        type: "tool_result",
        toolUseID: "toolu_1",
        run: { status: "error", error: { message: '{"code":2}' } },
      },
    ]);
  });
  it("derives usageLedger events from assistant usage, pointing at their messages", () => {
    const { usageLedger } = write(transcript) as unknown as {
      usageLedger: { events: Record<string, unknown>[] };
    };
    expect(
      usageLedger.events.map((event) => [
        event.toMessageId,
        event.fromMessageId,
        event.tokens,
        event.model,
      ]),
    ).toEqual([
      [1, 0, { input: 10, output: 20 }, "claude-opus-4-5-20251101"],
      [4, 0, { input: 10, output: 20 }, "unknown"],
    ]);
  });
  it("reports each loss that occurs", () => {
    const warnings: Warning[] = [];
    write(
      {
        ...transcript,
        messages: [
          ...transcript.messages,
          {
            role: "user",
            content: [{ type: "tool_use", id: "t2", tool: { name: "LS", input: { path: "/" } } }],
            timestamp: "2026-01-10T10:00:06.000Z",
            model: "m",
          },
        ],
      },
      warnings,
    );
    expect(warnings.map((warning) => warning.code).sort()).toEqual([
      "amp.inherited-timestamp",
      "amp.inherited-timestamp",
      "amp.stateless-assistant",
      "amp.structured-error",
      "amp.thread-id",
      "amp.tool-spelling",
      "amp.user-attribution",
    ]);
    expect(ampCodec.losses.map((loss) => loss.code)).toEqual(
      expect.arrayContaining([...new Set(warnings.map((warning) => warning.code))]),
    );
  });
  it("writes modern shell_command when asked", () => {
    const document = ampCodec.fromCommon(transcript, { toolEra: "modern" }).document as unknown as {
      messages: { content: { name?: string }[] }[];
    };
    expect(document.messages[1]?.content[0]?.name).toBe("shell_command");
  });
  it("writes a local-first file: 2-space JSON without a final newline", () => {
    const text = ampCodec.serialize(ampCodec.fromCommon(transcript));
    expect(text.startsWith('{\n  "v": 1,\n  "id": "T-')).toBe(true);
    expect(text.endsWith("}")).toBe(true);
  });
});
