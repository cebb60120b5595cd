// Regression tests for what the Amp reader used to drop without a word
// (issue 13), each from a small thread of the shape seen in real files, and
// for the Common v2 features the codec carries (lineage) or names (the rest).
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { ampLoss, ampLosses } from "./amp-losses.js";
import { repoRoot } from "./test-support.js";

const base = { id: "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001", created: 1768178184664 };

function read(messages: object[], extra: object = {}) {
  const warnings: Warning[] = [];
  const transcript = ampCodec.toCommon(
    ampCodec.parse(JSON.stringify({ ...base, ...extra, messages })),
    { onWarning: (warning) => warnings.push(warning) },
  );
  return { transcript, warnings };
}

function write(transcript: Transcript) {
  const warnings: Warning[] = [];
  const thread = ampCodec.fromCommon(transcript, {
    onWarning: (warning) => warnings.push(warning),
  });
  return { thread, warnings, codes: warnings.map((warning) => warning.code) };
}

const codes = (warnings: Warning[]) => warnings.map((warning) => warning.code);

function convertWith(document: object, warnings: Warning[]) {
  return ampCodec.toCommon(ampCodec.parse(JSON.stringify(document)), {
    onWarning: (warning) => warnings.push(warning),
  });
}

describe("reading what used to vanish silently", () => {
  it("maps tool results by status, error text from the message or the reason", () => {
    const runs = [
      { status: "done", result: "text" },
      { status: "done", result: { output: "x", exitCode: 1 } },
      { status: "done" },
      { status: "error", error: { message: "boom" } },
      { status: "error", error: "plain" },
      { status: "rejected-by-user", reason: "no" },
      { status: "cancelled" },
    ];
    const warnings: Warning[] = [];
    const transcript = convertWith(
      {
        ...base,
        messages: [
          {
            role: "user",
            content: runs.map((run, index) => ({
              type: "tool_result",
              toolUseID: `t${index}`,
              run,
            })),
          },
        ],
      },
      warnings,
    );
    expect(
      transcript.messages[0]?.content.map(
        (block) => block.type === "tool_result" && [block.content, block.isError],
      ),
    ).toEqual([
      ["text", false],
      [{ output: "x", exitCode: 1 }, false],
      [null, false],
      ["boom", true],
      ["plain", true],
      ["no", true],
      ["tool run cancelled", true],
    ]);
    // One report line per kind, never "2 × a rejected-by-user run" when one was cancelled.
    expect(
      warnings
        .filter((warning) => warning.code === "amp.status-collapsed")
        .map((warning) => [warning.message, warning.count, warning.path]),
    ).toEqual([
      [
        'a "rejected-by-user" tool run became an error result',
        1,
        "$.messages[0].content[5].run.status",
      ],
      ['a "cancelled" tool run became an error result', 1, "$.messages[0].content[6].run.status"],
    ]);
  });
  it("reads a plain-string content as one text block", () => {
    const { transcript, warnings } = read([
      { role: "user", content: "hello", meta: { sentAt: 1768178184700 } },
      {
        role: "assistant",
        content: "hi there",
        state: { type: "complete", stopReason: "end_turn" },
      },
    ]);
    expect(transcript.messages.map((message) => message.content)).toEqual([
      [{ type: "text", text: "hello" }],
      [{ type: "text", text: "hi there" }],
    ]);
    expect(warnings).toEqual([]);
  });
  it("names content that is neither blocks nor a string", () => {
    const { transcript, warnings } = read([
      { role: "user", content: { text: "x" } },
      { role: "user" },
    ]);
    expect(transcript.messages.map((message) => message.content)).toEqual([[], []]);
    expect(warnings.map((warning) => [warning.code, warning.message, warning.path])).toEqual([
      [
        "amp.unmodeled-content",
        "a message with an object content carries no blocks",
        "$.messages[0]",
      ],
      ["amp.unmodeled-content", "a message with no content carries no blocks", "$.messages[1]"],
    ]);
  });
  it("carries an error state as the error stop reason and names every other state", () => {
    const { transcript, warnings } = read([
      { role: "assistant", content: [], state: { type: "error" } },
      { role: "assistant", content: [], state: { type: "streaming" } },
      { role: "assistant", content: [], state: { type: "paused" } },
      { role: "assistant", content: [] },
    ]);
    expect(transcript.messages.map((message) => message.stopReason)).toEqual([
      "error",
      undefined,
      undefined,
      undefined,
    ]);
    expect(warnings.map((warning) => [warning.code, warning.message])).toEqual([
      ["amp.assistant-state", "an unfinished (streaming) assistant turn has no stop reason"],
      ["amp.assistant-state", 'an assistant turn with a "paused" state has no stop reason'],
      ["amp.assistant-state", "an assistant turn with no state has no stop reason"],
    ]);
  });
  it("names usage without inputTokens, keeping its model and time", () => {
    const { transcript, warnings } = read([
      {
        role: "assistant",
        content: [],
        state: { type: "complete", stopReason: "end_turn" },
        usage: { model: "m", timestamp: "2026-01-12T01:00:00.000Z", outputTokens: 5 },
      },
    ]);
    expect(transcript.messages[0]).toMatchObject({
      model: "m",
      timestamp: "2026-01-12T01:00:00.000Z",
    });
    expect(transcript.messages[0]?.usage).toBeUndefined();
    expect(codes(warnings)).toEqual(["amp.incomplete-usage"]);
  });
  it("names a usage with only a model and a time not at all (it holds no counts)", () => {
    const { warnings } = read([
      {
        role: "assistant",
        content: [],
        state: { type: "complete", stopReason: "end_turn" },
        usage: { model: "m", timestamp: "2026-01-12T01:00:00.000Z" },
      },
    ]);
    expect(warnings).toEqual([]);
  });
  it("names cache counts that are not integers, read as 0", () => {
    const { transcript, warnings } = read([
      {
        role: "assistant",
        content: [],
        state: { type: "complete", stopReason: "end_turn" },
        usage: {
          inputTokens: 1,
          outputTokens: 2,
          cacheReadInputTokens: 2.5,
          cacheCreationInputTokens: "3",
        },
      },
    ]);
    expect(transcript.messages[0]?.usage).toEqual({
      inputTokens: 1,
      outputTokens: 2,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    });
    expect(warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ["amp.inexact-cache-count", "$.messages[0].usage.cacheReadInputTokens"],
      ["amp.inexact-cache-count", "$.messages[0].usage.cacheCreationInputTokens"],
    ]);
  });
  it("names usage on a user message", () => {
    const { transcript, warnings } = read([
      { role: "user", content: [], usage: { inputTokens: 1, outputTokens: 2 } },
    ]);
    expect(transcript.messages[0]?.usage).toBeUndefined();
    expect(codes(warnings)).toEqual(["amp.user-usage"]);
  });
  it("reads a time without a zone as UTC, as core's readTimestamp does", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      const { transcript } = read([
        {
          role: "assistant",
          content: [],
          state: { type: "complete", stopReason: "end_turn" },
          usage: { timestamp: "2026-01-12T01:02:03", inputTokens: 1, outputTokens: 1 },
        },
      ]);
      // In a zone west of UTC, so a local-time reading would be hours off.
      expect(new Date("2026-05-01T09:30:00").getTimezoneOffset()).not.toBe(0);
      expect(transcript.messages[0]?.timestamp).toBe("2026-01-12T01:02:03.000Z");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

const lineage = {
  harness: "claude_code",
  id: "0a1b2c3d-0000-4000-8000-000000000001",
  txcriptVersion: "0.1.0",
  convertedAt: "2026-05-01T10:00:00.000Z",
};

const conversation: Transcript = {
  meta: { id: base.id, timestamp: "2026-05-01T09:00:00.000Z", model: "m", lineage },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "go" }],
      timestamp: "2026-05-01T09:00:01.000Z",
    },
    {
      role: "assistant",
      content: [
        {
          type: "tool_use",
          id: "t1",
          tool: { name: "Task", input: { prompt: "p", description: "d" } },
        },
      ],
      timestamp: "2026-05-01T09:00:02.000Z",
      model: "m",
      stopReason: "tool_use",
    },
    {
      role: "user",
      content: [{ type: "tool_result", toolUseId: "t1", content: "done", isError: false }],
      timestamp: "2026-05-01T09:00:02.000Z",
    },
  ],
};

