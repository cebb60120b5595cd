import { describe, expect, it } from "vitest";
import { parseQuery } from "./query.js";
import { sessionTexts } from "./session-text.js";

const at = "2026-01-01T00:00:00.000Z";

describe("sessionTexts", () => {
  it("indexes texts, reasoning, tool inputs and outputs, compaction summaries and subagents by ordinal", () => {
    const texts = sessionTexts({
      meta: { id: "a", timestamp: at },
      messages: [
        { role: "user", timestamp: at, content: [{ type: "text", text: "run it" }] },
        {
          role: "assistant",
          timestamp: at,
          content: [
            { type: "thinking", text: "plan" },
            { type: "tool_use", id: "c1", tool: { name: "Bash", input: { command: "npm test" } } },
            { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
          ],
        },
        {
          role: "user",
          timestamp: at,
          content: [
            { type: "tool_result", toolUseId: "c1", content: { out: ["3 failed"] }, isError: true },
          ],
        },
        {
          role: "user",
          timestamp: at,
          content: [{ type: "compaction", summary: "we ran the tests" }],
        },
        {
          role: "assistant",
          timestamp: at,
          content: [
            { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
          ],
        },
      ],
      subagents: [
        {
          id: "sub",
          toolUseId: "c1",
          messages: [
            { role: "assistant", timestamp: at, content: [{ type: "text", text: "inner" }] },
          ],
        },
      ],
    });
    expect(texts).toEqual([
      { ordinal: 1, role: "user", text: "run it" },
      { ordinal: 2, role: "assistant", text: "plan\nBash npm test" },
      { ordinal: 3, role: "user", text: "3 failed" },
      { ordinal: 4, role: "user", text: "we ran the tests" },
      { ordinal: 2, role: "subagent assistant", text: "inner" },
    ]);
  });
});

describe("parseQuery", () => {
  it("quotes every term and keeps phrases whole", () => {
    expect(parseQuery('fix "flaky upload" NOT x*')).toEqual({
      match: '"fix" "flaky upload" "NOT" "x*"',
      terms: ["fix", "flaky upload", "NOT", "x*"],
    });
    expect(parseQuery('say "he said ""hi"""').match).toBe('"say" "he said" "hi"');
  });
});
