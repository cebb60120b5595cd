// Common v2 on Claude Code: context lines, lineage, compaction markers
// written back, and — on every real capture available — every tool call
// and result of the native file reaching Common, none orphaned.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Json, Message, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const realDirectory = path.resolve(repoRoot, "../shared/real/claude-code");
const at = "2026-06-01T12:00:00.000Z";

function roundTrip(transcript: Transcript) {
  const warnings: Warning[] = [];
  const text = claudeCodeCodec.serialize(
    claudeCodeCodec.fromCommon(transcript, { onWarning: (warning) => warnings.push(warning) }),
  );
  const lines = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, Json>);
  return { warnings, lines, back: claudeCodeCodec.toCommon(claudeCodeCodec.parse(text)) };
}

const text = (value: string, fields: Partial<Message> = {}): Message => ({
  role: "user",
  content: [{ type: "text", text: value }],
  timestamp: at,
  ...fields,
});

describe("Common v2 features in a Claude Code session", () => {
  it("writes a Claude Code-shaped v2 transcript without a warning and reads it back equal", () => {
    const transcript: Transcript = {
      meta: {
        id: "0b9d1e8a-7c55-4e21-9f0a-3d2c1b0a9f8e",
        timestamp: at,
        cwd: "/w",
        cliVersion: "2.1.39",
        model: "claude-opus-4-6",
        lineage: { harness: "codex", id: "rollout-1", txcriptVersion: "0.1.0", convertedAt: at },
      },
      messages: [
        text("# AGENTS.md\nbe brief", { context: { kind: "injected", source: "AGENTS.md" } }),
        text("You are a coding agent.", { context: { kind: "system" } }),
        text("hi"),
        {
          role: "assistant",
          content: [{ type: "text", text: "hello" }],
          timestamp: at,
          model: "claude-opus-4-6",
          stopReason: "end_turn",
        },
        {
          role: "user",
          content: [
            { type: "compaction", summary: "we said hello", trigger: "auto", preTokens: 180000 },
          ],
          timestamp: at,
        },
        { role: "user", content: [{ type: "compaction", summary: "" }], timestamp: at },
        text("again"),
      ],
    };
    const { warnings, lines, back } = roundTrip(transcript);
    expect(warnings).toEqual([]);
    expect(back).toEqual(transcript);
    // Native shapes: the lineage on the opening line, isMeta context lines, a boundary per marker.
    expect(lines[0]?.txcriptLineage).toEqual(transcript.meta.lineage);
    expect(lines.filter((line) => line.isMeta === true && line.type === "user")).toHaveLength(2);
    const boundaries = lines.filter((line) => line.subtype === "compact_boundary");
    expect(boundaries.map((line) => line.compactMetadata)).toEqual([
      { trigger: "auto", preTokens: 180000 },
      {},
    ]);
    expect(
      boundaries.every(
        (line) => line.parentUuid === null && typeof line.logicalParentUuid === "string",
      ),
    ).toBe(true);
    expect(
      lines
        .filter((line) => line.isCompactSummary === true)
        .map((line) => (line.message as { content: Json }).content),
    ).toEqual(["we said hello", ""]);
  });

  it("reads isMeta lines and command caveats as injected context", () => {
    const lines = [
      {
        parentUuid: null,
        isSidechain: false,
        sessionId: "s",
        type: "user",
        isMeta: true,
        message: { role: "user", content: "<system-reminder>CLAUDE.md says hi</system-reminder>" },
        uuid: "u1",
        timestamp: at,
      },
      {
        parentUuid: "u1",
        isSidechain: false,
        sessionId: "s",
        type: "user",
        message: { role: "user", content: "typed" },
        uuid: "u2",
        timestamp: at,
      },
    ];
    const read = claudeCodeCodec.toCommon(
      claudeCodeCodec.parse(lines.map((line) => JSON.stringify(line)).join("\n")),
    );
    expect(read.messages.map((message) => message.context)).toEqual([
      { kind: "injected" },
      undefined,
    ]);
  });
});

function realFiles(): string[] {
  try {
    return readdirSync(realDirectory)
      .filter((name) => name.endsWith(".jsonl"))
      .sort();
  } catch {
    return [];
  }
}

function callsAndResults(messages: readonly Message[]) {
  const calls = new Set<string>();
  const results: string[] = [];
  for (const message of messages)
    for (const block of message.content) {
      if (block.type === "tool_use") calls.add(block.id);
      if (block.type === "tool_result") results.push(block.toolUseId);
    }
  return { calls, results };
}

describe.skipIf(realFiles().length === 0)(
  `every real capture in ${realDirectory}${realFiles().length === 0 ? " (absent: skipped)" : ""}`,
  () => {
    for (const name of realFiles())
      it(`${name}: every tool call and result reaches Common, none orphaned`, () => {
        const raw = readFileSync(path.join(realDirectory, name), "utf8");
        const native = raw
          .trimEnd()
          .split("\n")
          .map(
            (line) => JSON.parse(line) as { isSidechain?: boolean; message?: { content?: Json } },
          );
        const nativeCalls: { id: string; side: boolean }[] = [];
        const nativeResults: string[] = [];
        for (const line of native) {
          const content = line.message?.content;
          if (!Array.isArray(content)) continue;
          for (const block of content as { type?: string; id?: string; tool_use_id?: string }[]) {
            if (block.type === "tool_use")
              nativeCalls.push({ id: block.id as string, side: line.isSidechain === true });
            if (block.type === "tool_result") nativeResults.push(block.tool_use_id as string);
          }
        }
        const read = claudeCodeCodec.toCommon(claudeCodeCodec.parse(raw));
        const conversations = [
          read.messages,
          ...(read.subagents ?? []).map((subagent) => subagent.messages),
        ];
        const sideOnly = native.every(
          (line) => line.isSidechain === true || line.message === undefined,
        );
        const results = new Set<string>();
        for (const messages of conversations) {
          const { calls, results: answered } = callsAndResults(messages);
          for (const id of answered) results.add(id);
          // No result is orphaned (command results answer the Command calls reading made of markup).
          expect(answered.filter((id) => !calls.has(id))).toEqual([]);
        }
        const main = callsAndResults(read.messages).calls;
        const everywhere = new Set(
          conversations.flatMap((messages) => [...callsAndResults(messages).calls]),
        );
        for (const call of nativeCalls)
          expect(
            call.side && !sideOnly ? everywhere.has(call.id) : main.has(call.id),
            call.id,
          ).toBe(true);
        for (const id of nativeResults) expect(results.has(id), id).toBe(true);
      });
  },
);
