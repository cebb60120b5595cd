// A Gemini CLI recording → Common: the conversation Gemini CLI would load
// (gemini-cli-records.ts), one Common message per user or gemini record.
// A gemini record in the modern shape (functionCall / thought parts in
// `content`) is read from its parts; a legacy one from `thoughts`, its text
// and `toolCalls`, whose results become the user message after it — the
// order Gemini CLI itself rebuilds (sessionUtils convertSessionToClientHistory).
import {
  arrayAt,
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  ownValue,
  readTimestamp,
  type Subagent,
  stringAt,
  type Transcript,
  warn,
} from "@txcript/core";
import { geminiCliLoss } from "./gemini-cli-losses.js";
import {
  CallTracker,
  contentToBlocks,
  type PartContext,
  partToBlocks,
} from "./gemini-cli-parts.js";
import { injectedTag, renderContent } from "./gemini-cli-peek.js";
import { type ReplayCounts, replay } from "./gemini-cli-records.js";
import type { GeminiCliSession } from "./gemini-cli-schema.js";
import { usageFromTokens } from "./gemini-cli-tokens.js";
import { geminiToolToCanonical } from "./gemini-cli-tools.js";

export interface GeminiCliReadOptions extends ConversionOptions {
  /** The project directory, for meta.cwd (the file does not record it; the store knows it). */
  cwd?: string;
}

const epoch = "1970-01-01T00:00:00.000Z";
const noticeTypes = new Set(["info", "error", "warning"]);
const callKeys = new Set(["id", "name", "args", "result"]);

/** A record's ISO timestamp as Common writes it, or undefined when unreadable. */
function normalizeTimestamp(value: Json | undefined): string | undefined {
  return typeof value === "string" ? readTimestamp(value) : undefined;
}

function thoughtText(thought: Json, context: PartContext): Block[] {
  if (!isJsonObject(thought)) {
    warn(
      context.options,
      geminiCliLoss.unknownPart,
      "a thought that is not an object was dropped",
      context.path,
    );
    return [];
  }
  const description = ownValue(thought, "description");
  const subject = ownValue(thought, "subject");
  if (typeof description !== "string") {
    warn(
      context.options,
      geminiCliLoss.unknownPart,
      "a thought without a description was dropped",
      context.path,
    );
    return [];
  }
  if (Object.keys(thought).some((key) => key !== "subject" && key !== "description"))
    warn(
      context.options,
      geminiCliLoss.partFields,
      "a thought's timestamp was dropped",
      context.path,
    );
  // Gemini CLI sends a legacy thought back as "**subject** description".
  const text =
    typeof subject === "string" && subject !== "" ? `**${subject}** ${description}` : description;
  return [{ type: "thinking", text }];
}

function isModern(parts: Block[], content: Json | undefined): boolean {
  const list = Array.isArray(content) ? content : content === undefined ? [] : [content];
  return (
    list.some(
      (part) =>
        isJsonObject(part) &&
        (isJsonObject(ownValue(part, "functionCall")) ||
          (ownValue(part, "thought") !== undefined && ownValue(part, "thought") !== false)),
    ) || parts.some((block) => block.type === "tool_use")
  );
}

