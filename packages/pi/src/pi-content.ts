// Reading pi message parts into Common: content blocks, usage, stop
// reasons, timestamps, and the text pi sends the model for a `!cmd` shell
// run. Shared by pi-to-common.ts; no entry walking here.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  readTimestamp,
  type Usage,
  warn,
} from "@txcript/core";
import { piLoss } from "./pi-losses.js";
import { countAt, objectAt, stringAt } from "./pi-schema.js";
import { piToolToCommon } from "./pi-tools.js";

export const epoch = "1970-01-01T00:00:00.000Z";

/** An ISO timestamp from pi's two kinds: ms since the epoch (messages) or an ISO string (entries). */
export function isoTimestamp(value: Json | undefined): string | undefined {
  return readTimestamp(value);
}

const stopReasons: Readonly<Record<string, string>> = {
  stop: "end_turn",
  length: "max_tokens",
  toolUse: "tool_use",
  error: "error",
  aborted: "aborted",
};

/** pi's stop reason in the canonical set; another string is kept as it is. */
export function readStopReason(value: Json | undefined): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return Object.hasOwn(stopReasons, value) ? stopReasons[value] : value;
}

export function readUsage(usage: JsonObject, options: ConversionOptions | undefined): Usage {
  const read: Usage = {
    inputTokens: countAt(usage, "input") ?? 0,
    outputTokens: countAt(usage, "output") ?? 0,
    cacheReadInputTokens: countAt(usage, "cacheRead") ?? 0,
    cacheCreationInputTokens: countAt(usage, "cacheWrite") ?? 0,
  };
  const cost = objectAt(usage, "cost");
  const total = cost === undefined ? undefined : ownValue(cost, "total");
  if (typeof total === "number" && Number.isFinite(total) && total > 0) read.costUsd = total;
  const sum =
    read.inputTokens +
    read.outputTokens +
    read.cacheReadInputTokens +
    read.cacheCreationInputTokens;
  const parts = cost === undefined ? [] : ["input", "output", "cacheRead", "cacheWrite"];
  const split = parts.some((key) => {
    const part = ownValue(cost as JsonObject, key);
    return typeof part === "number" && part !== 0;
  });
  const totalTokens = ownValue(usage, "totalTokens");
  if (split || (totalTokens !== undefined && totalTokens !== sum))
    warn(options, piLoss.costBreakdown, "kept the cost total and token counts only");
  return read;
}

function unknownBlock(options: ConversionOptions | undefined, what: string): undefined {
  warn(options, piLoss.unknownBlock, `dropped ${what}`);
  return undefined;
}

function typeName(block: JsonObject): string {
  const type = ownValue(block, "type");
  return typeof type === "string" ? `a ${type} block` : "an untyped block";
}

/** A user-side block (user, toolResult, custom content): text or image. */
export function readUserBlock(
  block: Json,
  options: ConversionOptions | undefined,
): Block | undefined {
  if (!isJsonObject(block)) return unknownBlock(options, "a content block that is not an object");
  const type = ownValue(block, "type");
  if (type === "text") return { type: "text", text: stringAt(block, "text") ?? "" };
  if (type === "image") {
    const mediaType = stringAt(block, "mimeType");
    const data = stringAt(block, "data");
    if (mediaType === undefined || mediaType === "" || data === undefined)
      return unknownBlock(options, "an image without mimeType or data");
    return { type: "image", source: { type: "base64", mediaType, data } };
  }
  return unknownBlock(options, typeName(block));
}

/** User-side content: a string, or a list of text and image blocks. */
export function readUserContent(
  content: Json | undefined,
  options: ConversionOptions | undefined,
): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const block of content) {
    const read = readUserBlock(block, options);
    if (read !== undefined) blocks.push(read);
  }
  return blocks;
}

/** An assistant block: text, thinking (signed or redacted) or a tool call. */
export function readAssistantBlock(
  block: Json,
  provider: string | undefined,
  options: ConversionOptions | undefined,
): Block | undefined {
  if (!isJsonObject(block)) return unknownBlock(options, "a content block that is not an object");
  switch (ownValue(block, "type")) {
    case "text":
      if (ownValue(block, "textSignature") !== undefined)
        warn(options, piLoss.textSignature, "dropped a text signature");
      return { type: "text", text: stringAt(block, "text") ?? "" };
    case "thinking": {
      const text = stringAt(block, "thinking") ?? "";
      const signature = stringAt(block, "thinkingSignature");
      const from = provider === undefined ? {} : { provider };
      if (ownValue(block, "redacted") === true)
        return { type: "thinking", text, encrypted: signature ?? "", ...from };
      return { type: "thinking", text, ...(signature === undefined ? {} : { signature }), ...from };
    }
    case "toolCall": {
      const id = stringAt(block, "id");
      const name = stringAt(block, "name");
      if (id === undefined || id === "" || name === undefined)
        return unknownBlock(options, "a tool call without id or name");
      const input = ownValue(block, "arguments");
      return { type: "tool_use", id, tool: piToolToCommon(name, input === undefined ? {} : input) };
    }
    default:
      return unknownBlock(options, typeName(block));
  }
}

/**
 * A tool result's content in Common: one plain text block is its text; any
 * other list (several blocks, images) stays the JSON list pi wrote.
 */
export function readResultContent(content: Json | undefined): Json {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content ?? "";
  if (content.length === 1) {
    const only = content[0];
    if (
      isJsonObject(only) &&
      Object.keys(only).length === 2 &&
      ownValue(only, "type") === "text" &&
      typeof ownValue(only, "text") === "string"
    )
      return ownValue(only, "text") as string;
  }
  return content;
}

/** What pi 0.73.1 sends the model for a shell command the person ran (`!cmd`). */
export function bashExecutionText(message: JsonObject): string {
  const command = stringAt(message, "command") ?? "";
  const output = stringAt(message, "output") ?? "";
  let text = `Ran \`${command}\`\n`;
  text += output === "" ? "(no output)" : `\`\`\`\n${output}\n\`\`\``;
  const exitCode = ownValue(message, "exitCode");
  if (ownValue(message, "cancelled") === true) text += "\n\n(command cancelled)";
  else if (typeof exitCode === "number" && exitCode !== 0)
    text += `\n\nCommand exited with code ${exitCode}`;
  const fullOutputPath = stringAt(message, "fullOutputPath");
  if (
    ownValue(message, "truncated") === true &&
    fullOutputPath !== undefined &&
    fullOutputPath !== ""
  )
    text += `\n\n[Output truncated. Full output: ${fullOutputPath}]`;
  return text;
}
