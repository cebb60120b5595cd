// Crush session rows → Common. One message row is one Common message: user
// and assistant keep their role, a `tool` message (tool results) is a user
// message, a summary message (is_summary_message, or the session's
// summary_message_id) is a user message holding one compaction block. Child
// sessions become subagents. Every field left behind is a named loss.
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
import { crushLoss } from "./crush-losses.js";
import { type CrushPart, decodeParts } from "./crush-parts.js";
import type { CrushSession } from "./crush-schema.js";
import { crushToolToCanonical } from "./crush-tools.js";

/** Every column some migration defines (docs/formats/crush.md, Schema eras). */
const sessionColumns = new Set([
  "id",
  "parent_session_id",
  "title",
  "message_count",
  "prompt_tokens",
  "completion_tokens",
  "cost",
  "updated_at",
  "created_at",
  "summary_message_id",
  "todos",
]);
const messageColumns = new Set([
  "id",
  "session_id",
  "role",
  "parts",
  "model",
  "created_at",
  "updated_at",
  "finished_at",
  "provider",
  "is_summary_message",
]);

/** Crush writes seconds (strftime('%s')); a value only sensible as milliseconds is read as such. */
export function crushTime(value: Json | undefined): string {
  const number = typeof value === "number" && Number.isFinite(value) ? value : 0;
  const millis = Math.abs(number) >= 1e11 ? number : number * 1000;
  const date = new Date(millis);
  if (Number.isNaN(date.getTime()))
    throw new TxcriptError("INVALID_DOCUMENT", `the time ${String(value)} is out of range`, {
      harness: "crush",
    });
  return date.toISOString();
}

const stopReasons: Record<string, string> = { canceled: "aborted", content_filter: "refusal" };

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The JSON a call's input text holds, or the text itself when it is not JSON. */
function callInput(input: string): Json {
  try {
    return parseJson(input, { harness: "crush" });
  } catch {
    return input;
  }
}

function unknownColumns(
  row: JsonObject,
  known: Set<string>,
  options: ConversionOptions | undefined,
  at: string,
): void {
  const extra = Object.keys(row).filter((key) => !known.has(key));
  if (extra.length > 0)
    warn(
      options,
      crushLoss.unknownColumn,
      `the columns ${extra.join(", ")} were not kept`,
      at,
      extra.length,
    );
}

function readMessage(
  row: JsonObject,
  at: string,
  summaryId: string | undefined,
  callNames: Map<string, string>,
  options: ConversionOptions | undefined,
): Message | undefined {
  const role = text(ownValue(row, "role"));
  unknownColumns(row, messageColumns, options, at);
  if (!["user", "assistant", "tool", "system"].includes(role)) {
    warn(options, crushLoss.role, `a ${JSON.stringify(role)} message was left out`, at);
    return undefined;
  }
  warn(
    options,
    crushLoss.messageBookkeeping,
    "a message's id, times and provider were not kept",
    at,
  );
  const parts = decodeParts(text(ownValue(row, "parts")), `${at}.parts`);
  const timestamp = crushTime(ownValue(row, "created_at"));
  const model = text(ownValue(row, "model"));
  const base = { timestamp, ...(model === "" ? {} : { model }) };
  const id = text(ownValue(row, "id"));
  const summary =
    ownValue(row, "is_summary_message") === 1 || (summaryId !== undefined && id === summaryId);
  if (summary) {
    const texts = parts.filter((part) => part.type === "text").map((part) => text(part.data.text));
    if (parts.some((part) => part.type !== "text" && part.type !== "finish"))
      warn(options, crushLoss.finishDetail, "a summary message's other parts were not kept", at);
    return { role: "user", content: [{ type: "compaction", summary: texts.join("") }], ...base };
  }
  const content: Block[] = [];
  let stopReason: string | undefined;
  parts.forEach((part, index) => {
    const where = `${at}.parts[${index}]`;
    if (part.unknownKeys.length > 0)
      warn(
        options,
        crushLoss.unknownPartFields,
        `a ${part.type} part's ${part.unknownKeys.join(", ")} were not kept`,
        where,
      );
    const block = readPart(part, where, callNames, options);
    if (block === "finish") {
      const reason = text(part.data.reason);
      if (text(part.data.message) !== "" || text(part.data.details) !== "")
        warn(
          options,
          crushLoss.finishDetail,
          "a finish part's message or details were not kept",
          where,
        );
      if (role === "assistant")
        stopReason = reason === "" ? undefined : (stopReasons[reason] ?? reason);
      else if (reason !== "stop")
        warn(
          options,
          crushLoss.finishDetail,
          `a ${role} message's finish ${JSON.stringify(reason)} was not kept`,
          where,
        );
    } else if (block !== undefined) content.push(block);
  });
  const message: Message = { role: role === "assistant" ? "assistant" : "user", content, ...base };
  if (stopReason !== undefined) message.stopReason = stopReason;
  if (role === "system") message.context = { kind: "system" };
  return message;
}

