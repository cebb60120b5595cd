// Every field the Codex reader drops is named (issue 31, item 4): extra
// session_meta keys, turn settings and event-only records each come out as a
// loss whose count is the number of dropped fields, counted here by a counter
// written from docs/formats/codex.md ("Reading", the losses table), on the
// real rollouts in ../shared/real/codex and on small rollouts written below;
// and the streaming reader gives the same warnings (codex-stream.test.ts
// checks that on every real rollout too).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { convertStreamed, type Json, type JsonObject, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { codexCodec } from "./codex-codec.js";
import { codexHarness } from "./codex-harness.js";
import { realDirectory } from "./test-support/codex-programs.js";

type Counts = Record<string, number>;

const codes = [
  "codex.session-metadata",
  "codex.parent-thread",
  "codex.turn-settings",
  "codex.event-records",
  "codex.record-fields",
];

function read(text: string): Warning[] {
  const warnings: Warning[] = [];
  codexCodec.toCommon(codexCodec.parse(text), { onWarning: (warning) => warnings.push(warning) });
  return warnings;
}

/** The warnings of the four codes, summed by code. */
function emitted(warnings: readonly Warning[]): Counts {
  const counts: Counts = {};
  for (const warning of warnings)
    if (codes.includes(warning.code))
      counts[warning.code] = (counts[warning.code] ?? 0) + warning.count;
  return counts;
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The dropped fields of a JSON-lines rollout, by code, from the format page:
 * the first session_meta reads id, timestamp, cwd, git.branch, cli_version,
 * instructions, base_instructions and txcript_lineage (a subagent's parent
 * link — parent_thread_id, agent_nickname, agent_role and a source naming a
 * thread spawn — is codex.parent-thread, once); a later session_meta is one
 * field; a turn_context reads model; event_msg token_count and the UI echoes
 * (user_message, agent_message, agent_reasoning, agent_reasoning_raw_content,
 * item_completed, context_compacted) are read or echo, any other event is
 * one; so is each bookkeeping line (world_state, token_usage_record,
 * inter_agent_communication[_metadata], retained_context,
 * security_risk_score, realtime_item). A bare 2025 header is a session_meta.
 * codex.record-fields: each non-null key of an envelope but timestamp, type
 * and payload; of a response item (enveloped or bare) each non-null key its
 * type does not read (the page's item table; a call's id is read when it has
 * no call_id); of a token_count each non-null key but type and info, and of
 * its info each but last_token_usage.
 */
function expectedCounts(text: string): Counts {
  const counts: Counts = {};
  const add = (code: string, count = 1) => {
    if (count > 0) counts[code] = (counts[code] ?? 0) + count;
  };
  const read = [
    "id",
    "timestamp",
    "cwd",
    "git",
    "cli_version",
    "instructions",
    "base_instructions",
    "txcript_lineage",
  ];
  const echoes = [
    "token_count",
    "user_message",
    "agent_message",
    "agent_reasoning",
    "agent_reasoning_raw_content",
    "item_completed",
    "context_compacted",
  ];
  const bookkeeping = [
    "world_state",
    "token_usage_record",
    "inter_agent_communication",
    "inter_agent_communication_metadata",
    "retained_context",
    "security_risk_score",
    "realtime_item",
  ];
  // The page's "Response items read" table: the keys each item type reads.
  const itemReads: Record<string, string[]> = {
    message: ["type", "role", "content"],
    reasoning: ["type", "summary", "content", "encrypted_content"],
    function_call: ["type", "namespace", "name", "arguments", "call_id"],
    custom_tool_call: ["type", "namespace", "name", "input", "call_id"],
    local_shell_call: ["type", "action", "call_id"],
    web_search_call: ["type", "action", "id"],
    tool_search_call: ["type", "arguments", "call_id"],
    function_call_output: ["type", "call_id", "output"],
    custom_tool_call_output: ["type", "call_id", "output"],
    tool_search_output: ["type", "call_id", "tools"],
  };
  const nonNull = (object: JsonObject, skip: (key: string) => boolean) =>
    Object.keys(object).filter((key) => !skip(key) && object[key] !== null).length;
  const item = (payload: JsonObject) => {
    const reads = itemReads[payload.type as string];
    if (reads === undefined) return;
    const callId = typeof payload.call_id === "string";
    const callType = ["function_call", "custom_tool_call", "local_shell_call"].includes(
      payload.type as string,
    );
    add(
      "codex.record-fields",
      nonNull(payload, (key) => reads.includes(key) || (key === "id" && callType && !callId)),
    );
  };
  let sessions = 0;
  const session = (payload: JsonObject) => {
    sessions += 1;
    if (sessions > 1) {
      add("codex.session-metadata");
      return;
    }
    const thread = isObject(payload.source) && isObject(payload.source.subagent);
    const child = typeof payload.parent_thread_id === "string" || thread;
    for (const key of Object.keys(payload)) {
      if (read.includes(key)) continue;
      const link = ["parent_thread_id", "agent_nickname", "agent_role"].includes(key);
      if (child && (link || (key === "source" && thread))) continue;
      add("codex.session-metadata");
    }
    if (isObject(payload.git))
      add(
        "codex.session-metadata",
        Object.keys(payload.git).filter((key) => key !== "branch").length,
      );
    if (child) add("codex.parent-thread");
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let value: Json;
    try {
      value = JSON.parse(line) as Json;
    } catch {
      continue;
    }
    if (!isObject(value)) continue;
    const payload = value.payload;
    if (!isObject(payload)) {
      // 2025 pre-envelope: the header is the line without a type or record_type.
      if (
        sessions === 0 &&
        value.type === undefined &&
        value.record_type === undefined &&
        "id" in value
      )
        session(value);
      else if (typeof value.type === "string" && value.record_type === undefined) item(value);
      continue;
    }
    add(
      "codex.record-fields",
      nonNull(value, (key) => ["timestamp", "type", "payload"].includes(key)),
    );
    if (value.type === "response_item") item(payload);
    if (value.type === "event_msg" && payload.type === "token_count") {
      add(
        "codex.record-fields",
        nonNull(payload, (key) => key === "type" || key === "info"),
      );
      if (isObject(payload.info))
        add(
          "codex.record-fields",
          nonNull(payload.info, (key) => key === "last_token_usage"),
        );
    }
    if (value.type === "session_meta") session(payload);
    else if (value.type === "turn_context")
      add("codex.turn-settings", Object.keys(payload).filter((key) => key !== "model").length);
    else if (value.type === "event_msg") {
      if (!echoes.includes(payload.type as string)) add("codex.event-records");
    } else if (bookkeeping.includes(value.type as string)) add("codex.event-records");
  }
  return counts;
}

const realFiles = existsSync(path.join(realDirectory, "codex"))
  ? readdirSync(path.join(realDirectory, "codex"))
      .filter((name) => name.endsWith(".jsonl"))
      .sort()
  : [];
const realSkip =
  realFiles.length === 0 ? `${path.join(realDirectory, "codex")} is absent` : undefined;
if (realSkip !== undefined) console.warn(`SKIPPED the real Codex rollouts' losses: ${realSkip}`);

describe.skipIf(realSkip !== undefined)(
  `real Codex rollouts: every dropped session key, turn setting and event named${realSkip ? ` (skipped: ${realSkip})` : ""}`,
  () => {
    for (const name of realFiles)
      it(`${name}: each count is the number of dropped fields`, () => {
        const text = readFileSync(path.join(realDirectory, "codex", name), "utf8");
        const expected = expectedCounts(text);
        expect(expected["codex.session-metadata"]).toBeGreaterThan(0);
        expect(emitted(read(text))).toEqual(expected);
      });

    it("the 0.142.0 subagent rollout read on its own names its parent thread", () => {
      const name = "rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl";
      const file = path.join(realDirectory, "codex", name);
      if (!existsSync(file)) return;
      const warnings = read(readFileSync(file, "utf8"));
      expect(warnings).toContainEqual({
        kind: "degraded",
        code: "codex.parent-thread",
        message:
          "this rollout is a subagent of thread 019ede24-67de-7b11-b46f-7922530907a9: read on its own, its parent link, nickname and role are not carried",
        count: 1,
        path: "line 1, payload.parent_thread_id",
      });
    });

    it("0.171.0: each turn setting and bookkeeping line counted on its own", () => {
      const text = readFileSync(
        path.join(realDirectory, "codex", "codex-0.171.0-exec-paginated.jsonl"),
        "utf8",
      );
      const lines = text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as JsonObject);
      const records = lines.filter((line) => line.type === "token_usage_record").length;
      const sandbox = lines.filter(
        (line) => line.type === "turn_context" && "sandbox_policy" in (line.payload as JsonObject),
      ).length;
      expect([records, sandbox]).toEqual([2, 1]);
      const warnings = read(text);
      const count = (message: string) =>
        warnings.find((warning) => warning.message === message)?.count ?? 0;
      expect(count("a token_usage_record line was not carried")).toBe(records);
      expect(count("a turn_context's sandbox_policy was not carried")).toBe(sandbox);
      expect(count("a task_started event was not carried")).toBe(1);
    });
  },
);

