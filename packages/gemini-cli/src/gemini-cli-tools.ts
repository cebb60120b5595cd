// Gemini CLI's tool dialect ⇄ the canonical tools. A Gemini tool call
// becomes a typed canonical tool only when its arguments fit exactly: every
// key is one the table renames, and the renamed input fits the canonical
// schema. Writing renames back, key order kept, so a mapped call reads back
// as the same tool; a typed tool Gemini has no exact equivalent for is
// written under its canonical name (PascalCase, never a Gemini tool name).
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  type TypedToolName,
  toCanonical,
  typedToolNames,
} from "@txcript/core";

interface ToolSpec {
  readonly gemini: string;
  readonly canonical: TypedToolName;
  /** [Gemini argument, canonical argument] pairs. */
  readonly keys: readonly (readonly [string, string])[];
  /** False for an older argument set that is read but never written. */
  readonly written: boolean;
}

function spec(
  gemini: string,
  canonical: TypedToolName,
  keys: readonly (readonly [string, string])[],
  written = true,
): ToolSpec {
  return { gemini, canonical, keys, written };
}

/** Tool names and argument keys of Gemini CLI 0.61.0 (`tools/tool-names.ts`), and older ones it wrote. */
export const geminiToolSpecs: readonly ToolSpec[] = [
  spec("read_file", "Read", [["file_path", "file_path"]]),
  spec("read_file", "Read", [["absolute_path", "file_path"]], false),
  spec("write_file", "Write", [
    ["file_path", "file_path"],
    ["content", "content"],
  ]),
  spec("replace", "Edit", [
    ["file_path", "file_path"],
    ["old_string", "old_string"],
    ["new_string", "new_string"],
    ["allow_multiple", "replace_all"],
  ]),
  spec("run_shell_command", "Bash", [
    ["command", "command"],
    ["description", "description"],
    ["dir_path", "workdir"],
    ["is_background", "run_in_background"],
  ]),
  spec(
    "run_shell_command",
    "Bash",
    [
      ["command", "command"],
      ["description", "description"],
      ["directory", "workdir"],
    ],
    false,
  ),
  spec("glob", "Glob", [
    ["pattern", "pattern"],
    ["dir_path", "path"],
  ]),
  spec(
    "glob",
    "Glob",
    [
      ["pattern", "pattern"],
      ["path", "path"],
    ],
    false,
  ),
  spec("grep_search", "Grep", [
    ["pattern", "pattern"],
    ["dir_path", "path"],
    ["include_pattern", "glob"],
  ]),
  spec(
    "search_file_content",
    "Grep",
    [
      ["pattern", "pattern"],
      ["path", "path"],
      ["include", "glob"],
    ],
    false,
  ),
  spec("list_directory", "LS", [
    ["dir_path", "path"],
    ["ignore", "ignore"],
  ]),
  spec(
    "list_directory",
    "LS",
    [
      ["path", "path"],
      ["ignore", "ignore"],
    ],
    false,
  ),
  spec("google_web_search", "WebSearch", [["query", "query"]]),
  spec("write_todos", "TodoWrite", [["todos", "todos"]]),
];

const typedNames = new Set<string>(typedToolNames);

function renameKeys(
  input: JsonObject,
  pairs: readonly (readonly [string, string])[],
): JsonObject | undefined {
  const entries: [string, Json][] = [];
  const targets = new Set<string>();
  for (const key of Object.keys(input)) {
    const pair = pairs.find(([from]) => from === key);
    if (pair === undefined || targets.has(pair[1])) return undefined;
    targets.add(pair[1]);
    entries.push([pair[1], input[key] as Json]);
  }
  // Object.fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(entries);
}

/** write_todos items are {description, status}; TodoWrite items are {content, status}. */
function renameTodos(input: JsonObject, toCanonicalItems: boolean): JsonObject | undefined {
  const todos = Object.hasOwn(input, "todos") ? input.todos : undefined;
  if (!Array.isArray(todos)) return input;
  const pairs: [string, string][] = toCanonicalItems
    ? [
        ["description", "content"],
        ["status", "status"],
      ]
    : [
        ["content", "description"],
        ["status", "status"],
      ];
  const items: Json[] = [];
  for (const item of todos) {
    if (!isJsonObject(item)) return undefined;
    const renamed = renameKeys(item, pairs);
    if (renamed === undefined) return undefined;
    items.push(renamed);
  }
  return Object.fromEntries(
    Object.keys(input).map((key) => [key, key === "todos" ? items : (input[key] as Json)]),
  );
}

function sameTool(left: Tool, right: Tool): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** A Gemini CLI tool call (name, args) as a canonical tool. */
export function geminiToolToCanonical(name: string, args: Json): Tool {
  if (typedNames.has(name)) return fromCanonical(name, args);
  if (!isJsonObject(args)) return { name: "Raw", toolName: name, input: args };
  for (const candidate of geminiToolSpecs) {
    if (candidate.gemini !== name) continue;
    const renamed = renameKeys(args, candidate.keys);
    if (renamed === undefined) continue;
    const input = candidate.canonical === "TodoWrite" ? renameTodos(renamed, true) : renamed;
    if (input === undefined) continue;
    const tool = fromCanonical(candidate.canonical, input);
    if (tool.name !== "Raw") return tool;
  }
  return { name: "Raw", toolName: name, input: args };
}

/** A canonical tool as the Gemini CLI call (name, args) that reads back as the same tool. */
export function canonicalToGeminiTool(tool: Tool): { name: string; args: Json } {
  const { name, input } = toCanonical(tool);
  if (tool.name === "Raw" || !isJsonObject(input)) return { name, args: input };
  for (const candidate of geminiToolSpecs) {
    if (!candidate.written || candidate.canonical !== tool.name) continue;
    const reversed = renameKeys(
      candidate.canonical === "TodoWrite" ? (renameTodos(input, false) ?? {}) : input,
      candidate.keys.map(([gemini, canonical]) => [canonical, gemini] as const),
    );
    if (reversed === undefined) continue;
    if (candidate.canonical === "TodoWrite" && renameTodos(input, false) === undefined) continue;
    if (sameTool(geminiToolToCanonical(candidate.gemini, reversed), tool))
      return { name: candidate.gemini, args: reversed };
  }
  return { name, args: input };
}
