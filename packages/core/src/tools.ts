// Canonical tools: Claude-canonical names and argument keys as strict zod
// schemas, plus `Raw` for everything else. A typed variant is chosen only
// when an input fits its schema exactly, and the caller's input object is
// kept as is (key order included), so fromCanonical/toCanonical are exact
// inverses for any name and any JSON input.
import * as z from "zod";
import { isJsonObject, type Json } from "./json.js";

export const JsonValue: z.ZodType<Json> = z.json() as z.ZodType<Json>;

const todoItem = () =>
  z.strictObject({
    content: z.string(),
    status: z.string(),
    activeForm: z.string().optional(),
    id: z.string().optional(),
    priority: z.string().optional(),
  });

const editOperation = () =>
  z.strictObject({
    old_string: z.string(),
    new_string: z.string(),
    replace_all: z.boolean().optional(),
  });

// Each typed tool's input schema, built when first asked for: building all
// of them (and the union of ToolSchema) at import was a measurable part of
// every start-up that reads a session (docs/decisions/0017), and reading
// a session checks only the tools its calls name.
const toolInputBuilders = {
  Read: () =>
    z.strictObject({
      file_path: z.string(),
      offset: z.int().optional(),
      limit: z.int().optional(),
    }),
  Write: () => z.strictObject({ file_path: z.string(), content: z.string() }),
  Edit: () =>
    z.strictObject({
      file_path: z.string(),
      old_string: z.string(),
      new_string: z.string(),
      replace_all: z.boolean().optional(),
    }),
  MultiEdit: () => z.strictObject({ file_path: z.string(), edits: z.array(editOperation()) }),
  Bash: () =>
    z.strictObject({
      command: z.string(),
      description: z.string().optional(),
      timeout: z.int().optional(),
      run_in_background: z.boolean().optional(),
      /** Not a Claude Code key: Amp's `cwd`/`workdir`, kept so Amp calls stay typed. */
      workdir: z.string().optional(),
    }),
  Glob: () => z.strictObject({ pattern: z.string(), path: z.string().optional() }),
  Grep: () =>
    z.strictObject({
      pattern: z.string(),
      path: z.string().optional(),
      glob: z.string().optional(),
      type: z.string().optional(),
      output_mode: z.string().optional(),
      "-i": z.boolean().optional(),
      "-n": z.boolean().optional(),
      "-A": z.int().optional(),
      "-B": z.int().optional(),
      "-C": z.int().optional(),
      head_limit: z.int().optional(),
      multiline: z.boolean().optional(),
    }),
  LS: () => z.strictObject({ path: z.string(), ignore: z.array(z.string()).optional() }),
  WebFetch: () => z.strictObject({ url: z.string(), prompt: z.string().optional() }),
  WebSearch: () =>
    z.strictObject({
      query: z.string(),
      allowed_domains: z.array(z.string()).optional(),
      blocked_domains: z.array(z.string()).optional(),
    }),
  TodoWrite: () => z.strictObject({ todos: z.array(todoItem()) }),
  TodoRead: () => z.strictObject({}),
  Task: () =>
    z.strictObject({
      description: z.string(),
      prompt: z.string(),
      subagent_type: z.string().optional(),
    }),
  /** A user slash command (`/compact`, `/review src`), not a model tool call. */
  Command: () => z.strictObject({ command: z.string(), args: z.string().optional() }),
} as const;

type ToolInputSchemas = {
  [N in keyof typeof toolInputBuilders]: ReturnType<(typeof toolInputBuilders)[N]>;
};

/** Input schemas of the typed tools, keyed by canonical name; each built on first access. */
export const toolInputSchemas = {} as ToolInputSchemas;
for (const [name, build] of Object.entries(toolInputBuilders))
  Object.defineProperty(toolInputSchemas, name, {
    enumerable: true,
    configurable: true,
    get() {
      const schema = build();
      Object.defineProperty(toolInputSchemas, name, { enumerable: true, value: schema });
      return schema;
    },
  });

export type TypedToolName = keyof typeof toolInputSchemas;
export const typedToolNames = Object.keys(toolInputBuilders) as TypedToolName[];

export type ToolInput<N extends TypedToolName> = z.infer<(typeof toolInputSchemas)[N]>;

type TypedToolOf<N extends TypedToolName> = { name: N; input: ToolInput<N> };
export type TypedTool = { [N in TypedToolName]: TypedToolOf<N> }[TypedToolName];
/** A tool the typed set does not model, or an input that does not fit its typed schema. */
export type RawTool = { name: "Raw"; toolName: string; input: Json };
export type Tool = TypedTool | RawTool;

export const RawToolSchema = z.strictObject({
  name: z.literal("Raw"),
  toolName: z.string(),
  input: JsonValue,
});

/** Every tool: the union, built on first parse (z.lazy). */
export const ToolSchema: z.ZodType<Tool> = z.lazy(() =>
  z.discriminatedUnion("name", [
    ...(typedToolNames.map((name) =>
      z.strictObject({ name: z.literal(name), input: toolInputSchemas[name] }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]]),
    RawToolSchema,
  ]),
) as unknown as z.ZodType<Tool>;

const schemaKeys = new Map<TypedToolName, Set<string>>();

/** The keys a typed tool's input may have. */
function keysOf(name: TypedToolName): Set<string> {
  let keys = schemaKeys.get(name);
  if (keys === undefined) {
    keys = new Set(Object.keys(toolInputSchemas[name].shape));
    schemaKeys.set(name, keys);
  }
  return keys;
}

function isTypedToolName(name: string): name is TypedToolName {
  return Object.hasOwn(toolInputBuilders, name);
}

/**
 * The typed tool for `(name, input)` when the input fits its schema exactly
 * (no unknown key, no wrong type), else `Raw`. The input object is kept by
 * reference, so its key order survives.
 */
export function fromCanonical(name: string, input: Json): Tool {
  if (isTypedToolName(name)) {
    // The schemas are strict and have no defaults or transforms, so a
    // successful parse means the input fits exactly (tools.test.ts checks
    // the round trip); a key outside the schema is rejected before zod runs.
    if (
      isJsonObject(input) &&
      Object.keys(input).every((key) => keysOf(name).has(key)) &&
      toolInputSchemas[name].safeParse(input).success
    ) {
      return { name, input } as TypedTool;
    }
  }
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
