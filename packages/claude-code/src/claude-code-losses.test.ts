// Every loss code the codec can report is prefixed claude_code., listed in
// claudeCodeLosses, and produced by a case below (reading or writing): the
// table's keys are exactly the listed codes, so a new code needs a case.
import type { Block, Json, Message, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeCodeLosses } from "./claude-code-losses.js";
import { reportMissingSubagents } from "./claude-code-subagent-files.js";

const at = "2026-01-01T00:00:00.000Z";
const sessionId = "00000000-0000-4000-8000-0000000000cc";

function writing(
  messages: Message[],
  extra: Partial<Transcript> = {},
  meta: Partial<Transcript["meta"]> = {},
) {
  return (): Warning[] => {
    const warnings: Warning[] = [];
    const transcript: Transcript = {
      meta: { id: sessionId, timestamp: at, ...meta },
      messages,
      ...extra,
    };
    claudeCodeCodec.fromCommon(transcript, { onWarning: (warning) => warnings.push(warning) });
    return warnings;
  };
}

function reading(lines: Record<string, Json>[]) {
  return (): Warning[] => {
    const warnings: Warning[] = [];
    const text = lines.map((line) => JSON.stringify(line)).join("\n");
    claudeCodeCodec.toCommon(claudeCodeCodec.parse(text), {
      onWarning: (warning) => warnings.push(warning),
    });
    return warnings;
  };
}

const user = (content: Block[], fields: Partial<Message> = {}): Message => ({
  role: "user",
  content,
  timestamp: at,
  ...fields,
});
const assistant = (content: Block[], fields: Partial<Message> = {}): Message => ({
  role: "assistant",
  content,
  timestamp: at,
  ...fields,
});
const call: Block = { type: "tool_use", id: "t1", tool: { name: "Raw", toolName: "x", input: {} } };
const result = (content: Json = "ok"): Block => ({
  type: "tool_result",
  toolUseId: "t1",
  content,
  isError: false,
});

