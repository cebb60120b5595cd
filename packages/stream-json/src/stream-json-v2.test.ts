// The Anthropic split-message rule shared with @txcript/claude-code, and
// what each dialect does with the Common v2 features: lineage and
// compaction markers carried where a capture has a place, the rest named.
import type { Transcript, Warning } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { streamJsonCodec, streamJsonHarness } from "./index.js";

const session = "4f1d2c3b-8a9e-4b7c-9d0e-1f2a3b4c5d6e";

function line(value: object): string {
  return JSON.stringify({ session_id: session, parent_tool_use_id: null, ...value });
}

function assistantPart(content: object[], usage: object, stop: string | null = null): string {
  return line({
    type: "assistant",
    message: {
      id: "msg_split",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage,
    },
  });
}

function read(text: string) {
  const warnings: Warning[] = [];
  const transcript = streamJsonCodec.toCommon(streamJsonCodec.parse(text), {
    startTime: new Date("2026-05-01T12:00:00.000Z"),
    onWarning: (warning) => warnings.push(warning),
  });
  return { transcript, warnings };
}

describe("one API message over several lines, a user line between its parts", () => {
  // The pattern of packages/claude-code/src/claude-code-split.test.ts: parts
  // A[text], A[tool_use a], user[result a], A[tool_use b] of one message.id,
  // each repeating the usage so far.
  const text = [
    line({
      type: "system",
      subtype: "init",
      cwd: "/w",
      tools: [],
      mcp_servers: [],
      claude_code_version: "2.0.76",
    }),
    assistantPart([{ type: "text", text: "Two calls." }], { input_tokens: 100, output_tokens: 0 }),
    assistantPart([{ type: "tool_use", id: "a", name: "Bash", input: { command: "ls" } }], {
      input_tokens: 100,
      output_tokens: 0,
    }),
    line({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "a", content: "x", is_error: false }],
      },
    }),
    assistantPart(
      [{ type: "tool_use", id: "b", name: "Bash", input: { command: "pwd" } }],
      { input_tokens: 100, output_tokens: 7 },
      "tool_use",
    ),
    "",
  ].join("\n");

  it("is one assistant message with the blocks in order, then the result", () => {
    const { transcript } = read(text);
    expect(transcript.messages.map((message) => message.role)).toEqual(["assistant", "user"]);
    expect(
      transcript.messages[0]?.content.map((block) =>
        block.type === "tool_use" ? block.id : block.type,
      ),
    ).toEqual(["text", "a", "b"]);
    expect(transcript.messages[0]?.stopReason).toBe("tool_use");
    expect(transcript.messages[1]?.content[0]).toMatchObject({ toolUseId: "a" });
  });
  it("counts the usage once: the part with the largest total (107, not 200 or 207)", () => {
    expect(read(text).transcript.messages[0]?.usage).toEqual({
      inputTokens: 100,
      outputTokens: 7,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    });
  });
  it("does not merge Amp lines, which carry no message.id", () => {
    const amp = text
      .replaceAll('"id":"msg_split",', "")
      .replace('"cwd"', '"agent_mode":"smart","cwd"');
    const messages = streamJsonCodec.toCommon(streamJsonCodec.parse(amp), {
      dialect: "amp",
    }).messages;
    expect(messages.map((message) => message.role)).toEqual([
      "assistant",
      "assistant",
      "user",
      "assistant",
    ]);
  });
});

const lineage = {
  harness: "amp",
  id: "T-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  txcriptVersion: "0.1.0",
  convertedAt: "2026-05-01T10:00:00.000Z",
};

const base: Transcript = {
  meta: { id: session, timestamp: "2026-05-01T09:00:00.000Z", model: "m", lineage },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "go" }],
      timestamp: "2026-05-01T09:00:01.000Z",
    },
    {
      role: "user",
      content: [{ type: "compaction", summary: "", trigger: "manual", preTokens: 1200 }],
      timestamp: "2026-05-01T09:00:02.000Z",
    },
  ],
};

function write(transcript: Transcript, dialect: "claude" | "amp") {
  const warnings: Warning[] = [];
  const text = streamJsonCodec.serialize(
    streamJsonCodec.fromCommon(transcript, { dialect, onWarning: (w) => warnings.push(w) }),
  );
  return { text, codes: warnings.map((warning) => warning.code) };
}

describe("Common v2 in a capture", () => {
  it("Claude: carries lineage in init and a compaction marker as a compact_boundary line, warning of nothing", () => {
    const { text, codes } = write(base, "claude");
    expect(codes).toEqual([]);
    const lines = text
      .trimEnd()
      .split("\n")
      .map((item) => JSON.parse(item));
    expect(lines[0]).toMatchObject({ subtype: "init", txcript_lineage: lineage });
    expect(lines[2]).toMatchObject({
      type: "system",
      subtype: "compact_boundary",
      compact_metadata: { trigger: "manual", pre_tokens: 1200 },
    });
    expect(read(text).transcript).toEqual(base);
  });
  it("Amp: carries lineage, names the compaction marker it cannot write", () => {
    const { text, codes } = write(
      { ...base, meta: { ...base.meta, model: undefined } as never },
      "amp",
    );
    expect(codes).toEqual(["stream_json.compaction"]);
    expect(read(text).transcript.meta.lineage).toEqual(lineage);
  });
  it("names what it cannot write: summaries, context marks, subagents, usage extras, user attribution", () => {
    const { codes } = write(
      {
        ...base,
        messages: [
          { ...base.messages[0], context: { kind: "injected", source: "AGENTS.md" } } as never,
          {
            role: "user",
            content: [
              { type: "compaction", summary: "what happened", trigger: "auto", preTokens: 5 },
            ],
            timestamp: "2026-05-01T09:00:02.000Z",
          },
          {
            role: "assistant",
            content: [],
            timestamp: "2026-05-01T09:00:03.000Z",
            model: "m",
            usage: {
              inputTokens: 1,
              outputTokens: 1,
              cacheReadInputTokens: 0,
              cacheCreationInputTokens: 0,
              costUsd: 0.5,
            },
          },
          { role: "user", content: [], timestamp: "2026-05-01T09:00:04.000Z", model: "m" },
        ],
        subagents: [{ id: "agent-1", messages: [] }],
      },
      "claude",
    );
    expect(new Set(codes)).toEqual(
      new Set([
        "stream_json.context",
        "stream_json.compaction",
        "stream_json.usage-extras",
        "stream_json.user-attribution",
        "stream_json.subagents",
      ]),
    );
  });
});

