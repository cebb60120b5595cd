// Cursor CLI chat document → Common. The messages are the JSON blobs of
// the tree (an AI-SDK-like shape: role system/user/assistant/tool, content a
// string or parts text / reasoning / tool-call / tool-result); a tool
// message's results ride on a user message. Messages carry no time: each
// takes the chat's createdAt. Everything not carried is a named loss.
import {
  type Block,
  type ConversionOptions,
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  LossTally,
  type Message,
  type Meta,
  ownValue,
  type Transcript,
} from "@txcript/core";
import { cursorCliLoss } from "./cursor-cli-losses.js";
import type { CursorCliChat } from "./cursor-cli-schema.js";

const carriedMetaKeys = new Set([
  "agentId",
  "name",
  "createdAt",
  "lastUsedModel",
  "latestRootBlobId",
]);
const messageKeys = new Set(["role", "content"]);
const partKeys: Record<string, ReadonlySet<string>> = {
  text: new Set(["type", "text"]),
  reasoning: new Set(["type", "text"]),
  "tool-call": new Set(["type", "toolCallId", "toolName", "args", "input"]),
  "tool-result": new Set(["type", "toolCallId", "toolName", "result", "output", "isError"]),
};

/** The path a `file:` URI names (each segment percent-decoded), or undefined. */
export function workspacePath(uri: string): string | undefined {
  if (!uri.startsWith("file:///")) return undefined;
  try {
    return uri.slice("file://".length).split("/").map(decodeURIComponent).join("/");
  } catch {
    return undefined;
  }
}

/** createdAt (milliseconds since the epoch, a number or a digit string) as an ISO timestamp. */
export function createdAtTime(value: Json | undefined): string | undefined {
  const ms =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d{1,16}$/.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isSafeInteger(ms) || Math.abs(ms) > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

function meta(chat: CursorCliChat, tally: LossTally): Meta {
  const timestamp = createdAtTime(ownValue(chat.meta, "createdAt"));
  if (timestamp === undefined)
    tally.add(
      cursorCliLoss("cursor_cli.created-at"),
      "the chat has no usable createdAt; its time is the Unix epoch",
      1,
      "$.meta.createdAt",
    );
  const result: Meta = { id: chat.agentId, timestamp: timestamp ?? new Date(0).toISOString() };
  const name = ownValue(chat.meta, "name");
  if (typeof name === "string") result.title = name;
  const model = ownValue(chat.meta, "lastUsedModel");
  if (typeof model === "string") result.model = model;
  chat.workspaceUris.forEach((uri, index) => {
    const where = workspacePath(uri);
    if (index === 0 && where !== undefined) result.cwd = where;
    else
      tally.add(
        cursorCliLoss("cursor_cli.workspace"),
        `the workspace URI ${JSON.stringify(uri.slice(0, 80))} was not carried`,
        1,
        `$.workspaceUris[${index}]`,
      );
  });
  for (const key of Object.keys(chat.meta))
    if (!carriedMetaKeys.has(key))
      tally.add(
        cursorCliLoss("cursor_cli.meta-field"),
        `the meta key ${key} was not carried`,
        1,
        `$.meta.${key}`,
      );
  for (const key of chat.redactedMetaKeys)
    tally.add(
      cursorCliLoss("cursor_cli.encryption-key"),
      `the meta key ${key} was left out`,
      1,
      "$.meta",
    );
  return result;
}

interface Context {
  tally: LossTally;
  calls: number;
  /** Tool names of the calls read so far, by id. */
  callNames: Map<string, string>;
}

/** The value of the first of `keys` the part has (JSON null included). */
function firstOwn(part: JsonObject, ...keys: string[]): Json | undefined {
  for (const key of keys) if (Object.hasOwn(part, key)) return part[key];
  return undefined;
}

function orDefault(value: Json | undefined, fallback: Json): Json {
  return value === undefined ? fallback : value;
}

function callId(part: JsonObject, context: Context, where: string): string {
  const id = ownValue(part, "toolCallId");
  if (typeof id === "string" && id !== "") return id;
  context.calls += 1;
  context.tally.add(
    cursorCliLoss("cursor_cli.call-id"),
    `a ${String(part.type)} part without a toolCallId was given one`,
    1,
    where,
  );
  return `cursor-call-${context.calls}`;
}

function partBlocks(part: Json, context: Context, where: string): Block[] {
  if (typeof part === "string") return [{ type: "text", text: part }];
  const type = isJsonObject(part) ? ownValue(part, "type") : undefined;
  const known = typeof type === "string" ? partKeys[type] : undefined;
  if (!isJsonObject(part) || typeof type !== "string" || known === undefined) {
    context.tally.add(
      cursorCliLoss("cursor_cli.part"),
      `a part of type ${typeof type === "string" ? JSON.stringify(type.slice(0, 40)) : "(none)"} was dropped`,
      1,
      where,
    );
    return [];
  }
  for (const key of Object.keys(part))
    if (!known.has(key))
      context.tally.add(
        cursorCliLoss("cursor_cli.part-field"),
        `a ${type} part's ${key} was not carried`,
        1,
        `${where}.${key}`,
      );
  const text = ownValue(part, "text");
  switch (type) {
    case "text":
      return [{ type: "text", text: typeof text === "string" ? text : "" }];
    case "reasoning":
      return [{ type: "thinking", text: typeof text === "string" ? text : "" }];
    case "tool-call": {
      const id = callId(part, context, where);
      const name = ownValue(part, "toolName");
      const toolName = typeof name === "string" ? name : "";
      if (!context.callNames.has(id)) context.callNames.set(id, toolName);
      return [
        {
          type: "tool_use",
          id,
          tool: fromCanonical(toolName, orDefault(firstOwn(part, "args", "input"), {})),
        },
      ];
    }
    default: {
      const id = callId(part, context, where);
      const name = ownValue(part, "toolName");
      if (name !== undefined && name !== context.callNames.get(id))
        context.tally.add(
          cursorCliLoss("cursor_cli.part-field"),
          "a tool-result part's toolName, which is not its call's, was not carried",
          1,
          `${where}.toolName`,
        );
      return [
        {
          type: "tool_result",
          toolUseId: id,
          content: orDefault(firstOwn(part, "result", "output"), ""),
          isError: ownValue(part, "isError") === true,
        },
      ];
    }
  }
}

function contentBlocks(content: Json | undefined, context: Context, where: string): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content))
    return content.flatMap((part, index) => partBlocks(part, context, `${where}[${index}]`));
  if (content !== undefined)
    context.tally.add(
      cursorCliLoss("cursor_cli.part"),
      "a content that is neither text nor a list of parts was dropped",
      1,
      where,
    );
  return [];
}

