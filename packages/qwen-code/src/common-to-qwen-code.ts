// Common → Qwen Code: one record per message on a single parentUuid chain,
// as Qwen Code 0.24.4 records a session (chatRecordingService.ts): user
// prompts as `user`, messages of tool results only as `tool_result`,
// assistant messages as `assistant` (role "model"), a lone compaction marker
// as a `chat_compression` system record whose compressed history is its
// summary, and the title as a closing `custom_title` record. Ids are UUID v5
// of the session id and position, so the same transcript writes the same
// bytes. Every loss is reported as it happens.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  type Message,
  stringifyJson,
  type Transcript,
  toolName,
  type Usage,
  warn,
  writtenJsonLine,
} from "@txcript/core";
import { qwenCodeLoss } from "./qwen-code-losses.js";
import { isQwenSessionId, qwenRecordId, qwenSessionId } from "./qwen-code-paths.js";
import { harness, type QwenCodeSession } from "./qwen-code-schema.js";
import { canonicalToQwenTool, userToolCallText, userToolResultText } from "./qwen-code-tools.js";

export type QwenCodeWriteOptions = ConversionOptions;

function usageMetadata(
  usage: Usage,
  options: ConversionOptions | undefined,
  where: string,
): JsonObject {
  if (usage.cacheCreationInputTokens > 0 || usage.costUsd !== undefined)
    warn(options, qwenCodeLoss.usage, "cache-creation tokens or a cost were not kept", where);
  const reasoning = usage.reasoningOutputTokens ?? 0;
  if (reasoning > usage.outputTokens)
    warn(options, qwenCodeLoss.usage, "reasoning tokens above the output count were capped", where);
  const thoughts = Math.min(reasoning, usage.outputTokens);
  const prompt = usage.inputTokens + usage.cacheReadInputTokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.outputTokens - thoughts,
    thoughtsTokenCount: thoughts,
    totalTokenCount: prompt + usage.outputTokens,
    cachedContentTokenCount: usage.cacheReadInputTokens,
  };
}

function partOf(
  block: Block,
  names: ReadonlyMap<string, string>,
  options: ConversionOptions | undefined,
  where: string,
): JsonObject {
  switch (block.type) {
    case "text":
      return { text: block.text };
    case "thinking":
      if (block.encrypted !== undefined || block.provider !== undefined)
        warn(
          options,
          qwenCodeLoss.thinking,
          "encrypted reasoning or its provider was not kept",
          where,
        );
      return {
        text: block.text,
        thought: true,
        ...(block.signature === undefined ? {} : { thoughtSignature: block.signature }),
      };
    case "tool_use": {
      const { name, args } = canonicalToQwenTool(block.tool);
      return { functionCall: { id: block.id, name, args } };
    }
    case "tool_result":
      return {
        functionResponse: {
          id: block.toolUseId,
          name: names.get(block.toolUseId) ?? "unknown",
          response: block.isError ? { error: block.content } : { output: block.content },
        },
      };
    case "image":
      return { inlineData: { mimeType: block.source.mediaType, data: block.source.data } };
    case "compaction":
      warn(
        options,
        qwenCodeLoss.compaction,
        "a compaction marker inside a message became text",
        where,
      );
      return { text: block.summary };
  }
}

/** The ids of the tool calls on user messages: written as text, and so are their results. */
function userCallIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages)
    if (message.role === "user")
      for (const block of message.content) if (block.type === "tool_use") ids.add(block.id);
  return ids;
}

/** A tool call on a user message, or a result of one, as a text part. */
function userPartOf(
  block: Block,
  options: ConversionOptions | undefined,
  where: string,
): JsonObject {
  if (block.type === "tool_use") {
    warn(
      options,
      qwenCodeLoss.userToolCall,
      "a tool call on a user message was written as text",
      where,
    );
    return { text: userToolCallText(block.tool) };
  }
  if (block.type === "tool_result") {
    warn(
      options,
      qwenCodeLoss.userToolCall,
      "the result of a tool call on a user message was written as text",
      where,
    );
    return { text: userToolResultText(block.content, block.isError) };
  }
  throw new TypeError(`userPartOf takes tool calls and results, not ${block.type}`);
}

function isLoneCompaction(message: Message): boolean {
  return (
    message.role === "user" &&
    message.content.length === 1 &&
    message.content[0]?.type === "compaction"
  );
}