describe("subagents in the Claude dialect", () => {
  const call = (id: string) => ({
    type: "tool_use" as const,
    id,
    tool: { name: "Task" as const, input: { description: "d", prompt: "p" } },
  });
  const exchange = (text: string, calls: string[] = []): Transcript["messages"] => [
    { role: "user", content: [{ type: "text", text }], timestamp: "2026-05-01T09:00:05.000Z" },
    {
      role: "assistant",
      content: calls.map(call),
      timestamp: "2026-05-01T09:00:06.000Z",
      stopReason: "tool_use",
    },
  ];
  const nested: Transcript = {
    meta: { id: session, timestamp: "2026-05-01T09:00:00.000Z" },
    messages: exchange("main", ["toolu_a"]),
    subagents: [
      {
        id: "toolu_a",
        toolUseId: "toolu_a",
        messages: exchange("first level", ["toolu_b"]),
        subagents: [{ id: "toolu_b", toolUseId: "toolu_b", messages: exchange("second level") }],
      },
    ],
  };
  it("writes each subagent's lines with parent_tool_use_id and reads the nesting back, warning of nothing", () => {
    const { text, codes } = write(nested, "claude");
    expect(codes).toEqual([]);
    const parents = text
      .trimEnd()
      .split("\n")
      .map((item) => JSON.parse(item).parent_tool_use_id);
    expect(parents.filter((parent) => parent !== null && parent !== undefined)).toEqual([
      "toolu_a",
      "toolu_a",
      "toolu_b",
      "toolu_b",
    ]);
    expect(read(text).transcript).toEqual(nested);
  });
  it("names what the lines cannot hold: another id, an agent type, an unlinked subagent", () => {
    const warnings: Warning[] = [];
    const text = streamJsonCodec.serialize(
      streamJsonCodec.fromCommon(
        {
          ...nested,
          subagents: [
            { id: "agent-1", toolUseId: "toolu_a", agentType: "Explore", messages: exchange("x") },
            { id: "agent-2", messages: exchange("y") },
          ],
        },
        { dialect: "claude", onWarning: (warning) => warnings.push(warning) },
      ),
    );
    expect(warnings.map((warning) => [warning.code, warning.message, warning.path])).toEqual([
      ["stream_json.subagents", "a subagent's id became its call's id", "$.subagents[0]"],
      [
        "stream_json.subagents",
        "a subagent's title, agent type or model was not written",
        "$.subagents[0]",
      ],
      ["stream_json.subagents", "a subagent linked to no call was not written", "$.subagents[1]"],
      ["stream_json.subagents", "the subagents read back nested otherwise", "$.subagents"],
    ]);
    expect(read(text).transcript.subagents?.map((subagent) => subagent.id)).toEqual(["toolu_a"]);
  });
  it("the Amp dialect writes none, and says so", () => {
    expect(write(nested, "amp").codes).toContain("stream_json.subagents");
  });
});

describe("line times through core's readTimestamp", () => {
  it("reads a timestamp without a zone as UTC, never as local time", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const text = `${line({
        type: "user",
        message: { role: "user", content: "hi" },
        timestamp: "2026-05-01T09:30:00",
      })}\n`;
      // In a zone west of UTC, so a local-time reading would be hours off.
      expect(new Date("2026-05-01T09:30:00").getTimezoneOffset()).not.toBe(0);
      expect(read(text).transcript.messages[0]?.timestamp).toBe("2026-05-01T09:30:00.000Z");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe("streamJsonHarness.serializeChunks", () => {
  it("concatenates to serialize(fromCommon(t)) in both dialects", () => {
    fc.assert(
      fc.property(
        transcriptArbitrary(),
        fc.constantFrom("claude", "amp"),
        (transcript, dialect) => {
          const options = { dialect };
          const chunks = [...(streamJsonHarness.serializeChunks?.(transcript, options) ?? [])];
          expect(chunks.join("")).toBe(
            streamJsonCodec.serialize(streamJsonCodec.fromCommon(transcript, options)),
          );
        },
      ),
      lawParameters(100),
    );
  });
  it("streams a long capture in several pieces of whole lines", () => {
    const long: Transcript = {
      meta: { id: session, timestamp: "2026-05-01T09:00:00.000Z" },
      messages: Array.from({ length: 3000 }, (_, index) => ({
        role: "user" as const,
        content: [{ type: "text" as const, text: `m${index}` }],
        timestamp: "2026-05-01T09:00:01.000Z",
      })),
    };
    const chunks = [...(streamJsonHarness.serializeChunks?.(long, { dialect: "claude" }) ?? [])];
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.endsWith("\n")).toBe(true);
    expect(chunks.join("")).toBe(
      streamJsonCodec.serialize(streamJsonCodec.fromCommon(long, { dialect: "claude" })),
    );
  });
});