export function cursorCliToCommon(chat: CursorCliChat, options?: ConversionOptions): Transcript {
  const tally = new LossTally();
  const sessionMeta = meta(chat, tally);
  if (chat.turnBlobIds.length > 0)
    tally.add(
      cursorCliLoss("cursor_cli.turns"),
      "the root node's turn structures were not decoded",
      chat.turnBlobIds.length,
      "$.turnBlobIds",
    );
  for (const field of chat.otherRootFields)
    tally.add(
      cursorCliLoss("cursor_cli.root-field"),
      `the root node's field ${field} was not decoded`,
      1,
      "$.otherRootFields",
    );
  if (chat.missingBlobIds.length > 0)
    tally.add(
      cursorCliLoss("cursor_cli.missing-blob"),
      "a blob the tree names is not in the store",
      chat.missingBlobIds.length,
      "$.missingBlobIds",
    );
  if (chat.digestMismatches.length > 0)
    tally.add(
      cursorCliLoss("cursor_cli.blob-digest"),
      "a blob's bytes do not hash to its id",
      chat.digestMismatches.length,
      "$.digestMismatches",
    );
  const context: Context = { tally, calls: 0, callNames: new Map() };
  const messages: Message[] = [];
  chat.messages.forEach(({ message }, index) => {
    const where = `$.messages[${index}].message`;
    for (const key of Object.keys(message))
      if (!messageKeys.has(key))
        tally.add(
          cursorCliLoss("cursor_cli.message-field"),
          `a message's ${key} was not carried`,
          1,
          `${where}.${key}`,
        );
    const role = ownValue(message, "role");
    const content = contentBlocks(ownValue(message, "content"), context, `${where}.content`);
    const timestamp = sessionMeta.timestamp;
    if (role === "system")
      messages.push({ role: "user", content, timestamp, context: { kind: "system" } });
    else if (role === "user" || role === "tool")
      messages.push({ role: "user", content, timestamp });
    else if (role === "assistant") messages.push({ role: "assistant", content, timestamp });
    else
      tally.add(
        cursorCliLoss("cursor_cli.role"),
        `a message of role ${typeof role === "string" ? JSON.stringify(role.slice(0, 40)) : `(${role === null ? "null" : Array.isArray(role) ? "a list" : typeof role})`} was dropped`,
        1,
        `${where}.role`,
      );
  });
  if (messages.length > 0)
    tally.add(
      cursorCliLoss("cursor_cli.message-times"),
      "messages carry no time and took the chat's createdAt",
      messages.length,
      "$.messages",
    );
  tally.flush(options);
  return { meta: sessionMeta, messages };
}
