// The streaming suite's inputs (issue 18 item 4), written by the bench's own
// small writers (not the codecs under test), seeded, straight to disk a
// buffer at a time so the generator itself stays small: a Claude Code
// session of about 2 GB (a parentUuid chain with tool calls, split assistant
// messages, progress and file-history lines, and a compaction every few
// hundred turns: compact_boundary with logicalParentUuid and the summary
// line) and a Codex rollout of about 1.2 GB (the legacy envelope lines:
// turn_context, response items with reasoning, shell calls and outputs,
// their event echoes, token counts, and `compacted` lines).
import { closeSync, openSync, writeSync } from "node:fs";
import { seeded } from "./random.mjs";

const words =
  "the of and to in is that for it with as was on be by this are or from at which but not have an they you were their one all we can her has there been if more when will would who so no out up into do than some could them other then its also two these only new first any may like over such".split(
    " ",
  );

function prose(random, count) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(random.pick(words));
  return out.join(" ");
}

/** Output lines like a build log, `bytes` long or so. */
function toolOutput(random, bytes) {
  const lines = [];
  let length = 0;
  while (length < bytes) {
    const line = `${random.pick(["ok", "info", "warn", "PASS", "src"])} ${random.base62(8)}/${random.base62(6)}.ts:${random.int(1, 900)} ${prose(random, random.int(4, 14))}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

/** Appends lines to a file through a 4 MiB buffer; returns the bytes and lines written. */
function lineSink(file) {
  const descriptor = openSync(file, "w");
  let buffer = [];
  let pending = 0;
  let bytes = 0;
  let lines = 0;
  const flush = () => {
    if (pending === 0) return;
    writeSync(descriptor, buffer.join(""));
    buffer = [];
    pending = 0;
  };
  return {
    line(value) {
      const text = `${JSON.stringify(value)}\n`;
      buffer.push(text);
      pending += text.length;
      bytes += Buffer.byteLength(text);
      lines += 1;
      if (pending > 4 * 2 ** 20) flush();
    },
    get bytes() {
      return bytes;
    },
    close() {
      flush();
      closeSync(descriptor);
      return { bytes, lines };
    },
  };
}

const start = Date.parse("2026-03-01T08:00:00.000Z");

/** A Claude Code 2.1 session of at least `target` bytes. */
export function writeClaudeSession(file, { target, seed, sessionId }) {
  const random = seeded(seed);
  const sink = lineSink(file);
  const base = {
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/project",
    sessionId,
    version: "2.1.30",
    gitBranch: "main",
  };
  let clock = start;
  const at = () => {
    clock += random.int(200, 4000);
    return new Date(clock).toISOString();
  };
  let parent = null;
  let turn = 0;
  const next = (value) => {
    const uuid = random.uuid();
    sink.line({ parentUuid: parent, ...base, ...value, uuid, timestamp: at() });
    parent = uuid;
    return uuid;
  };
  let compactions = 0;
  while (sink.bytes < target) {
    turn += 1;
    if (turn % 400 === 0) {
      compactions += 1;
      const boundary = random.uuid();
      sink.line({
        parentUuid: null,
        logicalParentUuid: parent,
        ...base,
        type: "system",
        subtype: "compact_boundary",
        content: "Conversation compacted",
        isMeta: false,
        timestamp: at(),
        uuid: boundary,
        level: "info",
        compactMetadata: { trigger: "auto", preTokens: random.int(150_000, 190_000) },
      });
      parent = boundary;
      next({
        type: "user",
        message: {
          role: "user",
          content: `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${prose(random, 600)}`,
        },
        isVisibleInTranscriptOnly: true,
        isCompactSummary: true,
      });
    }
    next({ type: "user", message: { role: "user", content: prose(random, random.int(8, 60)) } });
    const calls = random.int(1, 4);
    for (let call = 0; call < calls; call++) {
      const messageId = `msg_01${random.base62(22)}`;
      const toolId = `toolu_01${random.base62(22)}`;
      const model = "claude-sonnet-4-5-20250929";
      const usage = {
        input_tokens: random.int(1, 40),
        cache_creation_input_tokens: random.int(0, 3000),
        cache_read_input_tokens: random.int(1000, 150_000),
        output_tokens: random.int(20, 900),
      };
      // A split assistant message: its text and its tool call on two lines with one id.
      next({
        type: "assistant",
        message: {
          model,
          id: messageId,
          type: "message",
          role: "assistant",
          content: [{ type: "text", text: prose(random, random.int(10, 120)) }],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
        requestId: `req_011${random.base62(21)}`,
      });
      const command = `rg -n ${random.pick(words)} src/${random.base62(5)}`;
      next({
        type: "assistant",
        message: {
          model,
          id: messageId,
          type: "message",
          role: "assistant",
          content: [{ type: "tool_use", id: toolId, name: "Bash", input: { command } }],
          stop_reason: "tool_use",
          stop_sequence: null,
          usage,
        },
        requestId: `req_011${random.base62(21)}`,
      });
      const output = toolOutput(random, random.int(800, 14_000));
      next({
        type: "user",
        message: {
          role: "user",
          content: [{ tool_use_id: toolId, type: "tool_result", content: output, is_error: false }],
        },
        toolUseResult: { stdout: output, stderr: "", interrupted: false, isImage: false },
      });
    }
    next({
      type: "assistant",
      message: {
        model: "claude-sonnet-4-5-20250929",
        id: `msg_01${random.base62(22)}`,
        type: "message",
        role: "assistant",
        content: [{ type: "text", text: prose(random, random.int(20, 200)) }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 3, cache_read_input_tokens: 2000, output_tokens: 120 },
      },
    });
    if (turn % 10 === 0)
      sink.line({
        type: "file-history-snapshot",
        messageId: random.uuid(),
        snapshot: { messageId: random.uuid(), trackedFileBackups: {}, timestamp: at() },
        isSnapshotUpdate: false,
      });
  }
  sink.line({ type: "custom-title", customTitle: "a long generated session", sessionId });
  return { ...sink.close(), turns: turn, compactions };
}

/** A Codex rollout (legacy envelope lines, as 0.1xx writes) of at least `target` bytes. */
export function writeCodexRollout(file, { target, seed, sessionId }) {
  const random = seeded(seed);
  const sink = lineSink(file);
  let clock = start;
  const at = () => {
    clock += random.int(200, 4000);
    return new Date(clock).toISOString();
  };
  const line = (type, payload) => sink.line({ timestamp: at(), type, payload });
  line("session_meta", {
    id: sessionId,
    timestamp: new Date(start).toISOString(),
    cwd: "/home/dev/project",
    originator: "codex_cli_rs",
    cli_version: "0.142.5",
    source: "cli",
    model_provider: "openai",
    git: { branch: "main" },
  });
  let turn = 0;
  let compactions = 0;
  while (sink.bytes < target) {
    turn += 1;
    line("turn_context", {
      cwd: "/home/dev/project",
      approval_policy: "on-request",
      sandbox_policy: { type: "workspace-write" },
      model: "gpt-5.3-codex",
      summary: "auto",
    });
    const prompt = prose(random, random.int(8, 60));
    line("response_item", {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: prompt }],
    });
    line("event_msg", { type: "user_message", message: prompt, images: [] });
    const calls = random.int(1, 4);
    for (let call = 0; call < calls; call++) {
      const summary = prose(random, random.int(10, 40));
      line("response_item", {
        type: "reasoning",
        summary: [{ type: "summary_text", text: summary }],
        content: null,
        encrypted_content: `gAAAA${random.base62(random.int(200, 1200))}`,
      });
      line("event_msg", { type: "agent_reasoning", text: summary });
      const callId = `call_${random.base62(24)}`;
      line("response_item", {
        type: "function_call",
        name: "shell",
        arguments: JSON.stringify({
          command: ["bash", "-lc", `rg -n ${random.pick(words)} src`],
          workdir: "/home/dev/project",
        }),
        call_id: callId,
      });
      line("response_item", {
        type: "function_call_output",
        call_id: callId,
        output: JSON.stringify({
          output: toolOutput(random, random.int(800, 14_000)),
          metadata: { exit_code: 0, duration_seconds: 0.1 },
        }),
      });
    }
    const answer = prose(random, random.int(20, 200));
    line("response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: answer }],
    });
    line("event_msg", { type: "agent_message", message: answer });
    const input = random.int(2000, 150_000);
    const output = random.int(20, 900);
    const last = {
      input_tokens: input,
      cached_input_tokens: Math.floor(input / 2),
      output_tokens: output,
      reasoning_output_tokens: Math.floor(output / 3),
      total_tokens: input + output,
    };
    line("event_msg", {
      type: "token_count",
      info: { total_token_usage: last, last_token_usage: last, model_context_window: 272_000 },
      rate_limits: null,
    });
    if (turn % 400 === 0) {
      compactions += 1;
      line("compacted", {
        message: prose(random, 400),
        replacement_history: [
          { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] },
        ],
      });
      line("event_msg", { type: "context_compacted" });
    }
  }
  return { ...sink.close(), turns: turn, compactions };
}
