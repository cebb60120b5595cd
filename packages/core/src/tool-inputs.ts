// The typed tools' input shapes as plain data, and the exact-fit test that
// fromCanonical makes with them. Reading any session classifies every tool
// call, so this is on the path of every `view` and `convert`; it imports no
// zod, which is what keeps zod (and the Common schemas) out of a command
// that only reads (docs/decisions/0018). tools.ts keeps the zod schemas, the
// public API and the source of the `ToolInput` types; tools.test.ts derives
// a shape from each zod schema's definition and holds it equal to the one
// here, and holds `fitsToolInput` to zod's verdict on generated inputs.
import { isJsonObject, type Json, type JsonObject } from "./json.js";
import type { Tool, TypedTool, TypedToolName } from "./tools.js";

/** A value's shape: a JSON string, a safe integer, a boolean, an array of one shape, or a strict object. */
export type ValueShape =
  | "string"
  | "int"
  | "boolean"
  | { readonly array: ValueShape }
  | { readonly object: InputShape };

/** A strict object's keys: each a value shape, or `{ optional }` when the key may be absent. */
export type InputShape = {
  readonly [key: string]: ValueShape | { readonly optional: ValueShape };
};

const optional = (value: ValueShape) => ({ optional: value });

const todoItem: InputShape = {
  content: "string",
  status: "string",
  activeForm: optional("string"),
  id: optional("string"),
  priority: optional("string"),
};

const editOperation: InputShape = {
  old_string: "string",
  new_string: "string",
  replace_all: optional("boolean"),
};

/** Each typed tool's input shape, keyed by canonical name, in the order of the zod schemas in tools.ts. */
export const toolInputShapes: { readonly [N in TypedToolName]: InputShape } = {
  Read: { file_path: "string", offset: optional("int"), limit: optional("int") },
  Write: { file_path: "string", content: "string" },
  Edit: {
    file_path: "string",
    old_string: "string",
    new_string: "string",
    replace_all: optional("boolean"),
  },
  MultiEdit: { file_path: "string", edits: { array: { object: editOperation } } },
  Bash: {
    command: "string",
    description: optional("string"),
    timeout: optional("int"),
    run_in_background: optional("boolean"),
    workdir: optional("string"),
  },
  Glob: { pattern: "string", path: optional("string") },
  Grep: {
    pattern: "string",
    path: optional("string"),
    glob: optional("string"),
    type: optional("string"),
    output_mode: optional("string"),
    "-i": optional("boolean"),
    "-n": optional("boolean"),
    "-A": optional("int"),
    "-B": optional("int"),
    "-C": optional("int"),
    head_limit: optional("int"),
    multiline: optional("boolean"),
  },
  LS: { path: "string", ignore: optional({ array: "string" }) },
  WebFetch: { url: "string", prompt: optional("string") },
  WebSearch: {
    query: "string",
    allowed_domains: optional({ array: "string" }),
    blocked_domains: optional({ array: "string" }),
  },
  TodoWrite: { todos: { array: { object: todoItem } } },
  TodoRead: {},
  Task: { description: "string", prompt: "string", subagent_type: optional("string") },
  Command: { command: "string", args: optional("string") },
};

export const typedToolNames = Object.keys(toolInputShapes) as TypedToolName[];

export function isTypedToolName(name: string): name is TypedToolName {
  return Object.hasOwn(toolInputShapes, name);
}

function fitsValue(value: unknown, shape: ValueShape): boolean {
  if (shape === "string") return typeof value === "string";
  if (shape === "int") return typeof value === "number" && Number.isSafeInteger(value);
  if (shape === "boolean") return typeof value === "boolean";
  if ("array" in shape) {
    if (!Array.isArray(value)) return false;
    for (const item of value) if (!fitsValue(item, shape.array)) return false;
    return true;
  }
  return isJsonObject(value) && fitsObject(value, shape.object);
}

function fitsObject(value: JsonObject, shape: InputShape): boolean {
  for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) return false;
  for (const key of Object.keys(shape)) {
    const field = shape[key] as InputShape[string];
    const isOptional = typeof field === "object" && "optional" in field;
    const present = Object.hasOwn(value, key) ? (value[key] as unknown) : undefined;
    if (present === undefined) {
      if (!isOptional) return false;
      continue;
    }
    if (!fitsValue(present, isOptional ? field.optional : field)) return false;
  }
  return true;
}

/**
 * Whether `input` fits the typed tool's input schema exactly: an object with
 * no key outside the shape, every required key present, every value of its
 * kind (an integer a safe one). The same verdict as
 * `toolInputSchemas[name].safeParse(input).success` (tools.test.ts).
 */
export function fitsToolInput(name: TypedToolName, input: unknown): boolean {
  return isJsonObject(input) && fitsObject(input, toolInputShapes[name]);
}

/**
 * The typed tool for `(name, input)` when the input fits its schema exactly
 * (no unknown key, no wrong type), else `Raw`. The input object is kept by
 * reference, so its key order survives.
 */
export function fromCanonical(name: string, input: Json): Tool {
  if (isTypedToolName(name) && fitsToolInput(name, input)) return { name, input } as TypedTool;
  return { name: "Raw", toolName: name, input };
}

/** The exact inverse of fromCanonical. */
export function toCanonical(tool: Tool): { name: string; input: Json } {
  if (tool.name === "Raw") return { name: tool.toolName, input: tool.input };
  return { name: tool.name, input: tool.input as Json };
}

/** The name a tool goes by in its harness (the Raw tool name, or the canonical name). */
export function toolName(tool: Tool): string {
  return tool.name === "Raw" ? tool.toolName : tool.name;
}
