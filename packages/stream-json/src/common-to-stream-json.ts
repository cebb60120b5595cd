// A Common transcript → a stream-json capture a consumer of that dialect
// accepts: one system/init, the user and assistant lines (and Claude's
// compact_boundary lines), one closing result. Blocks are
// stream-json-write-blocks.ts; the `--stream-json-input` lines are
// stream-json-input.ts. Not the reader; every change is reported through
// onWarning (stream-json-losses.ts).
import {
  type Block,
  type ConversionOptions,
  type JsonObject,
  type Message,
  type Transcript,
  uuidV5In,
  warn,
} from "@txcript/core";
import { commonUsageToAnthropic, isAnthropicStopReason } from "@txcript/core/anthropic";
import type { DialectToolOptions } from "./stream-json-dialect.js";
import {
  lineageKey,
  type StreamJsonCapture,
  type StreamJsonDialect,
  type StreamJsonLine,
} from "./stream-json-lines.js";
import { streamJsonLoss as losses } from "./stream-json-losses.js";
import { planSubagents } from "./stream-json-subagents.js";
import { blockWriter, type Lost } from "./stream-json-write-blocks.js";

export interface StreamJsonWriteOptions extends ConversionOptions, DialectToolOptions {
  /** Tool spelling and line keys of Claude Code (default) or Amp. */
  dialect?: StreamJsonDialect;
}

/**
 * Stop reasons each dialect can spell. Claude: the API's (core) and the
 * SDK's BetaStopReason `compaction` [claude-sdk]; Amp: its manual's list.
 */
