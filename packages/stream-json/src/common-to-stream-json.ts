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
  type Meta,
  type Subagent,
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
import { callIds, planSubagents } from "./stream-json-subagents.js";
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
function metaLosses(meta: Meta, claude: boolean, lost: Lost): void {
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

/** What a capture's body is written from: the main messages as they come, then the subagents. */
export interface CaptureBodySource {
  readonly messages: Iterable<Message>;
  /**
   * Read once the messages are written: the subagents (undefined: none) and
   * the main messages' call ids among theirs (for the nesting check).
   */
  readonly subagents: () =>
    | { readonly list: readonly Subagent[]; readonly mainCalls: ReadonlySet<string> }
    | undefined;
}

/**
 * One capture's writer, in the steps the whole writer (commonToStreamJson)
 * and the stream writer (streamJsonWriteStream) share: the meta's losses
 * at once; `body`, the line values of the messages and subagents in order
 * with their losses, collecting the tools they use; `init`, the init line
 * listing those tools with the uuid of serial `at` (the whole writer takes
 * the serial after the body's, the stream writer learns it from a replay
 * and writes init first); `take`, that serial; `result`, the closing line.
 */
export function captureWriter(meta: Meta, options: StreamJsonWriteOptions = {}) {
  const dialect = options.dialect ?? "claude";
  const claude = dialect === "claude";
  const session = meta.id;
  let serial = 0;
  const uuid = () => idIn(`${session}\n${serial++}`);
  const lost: Lost = (code, message, path) => warn(options, losses[code], message, path);
  metaLosses(meta, claude, lost);

  const tools = new Set<string>();
  let mainMessages = 0;
  let lastAssistant: Message | undefined;
  let lastText: string | undefined;
  let assistantCount = 0;
  let latest = Number.NEGATIVE_INFINITY;

  /**
   * The lines of a conversation: the main one (parent null, path "$") or a
   * subagent's (parent: its call's id), whose compaction markers have no line.
   */
  function* writeMessages(
    list: Iterable<Message>,
    parent: string | null,
    prefix: string,
  ): Generator<JsonObject> {
    const main = parent === null;
    const block = blockWriter(dialect, options, lost, tools, prefix);
    let index = -1;
    for (const message of list) {
      index += 1;
      if (main) {
        mainMessages += 1;
        latest = Math.max(latest, Date.parse(message.timestamp));
      }
      messageLosses(message, index, claude, lost, prefix);
      const marker = main ? markerOf(message) : undefined;
      if (marker !== undefined) {
        yield compactionLine(marker, message, index);
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
        yield line;
        continue;
      }
      if (main) {
        assistantCount += 1;
        lastAssistant = message;
      }
      yield assistantLine(message, content, index, parent, prefix);
    }
  }

  function* body(source: CaptureBodySource): Generator<JsonObject> {
    yield* writeMessages(source.messages, null, "$");
    const subagents = source.subagents();
    if (subagents === undefined) return;
    if (!claude) {
      lost("subagents", "subagent conversations were not written", "$.subagents");
      return;
    }
    const plan = planSubagents(subagents.list, subagents.mainCalls, (message, path) =>
      lost("subagents", message, path),
    );
    for (const planned of plan)
      yield* writeMessages(planned.messages, planned.toolUseId, planned.path);
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

  function init(toolNames: readonly string[], at: number): JsonObject {
    const line: JsonObject = {
      type: "system",
      subtype: "init",
      cwd: meta.cwd ?? "",
      session_id: session,
      tools: [...toolNames],
      mcp_servers: [],
    };
    if (claude) {
      line.model = meta.model ?? "";
      line.claude_code_version = meta.cliVersion ?? "";
      line.uuid = idIn(`${session}\n${at}`);
    }
    line.timestamp = meta.timestamp;
    if (meta.lineage !== undefined) line[lineageKey] = { ...meta.lineage };
    return line;
  }

  function result(): JsonObject {
    const duration = mainMessages > 0 ? Math.max(0, latest - Date.parse(meta.timestamp)) : 0;
    const lastReason = lastAssistant?.stopReason;
    const line: JsonObject = {
      type: "result",
      subtype: "success",
      duration_ms: duration,
      is_error: false,
      num_turns: assistantCount,
      result: lastText ?? "",
    };
    if (claude)
      line.stop_reason = lastReason !== undefined && claudeSpells(lastReason) ? lastReason : null;
    line.session_id = session;
    if (claude) line.uuid = uuid();
    return line;
  }

  return {
    body,
    init,
    result,
    /** The tools the body has written so far, in order of first use. */
    tools: (): string[] => [...tools],
    /** The serial the next uuid takes. */
    serial: (): number => serial,
    /** Takes the next serial (the init line's, in the whole writer's order); Claude only. */
    take: (): number => (claude ? serial++ : serial),
  };
}

export function commonToStreamJson(
  transcript: Transcript,
  options: StreamJsonWriteOptions = {},
): StreamJsonCapture {
  const { meta, messages, subagents } = transcript;
  const writer = captureWriter(meta, options);
  const source: CaptureBodySource = {
    messages,
    subagents: () =>
      // An empty list is none, as in a stream of parts (core's transcriptParts).
      subagents === undefined || subagents.length === 0
        ? undefined
        : { list: subagents, mainCalls: callIds(messages) },
  };
  // lines[0] is the init line, written after the body: it lists the tools the body used.
  const lines: StreamJsonLine[] = [{ value: null }];
  for (const value of writer.body(source)) lines.push({ value });
  lines[0] = { value: writer.init(writer.tools(), writer.take()) };
  lines.push({ value: writer.result() });
  return { lines, finalNewline: true };
}
