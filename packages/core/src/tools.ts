// Canonical tools: Claude-canonical names and argument keys as strict zod
// schemas, plus `Raw` for everything else. A typed variant is chosen only
// when an input fits its schema exactly, and the caller's input object is
// kept as is (key order included), so fromCanonical/toCanonical are exact
// inverses for any name and any JSON input. The fit itself is decided in
// tool-inputs.ts from the same shapes as plain data, without zod, so that
// reading a session does not load zod (docs/decisions/0018); the schemas
// here and those shapes are held equal by tools.test.ts.
import * as z from "zod";
import type { Json } from "./json.js";
import { typedToolNames } from "./tool-inputs.js";

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

export {
  fitsToolInput,
  fromCanonical,
  toCanonical,
  toolName,
  typedToolNames,
} from "./tool-inputs.js";
