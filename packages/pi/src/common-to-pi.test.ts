import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Block, Message, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { piHarness } from "./pi-harness.js";
import { piSessionId } from "./pi-paths.js";
import { piProject } from "./pi-project.js";
import { commonToolToPi, piToolToCommon } from "./pi-tools.js";

const at = "2026-04-01T10:00:00.000Z";

const sample: Transcript = {
  meta: {
    id: "T-0a1b2c3d-amp",
    timestamp: at,
    cwd: "/repo",
    title: "Sample",
    model: "claude-sonnet-4-5",
    lineage: { harness: "amp", id: "T-0a1b2c3d-amp", txcriptVersion: "0.1.0", convertedAt: at },
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "AGENTS.md says: be brief" }],
      timestamp: at,
      context: { kind: "developer", source: "AGENTS.md" },
    },
    { role: "user", content: [{ type: "text", text: "list files" }], timestamp: at },
    {
      role: "assistant",
      content: [
        { type: "thinking", text: "ls it", signature: "sig", provider: "anthropic" },
        { type: "tool_use", id: "t1", tool: { name: "Bash", input: { command: "ls" } } },
      ],
      timestamp: at,
      model: "claude-sonnet-4-5",
      stopReason: "tool_use",
      usage: {
        inputTokens: 10,
        outputTokens: 5,
        cacheReadInputTokens: 2,
        cacheCreationInputTokens: 1,
        costUsd: 0.5,
      },
    },
    {
      role: "user",
      content: [{ type: "tool_result", toolUseId: "t1", content: "a\nb", isError: false }],
      timestamp: at,
    },
    {
      role: "user",
      content: [{ type: "compaction", summary: "listed files", preTokens: 1234 }],
      timestamp: at,
    },
  ],
};

