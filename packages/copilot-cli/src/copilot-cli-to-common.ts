// Reading a Copilot CLI event log into Common, the way the program replays
// it into model history (docs/formats/copilot-cli.md, "Reading"):
// user.message, system.message, assistant.message, tool.execution_complete
// and session.compaction_complete are the conversation; session.start and
// session.title_changed the meta; events with an agentId a subagent's;
// everything else bookkeeping, named but not read.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  readTimestamp,
  type Subagent,
  type Transcript,
  warn,
} from "@txcript/core";
import { copilotCliLoss } from "./copilot-cli-losses.js";
import type { CopilotCliEvent, CopilotCliSession } from "./copilot-cli-schema.js";
import { copilotToolToCanonical } from "./copilot-cli-tools.js";

export type CopilotCliReadOptions = ConversionOptions;

const epoch = new Date(0).toISOString();

/** Events of the conversation; every other type is bookkeeping. */
const conversationTypes = new Set([
  "session.start",
  "session.title_changed",
  "user.message",
  "system.message",
  "assistant.message",
  "tool.execution_complete",
  "session.compaction_complete",
]);

function own(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function text(object: JsonObject, key: string): string | undefined {
  const value = own(object, key);
  return typeof value === "string" ? value : undefined;
}

/** The events of a session, in order (blank lines and lines without a string type left out). */
export function copilotEvents(session: CopilotCliSession): CopilotCliEvent[] {
  const events: CopilotCliEvent[] = [];
  for (const [index, line] of session.lines.entries()) {
    const value = line.value;
    if (value === undefined) continue;
    const type = text(value, "type");
    if (type === undefined) continue;
    const data = own(value, "data");
    const event: CopilotCliEvent = {
      type,
      data: isJsonObject(data) ? data : {},
      line: index + 1,
    };
    const id = text(value, "id");
    if (id !== undefined) event.id = id;
    const timestamp = text(value, "timestamp");
    if (timestamp !== undefined) event.timestamp = timestamp;
    const agentId = text(value, "agentId") ?? text(event.data, "parentToolCallId");
    if (agentId !== undefined) event.agentId = agentId;
    events.push(event);
  }
  return events;
}

function userContent(event: CopilotCliEvent, options: CopilotCliReadOptions | undefined): Block[] {
  const content: Block[] = [];
  const said = text(event.data, "content") ?? "";
  if (said !== "") content.push({ type: "text", text: said });
  const attachments = own(event.data, "attachments");
  if (Array.isArray(attachments))
    for (const [index, attachment] of attachments.entries()) {
      const data = isJsonObject(attachment) ? text(attachment, "data") : undefined;
      const mediaType = isJsonObject(attachment) ? text(attachment, "mimeType") : undefined;
      if (
        isJsonObject(attachment) &&
        own(attachment, "type") === "blob" &&
        data !== undefined &&
        mediaType !== undefined &&
        mediaType !== ""
      )
        content.push({ type: "image", source: { type: "base64", mediaType, data } });
      else
        warn(
          options,
          copilotCliLoss.attachment,
          "an attachment that is not an inline blob was not read",
          `line ${event.line}: attachments[${index}]`,
        );
    }
  return content;
}

function assistantContent(event: CopilotCliEvent): Block[] {
  const content: Block[] = [];
  const reasoning = text(event.data, "reasoningText");
  if (reasoning !== undefined) {
    const thinking: Block = { type: "thinking", text: reasoning };
    const signature = text(event.data, "reasoningOpaque");
    if (signature !== undefined) thinking.signature = signature;
    const encrypted = text(event.data, "encryptedContent");
    if (encrypted !== undefined) thinking.encrypted = encrypted;
    content.push(thinking);
  }
  const said = text(event.data, "content") ?? "";
  if (said !== "") content.push({ type: "text", text: said });
  const requests = own(event.data, "toolRequests");
  if (Array.isArray(requests))
    for (const request of requests) {
      if (!isJsonObject(request)) continue;
      const id = text(request, "toolCallId");
      const name = text(request, "name");
      if (id === undefined || id === "" || name === undefined) continue;
      const args = Object.hasOwn(request, "arguments") ? (request.arguments as Json) : {};
      content.push({ type: "tool_use", id, tool: copilotToolToCanonical(name, args) });
    }
  return content;
}

function resultBlock(event: CopilotCliEvent): Block | undefined {
  const toolUseId = text(event.data, "toolCallId");
  if (toolUseId === undefined || toolUseId === "") return undefined;
  const success = own(event.data, "success") !== false;
  const result = own(event.data, "result");
  const error = own(event.data, "error");
  const output = isJsonObject(result) ? text(result, "content") : undefined;
  const failure = isJsonObject(error) ? text(error, "message") : undefined;
  const content = success ? (output ?? "") : (failure ?? output ?? "");
  return { type: "tool_result", toolUseId, content, isError: !success };
}

function compactionBlock(event: CopilotCliEvent): Block | undefined {
  if (own(event.data, "success") !== true) return undefined;
  const summary = text(event.data, "summaryContent");
  if (summary === undefined) return undefined;
  const block: Block = { type: "compaction", summary };
  const trigger = text(event.data, "trigger");
  if (trigger !== undefined && trigger !== "") block.trigger = trigger;
  const preTokens = own(event.data, "preCompactionTokens");
  if (typeof preTokens === "number" && Number.isSafeInteger(preTokens) && preTokens >= 0)
    block.preTokens = preTokens;
  return block;
}

/** The messages of one agent's events, in order; consecutive tool results form one user message. */
function messagesOf(
  events: readonly CopilotCliEvent[],
  options: CopilotCliReadOptions | undefined,
): Message[] {
  const messages: Message[] = [];
  let results: Message | undefined;
  let bookkeeping = 0;
  for (const event of events) {
    const timestamp = readTimestamp(event.timestamp) ?? messages.at(-1)?.timestamp ?? epoch;
    if (event.type === "tool.execution_complete") {
      const block = resultBlock(event);
      if (block === undefined) continue;
      if (results === undefined) {
        results = { role: "user", content: [block], timestamp };
        messages.push(results);
      } else results.content.push(block);
      continue;
    }
    if (!conversationTypes.has(event.type)) {
      bookkeeping += 1;
      continue;
    }
    let message: Message | undefined;
    if (event.type === "user.message") {
      message = { role: "user", content: userContent(event, options), timestamp };
      const source = text(event.data, "source");
      if (source !== undefined && source !== "") message.context = { kind: "injected", source };
    } else if (event.type === "system.message") {
      const said = text(event.data, "content") ?? "";
      const kind = own(event.data, "role") === "developer" ? "developer" : "system";
      message = {
        role: "user",
        content: said === "" ? [] : [{ type: "text", text: said }],
        timestamp,
        context: { kind },
      };
    } else if (event.type === "assistant.message") {
      message = { role: "assistant", content: assistantContent(event), timestamp };
      const model = text(event.data, "model");
      if (model !== undefined) message.model = model;
    } else if (event.type === "session.compaction_complete") {
      const block = compactionBlock(event);
      if (block !== undefined) message = { role: "user", content: [block], timestamp };
    }
    if (message === undefined) continue;
    results = undefined;
    messages.push(message);
  }
  if (bookkeeping > 0)
    warn(
      options,
      copilotCliLoss.bookkeeping,
      "events that carry no conversation were not read",
      undefined,
      bookkeeping,
    );
  return messages;
}

function metaOf(events: readonly CopilotCliEvent[], all: readonly CopilotCliEvent[]): Meta {
  const start = all.find((event) => event.type === "session.start");
  const data = start?.data ?? {};
  const id = text(data, "sessionId") ?? "";
  const meta: Meta = {
    // parseSession refuses a log without a session.start naming its id.
    id,
    timestamp:
      readTimestamp(own(data, "startTime")) ??
      readTimestamp(start?.timestamp ?? events[0]?.timestamp) ??
      epoch,
  };
  const context = own(data, "context");
  if (isJsonObject(context)) {
    const cwd = text(context, "cwd");
    if (cwd !== undefined) meta.cwd = cwd;
    const branch = text(context, "branch");
    if (branch !== undefined) meta.gitBranch = branch;
  }
  let title: string | undefined;
  for (const event of events)
    if (event.type === "session.title_changed") title = text(event.data, "title") ?? title;
  if (title !== undefined) meta.title = title;
  const version = text(data, "copilotVersion");
  if (version !== undefined) meta.cliVersion = version;
  const model = text(data, "selectedModel");
  if (model !== undefined) meta.model = model;
  return meta;
}

export function copilotCliToCommon(
  session: CopilotCliSession,
  options?: CopilotCliReadOptions,
): Transcript {
  const events = copilotEvents(session);
  const main = events.filter((event) => event.agentId === undefined);
  const transcript: Transcript = {
    meta: metaOf(main, events),
    messages: messagesOf(main, options),
  };
  const byAgent = new Map<string, CopilotCliEvent[]>();
  for (const event of events) {
    if (event.agentId === undefined) continue;
    const list = byAgent.get(event.agentId) ?? [];
    list.push(event);
    byAgent.set(event.agentId, list);
  }
  const subagents: Subagent[] = [];
  for (const [agentId, agentEvents] of byAgent) {
    const subagent: Subagent = { id: agentId, messages: messagesOf(agentEvents, options) };
    const parent = agentEvents
      .map((event) => text(event.data, "parentToolCallId"))
      .find((value) => value !== undefined && value !== "");
    if (parent !== undefined) subagent.toolUseId = parent;
    subagents.push(subagent);
  }
  if (subagents.length > 0) transcript.subagents = subagents;
  return transcript;
}
