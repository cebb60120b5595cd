// Each loss the writer can report, one at a time: a base transcript that
// Kimi CLI's context file holds whole writes with no warning and reads back
// equal (the control), and adding one feature the file cannot hold names
// exactly that loss, and the read-back differs from the input where it says.
import type { Block, Message, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import { kimiCliLosses } from "./kimi-cli-losses.js";
import { kimiCliProject } from "./kimi-cli-project.js";

const id = "4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90";
const start = Date.parse("2026-03-01T10:00:00.000Z");
const at = (index: number) => new Date(start + index).toISOString();

function base(messages: Omit<Message, "timestamp">[]): Transcript {
  return {
    meta: { id, timestamp: at(0), cwd: "/home/dev/hello", title: "A title" },
    messages: messages.map((message, index) => ({ ...message, timestamp: at(index) })),
  };
}

const call: Block = {
  type: "tool_use",
  id: "Shell:0",
  tool: { name: "Raw", toolName: "Shell", input: { command: "ls", timeout: 60 } },
};
const plain = base([
  { role: "user", content: [{ type: "text", text: "list the files" }] },
  {
    role: "assistant",
    content: [
      { type: "thinking", text: "ls it", signature: "sig" },
      { type: "text", text: "Listing." },
      call,
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", toolUseId: "Shell:0", content: "a\nb\n", isError: false },
      {
        type: "tool_result",
        toolUseId: "Shell:1",
        content: "<system>ERROR: no</system>",
        isError: true,
      },
    ],
  },
  {
    role: "user",
    content: [{ type: "text", text: "You are Kimi." }],
    context: { kind: "system", source: "_system_prompt" },
  },
  {
    role: "user",
    content: [{ type: "text", text: "<system-reminder>x</system-reminder>" }],
    context: { kind: "system" },
  },
  { role: "user", content: [{ type: "compaction", summary: "we listed files" }] },
  {
    role: "user",
    content: [{ type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } }],
  },
  { role: "assistant", content: [] },
]);

function write(transcript: Transcript): { codes: string[]; back: Transcript } {
  const warnings: Warning[] = [];
  const text = kimiCliCodec.serialize(
    kimiCliCodec.fromCommon(transcript, { onWarning: (warning) => warnings.push(warning) }),
  );
  const codes = [...new Set(warnings.map((warning) => warning.code))].sort();
  for (const code of codes) expect(kimiCliLosses.map((loss) => loss.code)).toContain(code);
  return { codes, back: kimiCliCodec.toCommon(kimiCliCodec.parse(text)) };
}

describe("Kimi CLI writer losses", () => {
  it("control: a transcript the format holds writes with no warning and reads back equal", () => {
    const { codes, back } = write(plain);
    expect(codes).toEqual([]);
    expect(back).toEqual(plain);
  });

  const cases: [string, (transcript: Transcript) => Transcript][] = [
    ["kimi_cli.session-id", (t) => ({ ...t, meta: { ...t.meta, id: "T-not-a-uuid" } })],
    ["kimi_cli.meta", (t) => ({ ...t, meta: { ...t.meta, gitBranch: "main" } })],
    ["kimi_cli.meta", (t) => ({ ...t, meta: { ...t.meta, model: "kimi-k2" } })],
    ["kimi_cli.subagents", (t) => ({ ...t, subagents: [{ id: "a1", messages: [] }] })],
    [
      "kimi_cli.timestamps",
      (t) => ({ ...t, messages: t.messages.map((m, i) => ({ ...m, timestamp: at(i * 1000) })) }),
    ],
    ["kimi_cli.stop-reason", (t) => mapMessage(t, 1, (m) => ({ ...m, stopReason: "tool_use" }))],
    ["kimi_cli.model", (t) => mapMessage(t, 1, (m) => ({ ...m, model: "kimi-k2" }))],
    [
      "kimi_cli.usage",
      (t) =>
        mapMessage(t, 1, (m) => ({
          ...m,
          usage: {
            inputTokens: 1,
            outputTokens: 1,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
          },
        })),
    ],
    [
      "kimi_cli.thinking",
      (t) =>
        mapMessage(t, 1, (m) => ({
          ...m,
          content: [{ type: "thinking", text: "", encrypted: "opaque" }, ...m.content],
        })),
    ],
    [
      "kimi_cli.order",
      (t) =>
        mapMessage(t, 1, (m) => ({
          ...m,
          content: [call, { type: "text", text: "after the call" }],
        })),
    ],
    [
      "kimi_cli.order",
      (t) =>
        mapMessage(t, 2, (m) => ({
          ...m,
          content: [{ type: "text", text: "and a note" }, ...m.content],
        })),
    ],
    [
      "kimi_cli.tool-result",
      (t) =>
        mapMessage(t, 2, (m) => ({
          ...m,
          content: [
            { type: "tool_result", toolUseId: "Shell:0", content: { rows: 2 }, isError: false },
          ],
        })),
    ],
    [
      "kimi_cli.tool-result",
      (t) =>
        mapMessage(t, 2, (m) => ({
          ...m,
          content: [{ type: "tool_result", toolUseId: "Shell:0", content: "boom", isError: true }],
        })),
    ],
    [
      "kimi_cli.compaction",
      (t) =>
        mapMessage(t, 5, (m) => ({
          ...m,
          content: [{ type: "compaction", summary: "s", trigger: "auto" }],
        })),
    ],
    [
      "kimi_cli.compaction",
      (t) =>
        mapMessage(t, 5, (m) => ({
          ...m,
          content: [
            { type: "text", text: "x" },
            { type: "compaction", summary: "s" },
          ],
        })),
    ],
    [
      "kimi_cli.context",
      (t) =>
        mapMessage(t, 4, (m) => ({ ...m, context: { kind: "injected", source: "AGENTS.md" } })),
    ],
  ];
  for (const [code, change] of cases)
    it(`${code}: named when the input has it, and the read-back is project's`, () => {
      const input = change(plain);
      const { codes, back } = write(input);
      expect(codes).toEqual([code]);
      expect(back).not.toEqual(input);
      expect(back).toEqual(kimiCliProject(input));
    });
});

function mapMessage(
  transcript: Transcript,
  index: number,
  change: (message: Message) => Message,
): Transcript {
  return {
    ...transcript,
    messages: transcript.messages.map((message, at) => (at === index ? change(message) : message)),
  };
}
