// The Common model: one typed transcript every harness maps through. Zod
// schemas are the single source; the TypeScript types are inferred from
// them and the JSON Schema in docs/schema/ is generated from them. Every
// object is strict, so a value that validates carries nothing unmodeled.
import { z } from "zod";
import { JsonValue, type Tool, ToolSchema } from "./tools.js";

/** ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const Timestamp = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
    "an ISO 8601 UTC timestamp with milliseconds",
  );

export const canonicalStopReasons = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "pause_turn",
  "refusal",
  /** The user or the harness cancelled the turn. */
  "aborted",
  /** The turn ended on an error. */
  "error",
] as const;
export type CanonicalStopReason = (typeof canonicalStopReasons)[number];

/** A canonical stop reason, or any other string a harness wrote, kept verbatim. */
export const StopReason = z.string().min(1);
export type StopReason = CanonicalStopReason | (string & {});

export const Usage = z.strictObject({
  inputTokens: z.int().nonnegative(),
  outputTokens: z.int().nonnegative(),
  cacheReadInputTokens: z.int().nonnegative(),
  cacheCreationInputTokens: z.int().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

export const TextBlock = z.strictObject({ type: z.literal("text"), text: z.string() });
export const ThinkingBlock = z.strictObject({
  type: z.literal("thinking"),
  text: z.string(),
  /** Anthropic's signature over the thinking text. */
  signature: z.string().optional(),
  /** Opaque encrypted reasoning (Anthropic redacted_thinking data, OpenAI encrypted content). */
  encrypted: z.string().optional(),
  /** Who produced it, when the harness records it ("anthropic", "openai"). */
  provider: z.string().optional(),
});
export const ToolUseBlock = z.strictObject({
  type: z.literal("tool_use"),
  id: z.string().min(1),
  tool: ToolSchema,
});
export const ToolResultBlock = z.strictObject({
  type: z.literal("tool_result"),
  toolUseId: z.string().min(1),
  /** A string is text output; anything else is structured JSON output. */
  content: JsonValue,
  isError: z.boolean(),
});
export const ImageBlock = z.strictObject({
  type: z.literal("image"),
  source: z.strictObject({
    type: z.literal("base64"),
    mediaType: z.string().min(1),
    data: z.string(),
  }),
});

export const Block = z.discriminatedUnion("type", [
  TextBlock,
  ThinkingBlock,
  ToolUseBlock,
  ToolResultBlock,
  ImageBlock,
]);

export type TextBlock = z.infer<typeof TextBlock>;
export type ThinkingBlock = z.infer<typeof ThinkingBlock>;
export type ToolUseBlock = { type: "tool_use"; id: string; tool: Tool };
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;
export type ImageBlock = z.infer<typeof ImageBlock>;
export type Block = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock;
export type BlockType = Block["type"];

export const Role = z.enum(["user", "assistant"]);
export type Role = z.infer<typeof Role>;

export const Message = z.strictObject({
  role: Role,
  content: z.array(Block),
  timestamp: Timestamp,
  model: z.string().optional(),
  stopReason: StopReason.optional(),
  usage: Usage.optional(),
});
export type Message = {
  role: Role;
  content: Block[];
  timestamp: string;
  model?: string;
  stopReason?: StopReason;
  usage?: Usage;
};

export const Meta = z.strictObject({
  id: z.string().min(1),
  timestamp: Timestamp,
  cwd: z.string().optional(),
  gitBranch: z.string().optional(),
  title: z.string().optional(),
  cliVersion: z.string().optional(),
  model: z.string().optional(),
});
export type Meta = z.infer<typeof Meta>;

export const Transcript = z.strictObject({ meta: Meta, messages: z.array(Message) });
export type Transcript = { meta: Meta; messages: Message[] };
