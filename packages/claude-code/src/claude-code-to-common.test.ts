import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { type Transcript, TxcriptError, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const real = path.resolve(repoRoot, "../shared/real/claude-code");
const fixture = (name: string) =>
  readFileSync(path.join(repoRoot, "fixtures/claude-code", name), "utf8");

function read(text: string): { transcript: Transcript; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const transcript = claudeCodeCodec.toCommon(claudeCodeCodec.parse(text), {
    onWarning: (warning) => warnings.push(warning),
  });
  return { transcript, warnings };
}

function counts(warnings: Warning[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const warning of warnings) out[warning.code] = (out[warning.code] ?? 0) + warning.count;
  return out;
}

/** A real capture, read in place; the test is skipped (visibly, by name) when ../shared is absent. */
function readReal(name: string, context: { skip: (note?: string) => void }): string {
  try {
    return readFileSync(path.join(real, name), "utf8");
  } catch {
    context.skip(`${path.join(real, name)} is absent`);
    throw new Error("unreachable: skip() throws");
  }
}

describe("claudeCodeCodec.parse", () => {
  it("reports a broken line with its line and column", () => {
    try {
      claudeCodeCodec.parse('{"type":"user"}\n{"type": nope}\n', { file: "s.jsonl" });
      expect.unreachable();
    } catch (error) {
      expect(TxcriptError.isInstance(error)).toBe(true);
      expect((error as TxcriptError).code).toBe("INVALID_JSON");
      expect((error as TxcriptError).location).toMatchObject({ file: "s.jsonl", line: 2 });
    }
  });
  it("refuses a line that is JSON but not an object", () => {
    expect(() => claudeCodeCodec.parse('{"type":"user"}\n[1,2]\n')).toThrowError(
      expect.objectContaining({ code: "INVALID_DOCUMENT", location: { line: 2 } }),
    );
  });
  it("keeps blank lines, CRs and a missing final newline byte for byte", () => {
    for (const text of ['{"a":1}\r\n\n{"b":2}', '\n\n{"type":"x"}\n', "", "\n"]) {
      expect(claudeCodeCodec.serialize(claudeCodeCodec.parse(text))).toBe(text);
    }
  });
});

describe("claudeCodeCodec.detect", () => {
  it("recognizes session lines and bookkeeping lines", () => {
    expect(claudeCodeCodec.detect(fixture("split-messages.jsonl"))).toBe(true);
    expect(claudeCodeCodec.detect('{"type":"summary","summary":"x","leafUuid":"u"}\n')).toBe(true);
  });
  it("does not claim stream-json, Amp documents or Common documents", () => {
    expect(
      claudeCodeCodec.detect(
        '{"type":"system","subtype":"init","session_id":"s","cwd":"/"}\n{"type":"user","message":{"role":"user","content":"hi"},"session_id":"s","parent_tool_use_id":null}\n',
      ),
    ).toBe(false);
    expect(claudeCodeCodec.detect('{\n  "v": 1,\n  "id": "T-1",\n  "messages": []\n}\n')).toBe(
      false,
    );
    expect(claudeCodeCodec.detect('{"format":"txcript.common/v1","meta":{}}')).toBe(false);
    expect(claudeCodeCodec.detect("not json at all")).toBe(false);
  });
});

describe("claudeCodeCodec.toCommon", () => {
  it("merges an API message split over lines by message.id, keeping ccusage's usage", () => {
    const { transcript, warnings } = read(fixture("split-messages.jsonl"));
    const assistant = transcript.messages[1];
    expect(assistant?.content.map((block) => block.type)).toEqual([
      "thinking",
      "text",
      "tool_use",
      "tool_use",
    ]);
    // The last part carries the largest usage (131 output tokens, the final count).
    expect(assistant?.usage).toEqual({
      inputTokens: 12,
      outputTokens: 131,
      cacheReadInputTokens: 12000,
      cacheCreationInputTokens: 4100,
    });
    expect(assistant?.stopReason).toBe("tool_use");
    // The repeated line (same uuid) is read once.
    expect(transcript.messages.filter((message) => message.role === "user")).toHaveLength(3);
    expect(counts(warnings)).toEqual({
      "claude_code.duplicate-line": 1,
      "claude_code.bookkeeping-lines": 2,
      "claude_code.tool-use-result": 2,
      "claude_code.usage-details": 10,
    });
  });

  it("maps slash-command markup to Command calls with their output as results", () => {
    const { transcript } = read(fixture("slash-commands.jsonl"));
    const blocks = transcript.messages.flatMap((message) => message.content);
    const commands = blocks.filter((block) => block.type === "tool_use");
    expect(commands.map((block) => block.type === "tool_use" && block.tool)).toEqual([
      { name: "Command", input: { command: "/model", args: "opus" } },
      { name: "Command", input: { command: "/review", args: "src/login.ts" } },
      { name: "Command", input: { command: "/cost" } },
      { name: "Command", input: { command: "/frobnicate" } },
    ]);
    const results = blocks.filter((block) => block.type === "tool_result");
    expect(results).toEqual([
      {
        type: "tool_result",
        toolUseId: "command-1",
        content: "Set model to \u001b[1mopus (claude-opus-4-5-20251101)\u001b[22m",
        isError: false,
      },
      {
        type: "tool_result",
        toolUseId: "command-3",
        content: "Total cost: $0.0421",
        isError: false,
      },
      {
        type: "tool_result",
        toolUseId: "command-4",
        content: "Unknown slash command: frobnicate",
        isError: true,
      },
    ]);
    // The expanded prompt of /review stays what the model saw: user text.
    expect(transcript.messages[4]?.content[0]).toMatchObject({ type: "text" });
  });

  it("takes the title from custom-title over summary and ai-title, the last one winning", () => {
    expect(read(fixture("custom-title.jsonl")).transcript.meta.title).toBe("retry helper — notes");
  });

  it("ignores a summary whose leafUuid names a line of another session", () => {
    const { transcript } = read(fixture("summary-title.jsonl"));
    expect(transcript.meta.title).toBe("Rename the config loader");
    const dangling = fixture("summary-title.jsonl").split("\n").slice(0, 1).join("\n");
    expect(read(`${dangling}\n${fixture("images.jsonl")}`).transcript.meta.title).toBeUndefined();
  });

  it("follows the chain from the last line: abandoned branches are left out, the inline subagent is carried", () => {
    const { transcript, warnings } = read(fixture("summary-title.jsonl"));
    const texts = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])),
    );
    expect(texts).not.toContain("yes, with sed");
    expect(texts).not.toContain("List every file that calls loadCfg.");
    expect(texts).toContain("no, edit them by hand so I can review each change");
    expect(counts(warnings)).toMatchObject({ "claude_code.branch": 2 });
    expect(counts(warnings)["claude_code.sidechain"]).toBeUndefined();
    // The 1.0.x sidechain (no agentId) is linked by its prompt to the Task call that spawned it.
    expect(transcript.subagents).toHaveLength(1);
    const [subagent] = transcript.subagents ?? [];
    expect(subagent).toMatchObject({
      id: "c3000000-0000-4000-8000-000000000003",
      toolUseId: "toolu_01SumTaskAAAAAAAAAAAAAA",
      title: "Find loadCfg uses",
      agentType: "general-purpose",
    });
    expect(subagent?.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(subagent?.messages[0]?.content).toEqual([
      { type: "text", text: "List every file that calls loadCfg." },
    ]);
  });

  it("reads a subagent file (only sidechain lines) as its own conversation", (context) => {
    const text = readReal("fasthooks-sidechain-2.0.76.jsonl", context);
    const { transcript } = read(text);
    expect(transcript.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(transcript.messages[0]?.content).toEqual([{ type: "text", text: "Warmup" }]);
  });

  it("crosses a compact boundary and marks it with the summary, trigger and token count", () => {
    const { transcript, warnings } = read(fixture("compaction.jsonl"));
    const texts = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])),
    );
    expect(texts[0]).toBe("print the date");
    expect(texts.some((text) => text.startsWith("This session is being continued"))).toBe(false);
    expect(texts.at(-1)).toBe("Mercredi.");
    const markers = transcript.messages.filter(
      (message) => message.content[0]?.type === "compaction",
    );
    expect(markers).toHaveLength(1);
    expect(markers[0]).toMatchObject({
      role: "user",
      timestamp: "2026-04-01T07:05:00.000Z",
      content: [{ type: "compaction", trigger: "manual", preTokens: 12000 }],
    });
    const [marker] = markers[0]?.content ?? [];
    expect(marker?.type === "compaction" && marker.summary).toMatch(
      /^This session is being continued/,
    );
    expect(transcript.messages.indexOf(markers[0] as Transcript["messages"][number])).toBe(4);
    expect(counts(warnings)["claude_code.compact-summary"]).toBeUndefined();
  });

  it("marks the compaction when the history before the boundary is missing", () => {
    const lines = fixture("compaction.jsonl").trimEnd().split("\n").slice(6);
    const { transcript } = read(`${lines.join("\n")}\n`);
    const first = transcript.messages[0]?.content[0];
    expect(first).toMatchObject({ type: "compaction", trigger: "manual", preTokens: 12000 });
    expect(first?.type === "compaction" && first.summary).toMatch(
      /^This session is being continued/,
    );
  });

  it("keeps the history before a boundary whose logicalParentUuid is not in the file (2.1.39)", () => {
    const text = fixture("compaction-missing-parent.jsonl");
    const { transcript, warnings } = read(text);
    const calls = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
    );
    expect(calls).toEqual(["toolu_01CmpGrepAAAAAAAAAAAAAA", "toolu_01CmpReadAAAAAAAAAAAAAA"]);
    expect(transcript.messages.map((message) => message.content[0]?.type)).toEqual([
      "text",
      "tool_use",
      "tool_result",
      "text",
      "compaction",
      "text",
      "tool_use",
      "tool_result",
      "text",
    ]);
    expect(counts(warnings)["claude_code.branch"]).toBeUndefined();
    // The control: cut the boundary's fallback (the line before it) and the earlier history goes.
    const cut = text.trimEnd().split("\n").slice(4).join("\n");
    expect(read(cut).transcript.messages[0]?.content[0]?.type).toBe("compaction");
  });

  it("reads thinking, redacted thinking and API error messages", () => {
    const { transcript } = read(fixture("thinking.jsonl"));
    expect(transcript.messages[1]?.content.slice(0, 2)).toEqual([
      {
        type: "thinking",
        text: "sqrt(1009) < 32. Check 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31: none divides 1009.",
        signature: "EpcDCkYICxgCKkThinkSIGNATUREtwo==",
        provider: "anthropic",
      },
      {
        type: "thinking",
        text: "",
        encrypted: "EmwKAhgBEgy3redactedPAYLOAD==",
        provider: "anthropic",
      },
    ]);
    const error = transcript.messages[3];
    expect(error?.model).toBeUndefined();
    expect(error?.stopReason).toBe("stop_sequence");
  });

  it("reads images in prompts and in tool results", () => {
    const { transcript } = read(fixture("images.jsonl"));
    expect(transcript.messages[0]?.content[1]).toMatchObject({
      type: "image",
      source: { type: "base64", mediaType: "image/png" },
    });
    expect(transcript.messages[2]?.content[0]).toMatchObject({
      type: "tool_result",
      content: [{ type: "image", source: { type: "base64", media_type: "image/png" } }],
    });
  });

  it("reads the real 2.0.76 session: compaction, stop hooks, file snapshots", (context) => {
    const text = readReal("fasthooks-main-2.0.76.jsonl", context);
    const { transcript, warnings } = read(text);
    expect(transcript.meta).toMatchObject({
      id: "c45af7b1-cb7c-4e51-93db-8cbb250a877a",
      cwd: "/workspace",
      cliVersion: "2.0.76",
      model: "claude-haiku-4-5-20251001",
    });
    expect(transcript.meta.gitBranch).toBeUndefined();
    // Its 28 assistant lines are as many API messages as distinct message ids.
    const ids = new Set(
      text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line))
        .filter((line) => line.type === "assistant")
        .map((line) => line.message.id),
    );
    expect(ids.size).toBeLessThan(28);
    expect(transcript.messages.filter((message) => message.role === "assistant")).toHaveLength(
      ids.size,
    );
    const marker = transcript.messages.find((message) => message.content[0]?.type === "compaction");
    expect(marker?.content[0]).toMatchObject({ trigger: "manual", preTokens: 21558 });
    expect(counts(warnings)).toMatchObject({
      "claude_code.bookkeeping-lines": 15,
      "claude_code.tool-use-result": 10,
    });
  });

  it("reads the real 1.0.98 session with its inline subagents, each linked to its Task call", (context) => {
    const text = readReal("viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", context);
    const { transcript, warnings } = read(text);
    const raw = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const roots = raw.filter((line) => line.isSidechain === true && line.parentUuid === null);
    expect(transcript.subagents).toHaveLength(roots.length);
    const tasks = new Set(
      raw
        .filter((line) => line.type === "assistant" && line.isSidechain !== true)
        .flatMap((line) => line.message.content)
        .filter(
          (block: { type: string; name?: string }) =>
            block.type === "tool_use" && block.name === "Task",
        )
        .map((block: { id: string }) => block.id),
    );
    for (const subagent of transcript.subagents ?? [])
      expect(tasks.has(subagent.toolUseId as string)).toBe(true);
    // Every tool call of the sidechain lines reaches a subagent.
    const sideCalls = raw
      .filter((line) => line.type === "assistant" && line.isSidechain === true)
      .flatMap((line) => line.message.content)
      .filter((block: { type: string }) => block.type === "tool_use")
      .map((block: { id: string }) => block.id);
    const carried = new Set(
      (transcript.subagents ?? []).flatMap((subagent) =>
        subagent.messages.flatMap((message) =>
          message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
        ),
      ),
    );
    expect(sideCalls.filter((id: string) => !carried.has(id))).toEqual([]);
    expect(counts(warnings)["claude_code.sidechain"]).toBeUndefined();
    // Its summary line names the leaf of another session (viewer-1af7fc5e…): not this title.
    expect(transcript.meta.title).toBeUndefined();
    const calls = new Set(
      transcript.messages.flatMap((message) =>
        message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
      ),
    );
    const results = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_result" ? [block.toolUseId] : [])),
    );
    expect(results.every((id) => calls.has(id) || id.startsWith("command-"))).toBe(true);
  });
});