function lines(transcript: Transcript, options = {}) {
  return piCodec
    .serialize(piCodec.fromCommon(transcript, options))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("fromCommon", () => {
  it("writes a version 3 header, settings entries pi would otherwise append, and one parentId chain of 8-hex ids", () => {
    const [header, ...entries] = lines(sample);
    expect(header).toEqual({
      type: "session",
      version: 3,
      id: "T-0a1b2c3d-amp",
      timestamp: at,
      cwd: "/repo",
    });
    expect(entries.slice(0, 2).map((entry) => entry.type)).toEqual([
      "model_change",
      "thinking_level_change",
    ]);
    expect(entries[0]).toMatchObject({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(entries[1].thinkingLevel).toBe("medium");
    const ids = entries.map((entry) => entry.id);
    expect(ids.every((id) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(entries.map((entry) => entry.parentId)).toEqual([null, ...ids.slice(0, -1)]);
    expect(entries.at(-1)).toMatchObject({ type: "session_info", name: "Sample" });
  });

  it("writes context as an extension message, results as toolResult entries, compaction with nothing kept", () => {
    const entries = lines(sample).slice(1);
    const custom = entries.find((entry) => entry.type === "custom_message");
    expect(custom).toMatchObject({
      customType: "AGENTS.md",
      content: [{ type: "text", text: "AGENTS.md says: be brief" }],
      display: false,
    });
    const result = entries.find((entry) => entry.message?.role === "toolResult");
    expect(result.message).toMatchObject({
      toolCallId: "t1",
      toolName: "bash",
      content: [{ type: "text", text: "a\nb" }],
      isError: false,
    });
    const assistant = entries.find((entry) => entry.message?.role === "assistant").message;
    expect(assistant).toMatchObject({
      api: "anthropic-messages",
      provider: "anthropic",
      stopReason: "toolUse",
      content: [
        { type: "thinking", thinking: "ls it", thinkingSignature: "sig" },
        { type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } },
      ],
      usage: {
        input: 10,
        output: 5,
        cacheRead: 2,
        cacheWrite: 1,
        totalTokens: 18,
        cost: { total: 0.5 },
      },
    });
    const compaction = entries.find((entry) => entry.type === "compaction");
    expect(compaction).toMatchObject({
      summary: "listed files",
      tokensBefore: 1234,
      firstKeptEntryId: compaction.id,
    });
  });

  it("reads its own session back with the lineage and context intact", () => {
    const back = piCodec.toCommon(piCodec.parse(piCodec.serialize(piCodec.fromCommon(sample))));
    expect(back.meta).toEqual(sample.meta);
    expect(back.messages[0]?.context).toEqual({ kind: "developer", source: "AGENTS.md" });
    expect(back.messages.map((message) => message.content)).toEqual(
      sample.messages.map((message) => message.content),
    );
  });

  it("puts the target directory in the header when asked", () => {
    expect(lines(sample, { cwd: "/elsewhere" })[0].cwd).toBe("/elsewhere");
    const { cwd: _, ...meta } = sample.meta;
    expect(Object.hasOwn(lines({ ...sample, meta })[0], "cwd")).toBe(false);
  });

  it("maps ids pi cannot use as a file name, and says so", () => {
    const warnings: Warning[] = [];
    const id = "a/b c";
    const [header] = lines(
      { ...sample, meta: { ...sample.meta, id } },
      { onWarning: (warning: Warning) => warnings.push(warning) },
    );
    expect(header.id).toBe(piSessionId(id));
    expect(header.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(warnings.map((warning) => warning.code)).toContain("pi.foreign-session-id");
  });

  it("streams exactly the text serialize(fromCommon) gives (serializeChunks)", () => {
    const chunks = [...(piHarness.serializeChunks?.(sample, {}) ?? [])];
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join("")).toBe(piCodec.serialize(piCodec.fromCommon(sample)));
  });
});

describe("pi's tools", () => {
  const cases: [string, object, string, object][] = [
    ["read", { path: "a.ts", offset: 3 }, "Read", { file_path: "a.ts", offset: 3 }],
    ["write", { path: "a.ts", content: "x" }, "Write", { file_path: "a.ts", content: "x" }],
    [
      "edit",
      { path: "a.ts", oldText: "x", newText: "y" },
      "Edit",
      { file_path: "a.ts", old_string: "x", new_string: "y" },
    ],
    [
      "edit",
      { path: "a.ts", edits: [{ oldText: "x", newText: "y" }] },
      "MultiEdit",
      { file_path: "a.ts", edits: [{ old_string: "x", new_string: "y" }] },
    ],
    ["bash", { command: "ls" }, "Bash", { command: "ls" }],
  ];
  it.each(cases)("%s %j is %s and back", (name, input, canonical, canonicalInput) => {
    const tool = piToolToCommon(name, input as never);
    expect(tool).toEqual({ name: canonical, input: canonicalInput });
    expect(commonToolToPi(tool)).toEqual({ name, input });
  });
  it("keeps calls whose arguments do not fit exactly as Raw", () => {
    expect(piToolToCommon("bash", { command: "ls", timeout: 5 })).toEqual({
      name: "Raw",
      toolName: "bash",
      input: { command: "ls", timeout: 5 },
    });
    expect(piToolToCommon("read", { path: "a", offset: 1.5 }).name).toBe("Raw");
    expect(piToolToCommon("grep", { pattern: "x" })).toEqual({
      name: "Raw",
      toolName: "grep",
      input: { pattern: "x" },
    });
    // Claude Code's Edit with replace_all has no pi form: it keeps its canonical name.
    expect(
      commonToolToPi({
        name: "Edit",
        input: { file_path: "a", old_string: "x", new_string: "y", replace_all: true },
      }).name,
    ).toBe("Edit");
  });
});

describe("compactions that keep entries", () => {
  const fixtures = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    "../../../fixtures/pi",
  );
  const real = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    "../../../../shared/real/pi",
  );
  const files = [
    path.join(fixtures, "compaction.jsonl"),
    path.join(fixtures, "v1-linear.jsonl"),
    ...(existsSync(real) ? readdirSync(real).map((name) => path.join(real, name)) : []),
  ];
  it.each(files.map((file) => [path.basename(file), file]))(
    "%s keeps what pi kept through a write",
    (_name, file) => {
      const read = piCodec.toCommon(piCodec.parse(readFileSync(file, "utf8")));
      const text = piCodec.serialize(piCodec.fromCommon(read));
      const back = piCodec.toCommon(piCodec.parse(text));
      expect(back).toEqual(piProject(read));
      const histories = (transcript: Transcript) =>
        transcript.messages.flatMap((message) =>
          message.content.flatMap((block) =>
            block.type === "compaction" ? [block.history?.length ?? 0] : [],
          ),
        );
      expect(histories(back)).toEqual(histories(read));
      // And pi is told so: each compaction written with history names an earlier entry to keep from.
      const compactions = text
        .split("\n")
        .filter((line) => line.includes('"type":"compaction"'))
        .map((line) => JSON.parse(line));
      for (const [index, compaction] of compactions.entries())
        expect(compaction.firstKeptEntryId === compaction.id).toBe(
          (histories(read)[index] ?? 0) === 0,
        );
    },
  );

  it("keeps nothing when the kept messages start with a result that joins earlier results", () => {
    const at = "2026-01-01T00:00:00.000Z";
    // One assistant message calls both: each result pairs with an earlier call (pi.orphan-result).
    const call = (...ids: string[]): Message => ({
      role: "assistant",
      content: ids.map((id) => ({
        type: "tool_use",
        id,
        tool: { name: "Bash", input: { command: id } },
      })),
      timestamp: at,
    });
    const result = (id: string, extra: Block[] = []): Message => ({
      role: "user",
      content: [...extra, { type: "tool_result", toolUseId: id, content: "ok", isError: false }],
      timestamp: at,
    });
    const kept = [result("b", [{ type: "thinking", text: "dropped on a user message" }])];
    const transcript: Transcript = {
      meta: { id: "joins", timestamp: at },
      messages: [
        call("a", "b"),
        result("a"),
        ...kept,
        {
          role: "user",
          content: [{ type: "compaction", summary: "s", preTokens: 1, history: kept }],
          timestamp: at,
        },
      ],
    };
    const back = piCodec.toCommon(piCodec.parse(piCodec.serialize(piCodec.fromCommon(transcript))));
    expect(back).toEqual(piProject(transcript));
    const compaction = back.messages.at(-1)?.content[0];
    expect(compaction?.type === "compaction" && compaction.history).toBe(undefined);
  });
});
