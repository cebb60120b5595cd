// OpenCode's tool dialect: its built-in tool names and camelCase argument
// keys, mapped onto the canonical tools when an input fits a canonical
// schema exactly (every key has a counterpart and every value fits). Any
// other call is a Raw tool under OpenCode's own name, its input untouched.
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  type TypedToolName,
} from "@txcript/core";

interface Spelling {
  canonical: TypedToolName;
  /** OpenCode argument key → canonical argument key. */
  keys: Record<string, string>;
}

/** OpenCode tool name → its canonical tool and key spelling. */
const spellings: Record<string, Spelling> = {
  bash: {
    canonical: "Bash",
    keys: {
      command: "command",
      description: "description",
      timeout: "timeout",
      workdir: "workdir",
    },
  },
  read: { canonical: "Read", keys: { filePath: "file_path", offset: "offset", limit: "limit" } },
  write: { canonical: "Write", keys: { filePath: "file_path", content: "content" } },
  edit: {
    canonical: "Edit",
    keys: {
      filePath: "file_path",
      oldString: "old_string",
      newString: "new_string",
      replaceAll: "replace_all",
    },
  },
  glob: { canonical: "Glob", keys: { pattern: "pattern", path: "path" } },
  grep: { canonical: "Grep", keys: { pattern: "pattern", path: "path", include: "glob" } },
  list: { canonical: "LS", keys: { path: "path", ignore: "ignore" } },
  todowrite: { canonical: "TodoWrite", keys: { todos: "todos" } },
  todoread: { canonical: "TodoRead", keys: {} },
  task: {
    canonical: "Task",
    keys: { description: "description", prompt: "prompt", subagent_type: "subagent_type" },
  },
  websearch: { canonical: "WebSearch", keys: { query: "query" } },
};

const byCanonical = new Map<string, { name: string; keys: Record<string, string> }>(
  Object.entries(spellings).map(([name, spelling]) => [
    spelling.canonical,
    {
      name,
      keys: Object.fromEntries(Object.entries(spelling.keys).map(([from, to]) => [to, from])),
    },
  ]),
);

/** A copy of `input` with its keys renamed, or undefined when a key has no counterpart. */
function renamed(input: JsonObject, keys: Record<string, string>): JsonObject | undefined {
  const out: JsonObject = {};
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(keys, key)) return undefined;
    out[keys[key] as string] = input[key] as Json;
  }
  return out;
}

/** An OpenCode tool call as a canonical tool: typed when the input fits exactly, else Raw. */
export function opencodeToolToCommon(name: string, input: Json): Tool {
  const spelling = Object.hasOwn(spellings, name) ? spellings[name] : undefined;
  if (spelling !== undefined && isJsonObject(input)) {
    const canonicalInput = renamed(input, spelling.keys);
    if (canonicalInput !== undefined) {
      const tool = fromCanonical(spelling.canonical, canonicalInput);
      if (tool.name !== "Raw") return tool;
    }
  }
  return { name: "Raw", toolName: name, input };
}

/**
 * A typed tool in OpenCode's spelling, or undefined when OpenCode has no
 * exact spelling for it (MultiEdit, Command, WebFetch, Bash in the background, …).
 */
export function opencodeSpelling(tool: Tool): { name: string; input: JsonObject } | undefined {
  if (tool.name === "Raw") return undefined;
  const spelling = byCanonical.get(tool.name);
  if (spelling === undefined) return undefined;
  const input = renamed(tool.input as JsonObject, spelling.keys);
  return input === undefined ? undefined : { name: spelling.name, input };
}
