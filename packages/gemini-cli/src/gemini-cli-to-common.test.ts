import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Json, Warning } from "@txcript/core";
import { txcriptErrorOf } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { geminiCliLosses } from "./gemini-cli-losses.js";
import { renderContent } from "./gemini-cli-peek.js";

const realDirectory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../shared/real/gemini",
);

function real(name: string): string | undefined {
  try {
    return readFileSync(path.join(realDirectory, name), "utf8");
  } catch {
    console.warn(`SKIPPED real/gemini/${name}: ../shared is absent`);
    return undefined;
  }
}

function read(text: string) {
  const warnings: Warning[] = [];
  const transcript = geminiCliCodec.toCommon(geminiCliCodec.parse(text), {
    onWarning: (warning) => warnings.push(warning),
  });
  const counts: Record<string, number> = {};
  for (const warning of warnings)
    counts[warning.code] = (counts[warning.code] ?? 0) + warning.count;
  return { transcript, counts };
}

const jsonl = (...records: unknown[]) =>
  `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
const head = {
  sessionId: "s-1",
  projectHash: "h",
  startTime: "2026-01-01T00:00:00.000Z",
  lastUpdated: "2026-01-01T00:00:00.000Z",
};
const user = (id: string, text: string) => ({
  id,
  timestamp: "2026-01-01T00:00:01.000Z",
  type: "user",
  content: [{ text }],
});
const texts = (text: string) =>
  read(text).transcript.messages.map((message) =>
    message.content.map((block) => (block.type === "text" ? block.text : block.type)).join("|"),
  );

const jsonText = real("json-2025-10-11-VibeCodingTracker.json");
const jsonlText = real("jsonl-2026-04-23-VibeCodingTracker.jsonl");

describe.skipIf(jsonText === undefined)(
  "the real JSON-era recording (gemini-2.5-pro, October 2025)",
  () => {
    // Collected even when skipped: an empty recording stands in for the absent file.
    const { transcript, counts } = read(jsonText ?? jsonl(head));
    it("is one prompt and thirteen replies, with the session's id and start", () => {
      expect(transcript.meta).toEqual({
        id: "2d9ea14f-1e4e-44f6-8bf5-7a7819cb1cd9",
        timestamp: "2025-10-11T13:00:34.434Z",
      });
      expect(transcript.messages.map((message) => message.role)).toEqual([
        "user",
        ...Array(13).fill("assistant"),
      ]);
    });
    it("reads thoughts as thinking, in Gemini CLI's `**subject** description` form, before the text", () => {
      const [first] = transcript.messages.slice(1);
      expect(first?.content.map((block) => block.type)).toEqual([
        "thinking",
        "thinking",
        "thinking",
        "text",
      ]);
      const thinking = first?.content[0];
      expect(
        thinking?.type === "thinking" &&
          thinking.text.startsWith("**Inspecting the Project** I'm currently"),
      ).toBe(true);
      expect(first?.model).toBe("gemini-2.5-pro");
    });
    it("maps tokens: output includes thoughts, input excludes cached", () => {
      expect(transcript.messages[1]?.usage).toEqual({
        inputTokens: 8175,
        outputTokens: 75 + 632,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        reasoningOutputTokens: 632,
      });
      const cached = transcript.messages.find(
        (message) => (message.usage?.cacheReadInputTokens ?? 0) > 0,
      );
      expect(cached?.usage?.cacheReadInputTokens).toBe(19165);
      expect(cached?.usage?.inputTokens).toBe(20237 - 19165);
    });
    it("names the thought timestamps it drops", () => {
      expect(counts["gemini_cli.part-fields"]).toBeGreaterThan(13);
    });
  },
);

describe.skipIf(jsonlText === undefined)(
  "the real JSONL-era recording (gemini-3, April 2026)",
  () => {
    // Collected even when skipped: an empty recording stands in for the absent file.
    const { transcript, counts } = read(jsonlText ?? jsonl(head));
    it("is the conversation the loader keeps: later records with the same id win, in place", () => {
      expect(counts["gemini_cli.superseded-record"]).toBe(5);
      expect(transcript.messages.filter((message) => message.role === "assistant")).toHaveLength(6);
      // The /init prompt: what the model got, not what the terminal showed.
      const first = transcript.messages[0]?.content[0];
      expect(
        first?.type === "text" && first.text.includes("generate a comprehensive GEMINI.md file"),
      ).toBe(true);
      expect(counts["gemini_cli.display-content"]).toBe(2);
      expect(counts["gemini_cli.notice"]).toBe(2);
    });
    it("reads legacy tool calls with their results in the next user message, paired by id", () => {
      const calls = transcript.messages.flatMap((message) =>
        message.content.flatMap((block) => (block.type === "tool_use" ? [block] : [])),
      );
      const results = transcript.messages.flatMap((message) =>
        message.content.flatMap((block) => (block.type === "tool_result" ? [block] : [])),
      );
      expect(calls.map((call) => call.id)).toEqual(results.map((result) => result.toolUseId));
      expect(
        calls.map((call) =>
          call.tool.name === "Raw" ? `Raw:${call.tool.toolName}` : call.tool.name,
        ),
      ).toEqual([
        "Raw:update_topic",
        "Read",
        "Read",
        "Read",
        "Read",
        "Read",
        "Raw:read_file",
        "Read",
        "Write",
        "Raw:update_topic",
        "Raw:update_topic",
        "Raw:replace",
      ]);
      const withStart = calls[6]?.tool;
      expect(withStart).toEqual({
        name: "Raw",
        toolName: "read_file",
        input: { start_line: 1, file_path: "src/discordbot/cogs/gen_reply.py" },
      });
      expect(counts["gemini_cli.tool-call-display"]).toBe(12);
    });
  },
);

describe("JSONL records, as Gemini CLI's loader reads them", () => {
  it("replaces a record in place, cuts at $rewindTo, and skips bad lines by name", () => {
    const text = `${jsonl(head, user("a", "one"), user("b", "two"), user("a", "one again"))}not json\n${jsonl(
      user("c", "three"),
      { $rewindTo: "c" },
      user("d", "four"),
    )}`;
    expect(texts(text)).toEqual(["one again", "two", "four"]);
    const { counts } = read(text);
    expect(counts).toMatchObject({
      "gemini_cli.superseded-record": 1,
      "gemini_cli.rewound": 1,
      "gemini_cli.bad-line": 1,
    });
  });
  it("clears everything when $rewindTo names no message", () => {
    expect(texts(jsonl(head, user("a", "one"), { $rewindTo: "zzz" }, user("b", "two")))).toEqual([
      "two",
    ]);
  });
  it("rebuilds from a $set.messages checkpoint and merges $set metadata", () => {
    const text = jsonl(
      head,
      user("a", "old"),
      { $set: { messages: [user("x", "kept")], summary: "Title" } },
      user("y", "after"),
    );
    const { transcript } = read(text);
    expect(texts(text)).toEqual(["kept", "after"]);
    expect(transcript.meta.title).toBe("Title");
  });
  it("takes the session id from a later $set, and messages carried on the metadata line", () => {
    const text = jsonl(
      { ...head, messages: [user("a", "inline")] },
      { $set: { sessionId: "s-2" } },
    );
    expect(read(text).transcript.meta.id).toBe("s-2");
    expect(texts(text)).toEqual(["inline"]);
  });
  it("reads a modern gemini record from its parts; results still come from toolCalls", () => {
    const record = {
      id: "g",
      timestamp: "2026-01-01T00:00:02.000Z",
      type: "gemini",
      content: [
        { text: "why", thought: true },
        { functionCall: { id: "k", name: "glob", args: { pattern: "*.ts" } } },
      ],
      thoughts: [{ subject: "ignored", description: "content wins" }],
      toolCalls: [
        {
          id: "k",
          name: "glob",
          args: { pattern: "*.ts" },
          result: [{ functionResponse: { id: "k", name: "glob", response: { output: "a.ts" } } }],
          status: "success",
        },
      ],
    };
    const { transcript } = read(jsonl(head, user("u", "find"), record));
    expect(transcript.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "why" },
          { type: "tool_use", id: "k", tool: { name: "Glob", input: { pattern: "*.ts" } } },
        ],
        timestamp: "2026-01-01T00:00:02.000Z",
      },
      {
        role: "user",
        content: [{ type: "tool_result", toolUseId: "k", content: "a.ts", isError: false }],
        timestamp: "2026-01-01T00:00:02.000Z",
      },
    ]);
  });
  it("marks Gemini CLI's own <session_context> message as injected context", () => {
    const { transcript } = read(
      jsonl(
        head,
        user("c", "<session_context>\nThis is the Gemini CLI.</session_context>"),
        user("u", "hi"),
      ),
    );
    expect(transcript.messages.map((message) => message.context)).toEqual([
      { kind: "injected", source: "session_context" },
      undefined,
    ]);
  });
});

describe("rendering content as Gemini CLI does", () => {
  const nested = (depth: number, inner: string) =>
    JSON.parse(`${"[".repeat(depth)}${inner}${"]".repeat(depth)}`) as Json;

  it("flattens nested part lists in order, 100,000 deep as 2 deep", () => {
    const inner = '{"text":"<session_context>"},"a",[{"functionCall":{}},null,7],{"text":"b"}';
    expect(renderContent(nested(2, inner))).toBe("<session_context>a[Function Call]b");
    expect(renderContent(nested(100_000, inner))).toBe("<session_context>a[Function Call]b");
  });

  it("prints a thought as a template literal would, however deep", () => {
    const thought = JSON.parse('[[1,[null,"x"]],{},true,[]]') as Json;
    expect(renderContent([{ thought }])).toBe(`[Thought: ${String(thought)}]`);
    expect(renderContent([{ thought: nested(100_000, "3,4") }])).toBe("[Thought: 3,4]");
  });

  it("reads a recording whose user content is nested 100,000 deep, still as injected context", () => {
    const record = JSON.stringify(user("c", "PLACEHOLDER")).replace(
      '[{"text":"PLACEHOLDER"}]',
      `${"[".repeat(100_000)}{"text":"<session_context>x</session_context>"}${"]".repeat(100_000)}`,
    );
    const { transcript, counts } = read(
      `${JSON.stringify(head)}\n${record}\n${JSON.stringify(user("u", "hi"))}\n`,
    );
    // The nested list is no part: dropped by name, while the message is still
    // recognized as Gemini CLI's own, as its rendered text says.
    expect(counts).toEqual({ "gemini_cli.unknown-part": 1 });
    expect(transcript.messages).toMatchObject([
      { context: { kind: "injected", source: "session_context" }, content: [] },
      { content: [{ type: "text", text: "hi" }] },
    ]);
  });
});

describe("token counts", () => {
  const reply = (tokens: Record<string, number>) => ({
    id: "g",
    timestamp: "2026-01-01T00:00:02.000Z",
    type: "gemini",
    content: [{ text: "hello" }],
    tokens,
  });
  const usageOf = (tokens: Record<string, number>) => {
    const { transcript, counts } = read(jsonl(head, user("u", "hi"), reply(tokens)));
    return { usage: transcript.messages[1]?.usage, counts };
  };

  it("keeps no usage whose sums pass 2^53 − 1, by name (gemini_cli.tokens)", () => {
    const big = 2 ** 52 + 1;
    expect(usageOf({ input: 1, output: big, thoughts: big })).toEqual({
      usage: undefined,
      counts: { "gemini_cli.tokens": 1 },
    });
    expect(usageOf({ input: big, output: 1, tool: big })).toEqual({
      usage: undefined,
      counts: { "gemini_cli.tokens": 1 },
    });
    // The control: the same counts, small, are kept.
    expect(usageOf({ input: 5, output: 3, thoughts: 2 }).usage).toEqual({
      inputTokens: 5,
      outputTokens: 5,
      reasoningOutputTokens: 2,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    });
  });
});

describe("parse", () => {
  it("refuses what is no recording, with INVALID_DOCUMENT", () => {
    expect(txcriptErrorOf(() => geminiCliCodec.parse("hello")).code).toBe("INVALID_DOCUMENT");
    expect(txcriptErrorOf(() => geminiCliCodec.parse("[1, 2]")).code).toBe("INVALID_DOCUMENT");
    expect(txcriptErrorOf(() => geminiCliCodec.parse('{"messages": []}')).code).toBe(
      "INVALID_DOCUMENT",
    );
  });
  it("detects both eras and nothing else", () => {
    if (jsonText !== undefined) expect(geminiCliCodec.detect(jsonText)).toBe(true);
    if (jsonlText !== undefined) expect(geminiCliCodec.detect(jsonlText)).toBe(true);
    expect(geminiCliCodec.detect(jsonl(head))).toBe(true);
    expect(geminiCliCodec.detect('{"type":"user","parentUuid":null,"sessionId":"x"}\n')).toBe(
      false,
    );
    expect(geminiCliCodec.detect('{"v": 1, "id": "T-1", "messages": []}')).toBe(false);
  });
});

describe("losses", () => {
  it("every code reading emits is listed (real recordings, fixtures, odd records)", () => {
    const odd = jsonl(
      head,
      { $set: { messages: [{ no: "id" }] } },
      { id: "n", type: "notice", content: "?" },
      {
        id: "t",
        timestamp: "not a time",
        type: "user",
        content: [{ fileData: { fileUri: "gs://x" } }, 7],
      },
      {
        id: "g",
        type: "gemini",
        content: "x",
        tokens: { input: -1 },
        thoughts: [3, { subject: "s" }],
        toolCalls: [5],
      },
    );
    const texts = [jsonText, jsonlText, odd].filter((text): text is string => text !== undefined);
    const listed = new Set(geminiCliLosses.map((loss) => loss.code));
    const seen = new Set<string>();
    for (const text of texts) for (const code of Object.keys(read(text).counts)) seen.add(code);
    for (const code of seen) expect(listed.has(code), code).toBe(true);
    // The odd records alone bring 4 codes; the real recordings (where ../shared is) more.
    expect(seen.size).toBeGreaterThan(jsonText === undefined || jsonlText === undefined ? 3 : 8);
  });

  it("are unique, prefixed with the harness id, and described", () => {
    const codes = geminiCliLosses.map((loss) => loss.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const loss of geminiCliLosses) {
      expect(loss.code.startsWith("gemini_cli.")).toBe(true);
      expect(loss.description.length).toBeGreaterThan(20);
    }
  });
});