let n = 0;
function line(fields: Record<string, Json>): Record<string, Json> {
  n += 1;
  const uuid = `cc000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
  return { parentUuid: null, isSidechain: false, sessionId, uuid, timestamp: at, ...fields };
}
const userLine = (content: Json, fields: Record<string, Json> = {}) =>
  line({ type: "user", message: { role: "user", content }, ...fields });

const cases: Record<string, () => Warning[]> = {
  "claude_code.foreign-session-id": writing([], {}, { id: "T-not-a-uuid" }),
  "claude_code.thinking-dropped": writing([assistant([{ type: "thinking", text: "unsigned" }])]),
  "claude_code.thinking-encrypted-dropped": writing([
    assistant([{ type: "thinking", text: "t", signature: "s", encrypted: "e" }]),
  ]),
  "claude_code.json-tool-output": writing([assistant([call]), user([result({ a: 1 })])]),
  "claude_code.orphan-tool-use": writing([assistant([call])]),
  "claude_code.orphan-result": writing([user([result()])]),
  "claude_code.result-on-assistant": writing([assistant([call, result()])]),
  "claude_code.user-tool-use": writing([user([call])]),
  "claude_code.user-message-fields": writing([user([{ type: "text", text: "x" }], { model: "m" })]),
  "claude_code.meta-model": writing([], {}, { model: "claude-opus-4-5" }),
  "claude_code.empty-git-branch": writing([], {}, { gitBranch: "" }),
  "claude_code.compaction-history": writing([
    user([{ type: "compaction", summary: "s", history: [user([{ type: "text", text: "h" }])] }]),
  ]),
  "claude_code.compaction-moved": writing([
    user([
      { type: "text", text: "x" },
      { type: "compaction", summary: "s" },
    ]),
  ]),
  "claude_code.assistant-context": writing([assistant([], { context: { kind: "system" } })]),
  "claude_code.subagent-id": writing([], {
    subagents: [
      { id: "same", messages: [] },
      { id: "same", messages: [] },
    ],
  }),
  "claude_code.synthetic-model": writing([assistant([], { model: "<synthetic>" })]),
  "claude_code.usage-extras": writing([
    assistant([], {
      usage: {
        inputTokens: 1,
        outputTokens: 1,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        costUsd: 0.5,
      },
    }),
  ]),
  "claude_code.branch": reading([
    line({
      type: "user",
      message: { role: "user", content: "a" },
      uuid: "b0000000-0000-4000-8000-000000000001",
    }),
    userLine("edited away", { parentUuid: "b0000000-0000-4000-8000-000000000001" }),
    userLine("kept", { parentUuid: "b0000000-0000-4000-8000-000000000001" }),
  ]),
  "claude_code.duplicate-line": reading([
    userLine("a", { uuid: "b0000000-0000-4000-8000-000000000002" }),
    userLine("a", { uuid: "b0000000-0000-4000-8000-000000000002" }),
  ]),
  "claude_code.bookkeeping-lines": reading([userLine("a"), line({ type: "progress", data: {} })]),
  "claude_code.line-dropped": reading([
    userLine("a"),
    line({ type: "attachment", attachment: {} }),
  ]),
  "claude_code.tool-use-result": reading([
    userLine([{ type: "tool_result", tool_use_id: "t", content: "x" }], { toolUseResult: {} }),
  ]),
  "claude_code.compact-metadata": reading([
    line({
      type: "system",
      subtype: "compact_boundary",
      compactMetadata: { trigger: "auto", extra: 1 },
    }),
  ]),
  "claude_code.usage-details": reading([
    line({
      type: "assistant",
      message: {
        role: "assistant",
        content: [],
        usage: {
          input_tokens: 1,
          output_tokens: 1,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
          service_tier: "standard",
        },
      },
    }),
  ]),
  "claude_code.usage-count": reading([
    line({
      type: "assistant",
      message: { role: "assistant", content: [], usage: { input_tokens: 1.5 } },
    }),
  ]),
  "claude_code.unknown-block": reading([userLine([{ type: "document", source: {} }])]),
  "claude_code.malformed-block": reading([userLine([{ type: "text" }])]),
  "claude_code.command-markup": reading([userLine("<command-name>/clear</command-name>")]),
  "claude_code.synthesized-timestamp": reading([{ ...userLine("a"), timestamp: "not a time" }]),
  "claude_code.missing-session-id": reading([
    {
      type: "user",
      uuid: "b0000000-0000-4000-8000-000000000003",
      parentUuid: null,
      message: { role: "user", content: "a" },
    },
  ]),
  // Named by the load, not the codec: a Task result names a subagent whose file is not there.
  "claude_code.subagent-file-missing": () => {
    const warnings: Warning[] = [];
    const text = JSON.stringify(
      userLine([{ type: "tool_result", tool_use_id: "t1", content: "done" }], {
        toolUseResult: { status: "completed", agentId: "a1b2c3" },
      }),
    );
    reportMissingSubagents(claudeCodeCodec.parse(text), "s.jsonl", {
      onWarning: (warning) => warnings.push(warning),
    });
    return warnings;
  },
};

describe("claudeCodeLosses", () => {
  it("lists every code once, each prefixed claude_code. and described", () => {
    const codes = claudeCodeLosses.map((loss) => loss.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const loss of claudeCodeLosses) {
      expect(loss.code).toMatch(/^claude_code\.[a-z-]+$/);
      expect(loss.description.length).toBeGreaterThan(20);
    }
    expect(Object.keys(cases).sort()).toEqual([...codes].sort());
  });
  for (const [code, run] of Object.entries(cases))
    it(`${code} is reported for its case, and only listed codes are`, () => {
      const warnings = run();
      expect(warnings.map((warning) => warning.code)).toContain(code);
      const listed = new Set(claudeCodeLosses.map((loss) => loss.code));
      for (const warning of warnings) expect(listed.has(warning.code), warning.code).toBe(true);
    });
});
