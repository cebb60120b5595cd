import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateTranscript } from "../common-codec.js";
import { canonicalStopReasons } from "../model.js";
import { typedToolNames } from "../tools.js";
import { oddShapesArbitrary, transcriptArbitrary } from "./index.js";

describe("transcriptArbitrary", () => {
  const samples = fc.sample(transcriptArbitrary(), { numRuns: 1500, seed: 42 });
  const blocks = samples.flatMap((transcript) =>
    transcript.messages.flatMap((message) => message.content),
  );
  const messages = samples.flatMap((transcript) => transcript.messages);

  it("generates only valid transcripts", () => {
    for (const transcript of samples) expect(() => validateTranscript(transcript)).not.toThrow();
  });
  it("covers every block kind", () => {
    expect(new Set(blocks.map((block) => block.type))).toEqual(
      new Set(["text", "thinking", "tool_use", "tool_result", "image", "compaction"]),
    );
  });
  it("covers every Common v2 addition", () => {
    const compactions = blocks.filter((block) => block.type === "compaction");
    expect(
      compactions.some((block) => block.history !== undefined && block.history.length > 0),
    ).toBe(true);
    expect(
      compactions.some((block) => block.trigger !== undefined && block.preTokens !== undefined),
    ).toBe(true);
    for (const message of messages)
      if (message.content.some((block) => block.type === "compaction"))
        expect(message.content).toHaveLength(1);
    const kinds = new Set(
      messages.flatMap((message) => (message.context ? [message.context.kind] : [])),
    );
    expect(kinds).toEqual(new Set(["system", "developer", "injected"]));
    const subagents = samples.flatMap((transcript) => transcript.subagents ?? []);
    const callIds = new Set(
      blocks.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
    );
    expect(
      subagents.some(
        (subagent) => subagent.toolUseId !== undefined && callIds.has(subagent.toolUseId),
      ),
    ).toBe(true);
    expect(subagents.some((subagent) => subagent.toolUseId === undefined)).toBe(true);
    expect(subagents.some((subagent) => (subagent.subagents?.length ?? 0) > 0)).toBe(true);
    expect(samples.some((transcript) => transcript.meta.lineage !== undefined)).toBe(true);
    const usages = messages.flatMap((message) => (message.usage ? [message.usage] : []));
    expect(usages.some((usage) => usage.costUsd !== undefined)).toBe(true);
    expect(usages.some((usage) => usage.reasoningOutputTokens !== undefined)).toBe(true);
  });
  it("odd shapes stay valid transcripts and include orphan results and duplicate ids", () => {
    const odd = fc.sample(oddShapesArbitrary(), { numRuns: 800, seed: 7 });
    for (const transcript of odd) expect(() => validateTranscript(transcript)).not.toThrow();
    const orphan = odd.some((transcript) => {
      const calls = new Set(
        transcript.messages.flatMap((message) =>
          message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
        ),
      );
      return transcript.messages.some((message) =>
        message.content.some(
          (block) => block.type === "tool_result" && !calls.has(block.toolUseId),
        ),
      );
    });
    expect(orphan).toBe(true);
    const duplicate = odd.some((transcript) => {
      const ids = transcript.messages.flatMap((message) =>
        message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
      );
      return new Set(ids).size < ids.length;
    });
    expect(duplicate).toBe(true);
  });
  it("covers every typed tool and Raw tools, including Raw under canonical names", () => {
    const tools = blocks.flatMap((block) => (block.type === "tool_use" ? [block.tool] : []));
    const names = new Set(tools.map((tool) => tool.name));
    for (const name of [...typedToolNames, "Raw"]) expect(names, name).toContain(name);
    expect(
      tools.some(
        (tool) => tool.name === "Raw" && (typedToolNames as string[]).includes(tool.toolName),
      ),
    ).toBe(true);
    expect(
      tools.some(
        (tool) => tool.name === "Raw" && JSON.stringify(tool.input).includes('"__proto__"'),
      ),
    ).toBe(true);
  });
  it("covers JSON and error tool results, usage and every canonical stop reason", () => {
    const results = blocks.flatMap((block) => (block.type === "tool_result" ? [block] : []));
    expect(results.some((result) => typeof result.content !== "string")).toBe(true);
    expect(results.some((result) => result.isError)).toBe(true);
    expect(messages.some((message) => message.usage !== undefined)).toBe(true);
    const reasons = new Set(messages.map((message) => message.stopReason));
    for (const reason of canonicalStopReasons) expect(reasons, reason).toContain(reason);
  });
  it("covers astral Unicode, empty strings and edge whitespace", () => {
    const texts = blocks.flatMap((block) => (block.type === "text" ? [block.text] : []));
    expect(texts).toContain("");
    expect(texts.some((text) => /[\u{10000}-\u{10FFFF}]/u.test(text))).toBe(true);
    expect(texts.some((text) => text !== text.trim())).toBe(true);
  });
  it("pairs every tool result with an earlier tool_use of a unique id", () => {
    for (const transcript of samples) {
      const seen = new Set<string>();
      for (const message of transcript.messages) {
        for (const block of message.content) {
          if (block.type === "tool_use") {
            expect(seen.has(block.id)).toBe(false);
            seen.add(block.id);
          }
          if (block.type === "tool_result") expect(seen.has(block.toolUseId)).toBe(true);
        }
      }
    }
  });
});