/** A gemini record as its assistant message and, when its tool calls carry results, the user message after it. */
function geminiMessages(record: JsonObject, timestamp: string, context: PartContext): Message[] {
  const content = ownValue(record, "content");
  const parts = contentToBlocks(content, context);
  const calls = arrayAt(record, "toolCalls") ?? [];
  const blocks: Block[] = [];
  const modern = isModern(parts, content);
  if (!modern)
    for (const thought of arrayAt(record, "thoughts") ?? [])
      blocks.push(...thoughtText(thought, context));
  blocks.push(...parts);
  const results: Block[] = [];
  calls.forEach((call, index) => {
    const path = `${context.path}.toolCalls[${index}]`;
    if (!isJsonObject(call)) {
      warn(
        context.options,
        geminiCliLoss.unknownPart,
        "a tool call record that is not an object was dropped",
        path,
      );
      return;
    }
    const name = stringAt(call, "name") ?? "";
    const recordedId = stringAt(call, "id");
    let id = recordedId ?? "";
    if (!modern) {
      id = context.calls.call(recordedId, name);
      blocks.push({
        type: "tool_use",
        id,
        tool: geminiToolToCanonical(name, Object.hasOwn(call, "args") ? (call.args as Json) : {}),
      });
    }
    const agentId = stringAt(call, "agentId");
    if (agentId !== undefined && id !== "") context.agents?.set(agentId, id);
    if (Object.keys(call).some((key) => !callKeys.has(key)))
      warn(
        context.options,
        geminiCliLoss.toolCallDisplay,
        "a tool call's display fields were dropped",
        path,
      );
    const result = ownValue(call, "result");
    if (result === undefined || result === null || result === "") return;
    const status = ownValue(call, "status");
    const failedStatus = status !== undefined && status !== "success";
    const resultContext: PartContext = { ...context, path: `${path}.result`, failedStatus };
    if (typeof result === "string") {
      context.calls.result(id === "" ? undefined : id, name);
      if (failedStatus)
        warn(
          context.options,
          geminiCliLoss.cancelledTool,
          "a tool call that did not succeed became an error result",
          path,
        );
      results.push({
        type: "tool_result",
        toolUseId: id === "" ? `${context.calls.prefix}-result` : id,
        content: result,
        isError: failedStatus,
      });
    } else if (Array.isArray(result))
      results.push(...result.flatMap((part) => partToBlocks(part, resultContext)));
    else results.push(...partToBlocks(result, resultContext));
  });
  const message: Message = { role: "assistant", content: blocks, timestamp };
  const model = stringAt(record, "model");
  if (model !== undefined && model !== "") message.model = model;
  const { usage, lossy } = usageFromTokens(ownValue(record, "tokens"));
  if (usage !== undefined) message.usage = usage;
  if (lossy)
    warn(
      context.options,
      geminiCliLoss.tokens,
      "token counts were not carried exactly",
      context.path,
    );
  const out = [message];
  if (results.length > 0) out.push({ role: "user", content: results, timestamp });
  return out;
}

/** The store's subagent recordings as Common subagents, linked to the call whose agentId names them. */
function subagentsOf(
  session: GeminiCliSession,
  agents: Map<string, string>,
  options?: GeminiCliReadOptions,
): Subagent[] {
  return (session.subagents ?? []).map(({ id, session: child }) => {
    const transcript = geminiCliToCommon(child, options);
    const subagent: Subagent = { id, messages: transcript.messages };
    const toolUseId = agents.get(id);
    if (toolUseId !== undefined) subagent.toolUseId = toolUseId;
    if (transcript.meta.title !== undefined) subagent.title = transcript.meta.title;
    if (transcript.subagents !== undefined) subagent.subagents = transcript.subagents;
    return subagent;
  });
}

/** The loss warnings for what replay dropped, in the order the whole read gives them (before any message's). */
export function replayWarnings(counts: ReplayCounts, options: ConversionOptions | undefined): void {
  if (counts.badLines > 0)
    warn(
      options,
      geminiCliLoss.badLine,
      "a line that is not a JSON object was skipped",
      undefined,
      counts.badLines,
    );
  if (counts.replaced + counts.checkpointed > 0)
    warn(
      options,
      geminiCliLoss.superseded,
      "a superseded message record was left out",
      undefined,
      counts.replaced + counts.checkpointed,
    );
  if (counts.rewound > 0)
    warn(
      options,
      geminiCliLoss.rewound,
      "a message cut by $rewindTo was left out",
      undefined,
      counts.rewound,
    );
  if (counts.notMessages > 0)
    warn(
      options,
      geminiCliLoss.unknownMessage,
      "a messages entry without an id was left out",
      undefined,
      counts.notMessages,
    );
}

/** The metadata keys the meta reads (all a streaming reader keeps of the merged metadata). */
export const metaKeys: ReadonlySet<string> = new Set([
  "sessionId",
  "projectHash",
  "startTime",
  "lastUpdated",
  "summary",
  "directories",
]);

/**
 * The meta of a recording from its merged metadata, the timestamp of the
 * first kept message that has a readable one (`firstTime`), and the project
 * root the store knows.
 */
