import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { commonCodec, type Transcript, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { fixtureNames, fixturesDir, realExport } from "./test-support.js";

function read(file: string): { text: string; transcript: Transcript; warnings: Warning[] } {
  const text = readFileSync(file, "utf8");
  const warnings: Warning[] = [];
  const transcript = ampCodec.toCommon(ampCodec.parse(text, { file }), {
    onWarning: (warning) => warnings.push(warning),
  });
  return { text, transcript, warnings };
}

/** Every tool_use is answered by exactly one later tool_result, and every result answers an earlier call. */
function pairing(transcript: Transcript): { calls: number; unpaired: string[] } {
  const calls = new Map<string, number>();
  const unpaired: string[] = [];
  for (const message of transcript.messages)
    for (const block of message.content) {
      if (block.type === "tool_use") calls.set(block.id, 0);
      if (block.type === "tool_result") {
        const seen = calls.get(block.toolUseId);
        if (seen === undefined || seen > 0) unpaired.push(`result ${block.toolUseId}`);
        else calls.set(block.toolUseId, 1);
      }
    }
  for (const [id, seen] of calls) if (seen === 0) unpaired.push(`call ${id}`);
  return { calls: calls.size, unpaired };
}

describe("fixtures/amp", () => {
  it("has the legacy-era and export-era fixtures", () => {
    expect(fixtureNames()).toEqual([
      "export-thread.json",
      "legacy-thread.json",
      "read-gaps-thread.json",
    ]);
  });
  for (const name of fixtureNames()) {
    describe(name, () => {
      const file = path.join(fixturesDir, name);
      it("converts to its .common.json", () => {
        const expected = commonCodec.parse(
          readFileSync(file.replace(/\.json$/, ".common.json"), "utf8"),
        );
        expect(read(file).transcript).toEqual(commonCodec.toCommon(expected));
      });
      it("pairs every tool call with its result", () => {
        const { calls, unpaired } = pairing(read(file).transcript);
        expect(calls).toBeGreaterThan(0);
        expect(unpaired).toEqual([]);
      });
    });
  }

  it("legacy-thread covers every run status, both tool eras, images, thinking and every state", () => {
    const { transcript, warnings } = read(path.join(fixturesDir, "legacy-thread.json"));
    const blocks = transcript.messages.flatMap((message) => message.content);
    const tools = blocks.flatMap((block) => (block.type === "tool_use" ? [block.tool] : []));
    expect(tools.map((tool) => (tool.name === "Raw" ? `Raw:${tool.toolName}` : tool.name))).toEqual(
      [
        "Read",
        "Bash",
        "Edit",
        "Write",
        "Glob",
        "Grep",
        "Bash",
        "Raw:finder",
        "TodoWrite",
        "WebFetch",
        "Task",
        "Raw:mcp__github__create_issue",
      ],
    );
    const results = blocks.flatMap((block) => (block.type === "tool_result" ? [block] : []));
    expect(results.filter((result) => result.isError).map((result) => result.content)).toEqual([
      "old_str not found in /Users/dev/my proj/src/range.rs",
      "Do not add test files yet.",
      "tool run cancelled",
      "MCP server github is not connected",
    ]);
    expect(blocks.some((block) => block.type === "image")).toBe(true);
    expect(blocks.some((block) => block.type === "thinking" && block.signature !== undefined)).toBe(
      true,
    );
    const assistants = transcript.messages.filter((message) => message.role === "assistant");
    expect(assistants.map((message) => message.stopReason)).toEqual([
      "tool_use",
      "tool_use",
      "tool_use",
      "aborted",
      "tool_use",
      undefined,
    ]);
    expect(new Set(warnings.map((warning) => warning.code))).toEqual(
      new Set([
        "amp.thread-metadata",
        "amp.message-bookkeeping",
        "amp.run-details",
        "amp.status-collapsed",
        "amp.image-source-path",
        "amp.assistant-state",
      ]),
    );
    // Each kind on its own line: one rejected-by-user run and one cancelled run, not "2 × rejected".
    expect(
      warnings
        .filter((warning) => warning.code === "amp.status-collapsed")
        .map((warning) => [warning.message, warning.count]),
    ).toEqual([
      ['a "rejected-by-user" tool run became an error result', 1],
      ['a "cancelled" tool run became an error result', 1],
    ]);
    expect(warnings.find((warning) => warning.code === "amp.assistant-state")?.message).toBe(
      "an unfinished (streaming) assistant turn has no stop reason",
    );
  });

  it("export-thread skips parent and info roles and manual_bash_invocation, with warnings", () => {
    const { transcript, warnings } = read(path.join(fixturesDir, "export-thread.json"));
    expect(transcript.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const codes = warnings.map((warning) => [warning.code, warning.count, warning.message]);
    expect(codes).toContainEqual([
      "amp.unmodeled-role",
      1,
      'a message with "parent" role was skipped',
    ]);
    expect(codes).toContainEqual([
      "amp.unmodeled-role",
      1,
      'a message with "info" role was skipped',
    ]);
    expect(codes).toContainEqual([
      "amp.unmodeled-block",
      1,
      'a "manual_bash_invocation" block has no Common counterpart',
    ]);
    expect(transcript.meta.cwd).toBe("/home/dev/über");
    const thinking = transcript.messages[1]?.content[0];
    expect(thinking).toEqual({
      type: "thinking",
      text: "",
      signature: "gAAAAABsig",
      encrypted: "gAAAAABenc",
      provider: "openai",
    });
  });

  it("read-gaps-thread reads what used to vanish silently, or names each kind it drops (issue 13)", () => {
    const { transcript, warnings } = read(path.join(fixturesDir, "read-gaps-thread.json"));
    // String content is one text block, on a prompt and on an assistant turn.
    expect(transcript.messages[0]?.content).toEqual([
      { type: "text", text: "Run the two checks, then stop." },
    ]);
    expect(transcript.messages[3]?.content).toEqual([
      { type: "text", text: "The checks did not run." },
    ]);
    expect(transcript.messages.map((message) => message.stopReason)).toEqual([
      undefined,
      "tool_use",
      undefined,
      "error",
      undefined,
      undefined,
    ]);
    // A zone-less usage time is UTC.
    expect(transcript.messages[1]?.timestamp).toBe("2026-01-13T10:26:42.000Z");
    expect(transcript.messages[3]?.usage?.cacheReadInputTokens).toBe(0);
    expect(
      warnings
        .filter(
          (warning) =>
            !warning.code.endsWith("bookkeeping") && warning.code !== "amp.thread-metadata",
        )
        .map((warning) => [warning.code, warning.message, warning.count]),
    ).toEqual([
      ["amp.incomplete-usage", "a usage without both token counts was not carried", 1],
      ["amp.status-collapsed", 'a "cancelled" tool run became an error result', 1],
      ["amp.status-collapsed", 'a "rejected-by-user" tool run became an error result', 1],
      ["amp.user-usage", "a user message's usage was not carried", 1],
      [
        "amp.inexact-cache-count",
        "a cacheReadInputTokens that is not a token count was read as 0",
        1,
      ],
      ["amp.assistant-state", "an unfinished (streaming) assistant turn has no stop reason", 1],
    ]);
  });
});

describe("../shared/real/amp-export-convo.json", () => {
  const present = existsSync(realExport);
  if (!present) {
    console.warn(`skipping the real Amp export tests: ${realExport} is absent`);
    it.skip("skipped: ../shared/real/amp-export-convo.json is absent", () => {});
    return;
  }
  it("round-trips byte-exact", () => {
    const text = readFileSync(realExport, "utf8");
    expect(ampCodec.serialize(ampCodec.parse(text))).toBe(text);
  });
  it("converts with every tool call paired to its result", () => {
    const { transcript } = read(realExport);
    expect(transcript.messages).toHaveLength(24);
    expect(pairing(transcript)).toEqual({ calls: 11, unpaired: [] });
    const names = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) =>
        block.type === "tool_use"
          ? [block.tool.name === "Raw" ? block.tool.toolName : block.tool.name]
          : [],
      ),
    );
    expect(new Set(names)).toEqual(new Set(["Bash", "apply_patch", "skill", "Task"]));
    expect(transcript.meta).toMatchObject({ cwd: "/tmp/amp-elicit", model: "gpt-5.6-sol" });
  });
  it("carries every assistant turn's usage and timestamp", () => {
    const { transcript } = read(realExport);
    const document = JSON.parse(readFileSync(realExport, "utf8")) as {
      messages: { role: string; usage?: { timestamp: string; outputTokens: number } }[];
    };
    const expected = document.messages.flatMap((message) =>
      message.role === "assistant" && message.usage
        ? [[message.usage.timestamp, message.usage.outputTokens]]
        : [],
    );
    const actual = transcript.messages.flatMap((message) =>
      message.role === "assistant" ? [[message.timestamp, message.usage?.outputTokens]] : [],
    );
    expect(actual).toEqual(expected);
  });
});