const meta = {
  id: "019a0000-0000-7000-8000-000000000001",
  timestamp: "2026-01-01T00:00:00.000Z",
  cwd: "/w",
  originator: "codex_cli_rs",
  cli_version: "0.142.5",
  source: "cli",
  model_provider: "openai",
  git: { branch: "main", commit_hash: "abc", repository_url: "git@x:y.git" },
};
const line = (type: string, payload: JsonObject, second = 1) =>
  JSON.stringify({ timestamp: `2026-01-01T00:00:0${second}.000Z`, type, payload });
const small = [
  line("session_meta", meta, 0),
  line("event_msg", { type: "task_started", turn_id: "t1", model_context_window: 1000 }),
  line("turn_context", {
    cwd: "/w",
    approval_policy: "never",
    sandbox_policy: { mode: "read-only" },
    model: "gpt-5",
    summary: "auto",
  }),
  line("response_item", {
    type: "message",
    role: "user",
    content: [{ type: "input_text", text: "hi" }],
  }),
  line("event_msg", { type: "user_message", message: "hi", images: [] }),
  line("response_item", {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: "hello" }],
  }),
  line("event_msg", { type: "agent_message", message: "hello" }),
  line("event_msg", { type: "task_complete", turn_id: "t1", last_agent_message: "hello" }),
  line("world_state", { cwd: "/w" }),
  line("session_meta", { ...meta, id: "019a0000-0000-7000-8000-000000000002" }),
].join("\n");

