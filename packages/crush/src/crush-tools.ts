// Crush's tool dialect ⇄ the canonical tools. A Crush call becomes a typed
// canonical tool only when its arguments fit exactly: every key is one the
// table renames, and the renamed input fits the canonical schema. Writing
// renames back, key order kept; a typed tool Crush has no exact equivalent
// for is written under its canonical name, so it reads back as the same
// tool. Crush keeps a call's input as JSON text (crush-to-common.ts parses it).
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  type TypedToolName,
  toCanonical,
} from "@txcript/core";

interface ToolSpec {
  readonly crush: string;
  readonly canonical: TypedToolName;
  /** [Crush parameter, canonical parameter] pairs. */
  readonly keys: readonly (readonly [string, string])[];
}

/** Crush's tool names and parameters (internal/agent/tools/*.go at the commit docs/formats/crush.md names). */
export const crushToolSpecs: readonly ToolSpec[] = [
  {
    crush: "view",
    canonical: "Read",
    keys: [
      ["file_path", "file_path"],
      ["offset", "offset"],
      ["limit", "limit"],
    ],
  },
  {
    crush: "write",
    canonical: "Write",
    keys: [
      ["file_path", "file_path"],
      ["content", "content"],
    ],
  },
  {
    crush: "edit",
    canonical: "Edit",
    keys: [
      ["file_path", "file_path"],
      ["old_string", "old_string"],
      ["new_string", "new_string"],
      ["replace_all", "replace_all"],
    ],
  },
  {
    crush: "multiedit",
    canonical: "MultiEdit",
    keys: [
      ["file_path", "file_path"],
      ["edits", "edits"],
    ],
  },
  {
    crush: "bash",
    canonical: "Bash",
    keys: [
      ["command", "command"],
      ["description", "description"],
      ["working_dir", "workdir"],
      ["run_in_background", "run_in_background"],
    ],
  },
  {
    crush: "glob",
    canonical: "Glob",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
    ],
  },
  {
    crush: "grep",
    canonical: "Grep",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
      ["include", "glob"],
    ],
  },
  {
    crush: "ls",
    canonical: "LS",
    keys: [
      ["path", "path"],
      ["ignore", "ignore"],
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

/** The canonical tool for a Crush call `name(input)`. */
export function crushToolToCanonical(name: string, input: Json): Tool {
  if (isJsonObject(input)) {
    for (const spec of crushToolSpecs) {
      if (spec.crush !== name) continue;
      const renamed = rename(input, spec.keys);
      if (renamed === undefined) continue;
      const tool = fromCanonical(spec.canonical, renamed);
      if (tool.name !== "Raw") return tool;
    }
  }
  if (crushToolSpecs.some((spec) => spec.crush === name))
    return { name: "Raw", toolName: name, input };
  return fromCanonical(name, input);
}

/** The Crush call a canonical tool is written as. */
export function canonicalToCrushTool(tool: Tool): { name: string; input: Json } {
  if (tool.name !== "Raw") {
    const input = tool.input as Json;
    for (const spec of crushToolSpecs) {
      if (spec.canonical !== tool.name || !isJsonObject(input)) continue;
      const renamed = rename(
        input,
        spec.keys.map(([crush, canonical]) => [canonical, crush] as const),
      );
      if (renamed !== undefined) return { name: spec.crush, input: renamed };
    }
  }
  return toCanonical(tool);
}
