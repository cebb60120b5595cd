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
  type Tool,
  type TypedToolName,
  toCanonical,
} from "@txcript/core";

interface FlatSpec {
  readonly kimi: string;
  readonly canonical: TypedToolName;
  /** [Kimi CLI argument, canonical argument] pairs. */
  readonly keys: readonly (readonly [string, string])[];
}

/** Kimi CLI 1.49's tools whose arguments are a renaming of a canonical tool's (tools/…/Params). */
export const kimiFlatTools: readonly FlatSpec[] = [
  {
    kimi: "Shell",
    canonical: "Bash",
    keys: [
      ["command", "command"],
      ["description", "description"],
      ["run_in_background", "run_in_background"],
    ],
  },
  {
    kimi: "ReadFile",
    canonical: "Read",
    keys: [
      ["path", "file_path"],
      ["line_offset", "offset"],
      ["n_lines", "limit"],
    ],
  },
  {
    kimi: "WriteFile",
    canonical: "Write",
    keys: [
      ["path", "file_path"],
      ["content", "content"],
    ],
  },
  {
    kimi: "Glob",
    canonical: "Glob",
    keys: [
      ["pattern", "pattern"],
      ["directory", "path"],
    ],
  },
  { kimi: "FetchURL", canonical: "WebFetch", keys: [["url", "url"]] },
  { kimi: "SearchWeb", canonical: "WebSearch", keys: [["query", "query"]] },
  {
    kimi: "Agent",
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

const kimiNames = new Set([...kimiFlatTools.map((spec) => spec.kimi), kimiEditTool]);

/** Values that mean the same on both sides: Kimi CLI's negative line_offset (from the end) has no canonical form. */
function meansTheSame(canonical: TypedToolName, input: JsonObject): boolean {
  if (canonical !== "Read") return true;
  for (const key of ["offset", "limit"])
    if (Object.hasOwn(input, key) && !((input[key] as number) >= 1)) return false;
  return true;
}

function renamed(
  input: JsonObject,
  pairs: readonly (readonly [string, string])[],
): JsonObject | undefined {
  const out: JsonObject = {};
  for (const key of Object.keys(input)) {
    const pair = pairs.find(([from]) => from === key);
    if (pair === undefined) return undefined;
    out[pair[1]] = input[key] as Json;
  }
  return out;
}

function editsOf(edit: Json): JsonObject[] | undefined {
  const one = (value: Json): JsonObject | undefined =>
    isJsonObject(value)
      ? renamed(value, [
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
  if (!kimiNames.has(name)) return fromCanonical(name, input);
  const raw: Tool = { name: "Raw", toolName: name, input };
  if (!isJsonObject(input)) return raw;
  if (name === kimiEditTool) {
    const keys = Object.keys(input);
    if (!keys.every((key) => key === "path" || key === "edit") || !keys.includes("edit"))
      return raw;
    const edits = editsOf(input.edit as Json);
    if (edits === undefined) return raw;
    const path: JsonObject = Object.hasOwn(input, "path") ? { file_path: input.path as Json } : {};
    // One edit object is Edit; a list (even of one) is MultiEdit.
    const tool = Array.isArray(input.edit)
      ? fromCanonical("MultiEdit", { ...path, edits })
      : fromCanonical("Edit", { ...path, ...(edits[0] as JsonObject) });
    return typed(tool) ?? raw;
  }
  const spec = kimiFlatTools.find((candidate) => candidate.kimi === name) as FlatSpec;
  const canonical = renamed(input, spec.keys);
  if (canonical === undefined || !meansTheSame(spec.canonical, canonical)) return raw;
  return typed(fromCanonical(spec.canonical, canonical)) ?? raw;
}

/** The Kimi CLI call for a canonical tool: Kimi CLI's own name and keys when the tool reads back as itself from them. */
export function canonicalToKimiTool(tool: Tool): { name: string; input: Json } {
  const { name, input } = toCanonical(tool);
  if (tool.name === "Raw" || !isJsonObject(input)) return { name, input };
  let candidate: { name: string; input: Json } | undefined;
  if (name === "Edit" || name === "MultiEdit") {
    const { file_path: path, ...rest } = input;
    const back = (edit: JsonObject) =>
      renamed(edit, [
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
  } else {
    const spec = kimiFlatTools.find((item) => item.canonical === name);
    const back =
      spec === undefined
        ? undefined
        : renamed(
            input,
            spec.keys.map(([kimi, canonical]) => [canonical, kimi] as const),
          );
    if (spec !== undefined && back !== undefined) candidate = { name: spec.kimi, input: back };
  }
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
