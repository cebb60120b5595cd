// Sessions for the page tests (not exported from the entry): a small one with
// every feature and a long generated one. Hostile content is in test-hostile.ts,
// PNG helpers in test-png.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Message, type Transcript } from "@txcript/core";
import { gradientPng } from "./test-png.js";

const start = Date.parse("2026-03-01T09:30:00.000Z");
const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();
const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadInputTokens: input * 8,
  cacheCreationInputTokens: Math.round(input / 2),
});

const testOutput = Array.from({ length: 60 }, (_, n) =>
  n === 57
    ? "  ✓ range.test.ts › last item is included"
    : `  ✓ suite ${Math.floor(n / 10)} › case ${n}`,
).join("\n");

/** A short session with every feature the page shows. */
export function smallSession(): Transcript {
  const messages: Message[] = [
    {
      role: "user",
      timestamp: at(0),
      context: { kind: "injected", source: "AGENTS.md" },
      content: [
        {
          type: "text",
          text: "# Project rules\n- Run `pnpm test` before you finish.\n- Keep functions small.",
        },
      ],
    },
    {
      role: "user",
      timestamp: at(5),
      content: [
        {
          type: "text",
          text: "range(1, 5) misses the last item. Can you fix it? Screenshot of the failure:",
        },
        {
          type: "image",
          source: { type: "base64", mediaType: "image/png", data: gradientPng(160, 48) },
        },
      ],
    },
    {
      role: "assistant",
      timestamp: at(9),
      model: "claude-sonnet-4-5",
      usage: usage(1200, 180),
      content: [
        {
          type: "thinking",
          text: "The loop probably uses < where it needs <=. Read the file first.",
        },
        { type: "text", text: "Let me look at the implementation." },
        {
          type: "tool_use",
          id: "call-read",
          tool: { name: "Read", input: { file_path: "src/range.ts", offset: 1, limit: 12 } },
        },
      ],
    },
    {
      role: "user",
      timestamp: at(10),
      content: [
        {
          type: "tool_result",
          toolUseId: "call-read",
          isError: false,
          content:
            "export function range(from: number, to: number): number[] {\n  const out = [];\n  for (let i = from; i < to; i++) out.push(i);\n  return out;\n}",
        },
      ],
    },
    {
      role: "assistant",
      timestamp: at(14),
      model: "claude-sonnet-4-5",
      usage: usage(1500, 240),
      content: [
        { type: "text", text: "The bound is exclusive. Making it inclusive:" },
        {
          type: "tool_use",
          id: "call-edit",
          tool: {
            name: "Edit",
            input: {
              file_path: "src/range.ts",
              old_string: "  for (let i = from; i < to; i++) out.push(i);",
              new_string: "  for (let i = from; i <= to; i++) out.push(i);",
            },
          },
        },
      ],
    },
    {
      role: "user",
      timestamp: at(15),
      content: [
        {
          type: "tool_result",
          toolUseId: "call-edit",
          isError: false,
          content: "The file src/range.ts has been updated.",
        },
      ],
    },
    {
      role: "assistant",
      timestamp: at(20),
      model: "claude-sonnet-4-5",
      usage: usage(1700, 120),
      content: [
        {
          type: "tool_use",
          id: "call-test",
          tool: {
            name: "Bash",
            input: { command: "pnpm test -- range", description: "Run the range tests" },
          },
        },
        {
          type: "tool_use",
          id: "call-task",
          tool: {
            name: "Task",
            input: {
              description: "Find other callers",
              prompt: "Search the repo for callers of range() that relied on the exclusive bound.",
              subagent_type: "Explore",
            },
          },
        },
      ],
    },
    {
      role: "user",
      timestamp: at(41),
      content: [
        { type: "tool_result", toolUseId: "call-test", isError: false, content: testOutput },
        {
          type: "tool_result",
          toolUseId: "call-task",
          isError: false,
          content: "One caller: src/pages.ts:12 uses range(0, n - 1).",
        },
      ],
    },
    {
      role: "user",
      timestamp: at(60),
      content: [
        {
          type: "compaction",
          summary:
            "Fixed range() to include its upper bound; tests pass; one caller (src/pages.ts:12) to update.",
          trigger: "auto",
          preTokens: 152_000,
        },
      ],
    },
    {
      role: "assistant",
      timestamp: at(66),
      model: "claude-sonnet-4-5",
      usage: usage(900, 300),
      content: [
        {
          type: "tool_use",
          id: "call-write",
          tool: {
            name: "Write",
            input: {
              file_path: "src/pages.ts",
              content:
                "import { range } from './range';\n\nexport const pages = (n: number) => range(0, n - 2);\n",
            },
          },
        },
      ],
    },
    {
      role: "user",
      timestamp: at(67),
      content: [
        {
          type: "tool_result",
          toolUseId: "call-write",
          isError: false,
          content: "File created successfully at: src/pages.ts",
        },
      ],
    },
    {
      role: "assistant",
      timestamp: at(70),
      model: "claude-sonnet-4-5",
      usage: usage(950, 80),
      content: [
        {
          type: "text",
          text: "Done: `range(1, 5)` now returns `[1, 2, 3, 4, 5]`, and the one caller is adjusted.\n```ts\nrange(1, 5); // [1, 2, 3, 4, 5]\n```",
        },
      ],
    },
  ];
  return {
    meta: {
      id: "7f0c2a4e-5b1d-4c8e-9a37-2f6d1e8b9c40",
      timestamp: at(0),
      title: "Fix the off-by-one in range()",
      cwd: "/home/dev/work/ranges",
      gitBranch: "fix/range-bound",
      model: "claude-sonnet-4-5",
    },
    messages,
    subagents: [
      {
        id: "agent-explore-1",
        toolUseId: "call-task",
        agentType: "Explore",
        title: "Find other callers",
        messages: [
          {
            role: "user",
            timestamp: at(21),
            content: [
              {
                type: "text",
                text: "Search the repo for callers of range() that relied on the exclusive bound.",
              },
            ],
          },
          {
            role: "assistant",
            timestamp: at(25),
            model: "claude-haiku-4-5",
            content: [
              {
                type: "tool_use",
                id: "sub-grep",
                tool: { name: "Grep", input: { pattern: "range\\(", path: "src" } },
              },
            ],
          },
          {
            role: "user",
            timestamp: at(26),
            content: [
              {
                type: "tool_result",
                toolUseId: "sub-grep",
                isError: false,
                content: "src/range.ts:1\nsrc/pages.ts:12",
              },
            ],
          },
          {
            role: "assistant",
            timestamp: at(30),
            model: "claude-haiku-4-5",
            content: [{ type: "text", text: "One caller: src/pages.ts:12 uses range(0, n - 1)." }],
          },
        ],
      },
    ],
  };
}

