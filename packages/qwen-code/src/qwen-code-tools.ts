// Qwen Code's tool dialect ⇄ the canonical tools. A Qwen Code call becomes a
// typed canonical tool only when its arguments fit exactly: every key is one
// the table renames, and the renamed input fits the canonical schema.
// Writing renames back, key order kept; a typed tool Qwen Code has no exact
// equivalent for is written under its canonical name (PascalCase, never a
// Qwen Code tool name), so it reads back as the same tool.
import {
  type Json,
  type RenamedToolSpec,
  renamedToolDialect,
  stringifyJson,
  type Tool,
  toCanonical,
} from "@txcript/core";

/**
 * Tool names and argument keys Qwen Code 0.24.4 declares to the model (see
 * docs/formats/qwen-code.md), then the older spellings read only: 0.5.0 to
 * 0.12.0 declare `read_file(absolute_path, …)` and `task(…)`. Writing takes
 * the first row of a canonical tool, so it always writes the 0.24.4 names.
 */
export const qwenToolSpecs: readonly RenamedToolSpec[] = [
  {
    native: "read_file",
    canonical: "Read",
    keys: [
      ["file_path", "file_path"],
      ["offset", "offset"],
      ["limit", "limit"],
    ],
  },
  {
    native: "write_file",
    canonical: "Write",
    keys: [
      ["file_path", "file_path"],
      ["content", "content"],
    ],
  },
  {
    native: "edit",
    canonical: "Edit",
    keys: [
      ["file_path", "file_path"],
      ["old_string", "old_string"],
      ["new_string", "new_string"],
      ["replace_all", "replace_all"],
    ],
  },
  {
    native: "run_shell_command",
    canonical: "Bash",
    keys: [
      ["command", "command"],
      ["description", "description"],
      ["timeout", "timeout"],
      ["is_background", "run_in_background"],
      ["directory", "workdir"],
    ],
  },
  {
    native: "glob",
    canonical: "Glob",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
    ],
  },
  {
    native: "grep_search",
    canonical: "Grep",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
      ["glob", "glob"],
    ],
  },
  {
    native: "agent",
    canonical: "Task",
    keys: [
      ["description", "description"],
      ["prompt", "prompt"],
      ["subagent_type", "subagent_type"],
    ],
  },
  {
    native: "read_file",
    canonical: "Read",
    keys: [
      ["absolute_path", "file_path"],
      ["offset", "offset"],
      ["limit", "limit"],
    ],
  },
  {
    native: "task",
    canonical: "Task",
    keys: [
      ["description", "description"],
      ["prompt", "prompt"],
      ["subagent_type", "subagent_type"],
    ],
  },
];

const qwenDialect = renamedToolDialect(qwenToolSpecs);

/** The canonical tool for a Qwen Code call `name(args)`. */
export function qwenToolToCanonical(name: string, args: Json): Tool {
  return qwenDialect.toTool(name, args);
}

/** The Qwen Code call a canonical tool is written as. */
export function canonicalToQwenTool(tool: Tool): { name: string; args: Json } {
  const { name, input } = qwenDialect.fromTool(tool);
  return { name, args: input };
}

/** The text a tool call on a user message is written as (docs/formats/qwen-code.md). */
export function userToolCallText(tool: Tool): string {
  const { name, input } = toCanonical(tool);
  return `[tool call ${name}] ${stringifyJson(input, undefined, "qwen_code")}`;
}

/** The text a tool result answering a call on the same user message is written as. */
export function userToolResultText(content: Json, isError: boolean): string {
  return `[tool ${isError ? "error" : "result"}] ${typeof content === "string" ? content : stringifyJson(content, undefined, "qwen_code")}`;
}
