// Kimi CLI → Common. Reads context.jsonl as Kimi CLI's Context.restore does
// (soul/context.py): bookkeeping records by role (_system_prompt, _usage,
// _checkpoint), every other line through kosong's Message rules, a line that
// fails them skipped. A message is one Common message — its parts, then its
// tool calls — except that tool messages in a row are one user message of
// tool results (Common's convention), a system message or the system prompt
// is a context message, and the message compaction writes is a compaction
// marker. The store adds what the directory knows (id, cwd, title, start).
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  type Message,
  ownValue,
  parseJson,
  type Subagent,
  type Transcript,
  TxcriptError,
  warn,
} from "@txcript/core";
import { kimiCliLoss } from "./kimi-cli-losses.js";
import {
  compactionPrefix,
  errorPrefix,
  harness,
  type KimiCliSession,
  recordOf,
  type TxcriptMeta,
} from "./kimi-cli-schema.js";
import { kimiToolToCanonical } from "./kimi-cli-tools.js";

export interface KimiCliReadOptions extends ConversionOptions {}

/** The id of a context text read with no file (stdin) that records none: the file does not name its session (its directory does). */
export const unnamedSessionId = "kimi-cli-session";
/** The largest time a Common timestamp holds. */
const maximumTime = 253_402_300_799_999;
/** 0000-01-01T00:00:00.000Z: the first. */
const minimumTime = -62_167_219_200_000;

function partsOf(value: JsonObject): Json[] {
  const content = ownValue(value, "content");
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}

const dataUrl = /^data:([^,]+?);base64,/;

function partToBlock(
  part: JsonObject,
  options: ConversionOptions | undefined,
  where: string,
): Block | undefined {
  const type = ownValue(part, "type");
  if (type === "text") return { type: "text", text: ownValue(part, "text") as string };
  if (type === "think") {
    const encrypted = ownValue(part, "encrypted");
    return {
      type: "thinking",
      text: ownValue(part, "think") as string,
      ...(typeof encrypted === "string" ? { signature: encrypted } : {}),
    };
  }
  if (type === "image_url") {
    const image = ownValue(part, "image_url") as JsonObject;
    const url = ownValue(image, "url") as string;
    const match = dataUrl.exec(url);
    const id = ownValue(image, "id");
    if (match !== null) {
      if (typeof id === "string")
        warn(options, kimiCliLoss.media, "the id of an image was not kept", where);
      return {
        type: "image",
        source: { type: "base64", mediaType: match[1] as string, data: url.slice(match[0].length) },
      };
    }
  }
  warn(options, kimiCliLoss.media, `a ${String(type)} part was not kept`, where);
  return undefined;
}

function argumentsOf(
  text: Json | undefined,
  options: ConversionOptions | undefined,
  where: string,
): Json {
  if (typeof text !== "string") {
    warn(options, kimiCliLoss.toolArguments, "tool-call arguments of null read as {}", where);
    return {};
  }
  try {
    return parseJson(text, { harness });
  } catch (cause) {
    if (TxcriptError.isInstance(cause) && cause.code === "INVALID_JSON") {
      warn(
        options,
        kimiCliLoss.toolArguments,
        "tool-call arguments that are not JSON were kept as a string",
        where,
      );
      return text;
    }
    throw cause;
  }
}

/** A tool call's id, or a stand-in made from its place when it is empty (Common ids are never empty). */
function callId(
  id: Json | undefined,
  fallback: string,
  options: ConversionOptions | undefined,
  where: string,
): string {
  if (typeof id === "string" && id !== "") return id;
  warn(options, kimiCliLoss.emptyId, `an empty or missing tool-call id became ${fallback}`, where);
  return fallback;
}

function callBlocks(
  value: JsonObject,
  options: ConversionOptions | undefined,
  where: string,
  line: number,
): Block[] {
  const calls = ownValue(value, "tool_calls");
  if (!Array.isArray(calls)) return [];
  return calls.map((call, index) => {
    const object = call as JsonObject;
    const body = ownValue(object, "function") as JsonObject;
    const extras = ownValue(object, "extras");
    if (extras !== undefined && extras !== null)
      warn(
        options,
        kimiCliLoss.messageFields,
        "a tool call's extras were not kept",
        `${where}.tool_calls[${index}]`,
      );
    return {
      type: "tool_use",
      id: callId(
        ownValue(object, "id"),
        `kimi_call_${line}_${index}`,
        options,
        `${where}.tool_calls[${index}].id`,
      ),
      tool: kimiToolToCanonical(
        ownValue(body, "name") as string,
        argumentsOf(
          ownValue(body, "arguments"),
          options,
          `${where}.tool_calls[${index}].function.arguments`,
        ),
      ),
    };
  });
}

