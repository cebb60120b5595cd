// The Common model: one typed transcript every harness maps through. Zod
// schemas are the single source; the TypeScript types are inferred from
// them and the JSON Schema in docs/schema/ is generated from them. Every
// object is strict, so a value that validates carries nothing unmodeled.
import * as z from "zod";
import { contextKinds, timestampPattern } from "./common-values.js";
import { JsonValue, type Tool, ToolSchema } from "./tools.js";

export { contextKinds } from "./common-values.js";

/** ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const Timestamp = z
  .string()
  .regex(timestampPattern, "an ISO 8601 UTC timestamp with milliseconds");

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
  /** Input tokens not read from or written to a cache (Anthropic's `input_tokens`). */
  inputTokens: z.int().nonnegative(),
  outputTokens: z.int().nonnegative(),
  cacheReadInputTokens: z.int().nonnegative(),
  cacheCreationInputTokens: z.int().nonnegative(),
  /** v2: output tokens spent on reasoning, when the harness counts them apart (included in outputTokens). */
  reasoningOutputTokens: z.int().nonnegative().optional(),
  /** v2: what the harness recorded this message cost, in US dollars. */
  costUsd: z.number().nonnegative().optional(),
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

/**
 * v2: where the harness compacted the conversation. Always alone in a
 * user-role message; the full history before it stays in `messages`.
 * `summary` is what the harness sent the model in place of that history;
 * `history` the messages it sent instead, where the format records them
 * (Codex `replacement_history`).
 */
export const CompactionBlock = z.strictObject({
  type: z.literal("compaction"),
  summary: z.string(),
  /** "manual" (the person asked) or "auto" (the context filled), or the harness's own word. */
  trigger: z.string().min(1).optional(),
  /** Context size in tokens when it compacted. */
  preTokens: z.int().nonnegative().optional(),
  get history() {
    return z.array(Message).optional();
  },
});

export const Block = z
  .discriminatedUnion("type", [
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
    ImageBlock,
    CompactionBlock,
  ])
  .meta({ id: "Block" });

export type TextBlock = z.infer<typeof TextBlock>;
export type ThinkingBlock = z.infer<typeof ThinkingBlock>;
export type ToolUseBlock = { type: "tool_use"; id: string; tool: Tool };
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;
export type ImageBlock = z.infer<typeof ImageBlock>;
export type CompactionBlock = {
  type: "compaction";
  summary: string;
  trigger?: string;
  preTokens?: number;
  history?: Message[];
};
export type Block =
  | TextBlock
  | ThinkingBlock
  | ToolUseBlock
  | ToolResultBlock
  | ImageBlock
  | CompactionBlock;
export type BlockType = Block["type"];

export const Role = z.enum(["user", "assistant"]);
export type Role = z.infer<typeof Role>;

/**
 * v2: a message the person did not type: a system prompt, developer
 * instructions, or context the harness injected (AGENTS.md / CLAUDE.md
 * contents, an environment description, command caveats). Such messages
 * have role "user"; a writer re-injects or drops them knowingly.
 */
export const MessageContext = z.strictObject({
  kind: z.enum(contextKinds),
  /** What it came from, when the harness says ("AGENTS.md", "environment_context", "base_instructions"). */
  source: z.string().min(1).optional(),
});
export type MessageContext = z.infer<typeof MessageContext>;

export const Message: z.ZodType<Message> = z
  .strictObject({
    role: Role,
    get content() {
      return z.array(Block);
    },
    timestamp: Timestamp,
    model: z.string().optional(),
    stopReason: StopReason.optional(),
    usage: Usage.optional(),
    context: MessageContext.optional(),
  })
  .meta({ id: "Message" }) as unknown as z.ZodType<Message>;
export type Message = {
  role: Role;
  content: Block[];
  timestamp: string;
  model?: string;
  stopReason?: StopReason;
  usage?: Usage;
  context?: MessageContext;
};

/** v2: where a session came from when txcript wrote it. */
export const Lineage = z.strictObject({
  /** The harness the session was read from. */
  harness: z.string().min(1),
  /** Its id there. */
  id: z.string().min(1),
  txcriptVersion: z.string().min(1),
  /** When txcript wrote it. */
  convertedAt: Timestamp,
});
export type Lineage = z.infer<typeof Lineage>;

export const Meta = z.strictObject({
  id: z.string().min(1),
  timestamp: Timestamp,
  cwd: z.string().optional(),
  gitBranch: z.string().optional(),
  title: z.string().optional(),
  cliVersion: z.string().optional(),
  model: z.string().optional(),
  lineage: Lineage.optional(),
});
export type Meta = z.infer<typeof Meta>;

/**
 * v2: a sub-conversation an agent spawned (Claude Code Task/Agent, Amp Task,
 * Codex spawn_agent, OpenCode subtask, Gemini agents), linked to the
 * spawning tool_use by `toolUseId` when the harness records which call it was.
 */
export const Subagent: z.ZodType<Subagent> = z
  .strictObject({
    id: z.string().min(1),
    toolUseId: z.string().min(1).optional(),
    title: z.string().optional(),
    agentType: z.string().min(1).optional(),
    model: z.string().optional(),
    messages: z.array(Message),
    get subagents() {
      return z.array(Subagent).optional();
    },
  })
  .meta({ id: "Subagent" }) as unknown as z.ZodType<Subagent>;
export type Subagent = {
  id: string;
  toolUseId?: string;
  title?: string;
  agentType?: string;
  model?: string;
  messages: Message[];
  subagents?: Subagent[];
};

export const Transcript = z.strictObject({
  meta: Meta,
  messages: z.array(Message),
  subagents: z.array(Subagent).optional(),
});
export type Transcript = { meta: Meta; messages: Message[]; subagents?: Subagent[] };
