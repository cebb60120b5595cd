// Each loss the reader and writer name, triggered by the one field or shape
// it is about, with a control: the same input without it names nothing of
// that code.
import type { JsonObject, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { commonToCrush } from "./common-to-crush.js";
import { crushLosses } from "./crush-losses.js";
import type { CrushSession } from "./crush-schema.js";
import { crushToCommon } from "./crush-to-common.js";

function session(
  parts: unknown[],
  row: JsonObject = {},
  sessionRow: JsonObject = {},
): CrushSession {
  return {
    session: {
      id: "s",
      parent_session_id: null,
      title: "t",
      message_count: 1,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost: 0,
      updated_at: 1,
      created_at: 1,
      summary_message_id: null,
      ...sessionRow,
    },
    messages: [
      {
        id: "m",
        session_id: "s",
        role: "assistant",
        parts: JSON.stringify(parts),
        model: "x",
        created_at: 1,
        updated_at: 1,
        finished_at: null,
        provider: null,
        is_summary_message: 0,
        ...row,
      },
    ],
  };
}

function readCodes(native: CrushSession): string[] {
  const codes: string[] = [];
  crushToCommon(native, { onWarning: (warning: Warning) => codes.push(warning.code) });
  return codes;
}

function writeCodes(transcript: Transcript): string[] {
  const codes: string[] = [];
  commonToCrush(transcript, { onWarning: (warning: Warning) => codes.push(warning.code) });
  return codes;
}

const text = { type: "text", data: { text: "hi" } };

describe("reading names each loss", () => {
  const cases: [string, CrushSession, CrushSession][] = [
    ["crush.session-usage", session([text], {}, { cost: 0.5 }), session([text])],
    [
      "crush.todos",
      session([text], {}, { todos: '[{"content":"a","status":"pending","active_form":"A"}]' }),
      session([text], {}, { todos: null }),
    ],
    ["crush.unknown-column", session([text], { future_column: 1 }), session([text])],
    ["crush.role", session([text], { role: "narrator" }), session([text])],
    [
      "crush.image-url",
      session([{ type: "image_url", data: { url: "https://x/y.png" } }]),
      session([text]),
    ],
    [
      "crush.attachment-path",
      session([{ type: "binary", data: { Path: "a.png", MIMEType: "image/png", Data: "aGk=" } }]),
      session([{ type: "binary", data: { Path: "", MIMEType: "image/png", Data: "aGk=" } }]),
    ],
    [
      "crush.reasoning-fields",
      session([{ type: "reasoning", data: { thinking: "t", thought_signature: "g" } }]),
      session([{ type: "reasoning", data: { thinking: "t", signature: "s" } }]),
    ],
    [
      "crush.shell-command",
      session([{ type: "shell_command", data: { command: "ls", output: "a", exit_code: 0 } }]),
      session([text]),
    ],
    [
      "crush.tool-call-state",
      session([{ type: "tool_call", data: { id: "c", name: "ls", input: "{}", finished: false } }]),
      session([{ type: "tool_call", data: { id: "c", name: "ls", input: "{}", finished: true } }]),
    ],
    [
      "crush.empty-tool-id",
      session([{ type: "tool_call", data: { id: "", name: "ls", input: "{}", finished: true } }]),
      session([{ type: "tool_call", data: { id: "c", name: "ls", input: "{}", finished: true } }]),
    ],
    [
      "crush.result-media",
      session(
        [
          {
            type: "tool_result",
            data: { tool_call_id: "c", content: "", data: "aGk=", mime_type: "image/png" },
          },
        ],
        { role: "tool" },
      ),
      session([{ type: "tool_result", data: { tool_call_id: "c", content: "ok" } }], {
        role: "tool",
      }),
    ],
    [
      "crush.result-metadata",
      session(
        [
          {
            type: "tool_result",
            data: { tool_call_id: "c", content: "ok", metadata: '{"diff":"x"}' },
          },
        ],
        { role: "tool" },
      ),
      session([{ type: "tool_result", data: { tool_call_id: "c", content: "ok" } }], {
        role: "tool",
      }),
    ],
    [
      "crush.finish-detail",
      session([text, { type: "finish", data: { reason: "error", time: 1, message: "boom" } }]),
      session([text, { type: "finish", data: { reason: "error", time: 1 } }]),
    ],
    [
      "crush.part-fields",
      session([{ type: "text", data: { text: "hi", extra: 1 } }]),
      session([text]),
    ],
  ];
  for (const [code, lossy, control] of cases)
    it(`${code}, and not for the control`, () => {
      expect(readCodes(lossy)).toContain(code);
      expect(readCodes(control)).not.toContain(code);
    });

  it("crush.title-session, and a task session is a subagent instead", () => {
    const parent = session([
      {
        type: "tool_call",
        data: { id: "call", name: "agent", input: '{"prompt":"p"}', finished: true },
      },
    ]);
    const title = {
      ...session([text]),
      session: { ...session([text]).session, id: "title-s", parent_session_id: "s" },
    };
    const task = {
      ...session([text]),
      session: { ...session([text]).session, id: "m$$call", parent_session_id: "s" },
    };
    expect(readCodes({ ...parent, children: [title] })).toContain("crush.title-session");
    const read = crushToCommon({ ...parent, children: [task] });
    expect(read.subagents?.map((subagent) => subagent.toolUseId)).toEqual(["call"]);
  });

  it("reads a summary row as a compaction, and finish reasons as Common's", () => {
    const read = crushToCommon(
      session([{ type: "text", data: { text: "sum" } }], { is_summary_message: 1 }),
    );
    expect(read.messages[0]?.content).toEqual([{ type: "compaction", summary: "sum" }]);
    const canceled = crushToCommon(
      session([text, { type: "finish", data: { reason: "canceled", time: 1 } }]),
    );
    expect(canceled.messages[0]?.stopReason).toBe("aborted");
  });
});

describe("writing names each loss", () => {
  const base: Transcript = {
    meta: { id: "s", timestamp: "2026-01-01T00:00:00.000Z" },
    messages: [
      {
        role: "assistant",
        content: [{ type: "text", text: "hi" }],
        timestamp: "2026-01-01T00:00:01.000Z",
      },
    ],
  };
  const withMessage = (message: Partial<Transcript["messages"][number]>): Transcript => ({
    ...base,
    messages: [{ ...(base.messages[0] as Transcript["messages"][number]), ...message }],
  });
  const cases: [string, Transcript][] = [
    ["crush.meta", { ...base, meta: { ...base.meta, gitBranch: "main" } }],
    [
      "crush.context",
      withMessage({ role: "user", context: { kind: "injected", source: "AGENTS.md" } }),
    ],
    [
      "crush.usage",
      withMessage({
        usage: {
          inputTokens: 1,
          outputTokens: 1,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
        },
      }),
    ],
    [
      "crush.thinking-fields",
      withMessage({ content: [{ type: "thinking", text: "t", encrypted: "e" }] }),
    ],
    [
      "crush.image-data",
      withMessage({
        content: [
          { type: "image", source: { type: "base64", mediaType: "image/png", data: "not base64" } },
        ],
      }),
    ],
    [
      "crush.result-json",
      withMessage({
        role: "user",
        content: [{ type: "tool_result", toolUseId: "c", content: { ok: true }, isError: false }],
      }),
    ],
    ["crush.stop-reason", withMessage({ role: "user", stopReason: "end_turn" })],
    ["crush.timestamp-order", withMessage({ timestamp: "2026-01-01T00:00:01.500Z" })],
    [
      "crush.compaction-fields",
      withMessage({
        role: "user",
        content: [{ type: "compaction", summary: "s", trigger: "auto" }],
      }),
    ],
    [
      "crush.subagent-link",
      { ...base, subagents: [{ id: "sub", toolUseId: "nowhere", messages: [] }] },
    ],
    [
      "crush.subagent-fields",
      { ...base, subagents: [{ id: "sub", agentType: "explore", messages: [] }] },
    ],
    ["crush.subagent-id", { ...base, subagents: [{ id: "s", messages: [] }] }],
  ];
  it("names nothing for the control", () => expect(writeCodes(base)).toEqual([]));
  for (const [code, lossy] of cases) it(code, () => expect(writeCodes(lossy)).toContain(code));

  it("every code named above is a documented loss, and every documented loss is tested here", () => {
    const documented = crushLosses.map((loss) => loss.code).sort();
    const tested = new Set([
      ...cases.map(([code]) => code),
      "crush.session-usage",
      "crush.todos",
      "crush.unknown-column",
      "crush.role",
      "crush.image-url",
      "crush.attachment-path",
      "crush.reasoning-fields",
      "crush.shell-command",
      "crush.tool-call-state",
      "crush.empty-tool-id",
      "crush.result-media",
      "crush.result-metadata",
      "crush.finish-detail",
      "crush.part-fields",
      "crush.title-session",
      // Named on every read (bookkeeping that is never carried): asserted below.
      "crush.session-bookkeeping",
      "crush.message-bookkeeping",
    ]);
    expect([...tested].sort()).toEqual(documented);
    expect(readCodes(session([text]))).toEqual(
      expect.arrayContaining(["crush.session-bookkeeping", "crush.message-bookkeeping"]),
    );
  });
});
