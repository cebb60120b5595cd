// GitHub Copilot CLI's tool dialect ⇄ the canonical tools. A Copilot CLI
// call becomes a typed canonical tool only when every argument is one the
// table renames and the renamed input fits the canonical schema exactly;
// writing renames back (key order kept), so a mapped call reads back as the
// same tool. A typed tool Copilot CLI has no equivalent for is written under
// its canonical name (PascalCase, never a Copilot CLI tool name).
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
  readonly copilot: string;
  readonly canonical: TypedToolName;
  /** [Copilot CLI argument, canonical argument] pairs. */
  readonly keys: readonly (readonly [string, string])[];
}

const same = (...keys: string[]) => keys.map((key) => [key, key] as const);

/**
 * The built-in tools of Copilot CLI 1.0.102 and their parameters, as the
 * program declared them in its model request (docs/formats/copilot-cli.md).
 */
export const copilotToolSpecs: readonly ToolSpec[] = [
  { copilot: "bash", canonical: "Bash", keys: same("command", "description") },
  { copilot: "view", canonical: "Read", keys: [["path", "file_path"]] },
  {
    copilot: "create",
    canonical: "Write",
    keys: [
      ["path", "file_path"],
      ["file_text", "content"],
    ],
  },
  {
    copilot: "edit",
    canonical: "Edit",
    keys: [
      ["path", "file_path"],
      ["old_str", "old_string"],
      ["new_str", "new_string"],
    ],
  },
  {
    copilot: "grep",
    canonical: "Grep",
    keys: same(
      "pattern",
      "glob",
      "type",
      "output_mode",
      "-i",
      "-n",
      "-A",
      "-B",
      "-C",
      "head_limit",
      "multiline",
    ),
  },
  { copilot: "glob", canonical: "Glob", keys: same("pattern") },
  {
    copilot: "task",
    canonical: "Task",
    keys: [
      ["description", "description"],
      ["prompt", "prompt"],
      ["agent_type", "subagent_type"],
    ],
  },
];

const typedNames = new Set<string>(typedToolNames);

function renameKeys(
  input: JsonObject,
  pairs: readonly (readonly [string, string])[],
): JsonObject | undefined {
  const entries: [string, Json][] = [];
  for (const key of Object.keys(input)) {
    const pair = pairs.find(([from]) => from === key);
    if (pair === undefined) return undefined;
    entries.push([pair[1], input[key] as Json]);
  }
  // Object.fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(entries);
}

/** A Copilot CLI tool request (name, arguments) as a canonical tool. */
export function copilotToolToCanonical(name: string, args: Json): Tool {
  if (typedNames.has(name)) return fromCanonical(name, args);
  if (isJsonObject(args))
    for (const spec of copilotToolSpecs) {
      if (spec.copilot !== name) continue;
      const renamed = renameKeys(args, spec.keys);
      if (renamed === undefined) continue;
      const tool = fromCanonical(spec.canonical, renamed);
      if (tool.name !== "Raw") return tool;
    }
  return { name: "Raw", toolName: name, input: args };
}

/** A canonical tool as the Copilot CLI tool request (name, arguments) that reads back as it. */
export function canonicalToCopilotTool(tool: Tool): { name: string; args: Json } {
  const { name, input } = toCanonical(tool);
  if (tool.name === "Raw" || !isJsonObject(input)) return { name, args: input };
  for (const spec of copilotToolSpecs) {
    if (spec.canonical !== tool.name) continue;
    const reversed = renameKeys(
      input,
      spec.keys.map(([copilot, canonical]) => [canonical, copilot] as const),
    );
    if (reversed === undefined) continue;
    const back = copilotToolToCanonical(spec.copilot, reversed);
    if (JSON.stringify(back) === JSON.stringify(tool))
      return { name: spec.copilot, args: reversed };
  }
  return { name, args: input };
}