describe("Common v2 in an Amp thread", () => {
  it("carries lineage under the top-level txcriptLineage key, with no warning", () => {
    const { thread, warnings } = write(conversation);
    expect(warnings).toEqual([]);
    expect(thread.document.txcriptLineage).toEqual(lineage);
    const back = read(thread.document.messages as object[], {
      txcriptLineage: thread.document.txcriptLineage,
    });
    expect(back.transcript.meta.lineage).toEqual(lineage);
    expect(codes(back.warnings)).not.toContain("amp.thread-metadata");
  });
  it("keeps a malformed lineage key in the thread only, as thread metadata", () => {
    const { transcript, warnings } = read([], {
      txcriptLineage: { ...lineage, convertedAt: "soon" },
    });
    expect(transcript.meta.lineage).toBeUndefined();
    expect(codes(warnings)).toEqual(["amp.thread-metadata"]);
  });
  it("names each v2 feature it cannot write", () => {
    const { thread, codes: written } = write({
      ...conversation,
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "You are terse." }],
          timestamp: "2026-05-01T09:00:00.500Z",
          context: { kind: "system" },
        },
        ...conversation.messages,
        {
          role: "user",
          content: [
            { type: "compaction", summary: "we did things", trigger: "auto", preTokens: 9 },
          ],
          timestamp: "2026-05-01T09:00:03.000Z",
        },
        {
          role: "assistant",
          content: [],
          timestamp: "2026-05-01T09:00:04.000Z",
          model: "m",
          stopReason: "end_turn",
          usage: {
            inputTokens: 1,
            outputTokens: 2,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
            reasoningOutputTokens: 1,
            costUsd: 0.01,
          },
        },
      ],
      subagents: [{ id: "agent-1", toolUseId: "t1", messages: [] }],
    });
    expect(new Set(written)).toEqual(
      new Set(["amp.context", "amp.compaction", "amp.subagents", "amp.usage-extras"]),
    );
    expect(thread.document.messages[4]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "we did things" }],
    });
  });
  it("warns when Meta.model is absent but a turn names one (the reader would add it)", () => {
    const { lineage: _, model: __, ...meta } = conversation.meta;
    expect(write({ ...conversation, meta }).codes).toEqual(["amp.meta-model"]);
  });
});

