import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Transcript } from "./model.js";
import { lawParameters } from "./testing/index.js";
import { resolveRange, toText } from "./text.js";

const sample: Transcript = {
  meta: { id: "T-1", timestamp: "2026-01-01T00:00:00.000Z", title: "Fix it", cwd: "/w" },
  messages: [
    {
      role: "user",
      timestamp: "2026-01-01T00:00:01.000Z",
      content: [
        { type: "text", text: "fix the loop" },
        {
          type: "image",
          source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" },
        },
      ],
    },
    {
      role: "assistant",
      timestamp: "2026-01-01T00:00:02.000Z",
      model: "claude-opus-4-5",
      stopReason: "tool_use",
      content: [
        { type: "thinking", text: "check the bound" },
        {
          type: "tool_use",
          id: "toolu_1",
          tool: { name: "Bash", input: { command: "cargo test" } },
        },
      ],
    },
    {
      role: "user",
      timestamp: "2026-01-01T00:00:03.000Z",
      content: [{ type: "tool_result", toolUseId: "toolu_1", content: "1 failed", isError: true }],
    },
    {
      role: "assistant",
      timestamp: "2026-01-01T00:00:04.000Z",
      stopReason: "aborted",
      content: [{ type: "text", text: "done" }],
    },
  ],
};

describe("toText", () => {
  it("numbers messages, shows tool calls, results, thinking, and no base64", () => {
    const text = toText(sample);
    expect(text).toContain("#1 user");
    expect(text).toContain("#2 assistant 2026-01-01T00:00:02.000Z claude-opus-4-5");
    expect(text).toContain('→ Bash {"command":"cargo test"} [toolu_1]');
    expect(text).toContain("← error 1 failed [toolu_1]");
    expect(text).toContain("thinking: check the bound");
    expect(text).toContain("[image image/png, 16 bytes]");
    expect(text).toContain("[aborted]");
    expect(text).not.toContain("iVBORw0KGgo");
    expect(text).not.toContain("\u001b[");
  });
  it("keeps whole-transcript ordinals in a range", () => {
    const text = toText(sample, { range: { from: 3, to: 4 } });
    expect(text).not.toContain("#1 ");
    expect(text).not.toContain("#2 ");
    expect(text).toContain("#3 user");
    expect(text).toContain("#4 assistant");
  });
  it("colours only when asked", () => {
    expect(toText(sample, { color: true })).toContain("\u001b[1m");
  });
  it("never prints an image payload for any transcript", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const text = toText(transcript);
        for (const message of transcript.messages) {
          for (const block of message.content) {
            if (block.type === "image" && block.source.data.length > 24)
              expect(text).not.toContain(block.source.data);
          }
        }
        // Each message's header, in order, after a blank line: `#N role timestamp`. (Counting
        // lines that start "#N " would also count a header line whose session id is "#0".)
        let at = 0;
        transcript.messages.forEach((message, index) => {
          const found = text.indexOf(`\n\n#${index + 1} ${message.role} ${message.timestamp}`, at);
          expect(found).toBeGreaterThanOrEqual(at);
          at = found + 1;
        });
      }),
      lawParameters(300),
    );
  });
});

describe("resolveRange", () => {
  it("clamps to the transcript", () => {
    expect(resolveRange({ from: 5 }, 10)).toEqual({ from: 5, to: 10 });
    expect(resolveRange({ to: 20 }, 10)).toEqual({ from: 1, to: 10 });
    expect(resolveRange(undefined, 0)).toEqual({ from: 1, to: 0 });
  });
});