/** The summary of the message compaction writes: text parts after the prefix part, or undefined for any other message. */
function compactionSummary(value: JsonObject): string | undefined {
  if (ownValue(value, "role") !== "user" || Array.isArray(ownValue(value, "tool_calls")))
    return undefined;
  const parts = partsOf(value);
  const first = parts[0] as JsonObject | undefined;
  if (
    first === undefined ||
    ownValue(first, "type") !== "text" ||
    ownValue(first, "text") !== compactionPrefix
  )
    return undefined;
  const rest = parts.slice(1) as JsonObject[];
  if (!rest.every((part) => ownValue(part, "type") === "text")) return undefined;
  return rest.map((part) => ownValue(part, "text") as string).join("");
}

function toolResultOf(
  value: JsonObject,
  index: number,
  options: ConversionOptions | undefined,
  where: string,
): Block {
  const parts = partsOf(value) as JsonObject[];
  const toolUseId = callId(
    ownValue(value, "tool_call_id"),
    `kimi_call_${index}`,
    options,
    `${where}.tool_call_id`,
  );
  if (parts.every((part) => ownValue(part, "type") === "text")) {
    const text = parts.map((part) => ownValue(part, "text") as string).join("");
    return { type: "tool_result", toolUseId, content: text, isError: text.startsWith(errorPrefix) };
  }
  // Media in a result (ReadMediaFile): the parts as Kimi CLI recorded them.
  const first = parts[0];
  const isError =
    first !== undefined &&
    ownValue(first, "type") === "text" &&
    String(ownValue(first, "text")).startsWith(errorPrefix);
  return { type: "tool_result", toolUseId, content: parts, isError };
}

/** The Common messages of a context file's lines, in order, without times. */
function messagesOf(
  session: KimiCliSession,
  options: ConversionOptions | undefined,
): Omit<Message, "timestamp">[] {
  const messages: Omit<Message, "timestamp">[] = [];
  let skipped = 0;
  let bookkeeping = 0;
  let results: Omit<Message, "timestamp"> | undefined;
  session.lines.forEach((line, index) => {
    if (line.value === undefined) return;
    const where = `$[${index}]`;
    const record = recordOf(line.value);
    if (record.kind === "skipped") {
      skipped += 1;
      return;
    }
    if (record.kind === "usage" || record.kind === "checkpoint") {
      // The checkpoint that carries txcript's meta is read as meta (txcriptMetaOf), not dropped.
      if (record.kind !== "checkpoint" || record.txcript === undefined) bookkeeping += 1;
      return;
    }
    if (record.kind === "system-prompt") {
      results = undefined;
      messages.push({
        role: "user",
        content: [{ type: "text", text: record.content }],
        context: { kind: "system", source: "_system_prompt" },
      });
      return;
    }
    const value = record.value;
    const name = ownValue(value, "name");
    const partial = ownValue(value, "partial");
    if ((name !== undefined && name !== null) || (partial !== undefined && partial !== null))
      warn(
        options,
        kimiCliLoss.messageFields,
        "a message's name or partial flag was not kept",
        where,
      );
    const role = ownValue(value, "role");
    if (role === "tool") {
      const blocks = [
        toolResultOf(value, index, options, where),
        ...callBlocks(value, options, where, index),
      ];
      if (results === undefined) {
        results = { role: "user", content: blocks };
        messages.push(results);
      } else results.content.push(...blocks);
      return;
    }
    results = undefined;
    const summary = compactionSummary(value);
    if (summary !== undefined) {
      messages.push({ role: "user", content: [{ type: "compaction", summary }] });
      return;
    }
    const content: Block[] = [];
    partsOf(value).forEach((part, at) => {
      const block = partToBlock(part as JsonObject, options, `${where}.content[${at}]`);
      if (block !== undefined) content.push(block);
    });
    content.push(...callBlocks(value, options, where, index));
    messages.push(
      role === "system"
        ? { role: "user", content, context: { kind: "system" } }
        : { role: role === "assistant" ? "assistant" : "user", content },
    );
  });
  if (skipped > 0)
    warn(
      options,
      kimiCliLoss.skippedLine,
      "a line Kimi CLI does not restore was skipped",
      undefined,
      skipped,
    );
  if (bookkeeping > 0)
    warn(
      options,
      kimiCliLoss.bookkeeping,
      "a _checkpoint or _usage record was not kept",
      undefined,
      bookkeeping,
    );
  return messages;
}