describe("a small rollout: every dropped session key, turn setting and event named", () => {
  it("counts each field the format page does not read", () => {
    const warnings = read(`${small}\n`);
    expect(emitted(warnings)).toEqual({
      // originator, source, model_provider, git.commit_hash, git.repository_url; the later session_meta
      "codex.session-metadata": 6,
      // cwd, approval_policy, sandbox_policy, summary
      "codex.turn-settings": 4,
      // task_started, task_complete, world_state
      "codex.event-records": 3,
    });
    expect(emitted(warnings)).toEqual(expectedCounts(small));
    expect(warnings).toContainEqual({
      kind: "bookkeeping",
      code: "codex.session-metadata",
      message: "the session's git.commit_hash was not carried",
      count: 1,
      path: "line 1, payload.git.commit_hash",
    });
    expect(warnings).toContainEqual({
      kind: "bookkeeping",
      code: "codex.event-records",
      message: "a world_state line was not carried",
      count: 1,
      path: "line 9",
    });
  });

  it("a subagent's parent link is named when it is read alone, not counted as session keys", () => {
    const child = line(
      "session_meta",
      {
        ...meta,
        parent_thread_id: "019a0000-0000-7000-8000-0000000000aa",
        source: {
          subagent: {
            thread_spawn: { parent_thread_id: "019a0000-0000-7000-8000-0000000000aa", depth: 1 },
          },
        },
        agent_nickname: "Socrates",
        agent_role: "implementer",
      },
      0,
    );
    const text = `${[child, ...small.split("\n").slice(1, -1)].join("\n")}\n`;
    const counts = emitted(read(text));
    // originator, model_provider, git.commit_hash, git.repository_url (source is the link)
    expect(counts["codex.session-metadata"]).toBe(4);
    expect(counts["codex.parent-thread"]).toBe(1);
    expect(counts).toEqual(expectedCounts(text));
  });

  it("read through its parent's session, a subagent's link is carried, not named", () => {
    const parentId = meta.id;
    const child = line(
      "session_meta",
      {
        ...meta,
        id: "019a0000-0000-7000-8000-0000000000c1",
        parent_thread_id: parentId,
        agent_nickname: "Socrates",
        agent_role: "implementer",
      },
      0,
    );
    const childText = `${[child, ...small.split("\n").slice(1, -1)].join("\n")}\n`;
    const parent = codexCodec.parse(`${small}\n`);
    const rollout = { ...parent, subagents: [codexCodec.parse(childText)] } as typeof parent;
    const warnings: Warning[] = [];
    const transcript = codexCodec.toCommon(rollout, {
      onWarning: (warning) => warnings.push(warning),
    });
    expect(transcript.subagents?.map((subagent) => [subagent.title, subagent.agentType])).toEqual([
      ["Socrates", "implementer"],
    ]);
    expect(warnings.map((warning) => warning.code)).not.toContain("codex.parent-thread");
    // Control: the same child read on its own names its parent.
    expect(emitted(read(childText))["codex.parent-thread"]).toBe(1);
  });

  it("the streaming reader names the same, with the same counts", () => {
    const text = `${small}\n`;
    const whole = convertStreamed(text, codexHarness, codexHarness, {
      read: "whole",
      write: "whole",
    });
    const streamed = convertStreamed(text, codexHarness, codexHarness, {
      read: "stream",
      write: "stream",
    });
    const readLeg = (warnings: readonly Warning[]) =>
      emitted(warnings.filter((warning) => warning.leg !== "write"));
    expect(readLeg(streamed.warnings)).toEqual(readLeg(whole.warnings));
    expect(readLeg(streamed.warnings)).toEqual(expectedCounts(small));
  });
});
