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
  uuidV5,
  warn,
} from "@txcript/core";
import { type DialectToolOptions, toolFromCommon } from "./stream-json-dialect.js";
import type { StreamJsonCapture, StreamJsonDialect } from "./stream-json-lines.js";
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

function object(entries: [string, Json | undefined][]): JsonObject {
  const result = JSON.parse("{}") as JsonObject;
  for (const [key, value] of entries)
    if (value !== undefined)
      Object.defineProperty(result, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return result;
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
  const uuid = () => (claude ? uuidV5(`${session}\n${serial++}`, idNamespace) : undefined);
  const lost = (code: keyof typeof losses, message: string, path?: string) =>
    warn(options, losses[code], message, path);

  if (meta.title !== undefined || meta.gitBranch !== undefined)
    lost("metaFields", "the title and git branch were not written");
  if (!claude && (meta.model !== undefined || meta.cliVersion !== undefined))
    lost("metaFields", "the model and CLI version were not written");

  const tools: string[] = [];
  const block = (item: Block, message: Message, path: string): JsonObject | undefined => {
    switch (item.type) {
      case "text":
        return object([
          ["type", "text"],
          ["text", item.text],
        ]);
      case "thinking": {
        if (item.provider !== undefined)
          lost("thinkingDetails", "a thinking provider was not written", path);
        if (item.encrypted !== undefined && item.text === "" && item.signature === undefined)
          return object([
            ["type", "redacted_thinking"],
            ["data", item.encrypted],
          ]);
        if (item.encrypted !== undefined)
          lost(
            "thinkingDetails",
            "encrypted thinking beside readable thinking was not written",
            path,
          );
        return object([
          ["type", "thinking"],
          ["thinking", item.text],
          ["signature", claude ? (item.signature ?? "") : item.signature],
        ]);
      }
      case "tool_use": {
        const { name, input } = toolFromCommon(dialect, item.tool, options);
        if (!tools.includes(name)) tools.push(name);
        return object([
          ["type", "tool_use"],
          ["id", item.id],
          ["name", name],
          ["input", input],
        ]);
      }
      case "tool_result": {
        let content = item.content;
        if (typeof content !== "string" && (!claude || !isClaudeResultBlocks(content))) {
          lost("structuredToolResult", "structured tool output was written as JSON text", path);
          content = stringifyJson(content, undefined, "stream_json");
        }
        return object([
          ["type", "tool_result"],
          ["tool_use_id", item.toolUseId],
          ["content", content],
          ["is_error", item.isError],
        ]);
      }
      case "image":
        if (message.role === "assistant" || !claude) {
          lost("image", "an image was not written", path);
          return undefined;
        }
        return object([
          ["type", "image"],
          [
            "source",
            object([
              ["type", "base64"],
              ["media_type", item.source.mediaType],
              ["data", item.source.data],
            ]),
          ],
        ]);
    }
  };

  const body: JsonObject[] = [];
  messages.forEach((message, index) => {
    const content: JsonObject[] = [];
    message.content.forEach((item, blockIndex) => {
      const written = block(item, message, `$.messages[${index}].content[${blockIndex}]`);
      if (written !== undefined) content.push(written);
    });
    if (message.role === "user") {
      body.push(
        object([
          ["type", "user"],
          [
            "message",
            object([
              ["role", "user"],
              ["content", content],
            ]),
          ],
          ["parent_tool_use_id", null],
          ["session_id", session],
          ["uuid", uuid()],
          ["timestamp", message.timestamp],
        ]),
      );
      return;
    }
    body.push(assistantLine(message, content, index));
  });

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
    const usageObject =
      usage === undefined && !claude
        ? undefined
        : object([
            ["input_tokens", usage?.inputTokens ?? 0],
            ["cache_creation_input_tokens", usage?.cacheCreationInputTokens ?? 0],
            ["cache_read_input_tokens", usage?.cacheReadInputTokens ?? 0],
            ["output_tokens", usage?.outputTokens ?? 0],
          ]);
    const lineUuid = uuid();
    const apiMessage = object([
      ["id", claude ? `msg_txcript_${(lineUuid ?? "").replaceAll("-", "")}` : undefined],
      ["type", "message"],
      ["role", "assistant"],
      ["model", claude ? (message.model ?? "") : undefined],
      ["content", content],
      ["stop_reason", spelled ? reason : null],
      ["stop_sequence", claude ? null : undefined],
      ["usage", usageObject],
    ]);
    return object([
      ["type", "assistant"],
      ["message", apiMessage],
      ["parent_tool_use_id", null],
      ["session_id", session],
      ["uuid", lineUuid],
      ["timestamp", message.timestamp],
      ["aborted", aborted ? true : undefined],
      ["error", failed ? "unknown" : undefined],
    ]);
  }

  const init = object([
    ["type", "system"],
    ["subtype", "init"],
    ["cwd", meta.cwd ?? ""],
    ["session_id", session],
    ["tools", tools],
    ["mcp_servers", []],
    ["model", claude ? (meta.model ?? "") : undefined],
    ["claude_code_version", claude ? (meta.cliVersion ?? "") : undefined],
    ["uuid", uuid()],
    ["timestamp", meta.timestamp],
  ]);

  const assistants = messages.filter((message) => message.role === "assistant");
  const lastText = assistants
    .flatMap((message) => message.content.filter((item) => item.type === "text"))
    .at(-1);
  const times = messages.map((message) => Date.parse(message.timestamp));
  const duration =
    times.length > 0 ? Math.max(0, Math.max(...times) - Date.parse(meta.timestamp)) : 0;
  const lastReason = assistants.at(-1)?.stopReason;
  const result = object([
    ["type", "result"],
    ["subtype", "success"],
    ["duration_ms", duration],
    ["is_error", false],
    ["num_turns", assistants.length],
    ["result", lastText?.type === "text" ? lastText.text : ""],
    [
      "stop_reason",
      claude
        ? lastReason !== undefined && claudeStopReasons.has(lastReason)
          ? lastReason
          : null
        : undefined,
    ],
    ["session_id", session],
    ["uuid", uuid()],
  ]);

  return { lines: [init, ...body, result].map((value) => ({ value })), finalNewline: true };
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
      if (item.type === "text")
        content.push(
          object([
            ["type", "text"],
            ["text", item.text],
          ]),
        );
      else if (item.type === "image")
        content.push(
          object([
            ["type", "image"],
            [
              "source",
              object([
                ["type", "base64"],
                ["media_type", item.source.mediaType],
                ["data", item.source.data],
              ]),
            ],
          ]),
        );
    }
    if (content.length === 0) continue;
    lines.push(
      stringifyJson(
        object([
          ["type", "user"],
          [
            "message",
            object([
              ["role", "user"],
              ["content", content],
            ]),
          ],
        ]),
        undefined,
        "stream_json",
      ),
    );
  }
  return lines.map((line) => `${line}\n`).join("");
}