/** The meta txcript wrote on the first `_checkpoint` line that carries it. */
export function txcriptMetaOf(session: KimiCliSession): TxcriptMeta {
  for (const line of session.lines) {
    if (line.value === undefined) continue;
    const record = recordOf(line.value);
    if (record.kind === "checkpoint" && record.txcript !== undefined) return record.txcript;
  }
  return {};
}

function validTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) && time >= minimumTime && time <= maximumTime ? time : undefined;
}

/** The session's start: wire.jsonl's first time, else txcript's meta, else the caller's start time, else 1970. */
function startOf(
  session: KimiCliSession,
  written: TxcriptMeta,
  options: ConversionOptions | undefined,
): number {
  const given = options?.startTime?.getTime();
  return (
    validTime(session.info?.startTime) ??
    validTime(written.timestamp) ??
    (given !== undefined && Number.isFinite(given) ? given : 0)
  );
}

function stamped(messages: readonly Omit<Message, "timestamp">[], start: number): Message[] {
  return messages.map((message, index) => ({
    ...message,
    timestamp: new Date(Math.min(start + index, maximumTime)).toISOString(),
  }));
}

/** The Agent call whose result names the instance (`agent_id: <id>`, tools/agent and subagents/runner.py). */
function launchingCall(
  messages: readonly Omit<Message, "timestamp">[],
  agentId: string,
): string | undefined {
  const line = `agent_id: ${agentId}`;
  for (const message of messages)
    for (const block of message.content)
      if (
        block.type === "tool_result" &&
        typeof block.content === "string" &&
        block.content.split("\n").includes(line)
      )
        return block.toolUseId;
  return undefined;
}

function subagentsOf(
  session: KimiCliSession,
  parent: readonly Omit<Message, "timestamp">[],
  options: ConversionOptions | undefined,
): Subagent[] {
  return (session.subagents ?? []).map((file) => {
    const start = file.session.info?.startTime ?? session.info?.startTime;
    const inner = {
      ...file.session,
      info: { ...(start === undefined ? {} : { startTime: start }) },
    };
    const found = messagesOf(inner, options);
    const subagent: Subagent = {
      id: file.id,
      messages: stamped(found, startOf(inner, txcriptMetaOf(inner), options)),
    };
    const toolUseId = file.toolUseId ?? launchingCall(parent, file.id);
    if (toolUseId !== undefined) subagent.toolUseId = toolUseId;
    if (file.description !== undefined && file.description !== "")
      subagent.title = file.description;
    if (file.subagentType !== undefined && file.subagentType !== "")
      subagent.agentType = file.subagentType;
    const nested = subagentsOf(file.session, found, options);
    if (nested.length > 0) subagent.subagents = nested;
    return subagent;
  });
}

export function kimiCliToCommon(session: KimiCliSession, options?: KimiCliReadOptions): Transcript {
  const found = messagesOf(session, options);
  const written = txcriptMetaOf(session);
  const start = startOf(session, written, options);
  // The directory's word wins: it is what Kimi CLI itself goes by.
  const info = {
    ...written,
    id: written.sessionId === "" ? undefined : written.sessionId,
    ...session.info,
  };
  if (found.length > 0)
    warn(
      options,
      kimiCliLoss.timestamps,
      "messages were stamped 1 ms apart from the start time",
      "$.messages",
      found.length,
    );
  if (found.length === 0)
    warn(options, kimiCliLoss.noMessages, "the context file holds no message Kimi CLI restores");
  const meta: Transcript["meta"] = {
    id: info.id ?? info.fileId ?? unnamedSessionId,
    timestamp: new Date(start).toISOString(),
  };
  if (info.cwd !== undefined) meta.cwd = info.cwd;
  if (info.title !== undefined) meta.title = info.title;
  const transcript: Transcript = { meta, messages: stamped(found, start) };
  const subagents = subagentsOf(session, found, options);
  if (subagents.length > 0) transcript.subagents = subagents;
  return transcript;
}
