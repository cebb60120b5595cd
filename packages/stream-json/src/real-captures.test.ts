// Real third-party captures in ../shared/real (read in place, never copied
// into the repository). Skips with a visible message when they are absent.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ampCodec } from "@txcript/amp";
import type { Block, Transcript, Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { realDirectory } from "./fixtures-support.js";
import { detectStreamJsonDialect, streamJsonCodec } from "./index.js";

const streamFile = path.join(realDirectory, "amp-stream-same-run.jsonl");
const threadFile = path.join(realDirectory, "amp-export-convo.json");
const present = existsSync(streamFile) && existsSync(threadFile);
if (!present) console.warn(`skipping real-capture tests: ${realDirectory} is not present`);

/** The blocks a stream-json capture without --stream-json-thinking can hold. */
function withoutThinking(transcript: Transcript): { role: string; content: Block[] }[] {
  return transcript.messages.map((message) => ({
    role: message.role,
    content: message.content.filter((block) => block.type !== "thinking"),
  }));
}

describe.skipIf(!present)("real Amp capture (amp -x --stream-json, CLI 0.0.1785170481)", () => {
  const text = present ? readFileSync(streamFile, "utf8") : "";
  it("round-trips byte for byte", () => {
    expect(streamJsonCodec.serialize(streamJsonCodec.parse(text))).toBe(text);
  });
  it("is detected as the Amp dialect", () => {
    expect(streamJsonCodec.detect(text)).toBe(true);
    expect(detectStreamJsonDialect(text)).toBe("amp");
  });
  it("normalizes Amp's tool names and inputs through Amp's dialect", () => {
    const transcript = streamJsonCodec.toCommon(streamJsonCodec.parse(text));
    const tools = transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.tool] : [])),
    );
    expect(tools).toHaveLength(11);
    expect(tools[1]).toEqual({
      name: "Bash",
      input: { command: "ls -la", workdir: "/tmp/amp-elicit" },
    });
    expect(
      tools
        .filter((tool) => tool.name === "Raw")
        .map((tool) => tool.name === "Raw" && tool.toolName),
    ).toEqual(["skill", "apply_patch", "apply_patch", "apply_patch"]);
  });
  it("carries every native tool call and result, none orphaned", () => {
    const native = text
      .trimEnd()
      .split("\n")
      .flatMap((line) => {
        const content = JSON.parse(line).message?.content;
        return Array.isArray(content)
          ? (content as { type: string; id?: string; tool_use_id?: string }[])
          : [];
      });
    const nativeCalls = native
      .filter((block) => block.type === "tool_use")
      .map((block) => block.id);
    const nativeResults = native
      .filter((block) => block.type === "tool_result")
      .map((block) => block.tool_use_id);
    const blocks = streamJsonCodec
      .toCommon(streamJsonCodec.parse(text))
      .messages.flatMap((message) => message.content);
    const calls = blocks.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
    const results = blocks.flatMap((block) =>
      block.type === "tool_result" ? [block.toolUseId] : [],
    );
    expect(nativeCalls.length).toBeGreaterThan(0);
    expect(calls).toEqual(nativeCalls);
    expect(results).toEqual(nativeResults);
    expect(results.filter((id) => !calls.includes(id))).toEqual([]);
  });
  it("reports the run statistics and init details it cannot carry", () => {
    const codes = new Set<string>();
    streamJsonCodec.toCommon(streamJsonCodec.parse(text), {
      onWarning: (warning: Warning) => codes.add(warning.code),
    });
    expect([...codes].sort()).toEqual([
      "stream_json.run-statistics",
      "stream_json.session-details",
      "stream_json.synthesized-timestamps",
      "stream_json.usage-details",
    ]);
  });
});

describe.skipIf(!present)("the same Amp run as a capture and as a thread document", () => {
  const stream = present
    ? streamJsonCodec.toCommon(streamJsonCodec.parse(readFileSync(streamFile, "utf8")))
    : undefined;
  const thread = present
    ? ampCodec.toCommon(ampCodec.parse(readFileSync(threadFile, "utf8")))
    : undefined;
  it("round-trips both files byte for byte, each through its own codec", () => {
    const threadText = readFileSync(threadFile, "utf8");
    const streamText = readFileSync(streamFile, "utf8");
    expect(ampCodec.serialize(ampCodec.parse(threadText))).toBe(threadText);
    expect(streamJsonCodec.serialize(streamJsonCodec.parse(streamText))).toBe(streamText);
  });
  it("tells the capture from the thread document", () => {
    expect(streamJsonCodec.detect(readFileSync(threadFile, "utf8"))).toBe(false);
    expect(ampCodec.detect(readFileSync(streamFile, "utf8"))).toBe(false);
  });
  it("is one session in one working directory", () => {
    expect(stream?.meta.id).toBe(thread?.meta.id);
    expect(stream?.meta.cwd).toBe(thread?.meta.cwd);
  });
  it("converts to the same conversation, block by block (thinking aside: the capture has none)", () => {
    const left = withoutThinking(stream as Transcript);
    const right = withoutThinking(thread as Transcript);
    expect(left.map((message) => message.role)).toEqual(right.map((message) => message.role));
    left.forEach((message, index) => {
      const other = right[index];
      expect(message.content.length, `message ${index}`).toBe(other?.content.length);
      message.content.forEach((block, position) => {
        // Same texts, same tool calls with the same normalized inputs, same
        // results paired to the same calls (JSON key order aside).
        expect(block, `message ${index} block ${position}`).toEqual(other?.content[position]);
      });
    });
    expect(left.flatMap((message) => message.content)).toHaveLength(35); // 1 prompt, 12 texts, 11 calls, 11 results
  });
  it("carries the same token counts on each assistant turn", () => {
    const usage = (transcript: Transcript | undefined) =>
      transcript?.messages
        .filter((message) => message.role === "assistant")
        .map((message) => message.usage);
    expect(usage(stream)).toEqual(usage(thread));
  });
});
