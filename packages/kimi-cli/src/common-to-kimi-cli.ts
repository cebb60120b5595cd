// Common → Kimi CLI's context.jsonl, as kosong's Message model serializes a
// message (model_dump_json(exclude_none=True): a lone text part as a bare
// string, parts before tool calls) and as Kimi CLI's Context writes the
// system prompt. A message becomes one kosong message per run of blocks that
// are not tool results, and one tool message per result; a context message
// becomes a system message (or the _system_prompt record). Every loss is
// reported as it happens; what the directory holds (id, cwd, title) rides
// on the native body's `info` for the store.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  type Message,
  stringifyJson,
  type Transcript,
  warn,
  writtenJsonLine,
} from "@txcript/core";
import { kimiCliLoss } from "./kimi-cli-losses.js";
import { kimiSessionId } from "./kimi-cli-paths.js";
import {
  compactionPrefix,
  errorPrefix,
  harness,
  type KimiCliSession,
  txcriptKey,
} from "./kimi-cli-schema.js";
import { canonicalToKimiTool } from "./kimi-cli-tools.js";

export interface KimiCliWriteOptions extends ConversionOptions {}

type ToolResult = Extract<Block, { type: "tool_result" }>;

/** `json.dumps` with its default separators and ensure_ascii, as Context.write_system_prompt writes. */
function pythonJson(value: Record<string, string>): string {
  const ascii = (text: string) =>
    stringifyJson(text, undefined, harness).replace(
      /[\u007f-\uffff]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  return `{${Object.entries(value)
    .map(([key, text]) => `${ascii(key)}: ${ascii(text)}`)
    .join(", ")}}`;
}

function partOf(block: Block, options: ConversionOptions | undefined, where: string): JsonObject {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      if (block.encrypted !== undefined || block.provider !== undefined)
        warn(
          options,
          kimiCliLoss.thinking,
          "encrypted reasoning or its provider was not kept",
          where,
        );
      return { type: "think", think: block.text, encrypted: block.signature ?? null };
    case "image": {
      const url = `data:${block.source.mediaType};base64,${block.source.data}`;
      const match = /^data:([^,]+?);base64,/.exec(url);
      if (match?.[1] !== block.source.mediaType)
        warn(
          options,
          kimiCliLoss.media,
          "an image whose media type does not fit a data URL reads back otherwise",
          where,
        );
      return {
        type: "image_url",
        image_url: { url, id: null },
      };
    }
    case "compaction":
      warn(
        options,
        kimiCliLoss.compaction,
        "a compaction marker inside a message became text",
        where,
      );
      return { type: "text", text: block.summary };
    default:
      throw new TypeError(`partOf takes content blocks, not ${block.type}`);
  }
}

/** A tool result's text: JSON output as its JSON text, an error flagged by Kimi CLI's prefix. */
function resultText(
  block: ToolResult,
  options: ConversionOptions | undefined,
  where: string,
): string {
  let text: string;
  if (typeof block.content === "string") text = block.content;
  else {
    warn(options, kimiCliLoss.toolResult, "JSON tool output was written as its JSON text", where);
    text = stringifyJson(block.content, undefined, harness);
  }
  if (block.isError && !text.startsWith(errorPrefix)) {
    warn(
      options,
      kimiCliLoss.toolResult,
      "an error result was given Kimi CLI's error prefix",
      where,
    );
    return `${errorPrefix} ${text}</system>`;
  }
  if (!block.isError && text.startsWith(errorPrefix))
    warn(
      options,
      kimiCliLoss.toolResult,
      "a result whose text starts with the error prefix reads as an error",
      where,
    );
  return text;
}

/** kosong's content serializer: one text part as a bare string, else the list. */
function contentOf(parts: JsonObject[]): Json {
  const [only] = parts;
  return parts.length === 1 && only?.type === "text" ? (only.text as string) : parts;
}

function messageLine(
  role: string,
  blocks: readonly Block[],
  options: ConversionOptions | undefined,
  where: string,
): string {
  const parts: JsonObject[] = [];
  const calls: JsonObject[] = [];
  let callSeen = false;
  let reordered = false;
  blocks.forEach((block, at) => {
    if (block.type === "tool_use") {
      callSeen = true;
      const { name, input } = canonicalToKimiTool(block.tool);
      calls.push({
        type: "function",
        id: block.id,
        function: { name, arguments: stringifyJson(input, undefined, harness) },
      });
      return;
    }
    if (callSeen) reordered = true;
    parts.push(partOf(block, options, `${where}.content[${at}]`));
  });
  if (reordered)
    warn(options, kimiCliLoss.order, "a part after a tool call was moved before the calls", where);
  const line: JsonObject = { role, content: contentOf(parts) };
  if (calls.length > 0) line.tool_calls = calls;
  return stringifyJson(line, undefined, harness);
}

function isToolLine(line: string | undefined): boolean {
  return line?.startsWith('{"role":"tool",') === true;
}

function isLoneCompaction(message: Message): boolean {
  return (
    message.role === "user" &&
    message.context === undefined &&
    message.content.length === 1 &&
    message.content[0]?.type === "compaction"
  );
}

