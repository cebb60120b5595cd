// A Common transcript → a stream-json capture a consumer of that dialect
// accepts: one system/init, the user and assistant lines, one closing
// result. Also the `--stream-json-input` lines that replay a conversation's
// prompts. Not the reader; losses that occur are reported through onWarning.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  stringifyJson,
  type Transcript,
  uuidV5In,
  warn,
} from "@txcript/core";
import { type DialectToolOptions, toolFromCommon } from "./stream-json-dialect.js";
import type { StreamJsonCapture, StreamJsonDialect, StreamJsonLine } from "./stream-json-lines.js";
import { streamJsonLossByCode as losses } from "./stream-json-losses.js";

export interface StreamJsonWriteOptions extends ConversionOptions, DialectToolOptions {
  /** Tool spelling and line keys of Claude Code (default) or Amp. */
  dialect?: StreamJsonDialect;
}

/** Stop reasons each dialect can spell (Claude: BetaStopReason; Amp: its manual's list). */
export const claudeStopReasons: ReadonlySet<string> = new Set([
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "compaction",
  "refusal",
  "model_context_window_exceeded",
]);
export const ampStopReasons: ReadonlySet<string> = new Set([
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
]);

/** Namespace of the line uuids and message ids txcript derives (a fixed v4 UUID). */
const idNamespace = "8b0f3c1e-5a77-4f0e-9a43-2b6d8f9e0c51";
/** uuidV5 in idNamespace, made once: one id per line, and the namespace bytes are reused. */
const idIn = uuidV5In(idNamespace);

/**
 * Whether Claude's tool_result content can carry this JSON as is: an array
 * of text and image blocks. Anything else is written as its JSON text.
 */
export function isClaudeResultBlocks(content: Json): boolean {
  return (
    Array.isArray(content) &&
    content.every(
      (item) =>
        isJsonObject(item) &&
        ((item.type === "text" && typeof item.text === "string") ||
          (item.type === "image" && isJsonObject(item.source))),
    )
  );
}

// Every object below is built as a literal, keys in the order they are
// written: all keys here are the writer's own (values copied from input are
// never spread or assigned key by key), so a literal is safe and fast.

function textBlock(text: string): JsonObject {
  return { type: "text", text };
}

function imageBlock(mediaType: string, data: string): JsonObject {
  return { type: "image", source: { type: "base64", media_type: mediaType, data } };
}

function blockPath(index: number, blockIndex: number): string {
  return `$.messages[${index}].content[${blockIndex}]`;
}