describe("ampLosses", () => {
  const sources = [
    "amp-to-common.ts",
    "amp-read-blocks.ts",
    "common-to-amp.ts",
    "amp-codec.ts",
  ].map((file) => readFileSync(path.join(repoRoot, "packages/amp/src", file), "utf8"));
  it("lists every code the codec can emit, each prefixed amp. and used by the codec", () => {
    const lossKeys = new Set(
      sources
        .join("\n")
        .match(/(?<![-\w])losses\.(\w+)/g)
        ?.map((used) => used.slice(7)),
    );
    expect([...lossKeys].sort()).toEqual(Object.keys(ampLoss).sort());
    for (const loss of ampLosses) expect(loss.code).toMatch(/^amp\.[a-z-]+$/);
    expect(new Set(ampLosses.map((loss) => loss.code)).size).toBe(ampLosses.length);
  });
  it("explains every code in docs/formats/amp.md and the README", () => {
    const doc = readFileSync(path.join(repoRoot, "docs/formats/amp.md"), "utf8");
    const readme = readFileSync(path.join(repoRoot, "packages/amp/README.md"), "utf8");
    for (const { code } of ampLosses) {
      expect(doc, code).toContain(`| \`${code}\` |`);
      expect(readme, code).toContain(`\`${code}\``);
    }
  });
});
