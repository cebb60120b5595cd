// Kimi CLI's tool dialect ⇄ the canonical tools. A call to one of Kimi CLI's
// own tools becomes a typed canonical tool only when its arguments fit
// exactly (every key one the table renames, the renamed input fits the
// canonical schema, and the value means the same); otherwise it stays Raw
// under Kimi CLI's name. Writing renames back, key order kept; a typed tool
// with no exact Kimi CLI form is written under its canonical name, so it
// reads back as the same tool. The table is on docs/formats/kimi-cli.md.
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type RenamedToolSpec,
  renamedToolDialect,
  renameKeys,
  type Tool,
  type TypedToolName,
  toCanonical,
} from "@txcript/core";

/** Kimi CLI 1.49's tools whose arguments are a renaming of a canonical tool's (tools/…/Params). */
export const kimiFlatTools: readonly RenamedToolSpec[] = [
  {
    native: "Shell",
    canonical: "Bash",
    keys: [
      ["command", "command"],
      ["description", "description"],
      ["run_in_background", "run_in_background"],
    ],
  },
  {
    native: "ReadFile",
    canonical: "Read",
    keys: [
      ["path", "file_path"],
      ["line_offset", "offset"],
      ["n_lines", "limit"],
    ],
  },
  {
    native: "WriteFile",
    canonical: "Write",
    keys: [
      ["path", "file_path"],
      ["content", "content"],
    ],
  },
  {
    native: "Glob",
    canonical: "Glob",
    keys: [
      ["pattern", "pattern"],
      ["directory", "path"],
    ],
  },
  { native: "FetchURL", canonical: "WebFetch", keys: [["url", "url"]] },
  { native: "SearchWeb", canonical: "WebSearch", keys: [["query", "query"]] },
  {
    native: "Agent",
    canonical: "Task",
    keys: [
      ["description", "description"],
      ["prompt", "prompt"],
      ["subagent_type", "subagent_type"],
    ],
  },
];

/** Kimi CLI's name for its edit tool: `{path, edit: {old, new, replace_all?} | [...]}`. */
export const kimiEditTool = "StrReplaceFile";

/** Values that mean the same on both sides: Kimi CLI's negative line_offset (from the end) has no canonical form. */
function meansTheSame(canonical: TypedToolName, input: JsonObject): boolean {
  if (canonical !== "Read") return true;
  for (const key of ["offset", "limit"])
    if (Object.hasOwn(input, key) && !((input[key] as number) >= 1)) return false;
  return true;
}

const kimiDialect = renamedToolDialect(kimiFlatTools, { accepts: meansTheSame });

function editsOf(edit: Json): JsonObject[] | undefined {
  const one = (value: Json): JsonObject | undefined =>
    isJsonObject(value)
      ? renameKeys(value, [
          ["old", "old_string"],
          ["new", "new_string"],
          ["replace_all", "replace_all"],
        ])
      : undefined;
  if (Array.isArray(edit)) {
    const all = edit.map(one);
    return all.every((item) => item !== undefined) ? (all as JsonObject[]) : undefined;
  }
  const single = one(edit);
  return single === undefined ? undefined : [single];
}

function typed(tool: Tool): Tool | undefined {
  return tool.name === "Raw" ? undefined : tool;
}

/** The canonical tool for a Kimi CLI call `(name, input)`. */
export function kimiToolToCanonical(name: string, input: Json): Tool {
  if (name !== kimiEditTool) return kimiDialect.toTool(name, input);
  const raw: Tool = { name: "Raw", toolName: name, input };
  if (!isJsonObject(input)) return raw;
  const keys = Object.keys(input);
  if (!keys.every((key) => key === "path" || key === "edit") || !keys.includes("edit")) return raw;
  const edits = editsOf(input.edit as Json);
  if (edits === undefined) return raw;
  const path: JsonObject = Object.hasOwn(input, "path") ? { file_path: input.path as Json } : {};
  // One edit object is Edit; a list (even of one) is MultiEdit.
  const tool = Array.isArray(input.edit)
    ? fromCanonical("MultiEdit", { ...path, edits })
    : fromCanonical("Edit", { ...path, ...(edits[0] as JsonObject) });
  return typed(tool) ?? raw;
}

/** The Kimi CLI call for a canonical tool: Kimi CLI's own name and keys when the tool reads back as itself from them. */
export function canonicalToKimiTool(tool: Tool): { name: string; input: Json } {
  if (tool.name !== "Edit" && tool.name !== "MultiEdit") return kimiDialect.fromTool(tool);
  const { name, input } = toCanonical(tool);
  if (!isJsonObject(input)) return { name, input };
  let candidate: { name: string; input: Json } | undefined;
  const { file_path: path, ...rest } = input;
  const back = (edit: JsonObject) =>
    renameKeys(edit, [
      ["old_string", "old"],
      ["new_string", "new"],
      ["replace_all", "replace_all"],
    ]);
  const edit =
    name === "Edit"
      ? back(rest)
      : Array.isArray(rest.edits)
        ? (rest.edits as JsonObject[]).map(back)
        : undefined;
  if (edit !== undefined && !(Array.isArray(edit) && edit.some((item) => item === undefined)))
    candidate = { name: kimiEditTool, input: { path: path as Json, edit: edit as Json } };
  // Only when it reads back as this very tool (a value Kimi CLI means otherwise stays canonical).
  if (
    candidate !== undefined &&
    sameTool(kimiToolToCanonical(candidate.name, candidate.input), tool)
  )
    return candidate;
  return { name, input };
}

function sameTool(left: Tool, right: Tool): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