export function commonToQwenCode(
  transcript: Transcript,
  options?: QwenCodeWriteOptions,
): QwenCodeSession {
  const { meta } = transcript;
  const sessionId = qwenSessionId(meta.id);
  if (!isQwenSessionId(meta.id))
    warn(
      options,
      qwenCodeLoss.sessionId,
      `the session id ${JSON.stringify(meta.id)} was replaced by ${sessionId}`,
      "$.meta.id",
    );
  if (meta.model !== undefined)
    warn(options, qwenCodeLoss.metaModel, "the session model was not kept", "$.meta.model");
  if (meta.lineage !== undefined)
    warn(options, qwenCodeLoss.lineage, "the lineage was not kept", "$.meta.lineage");
  if (transcript.subagents !== undefined && transcript.subagents.length > 0)
    warn(
      options,
      qwenCodeLoss.subagents,
      "a subagent was not written",
      "$.subagents",
      transcript.subagents.length,
    );
  // Qwen Code leaves a model turn with no parts, or with an empty text part,
  // out of the history it sends, and every model turn next to it: such a
  // text is not written, nor an assistant message left with nothing.
  const sendable = (message: Message) =>
    message.role !== "assistant" ||
    message.content.some((block) => block.type !== "text" || block.text !== "");
  transcript.messages.forEach((message, index) => {
    if (!sendable(message))
      warn(
        options,
        qwenCodeLoss.emptyMessage,
        "an assistant message with nothing Qwen Code would send was left out",
        `$.messages[${index}]`,
      );
  });
  const messages = transcript.messages.filter(sendable);
  if (messages.length === 0 && meta.title === undefined) {
    warn(
      options,
      qwenCodeLoss.emptySession,
      "an empty session was written as an empty file",
      "$.messages",
    );
    return { lines: [], finalNewline: false };
  }
  if (messages.length > 0 && messages[0]?.timestamp !== meta.timestamp)
    warn(
      options,
      qwenCodeLoss.startTime,
      "the session starts at its first message",
      "$.meta.timestamp",
    );

  const names = new Map<string, string>();
  for (const message of messages)
    for (const block of message.content)
      if (block.type === "tool_use" && !names.has(block.id))
        names.set(block.id, canonicalToQwenTool(block.tool).name ?? toolName(block.tool));

  const userCalls = userCallIds(messages);
  const base = (
    index: number,
    parentUuid: string | null,
    timestamp: string,
    type: string,
  ): JsonObject => {
    const record: JsonObject = {
      uuid: qwenRecordId(sessionId, index),
      parentUuid,
      sessionId,
      timestamp,
      type,
    };
    if (meta.cwd !== undefined) record.cwd = meta.cwd;
    if (meta.cliVersion !== undefined) record.version = meta.cliVersion;
    if (meta.gitBranch !== undefined) record.gitBranch = meta.gitBranch;
    return record;
  };

  const lines: string[] = [];
  let parent: string | null = null;
  transcript.messages.forEach((message, index) => {
    if (!sendable(message)) return;
    const where = `$.messages[${index}]`;
    if (message.context !== undefined)
      warn(
        options,
        qwenCodeLoss.context,
        "a context message was written as a user message",
        `${where}.context`,
      );
    if (message.stopReason !== undefined)
      warn(options, qwenCodeLoss.stopReason, "a stop reason was not kept", `${where}.stopReason`);
    let record: JsonObject;
    if (isLoneCompaction(message)) {
      const block = message.content[0] as Extract<Block, { type: "compaction" }>;
      if (
        block.trigger !== undefined ||
        block.preTokens !== undefined ||
        block.history !== undefined
      )
        warn(
          options,
          qwenCodeLoss.compaction,
          "a compaction's trigger, token count or history was not kept",
          where,
        );
      record = base(lines.length, parent, message.timestamp, "system");
      record.subtype = "chat_compression";
      record.systemPayload = {
        info: {},
        compressedHistory: [{ role: "user", parts: [{ text: block.summary }] }],
      };
    } else {
      const toolResultsOnly =
        message.role === "user" &&
        message.content.length > 0 &&
        message.content.every((block) => block.type === "tool_result");
      const type =
        message.role === "assistant" ? "assistant" : toolResultsOnly ? "tool_result" : "user";
      record = base(lines.length, parent, message.timestamp, type);
      const parts: Json[] = [];
      message.content.forEach((block, at) => {
        if (message.role === "assistant" && block.type === "text" && block.text === "")
          warn(
            options,
            qwenCodeLoss.emptyText,
            "an empty text block on an assistant message was left out",
            `${where}.content[${at}]`,
          );
        else
          parts.push(
            (message.role === "user" && block.type === "tool_use") ||
              (block.type === "tool_result" && userCalls.has(block.toolUseId))
              ? userPartOf(block, options, `${where}.content[${at}]`)
              : partOf(block, names, options, `${where}.content[${at}]`),
          );
      });
      record.message = { role: message.role === "assistant" ? "model" : "user", parts };
    }
    if (message.model !== undefined) record.model = message.model;
    if (message.usage !== undefined)
      record.usageMetadata = usageMetadata(message.usage, options, `${where}.usage`);
    parent = record.uuid as string;
    lines.push(stringifyJson(record, undefined, harness));
  });
  if (meta.title !== undefined) {
    const record = base(
      lines.length,
      parent,
      messages.at(-1)?.timestamp ?? meta.timestamp,
      "system",
    );
    record.subtype = "custom_title";
    record.systemPayload = { customTitle: meta.title, titleSource: "manual" };
    lines.push(stringifyJson(record, undefined, harness));
  }
  return {
    lines: lines.map((text) => writtenJsonLine(text, harness)),
    finalNewline: lines.length > 0,
  };
}
