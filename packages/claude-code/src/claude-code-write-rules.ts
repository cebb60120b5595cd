// The writer's per-block and per-message rules, shared by the steps of
// claude-code-write-plan.ts: thinking Anthropic accepts, tool_result content
// it can hold, usage it can count, meta as written, and which messages are
// printed as markup or as a compaction boundary.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  type Meta,
  warn,
} from "@txcript/core";
import { anthropicThinkingOf, toolResultContentToAnthropic } from "@txcript/core/anthropic";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { claudeSessionId } from "./claude-code-paths.js";
import { missingResultText } from "./claude-code-written.js";

export function flattenContent(content: Json, options: ConversionOptions | undefined): Json {
  const written = toolResultContentToAnthropic(content, "claude_code");
  if (written.flattened)
    warn(options, claudeCodeLoss.jsonToolOutput, "structured tool output became its JSON text");
  return written.content;
}

export function normalizeThinking(
  block: Block & { type: "thinking" },
  options?: ConversionOptions,
): Block | undefined {
  const sent = anthropicThinkingOf(block);
  if (sent === undefined) {
    warn(
      options,
      claudeCodeLoss.thinkingDropped,
      block.provider !== undefined && block.provider !== "anthropic"
        ? `dropped ${block.provider} reasoning`
        : "dropped thinking without a signature",
    );
    return undefined;
  }
  if (sent.encryptedDropped)
    warn(options, claudeCodeLoss.thinkingEncryptedDropped, "dropped encrypted reasoning");
  return block.signature !== undefined
    ? { type: "thinking", text: block.text, signature: block.signature, provider: "anthropic" }
    : { type: "thinking", text: "", encrypted: block.encrypted as string, provider: "anthropic" };
}

/** A model name Claude Code reads as none: empty, or its own "<synthetic>" (API error lines). */
export function isReservedModel(model: string | undefined): boolean {
  return model === "" || model === "<synthetic>";
}

export function hasUsageExtras(message: Message): boolean {
  return (
    message.usage !== undefined &&
    (message.usage.reasoningOutputTokens !== undefined || message.usage.costUsd !== undefined)
  );
}

export function isUserCommand(block: Block): boolean {
  return block.type === "tool_use" && block.tool.name === "Command";
}

/** Meta as it reads back; `model` is settled once the messages are. */
function normalizeMeta(meta: Meta, options?: ConversionOptions): Meta {
  const id = claudeSessionId(meta.id);
  if (id !== meta.id && id !== meta.id.toLowerCase())
    warn(options, claudeCodeLoss.foreignSessionId, `session id ${meta.id} became ${id}`);
  const normalized: Meta = { id, timestamp: meta.timestamp };
  if (meta.cwd !== undefined) normalized.cwd = meta.cwd;
  if (meta.gitBranch !== undefined && meta.gitBranch !== "") normalized.gitBranch = meta.gitBranch;
  else if (meta.gitBranch === "") warn(options, claudeCodeLoss.emptyGitBranch, "empty git branch");
  if (meta.title !== undefined) normalized.title = meta.title;
  if (meta.cliVersion !== undefined) normalized.cliVersion = meta.cliVersion;
  if (meta.lineage !== undefined) normalized.lineage = meta.lineage;
  return normalized;
}

export function userMessage(
  content: Block[],
  timestamp: string,
  context?: Message["context"],
): Message {
  return context === undefined
    ? { role: "user", content, timestamp }
    : { role: "user", content, timestamp, context };
}

/** A compaction marker as the writer prints it: a user message holding one compaction block. */
export function isMarker(message: Message): boolean {
  return (
    message.role === "user" &&
    message.content.length === 1 &&
    message.content[0]?.type === "compaction"
  );
}

/** A user message written as slash-command markup: a lone Command call. */
export function isCommandCall(message: Message): boolean {
  if (message.role !== "user" || message.content.length !== 1) return false;
  const block = message.content[0] as Block;
  return block.type === "tool_use" && isUserCommand(block);
}

/** Meta as the writer writes it (the model is settled by the writer once the messages are). */
export function writtenMeta(meta: Meta, options?: ConversionOptions): Meta {
  return normalizeMeta(meta, options);
}

/** The calls answered so far or for good (a Set, or the write plan's read-ahead), and those given an error result. */
export interface AnsweredCalls {
  has(id: string): boolean;
  add(id: string): unknown;
}

/** Step 3, for one assistant message: an error result for each call nothing answers. */
export function answerCalls(
  message: Message,
  answered: AnsweredCalls,
  options: ConversionOptions | undefined,
): Message | undefined {
  const synthesized: Block[] = [];
  for (const block of message.content) {
    if (block.type !== "tool_use" || answered.has(block.id)) continue;
    answered.add(block.id);
    synthesized.push({
      type: "tool_result",
      toolUseId: block.id,
      content: missingResultText,
      isError: true,
    });
  }
  if (synthesized.length === 0) return undefined;
  warn(
    options,
    claudeCodeLoss.orphanToolUse,
    "synthesized an error result for an unanswered tool call",
    undefined,
    synthesized.length,
  );
  return userMessage(synthesized, message.timestamp);
}