export function commonToStreamJson(
  transcript: Transcript,
  options: StreamJsonWriteOptions = {},
): StreamJsonCapture {
  const dialect = options.dialect ?? "claude";
  const claude = dialect === "claude";
  const { meta, messages } = transcript;
  const session = meta.id;
  let serial = 0;
  const uuid = () => idIn(`${session}\n${serial++}`);
  const lost = (code: keyof typeof losses, message: string, path?: string) =>
    warn(options, losses[code], message, path);

  if (meta.title !== undefined || meta.gitBranch !== undefined)
    lost("metaFields", "the title and git branch were not written");
  if (!claude && (meta.model !== undefined || meta.cliVersion !== undefined))
    lost("metaFields", "the model and CLI version were not written");

  const tools = new Set<string>();
  // Paths are built only when a loss is reported: most blocks report none.
  const block = (
    item: Block,
    message: Message,
    index: number,
    blockIndex: number,
  ): JsonObject | undefined => {
    switch (item.type) {
      case "text":
        return textBlock(item.text);
      case "thinking": {
        if (item.provider !== undefined)
          lost(
            "thinkingDetails",
            "a thinking provider was not written",
            blockPath(index, blockIndex),
          );
        if (item.encrypted !== undefined && item.text === "" && item.signature === undefined)
          return { type: "redacted_thinking", data: item.encrypted };
        if (item.encrypted !== undefined)
          lost(
            "thinkingDetails",
            "encrypted thinking beside readable thinking was not written",
            blockPath(index, blockIndex),
          );
        const signature = claude ? (item.signature ?? "") : item.signature;
        return signature === undefined
          ? { type: "thinking", thinking: item.text }
          : { type: "thinking", thinking: item.text, signature };
      }
      case "tool_use": {
        const { name, input } = toolFromCommon(dialect, item.tool, options);
        tools.add(name);
        return input === undefined
          ? { type: "tool_use", id: item.id, name }
          : { type: "tool_use", id: item.id, name, input };
      }
      case "tool_result": {
        let content = item.content;
        if (typeof content !== "string" && (!claude || !isClaudeResultBlocks(content))) {
          lost(
            "structuredToolResult",
            "structured tool output was written as JSON text",
            blockPath(index, blockIndex),
          );
          content = stringifyJson(content, undefined, "stream_json");
        }
        return {
          type: "tool_result",
          tool_use_id: item.toolUseId,
          content,
          is_error: item.isError,
        };
      }
      case "image":
        if (message.role === "assistant" || !claude) {
          lost("image", "an image was not written", blockPath(index, blockIndex));
          return undefined;
        }
        return imageBlock(item.source.mediaType, item.source.data);
    }
  };

  // lines[0] is the init line, written last: it lists the tools the body used.
  const lines: StreamJsonLine[] = [{ value: null }];
  let lastAssistant: Message | undefined;
  let lastText: string | undefined;
  let assistantCount = 0;
  let latest = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    latest = Math.max(latest, Date.parse(message.timestamp));
    const content: JsonObject[] = [];
    const blocks = message.content;
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
      const item = blocks[blockIndex] as Block;
      const written = block(item, message, index, blockIndex);
      if (written !== undefined) content.push(written);
      if (message.role === "assistant" && item.type === "text") lastText = item.text;
    }
    if (message.role === "user") {
      const line: JsonObject = {
        type: "user",
        message: { role: "user", content },
        parent_tool_use_id: null,
        session_id: session,
      };
      if (claude) line.uuid = uuid();
      line.timestamp = message.timestamp;
      lines.push({ value: line });
      continue;
    }
    assistantCount += 1;
    lastAssistant = message;
    lines.push({ value: assistantLine(message, content, index) });
  }

  function assistantLine(message: Message, content: JsonObject[], index: number): JsonObject {
    const reason = message.stopReason;
    const spelled =
      reason !== undefined && (claude ? claudeStopReasons : ampStopReasons).has(reason);
    const aborted = claude && reason === "aborted";
    const failed = claude && reason === "error";
    if (reason !== undefined && !spelled && !aborted && !failed)
      lost(
        "stopReason",
        `stop reason ${JSON.stringify(reason)} was written as null`,
        `$.messages[${index}]`,
      );
    if (!claude && message.model !== undefined)
      lost("messageModel", "a message model was not written", `$.messages[${index}]`);
    const usage = message.usage;
    const usageObject: JsonObject | undefined =
      usage === undefined
        ? claude
          ? {
              input_tokens: 0,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              output_tokens: 0,
            }
          : undefined
        : {
            input_tokens: usage.inputTokens,
            cache_creation_input_tokens: usage.cacheCreationInputTokens,
            cache_read_input_tokens: usage.cacheReadInputTokens,
            output_tokens: usage.outputTokens,
          };
    const stopReason = spelled ? reason : null;
    if (!claude) {
      const apiMessage: JsonObject = {
        type: "message",
        role: "assistant",
        content,
        stop_reason: stopReason,
      };
      if (usageObject !== undefined) apiMessage.usage = usageObject;
      return {
        type: "assistant",
        message: apiMessage,
        parent_tool_use_id: null,
        session_id: session,
        timestamp: message.timestamp,
      };
    }
    const lineUuid = uuid();
    const line: JsonObject = {
      type: "assistant",
      message: {
        id: `msg_txcript_${lineUuid.replaceAll("-", "")}`,
        type: "message",
        role: "assistant",
        model: message.model ?? "",
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: usageObject as JsonObject,
      },
      parent_tool_use_id: null,
      session_id: session,
      uuid: lineUuid,
      timestamp: message.timestamp,
    };
    if (aborted) line.aborted = true;
    if (failed) line.error = "unknown";
    return line;
  }

  const init: JsonObject = {
    type: "system",
    subtype: "init",
    cwd: meta.cwd ?? "",
    session_id: session,
    tools: [...tools],
    mcp_servers: [],
  };
  if (claude) {
    init.model = meta.model ?? "";
    init.claude_code_version = meta.cliVersion ?? "";
    init.uuid = uuid();
  }
  init.timestamp = meta.timestamp;
  lines[0] = { value: init };

  const duration = messages.length > 0 ? Math.max(0, latest - Date.parse(meta.timestamp)) : 0;
  const lastReason = lastAssistant?.stopReason;
  const result: JsonObject = {
    type: "result",
    subtype: "success",
    duration_ms: duration,
    is_error: false,
    num_turns: assistantCount,
    result: lastText ?? "",
  };
  if (claude)
    result.stop_reason =
      lastReason !== undefined && claudeStopReasons.has(lastReason) ? lastReason : null;
  result.session_id = session;
  if (claude) result.uuid = uuid();
  lines.push({ value: result });

  return { lines, finalNewline: true };
}

/**
 * The `--stream-json-input` lines that replay a conversation's prompts: one
 * line per user message that has text or images (tool results are the
 * harness's own business), each `{"type":"user","message":{...}}`.
 */
export function toStreamJsonInput(transcript: Transcript): string {
  const lines: string[] = [];
  for (const message of transcript.messages) {
    if (message.role !== "user") continue;
    const content: JsonObject[] = [];
    for (const item of message.content) {
      if (item.type === "text") content.push(textBlock(item.text));
      else if (item.type === "image")
        content.push(imageBlock(item.source.mediaType, item.source.data));
    }
    if (content.length === 0) continue;
    const line: JsonObject = { type: "user", message: { role: "user", content } };
    lines.push(`${stringifyJson(line, undefined, "stream_json")}\n`);
  }
  return lines.join("");
}
