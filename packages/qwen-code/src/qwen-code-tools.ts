// Qwen Code's tool dialect ⇄ the canonical tools. A Qwen Code call becomes a
// typed canonical tool only when its arguments fit exactly: every key is one
// the table renames, and the renamed input fits the canonical schema.
// Writing renames back, key order kept; a typed tool Qwen Code has no exact
// equivalent for is written under its canonical name (PascalCase, never a
// Qwen Code tool name), so it reads back as the same tool.
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  stringifyJson,
  type Tool,
  type TypedToolName,
  toCanonical,
} from "@txcript/core";

interface ToolSpec {
  readonly qwen: string;
  readonly canonical: TypedToolName;
  /** [Qwen Code argument, canonical argument] pairs. */
  readonly keys: readonly (readonly [string, string])[];
}

/**
 * Tool names and argument keys Qwen Code 0.24.4 declares to the model (see
 * docs/formats/qwen-code.md), then the older spellings read only: 0.5.0 to
 * 0.12.0 declare `read_file(absolute_path, …)` and `task(…)`. Writing takes
 * the first row of a canonical tool, so it always writes the 0.24.4 names.
 */
export const qwenToolSpecs: readonly ToolSpec[] = [
  {
    qwen: "read_file",
    canonical: "Read",
    keys: [
      ["file_path", "file_path"],
      ["offset", "offset"],
      ["limit", "limit"],
    ],
  },
  {
    qwen: "write_file",
    canonical: "Write",
    keys: [
      ["file_path", "file_path"],
      ["content", "content"],
    ],
  },
  {
    qwen: "edit",
    canonical: "Edit",
    keys: [
      ["file_path", "file_path"],
      ["old_string", "old_string"],
      ["new_string", "new_string"],
      ["replace_all", "replace_all"],
    ],
  },
  {
    qwen: "run_shell_command",
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
    qwen: "glob",
    canonical: "Glob",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
    ],
  },
  {
    qwen: "grep_search",
    canonical: "Grep",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
      ["glob", "glob"],
    ],
  },
  {
    qwen: "agent",
    canonical: "Task",
    keys: [
      ["description", "description"],
      ["prompt", "prompt"],
      ["subagent_type", "subagent_type"],
    ],
  },
  {
    qwen: "read_file",
    canonical: "Read",
    keys: [
      ["absolute_path", "file_path"],
      ["offset", "offset"],
      ["limit", "limit"],
    ],
  },
  {
    qwen: "task",
    canonical: "Task",
    keys: [
      ["description", "description"],
      ["prompt", "prompt"],
      ["subagent_type", "subagent_type"],
    ],
  },
];

function rename(
  input: JsonObject,
  pairs: readonly (readonly [string, string])[],
): JsonObject | undefined {
  const out: JsonObject = {};
  for (const key of Object.keys(input)) {
    const pair = pairs.find(([from]) => from === key);
    if (pair === undefined) return undefined;
    Object.defineProperty(out, pair[1], {
      value: input[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The canonical tool for a Qwen Code call `name(args)`. */
export function qwenToolToCanonical(name: string, args: Json): Tool {
  if (isJsonObject(args)) {
    for (const spec of qwenToolSpecs) {
      if (spec.qwen !== name) continue;
      const renamed = rename(args, spec.keys);
      if (renamed === undefined) continue;
      const tool = fromCanonical(spec.canonical, renamed);
      if (tool.name !== "Raw") return tool;
    }
  }
  if (qwenToolSpecs.some((spec) => spec.qwen === name))
    return { name: "Raw", toolName: name, input: args };
  return fromCanonical(name, args);
}

/** The Qwen Code call a canonical tool is written as. */
export function canonicalToQwenTool(tool: Tool): { name: string; args: Json } {
  if (tool.name !== "Raw") {
    const input = tool.input as Json;
    for (const spec of qwenToolSpecs) {
      if (spec.canonical !== tool.name || !isJsonObject(input)) continue;
      const renamed = rename(
        input,
        spec.keys.map(([qwen, canonical]) => [canonical, qwen] as const),
      );
      if (renamed !== undefined) return { name: spec.qwen, args: renamed };
    }
  }
  const { name, input } = toCanonical(tool);
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
