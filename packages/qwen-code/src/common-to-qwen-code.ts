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
  type Meta,
  type Subagent,
  stringifyJson,
  type Transcript,
  toolName,
  type Usage,
  type WriteOptions,
  warn,
  writtenJsonLine,
} from "@txcript/core";
import { qwenCodeLoss } from "./qwen-code-losses.js";
import { isQwenSessionId, qwenRecordId, qwenSessionId } from "./qwen-code-paths.js";
import {
  harness,
  type QwenCodeLine,
  type QwenCodeSession,
  type QwenCodeSubagentFile,
} from "./qwen-code-schema.js";
import { canonicalToQwenTool, userToolCallText, userToolResultText } from "./qwen-code-tools.js";

/** `forStore`: the subagents' transcripts are saved beside the session, not left out. */
export type QwenCodeWriteOptions = WriteOptions;

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

/** What one recording (the session's, or a subagent transcript) is written from. */
interface Conversation {
  readonly sessionId: string;
  readonly meta: Meta;
  readonly messages: readonly Message[];
  readonly title?: string;
  /** For a subagent transcript: its agentId and name, on every record, and its records' id key. */
  readonly agent?: { readonly agentId: string; readonly agentName?: string };
  /** Where the messages are, for warnings: "$" or "$.subagents[0]". */
  readonly where: string;
}

// Qwen Code leaves a model turn with no parts, or with an empty text part,
// out of the history it sends, and every model turn next to it: such a
// text is not written, nor an assistant message left with nothing.
const sendable = (message: Message) =>
  message.role !== "assistant" ||
  message.content.some((block) => block.type !== "text" || block.text !== "");