/** A long generated session: `turns` exchanges of text, commands, reads and edits. */
export function longSession(turns: number): Transcript {
  const messages: Message[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    const base = turn * 45;
    const id = `call-${turn}`;
    messages.push({
      role: "user",
      timestamp: at(base + 30),
      content: [{ type: "text", text: `Step ${turn + 1}: continue with module ${turn % 7}.` }],
    });
    const tool =
      turn % 3 === 0
        ? ({
            name: "Bash",
            input: { command: `pnpm vitest run src/module-${turn % 7}.test.ts` },
          } as const)
        : turn % 3 === 1
          ? ({
              name: "Read",
              input: { file_path: `src/module-${turn % 7}.ts`, offset: turn, limit: 40 },
            } as const)
          : ({
              name: "Edit",
              input: {
                file_path: `src/module-${turn % 7}.ts`,
                old_string: `const limit = ${turn};`,
                new_string: `const limit = ${turn + 1};`,
              },
            } as const);
    messages.push({
      role: "assistant",
      timestamp: at(base + 40),
      model: "gpt-5-codex",
      usage: usage(2000 + turn, 150),
      content: [
        { type: "thinking", text: `Turn ${turn}: decide the next step.` },
        { type: "text", text: `Working on module ${turn % 7}, step ${turn + 1}.` },
        { type: "tool_use", id, tool },
      ],
    });
    messages.push({
      role: "user",
      timestamp: at(base + 45),
      content: [
        {
          type: "tool_result",
          toolUseId: id,
          isError: turn % 11 === 5,
          content: Array.from(
            { length: 1 + (turn % 50) },
            (_, n) => `line ${n} of output ${turn}`,
          ).join("\n"),
        },
      ],
    });
  }
  return {
    meta: {
      id: "long-session-0001",
      timestamp: at(0),
      title: `A long session (${turns} turns)`,
      cwd: "/srv/app",
    },
    messages,
  };
}

/** Every Common fixture in the repository that parses (others' fixtures may be mid-change: skipped, named). */
export function commonFixtures(): { name: string; transcript: Transcript }[] {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../fixtures");
  const found: { name: string; transcript: Transcript }[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".common.json"))
        try {
          found.push({
            name: path.relative(root, full),
            transcript: commonCodec.toCommon(commonCodec.parse(readFileSync(full, "utf8"))),
          });
        } catch (error) {
          console.warn(`skipped fixture ${path.relative(root, full)}: ${String(error)}`);
        }
    }
  };
  if (existsSync(root)) walk(root);
  return found;
}