export function sessionMeta(
  metadata: JsonObject,
  firstTime: string | undefined,
  projectRoot: string | undefined,
  options?: GeminiCliReadOptions,
): Meta {
  const sessionId = stringAt(metadata, "sessionId");
  const start =
    normalizeTimestamp(ownValue(metadata, "startTime")) ??
    firstTime ??
    normalizeTimestamp(ownValue(metadata, "lastUpdated")) ??
    epoch;
  const meta: Meta = {
    id: sessionId === undefined || sessionId === "" ? "gemini-session" : sessionId,
    timestamp: start,
  };
  const summary = stringAt(metadata, "summary");
  if (summary !== undefined) meta.title = summary;
  const directories = arrayAt(metadata, "directories");
  const firstDirectory = typeof directories?.[0] === "string" ? directories[0] : undefined;
  const cwd = options?.cwd ?? projectRoot ?? firstDirectory;
  if (cwd !== undefined) meta.cwd = cwd;
  return meta;
}

/** A kept message record's readable timestamp, for sessionMeta's `firstTime`. */
export function recordTime(record: JsonObject): string | undefined {
  return normalizeTimestamp(ownValue(record, "timestamp"));
}

/**
 * Kept message records, in conversation order, as Common messages: the
 * step both the whole read and the streaming reader take per record (the
 * call ids, subagent links and previous timestamp carry across records).
 */
export class RecordReader {
  readonly calls: CallTracker;
  /** agentId of a tool call → that call's id, for linking subagents. */
  readonly agents = new Map<string, string>();
  #previous: string;

  constructor(
    meta: Meta,
    private readonly options: GeminiCliReadOptions | undefined,
  ) {
    this.calls = new CallTracker(meta.id);
    this.#previous = meta.timestamp;
  }

  /** The messages of one record at `path` (none for a notice or an unknown type). */
  messages(record: JsonObject, path: string): Message[] {
    const { options } = this;
    const context: PartContext = { options, path, calls: this.calls, agents: this.agents };
    const type = ownValue(record, "type");
    if (typeof type === "string" && noticeTypes.has(type)) {
      warn(options, geminiCliLoss.notice, `an ${type} notice was left out`, path);
      return [];
    }
    if (type !== "user" && type !== "gemini") {
      warn(
        options,
        geminiCliLoss.unknownMessage,
        "a message of an unknown type was left out",
        path,
      );
      return [];
    }
    let timestamp = normalizeTimestamp(ownValue(record, "timestamp"));
    if (timestamp === undefined) {
      warn(
        options,
        geminiCliLoss.badTimestamp,
        "a message without a readable timestamp took the previous one",
        path,
      );
      timestamp = this.#previous;
    }
    this.#previous = timestamp;
    if (type === "gemini") return geminiMessages(record, timestamp, context);
    if (Object.hasOwn(record, "displayContent"))
      warn(
        options,
        geminiCliLoss.displayContent,
        "a user message's displayContent was dropped",
        path,
      );
    const user: Message = {
      role: "user",
      content: contentToBlocks(ownValue(record, "content"), context),
      timestamp,
    };
    // Gemini CLI's own `<session_context>` / `<hook_context>` messages: injected, never resent by it.
    const tag = injectedTag(renderContent(ownValue(record, "content")));
    if (tag !== undefined) user.context = { kind: "injected", source: tag };
    return [user];
  }
}

export function geminiCliToCommon(
  session: GeminiCliSession,
  options?: GeminiCliReadOptions,
): Transcript {
  const replayed = replay(session);
  replayWarnings(replayed, options);
  const firstTime = replayed.messages
    .map(({ record }) => recordTime(record))
    .find((time) => time !== undefined);
  const meta = sessionMeta(replayed.metadata, firstTime, session.projectRoot, options);
  const reader = new RecordReader(meta, options);
  const messages: Message[] = [];
  for (const { record, path } of replayed.messages) messages.push(...reader.messages(record, path));
  const subagents = subagentsOf(session, reader.agents, options);
  return subagents.length === 0 ? { meta, messages } : { meta, messages, subagents };
}