function readPart(
  part: CrushPart,
  where: string,
  callNames: Map<string, string>,
  options: ConversionOptions | undefined,
): Block | "finish" | undefined {
  const data = part.data;
  switch (part.type) {
    case "text":
      return { type: "text", text: text(data.text) };
    case "reasoning": {
      if (
        text(data.thought_signature) !== "" ||
        text(data.tool_id) !== "" ||
        data.responses_data !== null ||
        data.started_at !== 0 ||
        data.finished_at !== 0
      )
        warn(
          options,
          crushLoss.reasoningFields,
          "reasoning's provider fields or times were not kept",
          where,
        );
      const signature = text(data.signature);
      return {
        type: "thinking",
        text: text(data.thinking),
        ...(signature === "" ? {} : { signature }),
      };
    }
    case "image_url":
      warn(options, crushLoss.imageUrl, "an image by URL was left out", where);
      return undefined;
    case "binary": {
      const mediaType = text(data.MIMEType);
      if (text(data.Path) !== "" || mediaType === "")
        warn(options, crushLoss.attachmentPath, "an attachment's path was not kept", where);
      return {
        type: "image",
        source: {
          type: "base64",
          mediaType: mediaType === "" ? "application/octet-stream" : mediaType,
          data: text(data.Data),
        },
      };
    }
    case "tool_call": {
      const id = text(data.id);
      if (id === "") {
        warn(options, crushLoss.emptyToolId, "a tool call without an id was left out", where);
        return undefined;
      }
      if (data.provider_executed === true || data.finished !== true)
        warn(
          options,
          crushLoss.toolCallState,
          "a tool call's provider_executed or finished flag was not kept",
          where,
        );
      const name = text(data.name);
      if (!callNames.has(id)) callNames.set(id, name);
      return {
        type: "tool_use",
        id,
        tool: crushToolToCanonical(name, callInput(text(data.input))),
      };
    }
    case "tool_result": {
      const id = text(data.tool_call_id);
      if (id === "") {
        warn(options, crushLoss.emptyToolId, "a tool result without an id was left out", where);
        return undefined;
      }
      if (text(data.data) !== "" || text(data.mime_type) !== "")
        warn(options, crushLoss.resultMedia, "a tool result's media was not kept", where);
      const name = text(data.name);
      if (text(data.metadata) !== "" || (name !== "" && callNames.get(id) !== name))
        warn(
          options,
          crushLoss.resultMetadata,
          "a tool result's metadata or name was not kept",
          where,
        );
      return {
        type: "tool_result",
        toolUseId: id,
        content: text(data.content),
        isError: data.is_error === true,
      };
    }
    case "shell_command":
      warn(options, crushLoss.shellCommand, "a shell command became text", where);
      return {
        type: "text",
        text: `$ ${text(data.command)}\n${text(data.output)}\n(exit code ${String(data.exit_code)})`,
      };
    case "finish":
      return "finish";
    default:
      return undefined;
  }
}

/** A child's tool call: the second half of `<message id>$$<call id>`, or the id itself (older Crush). */
export function childToolUseId(
  childId: string,
  parentCalls: ReadonlySet<string>,
): string | undefined {
  const halves = childId.split("$$");
  if (halves.length === 2 && parentCalls.has(halves[1] as string)) return halves[1];
  if (parentCalls.has(childId)) return childId;
  return undefined;
}

interface Conversation {
  messages: Message[];
  subagents: Subagent[];
}

function readConversation(
  session: CrushSession,
  at: string,
  options: ConversionOptions | undefined,
): Conversation {
  const row = session.session;
  unknownColumns(row, sessionColumns, options, `${at}.session`);
  const summaryValue = ownValue(row, "summary_message_id");
  const summaryId =
    typeof summaryValue === "string" && summaryValue !== "" ? summaryValue : undefined;
  const callNames = new Map<string, string>();
  const messages: Message[] = [];
  session.messages.forEach((message, index) => {
    const read = readMessage(message, `${at}.messages[${index}]`, summaryId, callNames, options);
    if (read !== undefined) messages.push(read);
  });
  const calls = new Set(callNames.keys());
  const id = String(ownValue(row, "id"));
  const subagents: Subagent[] = [];
  (session.children ?? []).forEach((child, index) => {
    const childId = String(ownValue(child.session, "id"));
    const where = `${at}.children[${index}]`;
    if (childId === `title-${id}`) {
      warn(options, crushLoss.titleSession, "the title session was left out", where);
      return;
    }
    warnSessionTotals(child.session, where, options);
    const read = readConversation(child, where, options);
    const title = text(ownValue(child.session, "title"));
    const toolUseId = childToolUseId(childId, calls);
    const subagent: Subagent = {
      id: childId === "" ? "(empty)" : childId,
      ...(toolUseId === undefined ? {} : { toolUseId }),
      ...(title === "" ? {} : { title }),
      messages: read.messages,
    };
    if (read.subagents.length > 0) subagent.subagents = read.subagents;
    subagents.push(subagent);
  });
  return { messages, subagents };
}

function warnSessionTotals(
  row: JsonObject,
  at: string,
  options: ConversionOptions | undefined,
): void {
  if (["prompt_tokens", "completion_tokens", "cost"].some((key) => (ownValue(row, key) ?? 0) !== 0))
    warn(options, crushLoss.sessionUsage, "the session's token and cost totals were not kept", at);
  const todos = ownValue(row, "todos");
  if (typeof todos === "string" && todos !== "" && todos !== "[]")
    warn(options, crushLoss.todos, "the session's todo list was not kept", at);
  warn(
    options,
    crushLoss.sessionBookkeeping,
    "the session's updated_at and message_count were not kept",
    at,
  );
}

export function crushToCommon(session: CrushSession, options?: ConversionOptions): Transcript {
  const row = session.session;
  warnSessionTotals(row, "$.session", options);
  const { messages, subagents } = readConversation(session, "$", options);
  const title = text(ownValue(row, "title"));
  const id = String(ownValue(row, "id"));
  const transcript: Transcript = {
    meta: {
      id: id === "" ? "(empty)" : id,
      timestamp: crushTime(ownValue(row, "created_at")),
      ...(session.projectDirectory === undefined ? {} : { cwd: session.projectDirectory }),
      ...(title === "" ? {} : { title }),
    },
    messages,
  };
  if (subagents.length > 0) transcript.subagents = subagents;
  return transcript;
}
