// A small hand-written Common transcript with one tool call and its result,
// for tests that need exact ordinals (ranges) independent of any codec.
import type { Transcript } from "@txcript/core";

export const sampleTranscript: Transcript = {
  meta: {
    id: "sample-0001",
    timestamp: "2026-03-01T10:00:00.000Z",
    cwd: "/tmp/txcript-sample-project",
    title: "List the files",
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "What files are here?" }],
      timestamp: "2026-03-01T10:00:00.000Z",
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_01", tool: { name: "Bash", input: { command: "ls" } } },
      ],
      timestamp: "2026-03-01T10:00:01.000Z",
      model: "claude-sonnet-4-5",
      stopReason: "tool_use",
    },
    {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "toolu_01", content: "a.txt\nb.txt", isError: false },
      ],
      timestamp: "2026-03-01T10:00:02.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "There are two files: a.txt and b.txt." }],
      timestamp: "2026-03-01T10:00:03.000Z",
      model: "claude-sonnet-4-5",
      stopReason: "end_turn",
    },
    {
      role: "user",
      content: [{ type: "text", text: "Thanks!" }],
      timestamp: "2026-03-01T10:00:04.000Z",
    },
  ],
};

export function sampleCommonText(): string {
  return `${JSON.stringify({ format: "txcript.common/v2", ...sampleTranscript }, null, 2)}\n`;
}