/** The lines one Common message writes. */
function linesOf(
  message: Message,
  options: ConversionOptions | undefined,
  where: string,
): string[] {
  if (message.stopReason !== undefined)
    warn(options, kimiCliLoss.stopReason, "a stop reason was not kept", `${where}.stopReason`);
  if (message.usage !== undefined)
    warn(options, kimiCliLoss.usage, "a message's usage was not kept", `${where}.usage`);
  if (message.model !== undefined)
    warn(options, kimiCliLoss.messageModel, "a message's model was not kept", `${where}.model`);
  if (isLoneCompaction(message)) {
    const block = message.content[0] as Extract<Block, { type: "compaction" }>;
    if (block.trigger !== undefined || block.preTokens !== undefined || block.history !== undefined)
      warn(
        options,
        kimiCliLoss.compaction,
        "a compaction's trigger, token count or history was not kept",
        where,
      );
    return [
      stringifyJson(
        {
          role: "user",
          content: [
            { type: "text", text: compactionPrefix },
            { type: "text", text: block.summary },
          ],
        },
        undefined,
        harness,
      ),
    ];
  }
  const context = message.context;
  if (context !== undefined) {
    const [only] = message.content;
    if (
      context.kind === "system" &&
      context.source === "_system_prompt" &&
      message.content.length === 1 &&
      only?.type === "text"
    )
      return [pythonJson({ role: "_system_prompt", content: only.text })];
    if (context.kind !== "system" || context.source !== undefined || message.role !== "user")
      warn(
        options,
        kimiCliLoss.context,
        "a context message was written as a system message",
        `${where}.context`,
      );
  }
  const role = context !== undefined ? "system" : message.role;
  const lines: string[] = [];
  let run: Block[] = [];
  const flush = () => {
    if (run.length > 0) lines.push(messageLine(role, run, options, where));
    run = [];
  };
  message.content.forEach((block, at) => {
    if (block.type !== "tool_result") {
      run.push(block);
      return;
    }
    flush();
    lines.push(
      stringifyJson(
        {
          role: "tool",
          content: resultText(block, options, `${where}.content[${at}]`),
          tool_call_id: block.toolUseId,
        },
        undefined,
        harness,
      ),
    );
  });
  flush();
  if (lines.length === 0) lines.push(messageLine(role, [], options, where));
  const hasResult = message.content.some((block) => block.type === "tool_result");
  const hasOther = message.content.some((block) => block.type !== "tool_result");
  if (hasResult && (hasOther || message.role !== "user" || context !== undefined))
    warn(
      options,
      kimiCliLoss.order,
      "tool results were written as tool messages apart from the message's other blocks",
      where,
    );
  return lines;
}

/** The first line txcript writes: checkpoint 0, carrying the session's id, start, work dir and title. */
function metaLine(transcript: Transcript, id: string): string {
  const { meta } = transcript;
  const marked: JsonObject = { session_id: id, timestamp: meta.timestamp };
  if (meta.cwd !== undefined) marked.cwd = meta.cwd;
  if (meta.title !== undefined) marked.title = meta.title;
  return `{"role": "_checkpoint", "id": 0, "${txcriptKey}": ${stringifyJson(marked, undefined, harness)}}`;
}

const maximumTime = 253_402_300_799_999;

export function commonToKimiCli(
  transcript: Transcript,
  options?: KimiCliWriteOptions,
): KimiCliSession {
  const { meta, messages } = transcript;
  const id = kimiSessionId(meta.id);
  if (id !== meta.id)
    warn(
      options,
      kimiCliLoss.sessionId,
      `the session id ${JSON.stringify(meta.id)} was replaced by ${id}`,
      "$.meta.id",
    );
  const dropped = [
    meta.gitBranch === undefined ? [] : ["git branch"],
    meta.cliVersion === undefined ? [] : ["CLI version"],
    meta.model === undefined ? [] : ["model"],
    meta.lineage === undefined ? [] : ["lineage"],
  ].flat();
  if (dropped.length > 0)
    warn(options, kimiCliLoss.meta, `the session's ${dropped.join(", ")} was not kept`, "$.meta");
  if (transcript.subagents !== undefined && transcript.subagents.length > 0)
    warn(
      options,
      kimiCliLoss.subagents,
      "a subagent was not written",
      "$.subagents",
      transcript.subagents.length,
    );
  const lines: string[] = [metaLine(transcript, id)];
  const start = Date.parse(meta.timestamp);
  let stampedApart = true;
  messages.forEach((message, index) => {
    if (message.timestamp !== new Date(Math.min(start + index, maximumTime)).toISOString())
      stampedApart = false;
    const written = linesOf(message, options, `$.messages[${index}]`);
    // Tool messages in a row read as one user message of results.
    if (isToolLine(lines.at(-1)) && isToolLine(written[0]))
      warn(
        options,
        kimiCliLoss.order,
        "tool results of two messages in a row read back as one message",
        `$.messages[${index}]`,
      );
    lines.push(...written);
  });
  if (!stampedApart)
    warn(
      options,
      kimiCliLoss.timestamps,
      "message times were not kept: they read back 1 ms apart from the session's start",
      "$.messages",
    );
  return {
    lines: lines.map((text) => writtenJsonLine(text, harness)),
    finalNewline: true,
  };
}
