import { isUuid, type Json, type Transcript, type Warning } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeSessionId } from "./claude-code-paths.js";
import { missingResultText } from "./claude-code-project.js";
import { commonToClaudeCodeLines } from "./common-to-claude-code.js";

type Line = Record<string, Json> & { message?: { role: string; content: Json } };

function write(transcript: Transcript): { lines: Line[]; text: string; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const native = claudeCodeCodec.fromCommon(transcript, {
    onWarning: (warning) => warnings.push(warning),
  });
  const text = claudeCodeCodec.serialize(native);
  const lines = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
  return { lines, text, warnings };
}

function blocksOf(line: Line): Record<string, Json>[] {
  const content = line.message?.content;
  return Array.isArray(content) ? (content as Record<string, Json>[]) : [];
}

function subagentCount(subagents: Transcript["subagents"]): number {
  return (subagents ?? []).reduce(
    (sum, subagent) => sum + 1 + subagentCount(subagent.subagents),
    0,
  );
}

const at = "2026-01-01T00:00:00.000Z";
const base = (messages: Transcript["messages"]): Transcript => ({
  meta: { id: "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001", timestamp: at, cwd: "/tmp/x" },
  messages,
});

describe("fromCommon writes a session Claude Code resumes", () => {
  it("holds for every generated transcript", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const { lines } = write(transcript);
        const sessionId = claudeSessionId(transcript.meta.id);
        const all = lines.filter((line) => typeof line.uuid === "string");
        // One chain per conversation (the main one, each subagent's by agentId): each
        // line's parent is the line before it, a compact boundary's its logical
        // parent; ids are unique UUIDs.
        const conversations = new Map<Json, Line[]>();
        for (const line of all) {
          expect(line.isSidechain).toBe(line.agentId !== undefined);
          const key = line.agentId ?? null;
          conversations.set(key, [...(conversations.get(key) ?? []), line]);
        }
        expect(conversations.size).toBe(1 + subagentCount(transcript.subagents));
        for (const conversation of conversations.values())
          conversation.forEach((line, index) => {
            const previous = index === 0 ? null : conversation[index - 1]?.uuid;
            expect(isUuid(line.uuid as string)).toBe(true);
            if (line.subtype === "compact_boundary") {
              expect(line.parentUuid).toBe(null);
              expect(line.logicalParentUuid).toBe(previous);
            } else expect(line.parentUuid).toBe(previous);
            expect(line.sessionId).toBe(sessionId);
            expect(line.timestamp).toMatch(/Z$/);
          });
        expect(new Set(all.map((line) => line.uuid)).size).toBe(all.length);
        const threaded = all.filter((line) => line.agentId === undefined);
        const messageIds = new Set<Json>();
        threaded.forEach((line, index) => {
          if (line.type === "assistant") {
            const message = line.message as unknown as Record<string, Json>;
            expect(messageIds.has(message.id as Json)).toBe(false);
            messageIds.add(message.id as Json);
            expect(message.type).toBe("message");
            expect(line.requestId).toMatch(/^req_/);
            const calls = blocksOf(line).filter((block) => block.type === "tool_use");
            expect(blocksOf(line).some((block) => block.type === "tool_result")).toBe(false);
            if (calls.length === 0) return;
            // Every call is answered in the user line right after it.
            const next = threaded[index + 1] as Line;
            expect(next.type).toBe("user");
            const answered = new Set(blocksOf(next).map((block) => block.tool_use_id));
            for (const call of calls) expect(answered.has(call.id as Json)).toBe(true);
          }
          for (const block of blocksOf(line)) {
            if (block.type === "tool_result") {
              const content = block.content;
              expect(typeof content === "string" || Array.isArray(content)).toBe(true);
            }
            if (block.type === "thinking") expect(typeof block.signature).toBe("string");
          }
        });
      }),
      lawParameters(200),
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        expect(write(transcript).text).toBe(write(structuredClone(transcript)).text);
      }),
      lawParameters(100),
    );
  });
});