function writeConversation(
  conversation: Conversation,
  options: QwenCodeWriteOptions | undefined,
): { lines: QwenCodeLine[]; finalNewline: boolean } {
  const { meta, sessionId, agent, where: prefix } = conversation;
  conversation.messages.forEach((message, index) => {
    if (!sendable(message))
      warn(
        options,
        qwenCodeLoss.emptyMessage,
        "an assistant message with nothing Qwen Code would send was left out",
        `${prefix}.messages[${index}]`,
      );
  });
  const messages = conversation.messages.filter(sendable);
  const names = new Map<string, string>();
  for (const message of messages)
    for (const block of message.content)
      if (block.type === "tool_use" && !names.has(block.id))
        names.set(block.id, canonicalToQwenTool(block.tool).name ?? toolName(block.tool));

  const userCalls = userCallIds(messages);
  const idKey = agent === undefined ? sessionId : `${sessionId}/${agent.agentId}`;
  const base = (
    index: number,
    parentUuid: string | null,
    timestamp: string,
    type: string,
  ): JsonObject => {
    const record: JsonObject = {
      uuid: qwenRecordId(idKey, index),
      parentUuid,
      sessionId,
      timestamp,
      type,
    };
    if (meta.cwd !== undefined) record.cwd = meta.cwd;
    if (meta.cliVersion !== undefined) record.version = meta.cliVersion;
    if (meta.gitBranch !== undefined) record.gitBranch = meta.gitBranch;
    if (agent !== undefined) {
      record.agentId = agent.agentId;
      if (agent.agentName !== undefined) record.agentName = agent.agentName;
      record.isSidechain = true;
    }
    return record;
  };

  const lines: string[] = [];
  let parent: string | null = null;
  conversation.messages.forEach((message, index) => {
    if (!sendable(message)) return;
    const where = `${prefix}.messages[${index}]`;
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
  if (conversation.title !== undefined) {
    const record = base(
      lines.length,
      parent,
      messages.at(-1)?.timestamp ?? meta.timestamp,
      "system",
    );
    record.subtype = "custom_title";
    record.systemPayload = { customTitle: conversation.title, titleSource: "manual" };
    lines.push(stringifyJson(record, undefined, harness));
  }
  return {
    lines: lines.map((text) => writtenJsonLine(text, harness)),
    finalNewline: lines.length > 0,
  };
}

/** A subagent id Qwen Code can name files by: 1 to 128 characters of [A-Za-z0-9_-]. */
const agentIdPattern = /^[A-Za-z0-9_-]{1,128}$/;

function millis(timestamp: string): number {
  const parsed = Date.parse(timestamp);
  return Number.isFinite(parsed) ? parsed : 0;
}

/**
 * The transcript's subagents as Qwen Code keeps them: one transcript and
 * meta file per agent, nested ones named by `parentAgentId`, all in the
 * session's one directory. `createdAt` is the agent's first message time,
 * moved a millisecond past the agent written before it when needed, so
 * reading them in Qwen Code's order (createdAt, then agentId) gives them back
 * in this order.
 */
function subagentFiles(
  subagents: readonly Subagent[],
  sessionId: string,
  meta: Meta,
  options: QwenCodeWriteOptions | undefined,
): QwenCodeSubagentFile[] {
  const used = new Set<string>();
  const out: QwenCodeSubagentFile[] = [];
  let clock = Number.NEGATIVE_INFINITY;
  const walk = (
    list: readonly Subagent[],
    parentAgentId: string | null,
    depth: number,
    where: string,
  ) => {
    list.forEach((subagent, index) => {
      const at = `${where}[${index}]`;
      const safe = agentIdPattern.test(subagent.id) ? subagent.id : qwenSessionId(subagent.id);
      let agentId = safe;
      for (let k = 2; used.has(agentId); k += 1) agentId = `${safe}-${k}`;
      used.add(agentId);
      if (agentId !== subagent.id)
        warn(
          options,
          qwenCodeLoss.subagentId,
          `the subagent id ${JSON.stringify(subagent.id)} was replaced by ${agentId}`,
          `${at}.id`,
        );
      if (subagent.title === "")
        warn(
          options,
          qwenCodeLoss.subagentTitle,
          "an empty subagent title was not kept",
          `${at}.title`,
        );
      const written = writeConversation(
        {
          sessionId,
          meta,
          messages: subagent.messages,
          agent: {
            agentId,
            ...(subagent.agentType === undefined ? {} : { agentName: subagent.agentType }),
          },
          where: at,
        },
        options,
      );
      const times = subagent.messages.filter(sendable).map((message) => millis(message.timestamp));
      const created = Math.max(times[0] ?? millis(meta.timestamp), clock + 1);
      clock = created;
      const updated = Math.max(created, ...times);
      const agentMeta: JsonObject = {
        agentId,
        agentType: subagent.agentType ?? "",
        description: subagent.title ?? "",
        parentSessionId: sessionId,
        ...(subagent.toolUseId === undefined ? {} : { toolUseId: subagent.toolUseId }),
        parentAgentId,
        createdAt: new Date(created).toISOString(),
        status: "completed",
        isBackgrounded: false,
        lastUpdatedAt: new Date(updated).toISOString(),
        subagentName: subagent.agentType ?? "",
        resumeCount: 0,
        depth,
        ...(subagent.model === undefined ? {} : { model: subagent.model }),
      };
      out.push({ agentId, meta: agentMeta, session: written });
      walk(subagent.subagents ?? [], agentId, depth + 1, `${at}.subagents`);
    });
  };
  walk(subagents, null, 0, "$.subagents");
  return out;
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
  const subagents = transcript.subagents ?? [];
  const messages = transcript.messages.filter(sendable);
  const empty = messages.length === 0 && meta.title === undefined;
  // A store save writes the subagents' transcripts beside the session; a file alone cannot hold them.
  if (subagents.length > 0 && (empty || options?.forStore !== true))
    warn(
      options,
      qwenCodeLoss.subagents,
      empty
        ? "a subagent conversation was left out: an empty session is written as an empty file, with no transcripts beside it"
        : "a subagent conversation was left out of this file: a store save (`txcript continue`) writes it as a transcript of its own beside the session file",
      "$.subagents",
      subagents.length,
    );
  if (empty) {
    // The empty-message warnings first, as writing the messages gives them.
    writeConversation({ sessionId, meta, messages: transcript.messages, where: "$" }, options);
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
  const main = writeConversation(
    {
      sessionId,
      meta,
      messages: transcript.messages,
      ...(meta.title === undefined ? {} : { title: meta.title }),
      where: "$",
    },
    options,
  );
  if (subagents.length === 0) return main;
  return { ...main, subagents: subagentFiles(subagents, sessionId, meta, options) };
}
