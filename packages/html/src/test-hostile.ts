// A session whose every string is markup or script, for the escaping tests
// (not exported from the entry).
import type { Transcript } from "@txcript/core";

const at = (seconds: number) =>
  new Date(Date.parse("2026-03-01T09:30:00.000Z") + seconds * 1000).toISOString();

/** Markup and script in every string the page shows. */
export const hostileStrings = [
  "<script>window.__pwned = 1</script>",
  "</script><script>window.__pwned = 2</script>",
  '<img src=x onerror="window.__pwned = 3">',
  '"><svg onload="window.__pwned = 4">',
  "' onmouseover='window.__pwned = 5",
  "<!-- <style>body{display:none}</style> -->",
  "&lt;already escaped&gt; &amp; <b>bold</b>",
  '<a href="javascript:window.__pwned=6">click</a>',
  "<iframe srcdoc='<script>parent.__pwned=7</script>'></iframe>",
];

export function hostileSession(): Transcript {
  const h = (n: number) => hostileStrings[n % hostileStrings.length] as string;
  return {
    meta: { id: h(0), timestamp: at(0), title: h(1), cwd: h(2), gitBranch: h(3), model: h(4) },
    messages: [
      {
        role: "user",
        timestamp: at(1),
        context: { kind: "injected", source: h(5) },
        content: [{ type: "text", text: h(6) }],
      },
      {
        role: "user",
        timestamp: at(2),
        content: hostileStrings.map((text) => ({ type: "text" as const, text })),
      },
      {
        role: "assistant",
        timestamp: at(3),
        model: h(7),
        stopReason: h(8),
        content: [
          { type: "thinking", text: h(0) },
          {
            type: "tool_use",
            id: h(1),
            tool: { name: "Bash", input: { command: h(2), description: h(3) } },
          },
          {
            type: "tool_use",
            id: h(4),
            tool: { name: "Edit", input: { file_path: h(5), old_string: h(6), new_string: h(7) } },
          },
          {
            type: "tool_use",
            id: h(8),
            tool: { name: "Raw", toolName: h(0), input: { [h(1)]: h(2) } },
          },
          {
            type: "tool_use",
            id: "w",
            tool: { name: "Write", input: { file_path: h(3), content: h(4) } },
          },
          {
            type: "tool_use",
            id: "t",
            tool: { name: "TodoWrite", input: { todos: [{ content: h(5), status: h(6) }] } },
          },
          {
            type: "image",
            source: {
              type: "base64",
              mediaType: 'image/png" onerror="window.__pwned=8',
              data: "AAAA",
            },
          },
          {
            type: "image",
            source: {
              type: "base64",
              mediaType: "image/png",
              data: '"><script>window.__pwned=9</script>',
            },
          },
        ],
      },
      {
        role: "user",
        timestamp: at(4),
        content: [
          {
            type: "tool_result",
            toolUseId: h(1),
            isError: true,
            content: hostileStrings.join("\n"),
          },
          {
            type: "tool_result",
            toolUseId: h(4),
            isError: false,
            content: { [h(5)]: [h(6), { type: "text", text: h(7) }] },
          },
          {
            type: "tool_result",
            toolUseId: h(8),
            isError: false,
            content: [{ type: "text", text: h(0) }],
          },
        ],
      },
      {
        role: "user",
        timestamp: at(5),
        content: [
          {
            type: "compaction",
            summary: h(1),
            trigger: h(2),
            history: [{ role: "user", timestamp: at(5), content: [{ type: "text", text: h(3) }] }],
          },
        ],
      },
    ],
    subagents: [
      {
        id: h(4),
        toolUseId: h(1),
        title: h(5),
        agentType: h(6),
        model: h(7),
        messages: [
          { role: "assistant", timestamp: at(6), content: [{ type: "text", text: h(8) }] },
        ],
      },
    ],
  };
}