function claudeSpells(reason: string): boolean {
  return isAnthropicStopReason(reason) || reason === "compaction";
}
const ampStopReasons: ReadonlySet<string> = new Set([
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

const zeroUsage: JsonObject = {
  input_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: 0,
};

/** The compaction block of a user message that is nothing else, else undefined. */
function markerOf(message: Message) {
  const [first] = message.content;
  return message.role === "user" && message.content.length === 1 && first?.type === "compaction"
    ? first
    : undefined;
}

const compactTriggers = new Set(["manual", "auto"]);

function messagePath(index: number, prefix = "$"): string {
  return `${prefix}.messages[${index}]`;
}

/** Losses of the transcript as a whole: meta fields and subagents. */
function metaLosses(transcript: Transcript, claude: boolean, lost: Lost): void {
  const { meta } = transcript;
  if (meta.title !== undefined || meta.gitBranch !== undefined)
    lost("metaFields", "the title and git branch were not written");
  if (!claude && (meta.model !== undefined || meta.cliVersion !== undefined))
    lost("metaFields", "the model and CLI version were not written");
  const empty = [
    meta.cwd === "" ? "cwd" : undefined,
    claude && meta.model === "" ? "model" : undefined,
    claude && meta.cliVersion === "" ? "CLI version" : undefined,
  ].filter((name) => name !== undefined);
  if (empty.length > 0) lost("emptyStrings", `an empty ${empty.join(", ")} reads back as none`);
}

/** Losses of one message's own fields (its blocks report theirs). */
function messageLosses(
  message: Message,
  index: number,
  claude: boolean,
  lost: Lost,
  prefix: string,
): void {
  if (message.context !== undefined)
    lost(
      "context",
      `a ${message.context.kind} context message was written as a user line`,
      messagePath(index, prefix),
    );
  const usage = message.usage;
  if (usage?.reasoningOutputTokens !== undefined || usage?.costUsd !== undefined)
    lost("usageExtras", "reasoning tokens or cost were not written", messagePath(index, prefix));
  if (message.role === "user") {
    if (message.model !== undefined || message.stopReason !== undefined || usage !== undefined)
      lost(
        "userAttribution",
        "a user message's model/stop reason/usage was dropped",
        messagePath(index, prefix),
      );
    return;
  }
  if (!claude && message.model !== undefined)
    lost("messageModel", "a message model was not written", messagePath(index, prefix));
  if (claude && message.model === "")
    lost("emptyStrings", "an empty model reads back as none", messagePath(index, prefix));
  if (
    claude &&
    usage !== undefined &&
    usage.inputTokens === 0 &&
    usage.outputTokens === 0 &&
    usage.cacheReadInputTokens === 0 &&
    usage.cacheCreationInputTokens === 0
  )
    lost("emptyStrings", "all-zero usage reads back as none", messagePath(index, prefix));
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
  const lost: Lost = (code, message, path) => warn(options, losses[code], message, path);
  metaLosses(transcript, claude, lost);

  const tools = new Set<string>();

  // lines[0] is the init line, written last: it lists the tools the body used.
  const lines: StreamJsonLine[] = [{ value: null }];
  let lastAssistant: Message | undefined;
  let lastText: string | undefined;
  let assistantCount = 0;
  let latest = Number.NEGATIVE_INFINITY;

  /**
   * The lines of a conversation: the main one (parent null, path "$") or a
   * subagent's (parent: its call's id), whose compaction markers have no line.
   */
  function writeMessages(list: readonly Message[], parent: string | null, prefix: string): void {
    const main = parent === null;
    const block = blockWriter(dialect, options, lost, tools, prefix);
    for (let index = 0; index < list.length; index++) {
      const message = list[index] as Message;
      if (main) latest = Math.max(latest, Date.parse(message.timestamp));
      messageLosses(message, index, claude, lost, prefix);
      const marker = main ? markerOf(message) : undefined;
      if (marker !== undefined) {
        lines.push({ value: compactionLine(marker, message, index) });
        continue;
      }
      const content: JsonObject[] = [];
      const blocks = message.content;
      for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
        const item = blocks[blockIndex] as Block;
        const written = block(item, message, index, blockIndex);
        if (written !== undefined) content.push(written);
        if (main && message.role === "assistant" && item.type === "text") lastText = item.text;
      }
      if (message.role === "user") {
        const line: JsonObject = {
          type: "user",
          message: { role: "user", content },
          parent_tool_use_id: parent,
          session_id: session,
        };
        if (claude) line.uuid = uuid();
        line.timestamp = message.timestamp;
        lines.push({ value: line });
        continue;
      }
      if (main) {
        assistantCount += 1;
        lastAssistant = message;
      }
      lines.push({ value: assistantLine(message, content, index, parent, prefix) });
    }
  }

  writeMessages(messages, null, "$");
  if (transcript.subagents !== undefined) {
    if (claude)
      for (const planned of planSubagents(transcript.subagents, messages, (message, path) =>
        lost("subagents", message, path),
      ))
        writeMessages(planned.messages, planned.toolUseId, planned.path);
    else lost("subagents", "subagent conversations were not written", "$.subagents");
  }

  /**
   * A compaction marker: Claude's `system`/`compact_boundary` line with
   * `compact_metadata {trigger, pre_tokens}` (both required [claude-sdk]);
   * the summary and history have no place. Amp: none (a user line without content).
   */
  function compactionLine(
    marker: NonNullable<ReturnType<typeof markerOf>>,
    message: Message,
    index: number,
  ): JsonObject {
    const changed =
      marker.summary !== "" ||
      marker.history !== undefined ||
      marker.trigger === undefined ||
      !compactTriggers.has(marker.trigger) ||
      marker.preTokens === undefined;
    if (!claude || changed)
      lost(
        "compaction",
        claude
          ? "a compaction marker's summary, history or missing metadata was not written"
          : "a compaction marker was not written",
        messagePath(index),
      );
    if (!claude)
      return {
        type: "user",
        message: { role: "user", content: [] },
        parent_tool_use_id: null,
        session_id: session,
        timestamp: message.timestamp,
      };
    return {
      type: "system",
      subtype: "compact_boundary",
      session_id: session,
      uuid: uuid(),
      compact_metadata: {
        trigger:
          marker.trigger !== undefined && compactTriggers.has(marker.trigger)
            ? marker.trigger
            : "auto",
        pre_tokens: marker.preTokens ?? 0,
      },
      timestamp: message.timestamp,
    };
  }

  function assistantLine(
    message: Message,
    content: JsonObject[],
    index: number,
    parent: string | null,
    prefix: string,
  ): JsonObject {
    const reason = message.stopReason;
    const spelled =
      reason !== undefined && (claude ? claudeSpells(reason) : ampStopReasons.has(reason));
    const aborted = claude && reason === "aborted";
    const failed = claude && reason === "error";
    if (reason !== undefined && !spelled && !aborted && !failed)
      lost(
        "stopReason",
        `stop reason ${JSON.stringify(reason)} was written as null`,
        messagePath(index, prefix),
      );
    const usage = message.usage;
    const usageObject: JsonObject | undefined =
      usage === undefined ? (claude ? { ...zeroUsage } : undefined) : commonUsageToAnthropic(usage);
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
        parent_tool_use_id: parent,
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
      parent_tool_use_id: parent,
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
  if (meta.lineage !== undefined) init[lineageKey] = { ...meta.lineage };
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
    result.stop_reason = lastReason !== undefined && claudeSpells(lastReason) ? lastReason : null;
  result.session_id = session;
  if (claude) result.uuid = uuid();
  lines.push({ value: result });

  return { lines, finalNewline: true };
}
