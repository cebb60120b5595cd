// Common blocks, usage and stop reasons as pi writes them: assistant content
// (text, thinking, toolCall), tool result content, usage with its cost, and
// the provider/api an assistant message names. The entry writer in
// common-to-pi.ts places them; the losses here are reported as they happen.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  ownValue,
  stringifyJson,
  warn,
} from "@txcript/core";
import { piLoss } from "./pi-losses.js";
import { harness } from "./pi-schema.js";
import { commonToolToPi, piToolToCommon } from "./pi-tools.js";

const stopReasons: Readonly<Record<string, string>> = {
  end_turn: "stop",
  max_tokens: "length",
  tool_use: "toolUse",
  error: "error",
  aborted: "aborted",
};

/** The stop reason pi records; a message without one gets toolUse (it calls tools) or stop. */
export function writeStopReason(message: Message, options: ConversionOptions | undefined): string {
  const { stopReason } = message;
  if (stopReason === undefined) {
    warn(options, piLoss.stopReason, "an assistant message without a stop reason got one");
    return message.content.some((block) => block.type === "tool_use") ? "toolUse" : "stop";
  }
  if (Object.hasOwn(stopReasons, stopReason)) return stopReasons[stopReason] as string;
  if (stopReason === "stop" || stopReason === "length" || stopReason === "toolUse")
    warn(options, piLoss.stopReason, `stop reason ${stopReason} reads back canonical`);
  return stopReason;
}

/** pi's usage record: token counts, their sum, and the cost (only its total is known). */
export function writeUsage(message: Message, options: ConversionOptions | undefined): Json {
  const usage = message.usage;
  if (usage === undefined)
    warn(options, piLoss.usageFilled, "an assistant message without usage got zero usage");
  else if (usage.costUsd === 0)
    warn(options, piLoss.usageFilled, "a zero cost reads back as no cost");
  if (usage?.reasoningOutputTokens !== undefined)
    warn(options, piLoss.reasoningTokens, "reasoning output tokens are not counted apart");
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  const cacheRead = usage?.cacheReadInputTokens ?? 0;
  const cacheWrite = usage?.cacheCreationInputTokens ?? 0;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: usage?.costUsd ?? 0 },
  };
}

/** The api pi's own providers of that name use (pi-ai), or "" for any other. */
export function apiOf(provider: string): string {
  switch (provider) {
    case "anthropic":
      return "anthropic-messages";
    case "openai":
      return "openai-responses";
    case "google":
      return "google-generative-ai";
    default:
      return "";
  }
}

/** A provider guessed from a model id, for messages whose provider does not matter to Common. */
export function guessProvider(model: string | undefined): string {
  if (model === undefined) return "";
  if (/^claude/i.test(model)) return "anthropic";
  if (/^(gpt|o\d|codex)/i.test(model)) return "openai";
  if (/^gemini/i.test(model)) return "google";
  return "";
}

/**
 * The provider an assistant message is written with: its first thinking
 * block's, since that is what its thinking reads back with; a message
 * without thinking takes one guessed from its model.
 */
export function messageProvider(message: Message, options: ConversionOptions | undefined): string {
  let chosen: string | undefined;
  let thinking = false;
  let mixed = false;
  for (const block of message.content) {
    if (block.type !== "thinking") continue;
    thinking = true;
    const provider = block.provider === "" ? undefined : block.provider;
    if (chosen === undefined && provider !== undefined) chosen = provider;
  }
  for (const block of message.content)
    if (block.type === "thinking" && block.provider !== chosen) mixed = true;
  if (mixed)
    warn(options, piLoss.thinkingProvider, "thinking reads back with the message's provider");
  if (chosen !== undefined) return chosen;
  return thinking ? "" : guessProvider(message.model);
}

function thinkingToPi(
  block: Block & { type: "thinking" },
  options: ConversionOptions | undefined,
): Json {
  if (block.signature !== undefined) {
    if (block.encrypted !== undefined)
      warn(options, piLoss.thinkingEncrypted, "dropped encrypted reasoning beside a signature");
    return { type: "thinking", thinking: block.text, thinkingSignature: block.signature };
  }
  if (block.encrypted !== undefined)
    return {
      type: "thinking",
      thinking: block.text,
      thinkingSignature: block.encrypted,
      redacted: true,
    };
  return { type: "thinking", thinking: block.text };
}

/** One assistant block in pi's content; undefined for the blocks that go elsewhere or nowhere. */
export function assistantBlockToPi(
  block: Block,
  options: ConversionOptions | undefined,
): Json | undefined {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return thinkingToPi(block, options);
    case "tool_use": {
      const { name, input } = commonToolToPi(block.tool);
      if (block.tool.name === "Raw" && piToolToCommon(name, input).name !== "Raw")
        warn(options, piLoss.rawToolTyped, `a raw ${name} call reads back as a canonical tool`);
      return { type: "toolCall", id: block.id, name, arguments: input };
    }
    case "image":
      warn(options, piLoss.assistantImage, "dropped an image on an assistant message");
      return undefined;
    default:
      return undefined;
  }
}

function isPiResultBlock(item: Json): boolean {
  if (!isJsonObject(item)) return false;
  const keys = Object.keys(item).sort().join(",");
  const type = ownValue(item, "type");
  if (type === "text") return keys === "text,type" && typeof ownValue(item, "text") === "string";
  return (
    type === "image" &&
    keys === "data,mimeType,type" &&
    typeof ownValue(item, "data") === "string" &&
    typeof ownValue(item, "mimeType") === "string"
  );
}

/** A tool result's content as pi's list of text and image blocks. */
export function resultContentToPi(content: Json, options: ConversionOptions | undefined): Json {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content) && content.every(isPiResultBlock)) {
    if (content.length === 1 && ownValue(content[0] as JsonObject, "type") === "text")
      warn(options, piLoss.jsonToolOutput, "a list of one text block reads back as its text");
    return content;
  }
  warn(options, piLoss.jsonToolOutput, "structured tool output became its JSON text");
  return [{ type: "text", text: stringifyJson(content, undefined, harness) }];
}
