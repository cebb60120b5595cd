import type { Json, Tool } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { canonicalToGeminiTool, geminiToolToCanonical } from "./gemini-cli-tools.js";

describe("Gemini CLI tools → canonical tools, where the arguments fit exactly", () => {
  const cases: [string, Json, Tool][] = [
    ["read_file", { file_path: "a.ts" }, { name: "Read", input: { file_path: "a.ts" } }],
    ["read_file", { absolute_path: "/p/a.ts" }, { name: "Read", input: { file_path: "/p/a.ts" } }],
    [
      "write_file",
      { content: "x", file_path: "a" },
      { name: "Write", input: { content: "x", file_path: "a" } },
    ],
    [
      "replace",
      { file_path: "a", old_string: "1", new_string: "2", allow_multiple: true },
      {
        name: "Edit",
        input: { file_path: "a", old_string: "1", new_string: "2", replace_all: true },
      },
    ],
    [
      "run_shell_command",
      { command: "ls", dir_path: "src", is_background: false },
      { name: "Bash", input: { command: "ls", workdir: "src", run_in_background: false } },
    ],
    [
      "run_shell_command",
      { command: "ls", directory: "src" },
      { name: "Bash", input: { command: "ls", workdir: "src" } },
    ],
    [
      "glob",
      { pattern: "*.md", dir_path: "docs" },
      { name: "Glob", input: { pattern: "*.md", path: "docs" } },
    ],
    [
      "grep_search",
      { pattern: "x", include_pattern: "*.ts" },
      { name: "Grep", input: { pattern: "x", glob: "*.ts" } },
    ],
    [
      "search_file_content",
      { pattern: "x", include: "*.ts" },
      { name: "Grep", input: { pattern: "x", glob: "*.ts" } },
    ],
    ["list_directory", { dir_path: "." }, { name: "LS", input: { path: "." } }],
    ["google_web_search", { query: "zod 4" }, { name: "WebSearch", input: { query: "zod 4" } }],
    [
      "write_todos",
      { todos: [{ description: "test", status: "pending" }] },
      { name: "TodoWrite", input: { todos: [{ content: "test", status: "pending" }] } },
    ],
  ];
  for (const [name, args, tool] of cases) {
    it(`${name} ${JSON.stringify(args)}`, () => {
      expect(geminiToolToCanonical(name, args)).toEqual(tool);
    });
  }
  it("keeps arguments that do not fit as Raw, unchanged", () => {
    const raws: [string, Json][] = [
      ["replace", { file_path: "a", old_string: "1", new_string: "2", instruction: "why" }],
      ["read_file", { file_path: "a", start_line: 3 }],
      ["read_file", { file_path: "a", absolute_path: "b" }],
      ["web_fetch", { prompt: "summarize https://example.com" }],
      ["run_shell_command", { command: 7 }],
      ["write_todos", { todos: [{ description: "x", status: "done", extra: 1 }] }],
      ["update_topic", { title: "t" }],
      ["read_file", JSON.parse('{"__proto__": {"polluted": true}}') as Json],
    ];
    for (const [name, args] of raws)
      expect(geminiToolToCanonical(name, args)).toEqual({
        name: "Raw",
        toolName: name,
        input: args,
      });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("canonical tools → Gemini CLI calls that read back as the same tool", () => {
  const tools: Tool[] = [
    { name: "Read", input: { file_path: "a.ts" } },
    { name: "Read", input: { file_path: "a.ts", offset: 3, limit: 10 } },
    { name: "Bash", input: { description: "list", command: "ls", workdir: "src" } },
    { name: "Bash", input: { command: "sleep 1", timeout: 5 } },
    { name: "Edit", input: { file_path: "a", old_string: "1", new_string: "2" } },
    { name: "TodoWrite", input: { todos: [{ content: "t", status: "in_progress" }] } },
    {
      name: "TodoWrite",
      input: { todos: [{ content: "t", status: "pending", activeForm: "testing" }] },
    },
    { name: "Grep", input: { pattern: "x", "-i": true } },
    { name: "Raw", toolName: "mcp__github__create_issue", input: { title: "t" } },
    { name: "Raw", toolName: "x", input: [1, "two"] },
  ];
  for (const tool of tools) {
    it(`${JSON.stringify(tool)}`, () => {
      const call = canonicalToGeminiTool(tool);
      expect(geminiToolToCanonical(call.name, call.args)).toEqual(tool);
      // Key order survives, so the written arguments are the input's own order.
      expect(JSON.stringify(geminiToolToCanonical(call.name, call.args))).toBe(
        JSON.stringify(tool),
      );
    });
  }
  it("writes Gemini's own names and keys where they exist, and the canonical name where none fits", () => {
    expect(
      canonicalToGeminiTool({ name: "Bash", input: { command: "ls", workdir: "src" } }),
    ).toEqual({
      name: "run_shell_command",
      args: { command: "ls", dir_path: "src" },
    });
    expect(canonicalToGeminiTool({ name: "Read", input: { file_path: "a", offset: 1 } })).toEqual({
      name: "Read",
      args: { file_path: "a", offset: 1 },
    });
  });
});
