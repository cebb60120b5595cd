// The user, assistant and compact_boundary lines of a capture → Common
// messages, through core's Anthropic Messages mapping: content blocks,
// stop reasons, usage, and (Claude dialect) the parts of one API message
// written as several lines with one message.id, merged as
// @txcript/claude-code merges them — into the first part's message, also
// across the user lines between them, with the usage of the largest part.
// Not the dispatch by line type or the session bookkeeping
// (stream-json-to-common.ts).
import {
  type Block,
  type CompactionBlock,
  type ConversionOptions,
  type Json,
  type JsonObject,
  type Message,
  ownValue,
  StringIds,
  type Usage,
  warn,
} from "@txcript/core";
import {
  anthropicStopReasonToCommon,
  anthropicUsageToCommon,
  mergeAnthropicPart,
} from "@txcript/core/anthropic";
import { BlockReader, invalidLine } from "./stream-json-blocks.js";
import type { LineClock } from "./stream-json-clock.js";
import type { StreamJsonDialect } from "./stream-json-lines.js";
import { streamJsonLoss as losses } from "./stream-json-losses.js";

function nonEmptyString(value: Json | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function isCount(value: Json | undefined): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

export class StreamJsonMessages {
  readonly messages: Message[] = [];
  readonly #options: ConversionOptions;
  readonly #clock: LineClock;
  /** The message each Claude message.id started (AnthropicSplitMessages' rule), for later parts. */
  readonly #byId = new Map<string, Message>();
  /**
   * Scan mode (the streaming reader's first pass): only which ids were
   * seen, not their messages, and a later part is not merged (it changes
   * no timestamp, model or message count; its blocks are still read).
   */
  readonly #seen: StringIds | undefined;
  /** Told of every Claude assistant part with a message.id, before it is merged or started. */
  onPartId: ((id: string, line: number) => void) | undefined;

  constructor(options: ConversionOptions, clock: LineClock, scan = false) {
    this.#options = options;
    this.#clock = clock;
    this.#seen = scan ? new StringIds() : undefined;
  }

  /** No later part carries `id` (the streaming reader knows from its first pass): its message is let go. */
  forget(id: string): void {
    this.#byId.delete(id);
  }

  /** Merges a later part into the message its id started; false for a new id (or none). */
  #merge(id: string | undefined, part: Parameters<typeof mergeAnthropicPart>[1]): boolean {
    if (id === undefined) return false;
    if (this.#seen !== undefined) return this.#seen.find(id) !== -1;
    const known = this.#byId.get(id);
    if (known === undefined) return false;
    mergeAnthropicPart(known, part);
    return true;
  }

  #started(id: string | undefined, message: Message): void {
    if (id === undefined) return;
    if (this.#seen !== undefined) this.#seen.id(id);
    else this.#byId.set(id, message);
  }

  readUser(value: JsonObject, line: number, dialect: StreamJsonDialect): void {
    const message = this.#messageOf(value, line);
    if (Object.hasOwn(value, "tool_use_result"))
      warn(this.#options, losses.toolUseResult, "a tool_use_result was dropped", `line ${line}`);
    const raw = ownValue(message, "content");
    let content: Block[];
    if (typeof raw === "string") content = [{ type: "text", text: raw }];
    else if (Array.isArray(raw)) content = this.#blocks(raw, line, dialect);
    else
      throw invalidLine(
        line,
        "has no content",
        "$.message.content",
        "a string or an array of blocks",
      );
    this.messages.push({ role: "user", content, timestamp: this.#stamp(value, line) });
  }

  readAssistant(value: JsonObject, line: number, dialect: StreamJsonDialect): void {
    const message = this.#messageOf(value, line);
    const raw = ownValue(message, "content");
    if (!Array.isArray(raw))
      throw invalidLine(line, "has no content", "$.message.content", "an array of blocks");
    const content = this.#blocks(raw, line, dialect);
    const stopReason = this.#stopReason(value, message);
    const usage = this.#usage(message, line, dialect);
    // Amp writes one line per API message and no message.id.
    const id = dialect === "amp" ? undefined : nonEmptyString(ownValue(message, "id"));
    if (id !== undefined) this.onPartId?.(id, line);
    if (this.#merge(id, { content, stopReason, usage })) return;
    const assistant: Message = { role: "assistant", content, timestamp: this.#stamp(value, line) };
    const model = nonEmptyString(ownValue(message, "model"));
    if (model !== undefined) assistant.model = model;
    if (stopReason !== undefined) assistant.stopReason = stopReason;
    if (usage !== undefined) assistant.usage = usage;
    this.messages.push(assistant);
    this.#started(id, assistant);
  }

  /** A Claude `system`/`compact_boundary` line: a compaction marker (its summary is not in a capture). */
  readCompaction(value: JsonObject, line: number): void {
    const block: CompactionBlock = { type: "compaction", summary: "" };
    const metadata = ownValue(value, "compact_metadata");
    if (metadata !== null && typeof metadata === "object" && !Array.isArray(metadata)) {
      const trigger = nonEmptyString(ownValue(metadata, "trigger"));
      const preTokens = ownValue(metadata, "pre_tokens");
      if (trigger !== undefined) block.trigger = trigger;
      if (isCount(preTokens)) block.preTokens = preTokens;
    }
    this.messages.push({ role: "user", content: [block], timestamp: this.#stamp(value, line) });
  }

  #messageOf(value: JsonObject, line: number): JsonObject {
    const message = ownValue(value, "message");
    if (message === null || typeof message !== "object" || Array.isArray(message))
      throw invalidLine(line, "has no message object", "$.message", "an API message object");
    return message;
  }

  #stopReason(value: JsonObject, message: JsonObject): string | undefined {
    const reason = anthropicStopReasonToCommon(ownValue(message, "stop_reason"));
    if (reason !== undefined) return reason;
    if (ownValue(value, "aborted") === true) return "aborted";
    if (typeof ownValue(value, "error") === "string") return "error";
    return undefined;
  }

  #usage(message: JsonObject, line: number, dialect: StreamJsonDialect): Usage | undefined {
    const read = anthropicUsageToCommon(ownValue(message, "usage"));
    if (read === undefined) return undefined;
    if (read.details.length > 0)
      warn(this.#options, losses.usageDetails, "usage details stay in the capture", `line ${line}`);
    if (read.invalid.length > 0)
      warn(
        this.#options,
        losses.usageCount,
        `${read.invalid.join(", ")} ${read.invalid.length === 1 ? "is" : "are"} not a token count: read as 0`,
        `line ${line}`,
      );
    // Claude's required usage is all zeros on synthetic messages and on ours without usage.
    const { usage } = read;
    const none =
      usage.inputTokens === 0 &&
      usage.outputTokens === 0 &&
      usage.cacheReadInputTokens === 0 &&
      usage.cacheCreationInputTokens === 0;
    return none && dialect !== "amp" ? undefined : usage;
  }

  readonly #readers = new Map<StreamJsonDialect, BlockReader>();

  #blocks(raw: Json[], line: number, dialect: StreamJsonDialect): Block[] {
    let reader = this.#readers.get(dialect);
    if (reader === undefined) {
      reader = new BlockReader(dialect, this.#onDropped);
      this.#readers.set(dialect, reader);
    }
    return reader.read(raw, line);
  }

  // One function for every line (not a closure per line): reports a dropped block.
  readonly #onDropped = (line: number, path: string): void =>
    warn(
      this.#options,
      losses.unknownBlocks,
      "a content block was dropped",
      `line ${line} ${path}`,
    );

  #stamp(value: JsonObject, line: number): string {
    return this.#clock.stamp(value, () =>
      warn(this.#options, losses.synthesizedTimestamps, "a line had no timestamp", `line ${line}`),
    );
  }
}
