// pi's built-in tools and the canonical ones they are: read ↔ Read, write ↔
// Write, edit ↔ Edit (the {path, oldText, newText} form of pi ≤ 0.6x) or
// MultiEdit (the {path, edits} form of 0.73.1), bash ↔ Bash. A call maps
// only when its arguments fit exactly (bash's timeout is seconds, Claude
// Code's milliseconds: such a call stays Raw); every other call keeps its
// name and arguments as they are.
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toCanonical,
} from "@txcript/core";

function keysAre(
  object: JsonObject,
  allowed: readonly string[],
  required: readonly string[],
): boolean {
  const keys = Object.keys(object);
  return keys.every((key) => allowed.includes(key)) && required.every((key) => keys.includes(key));
}

function isString(value: Json | undefined): value is string {
  return typeof value === "string";
}

function isInteger(value: Json | undefined): boolean {
  return typeof value === "number" && Number.isSafeInteger(value);
}

/** `object` with keys renamed by `names`, in its own key order. */
function renamed(object: JsonObject, names: Readonly<Record<string, string>>): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(object))
    Object.defineProperty(out, names[key] ?? key, {
      value: object[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function editPairs(
  edits: Json | undefined,
  from: [string, string],
  to: [string, string],
): Json[] | undefined {
  if (!Array.isArray(edits)) return undefined;
  const out: Json[] = [];
  for (const edit of edits) {
    if (!isJsonObject(edit) || !keysAre(edit, from, from)) return undefined;
    const [oldKey, newKey] = from;
    if (!isString(edit[oldKey]) || !isString(edit[newKey])) return undefined;
    out.push(renamed(edit, { [from[0]]: to[0], [from[1]]: to[1] }));
  }
  return out;
}

/** The canonical tool of a pi tool call. */
export function piToolToCommon(name: string, input: Json): Tool {
  if (isJsonObject(input)) {
    switch (name) {
      case "read":
        if (
          keysAre(input, ["path", "offset", "limit"], ["path"]) &&
          isString(input.path) &&
          (!Object.hasOwn(input, "offset") || isInteger(input.offset)) &&
          (!Object.hasOwn(input, "limit") || isInteger(input.limit))
        )
          return fromCanonical("Read", renamed(input, { path: "file_path" }));
        break;
      case "write":
        if (
          keysAre(input, ["path", "content"], ["path", "content"]) &&
          isString(input.path) &&
          isString(input.content)
        )
          return fromCanonical("Write", renamed(input, { path: "file_path" }));
        break;
      case "edit":
        if (
          keysAre(input, ["path", "oldText", "newText"], ["path", "oldText", "newText"]) &&
          isString(input.path) &&
          isString(input.oldText) &&
          isString(input.newText)
        )
          return fromCanonical(
            "Edit",
            renamed(input, { path: "file_path", oldText: "old_string", newText: "new_string" }),
          );
        if (keysAre(input, ["path", "edits"], ["path", "edits"]) && isString(input.path)) {
          const edits = editPairs(
            input.edits,
            ["oldText", "newText"],
            ["old_string", "new_string"],
          );
          if (edits !== undefined) {
            const multi = renamed(input, { path: "file_path" });
            multi.edits = edits;
            return fromCanonical("MultiEdit", multi);
          }
        }
        break;
      case "bash":
        if (keysAre(input, ["command"], ["command"]) && isString(input.command))
          return fromCanonical("Bash", input);
        break;
    }
  }
  return fromCanonical(name, input);
}

/** The pi tool call (name, arguments) of a canonical tool. */
export function commonToolToPi(tool: Tool): { name: string; input: Json } {
  switch (tool.name) {
    case "Read":
      return { name: "read", input: renamed(tool.input as JsonObject, { file_path: "path" }) };
    case "Write":
      return { name: "write", input: renamed(tool.input as JsonObject, { file_path: "path" }) };
    case "Edit":
      if (tool.input.replace_all === undefined && !Object.hasOwn(tool.input, "replace_all"))
        return {
          name: "edit",
          input: renamed(tool.input as JsonObject, {
            file_path: "path",
            old_string: "oldText",
            new_string: "newText",
          }),
        };
      break;
    case "MultiEdit": {
      const edits = editPairs(
        tool.input.edits as Json,
        ["old_string", "new_string"],
        ["oldText", "newText"],
      );
      if (edits !== undefined) {
        const input = renamed(tool.input as JsonObject, { file_path: "path" });
        input.edits = edits;
        return { name: "edit", input };
      }
      break;
    }
    case "Bash":
      if (Object.keys(tool.input).length === 1)
        return { name: "bash", input: tool.input as JsonObject };
      break;
  }
  return toCanonical(tool);
}