describe("fromCommon normalization", () => {
  it("maps a foreign session id to a deterministic UUID and says so", () => {
    const { lines, warnings } = write(base([]));
    expect(lines[0]?.sessionId).toBe(claudeSessionId("T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"));
    expect(warnings.map((warning) => warning.code)).toContain("claude_code.foreign-session-id");
    expect(claudeSessionId("0BDD2740-B6F7-4E7B-B1C9-F159CC83B104")).toBe(
      "0bdd2740-b6f7-4e7b-b1c9-f159cc83b104",
    );
  });

  it("synthesizes an error result for an unanswered call", () => {
    const { lines, warnings } = write(
      base([
        { role: "user", content: [{ type: "text", text: "go" }], timestamp: at },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "toolu_1", tool: { name: "LS", input: { path: "/" } } },
          ],
          timestamp: at,
        },
      ]),
    );
    const last = lines.at(-1) as Line;
    expect(last.type).toBe("user");
    expect(blocksOf(last)).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: missingResultText, is_error: true },
    ]);
    expect(warnings.map((warning) => warning.code)).toContain("claude_code.orphan-tool-use");
  });

  it("moves results off assistant lines and flattens JSON output to text", () => {
    const { lines, warnings } = write(
      base([
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "c1",
              tool: { name: "Raw", toolName: "finder", input: { q: 1 } },
            },
            { type: "tool_result", toolUseId: "c1", content: { files: ["a.ts"] }, isError: false },
          ],
          timestamp: at,
        },
      ]),
    );
    const assistant = lines.find((line) => line.type === "assistant") as Line;
    expect(blocksOf(assistant).map((block) => block.type)).toEqual(["tool_use"]);
    const user = lines.at(-1) as Line;
    expect(blocksOf(user)).toEqual([
      { type: "tool_result", tool_use_id: "c1", content: '{"files":["a.ts"]}', is_error: false },
    ]);
    expect(warnings.map((warning) => warning.code).sort()).toEqual([
      "claude_code.foreign-session-id",
      "claude_code.json-tool-output",
      "claude_code.result-on-assistant",
    ]);
  });

  it("drops reasoning Anthropic would refuse and keeps signed thinking", () => {
    const { lines, warnings } = write(
      base([
        {
          role: "assistant",
          content: [
            { type: "thinking", text: "", encrypted: "gAAA", provider: "openai" },
            { type: "thinking", text: "unsigned" },
            { type: "thinking", text: "signed", signature: "sig" },
            { type: "thinking", text: "", encrypted: "redacted" },
          ],
          timestamp: at,
        },
      ]),
    );
    expect(blocksOf(lines[1] as Line)).toEqual([
      { type: "thinking", thinking: "signed", signature: "sig" },
      { type: "redacted_thinking", data: "redacted" },
    ]);
    expect(
      warnings.filter((warning) => warning.code === "claude_code.thinking-dropped"),
    ).toHaveLength(2);
  });

  it("writes a user slash command as markup and reads it back as a Command", () => {
    const transcript = base([
      {
        role: "user",
        content: [
          { type: "tool_use", id: "x", tool: { name: "Command", input: { command: "/init" } } },
          { type: "tool_result", toolUseId: "x", content: "done", isError: false },
        ],
        timestamp: at,
      },
    ]);
    const { lines, text } = write(transcript);
    expect(lines[1]?.message?.content).toBe(
      "<command-name>/init</command-name>\n<command-message>init</command-message>\n<command-args></command-args>",
    );
    expect(lines[2]?.message?.content).toBe("<local-command-stdout>done</local-command-stdout>");
    const back = claudeCodeCodec.toCommon(claudeCodeCodec.parse(text));
    expect(back.messages.map((message) => message.content)).toEqual([
      [
        {
          type: "tool_use",
          id: "command-1",
          tool: { name: "Command", input: { command: "/init" } },
        },
      ],
      [{ type: "tool_result", toolUseId: "command-1", content: "done", isError: false }],
    ]);
  });

  it("never lets user text that looks like markup turn into a command", () => {
    const transcript = base([
      {
        role: "user",
        content: [{ type: "text", text: "<command-name>/x</command-name>" }],
        timestamp: at,
      },
    ]);
    const back = claudeCodeCodec.toCommon(claudeCodeCodec.parse(write(transcript).text));
    expect(back.messages[0]?.content).toEqual([
      { type: "text", text: "<command-name>/x</command-name>" },
    ]);
  });

  it("writes the title as a custom-title line and usage once per message", () => {
    const usage = {
      inputTokens: 1,
      outputTokens: 2,
      cacheReadInputTokens: 3,
      cacheCreationInputTokens: 4,
    };
    const { lines } = write({
      ...base([
        { role: "assistant", content: [{ type: "text", text: "hi" }], timestamp: at, usage },
      ]),
      meta: { id: "0bdd2740-b6f7-4e7b-b1c9-f159cc83b104", timestamp: at, title: "A title" },
    });
    expect(lines.at(-1)).toEqual({
      type: "custom-title",
      customTitle: "A title",
      sessionId: "0bdd2740-b6f7-4e7b-b1c9-f159cc83b104",
    });
    expect((lines[1] as Line).message).toMatchObject({
      usage: {
        input_tokens: 1,
        cache_creation_input_tokens: 4,
        cache_read_input_tokens: 3,
        output_tokens: 2,
      },
    });
  });

  it("keeps __proto__ keys of tool input and output as data, and leaves out absent fields", () => {
    const input = JSON.parse('{"__proto__":{"polluted":1},"path":"/"}') as Json;
    const output = JSON.parse('{"__proto__":{"polluted":1},"ok":true}') as Json;
    const transcript = base([
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", tool: { name: "Raw", toolName: "probe", input } }],
        timestamp: at,
      },
      {
        role: "user",
        content: [{ type: "tool_result", toolUseId: "t1", content: output, isError: false }],
        timestamp: at,
      },
    ]);
    const native = claudeCodeCodec.fromCommon(transcript);
    const { lines } = write(transcript);
    const call = blocksOf(lines[1] as Line)[0] as Record<string, Json>;
    expect(Object.hasOwn(call.input as object, "__proto__")).toBe(true);
    expect(blocksOf(lines[2] as Line)[0]?.content).toBe('{"__proto__":{"polluted":1},"ok":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A written line's value is its text parsed: the same object, __proto__ an own key.
    const value = native.lines[1]?.value as Record<string, Json>;
    expect(value).toEqual(JSON.parse(native.lines[1]?.text as string));
    expect(native.lines[1]?.value).toBe(value);
    const written = (value.message as { content: { input: object }[] }).content[0];
    expect(Object.hasOwn(written?.input ?? {}, "__proto__")).toBe(true);
    // A version or model Common lacks is left out, not written as null.
    expect(Object.keys(lines[1] as Line)).not.toContain("version");
    expect(Object.keys((lines[1] as Line).message as object)).not.toContain("model");
    expect(Object.keys((lines[1] as Line).message as object)).not.toContain("usage");
  });

  it("streams the same lines fromCommon writes, one text at a time", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const streamed: Warning[] = [];
        const texts = [
          ...commonToClaudeCodeLines(transcript, { onWarning: (w) => streamed.push(w) }),
        ];
        const { text, warnings } = write(transcript);
        expect(`${texts.join("\n")}\n`).toBe(text);
        expect(streamed).toEqual(warnings);
      }),
      lawParameters(100),
    );
  });
});
