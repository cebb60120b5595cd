// One Claude Code conversation (the main thread, or one subagent's) → Common
// messages. Blocks, usage, stop reasons and the split-message merge come
// from @txcript/core/anthropic; this module adds what is Claude Code's own:
// slash-command markup, compaction (compact_boundary + isCompactSummary),
// injected context lines (isMeta, command caveats), local_command lines,
// and the losses of reading them.

import type { LossTally } from "@txcript/core";
import {
  type Block,
  type CompactionBlock,
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type MessageContext,
  messageContextOf,
  ownValue,
  readTimestamp,
} from "@txcript/core";
import {
  type AnthropicDrop,
  anthropicBlockToCommon,
  anthropicStopReasonToCommon,
  anthropicUsageToCommon,
  mergeAnthropicPart,
} from "@txcript/core/anthropic";
import { commandCaveatPrefix, parseCommand, parseCommandOutput } from "./claude-code-commands.js";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { objectAt, stringAt } from "./claude-code-schema.js";
import type { IndexedLine } from "./claude-code-thread.js";
import { contextKey } from "./claude-code-written.js";

export const epoch = "1970-01-01T00:00:00.000Z";

/** Id a user slash command reads back with: its 1-based ordinal in its conversation. */
export function commandId(ordinal: number): string {
  return `command-${ordinal}`;
}

interface Reader {
  readonly tally: LossTally;
  /** The block reader's options, made once. */
  readonly blockOptions: { onDrop: (drop: AnthropicDrop) => void };
  commandOrdinal: number;
  /** The last slash command still waiting for its output. */
  pendingCommand: string | undefined;
  /** A compaction marker read from its boundary, still waiting for its summary line. */
  openCompaction: CompactionBlock | undefined;
}

function onDrop(tally: LossTally): (drop: AnthropicDrop) => void {
  return (drop) => {
    if (drop.reason === "unsupported")
      tally.add(claudeCodeLoss.unknownBlock, `dropped ${drop.what}`);
    else tally.add(claudeCodeLoss.malformedBlock, `dropped ${drop.what}`);
  };
}

function readBlocks(content: Json[], reader: Reader): Block[] {
  const options = reader.blockOptions;
  const blocks: Block[] = [];
  for (let index = 0; index < content.length; index += 1) {
    const block = anthropicBlockToCommon(content[index] as Json, index, options);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

/** The blocks of a string content: a slash command, its output, or plain text. */
function readStringContent(content: string, reader: Reader): Block[] {
  const command = parseCommand(content);
  if (command !== undefined) {
    reader.commandOrdinal += 1;
    const id = commandId(reader.commandOrdinal);
    reader.pendingCommand = id;
    reader.tally.add(claudeCodeLoss.commandMarkup, "slash-command markup became a Command call");
    return [{ type: "tool_use", id, tool: fromCanonical("Command", command as unknown as Json) }];
  }
  const output = parseCommandOutput(content);
  if (output !== undefined && reader.pendingCommand !== undefined) {
    const toolUseId = reader.pendingCommand;
    reader.pendingCommand = undefined;
    return [{ type: "tool_result", toolUseId, content: output.text, isError: output.isError }];
  }
  return [{ type: "text", text: content }];
}

function readContent(content: Json | undefined, reader: Reader): Block[] {
  if (typeof content === "string") return readStringContent(content, reader);
  return Array.isArray(content) ? readBlocks(content, reader) : [];
}

/**
 * A user line's context: txcript's own key as written, else an isMeta line
 * (the local-command caveat, a prompt command's expansion) → injected
 * (`inferred` says which).
 */
function contextOf(
  line: JsonObject,
  content: Json | undefined,
): { context: MessageContext; inferred: boolean } | undefined {
  if (Object.hasOwn(line, contextKey)) {
    const written = messageContextOf(ownValue(line, contextKey));
    if (written !== undefined) return { context: written, inferred: false };
  }
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content) && isJsonObject(content[0])
        ? stringAt(content[0], "text")
        : undefined;
  if (ownValue(line, "isMeta") !== true) return undefined;
  return text?.startsWith(commandCaveatPrefix)
    ? { context: { kind: "injected", source: "command-caveat" }, inferred: true }
    : { context: { kind: "injected" }, inferred: true };
}

function summaryText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => (isJsonObject(block) ? (stringAt(block, "text") ?? "") : ""))
    .join("\n\n");
}

function compactionOfBoundary(line: JsonObject, reader: Reader): CompactionBlock {
  const block: CompactionBlock = { type: "compaction", summary: "" };
  const metadata = objectAt(line, "compactMetadata");
  if (metadata === undefined) return block;
  for (const key of Object.keys(metadata)) {
    const value = ownValue(metadata, key);
    if (key === "trigger" && typeof value === "string" && value !== "") block.trigger = value;
    else if (key === "preTokens" && Number.isSafeInteger(value) && (value as number) >= 0)
      block.preTokens = value as number;
    else reader.tally.add(claudeCodeLoss.compactMetadata, `left out compactMetadata.${key}`);
  }
  return block;
}

/**
 * Reads one conversation's lines (a thread, in file order) into messages,
 * a line at a time: readConversation feeds it a whole thread, the streaming
 * reader (claude-code-stream-read.ts) one line at a time. A later line can
 * still change a message: a later part of a split assistant message merges
 * into it, and a summary line completes the compaction marker before it
 * (`openCompaction`).
 */
export class ConversationReader {
  readonly messages: Message[] = [];
  readonly #reader: Reader;
  /** The assistant messages by message.id, so a later part finds the one its first part started. */
  readonly #split = new Map<string, Message>();
  #clock: string | undefined;
  /** The last message read, also once the caller has taken it out of `messages`. */
  #previous: Message | undefined;

  constructor(private readonly tally: LossTally) {
    this.#reader = {
      tally,
      blockOptions: { onDrop: onDrop(tally) },
      commandOrdinal: 0,
      pendingCommand: undefined,
      openCompaction: undefined,
    };
  }

  /** The compaction marker still waiting for its summary line, if any. */
  get openCompaction(): CompactionBlock | undefined {
    return this.#reader.openCompaction;
  }

  #push(message: Message): void {
    this.messages.push(message);
    this.#previous = message;
  }

  line(value: JsonObject): void {
    const tally = this.tally;
    const reader = this.#reader;
    const split = this.#split;
    const type = stringAt(value, "type");
    const subtype = stringAt(value, "subtype");
    const conversational =
      type === "user" ||
      type === "assistant" ||
      (type === "system" && (subtype === "local_command" || subtype === "compact_boundary"));
    if (!conversational) return;
    const read = readTimestamp(ownValue(value, "timestamp"));
    if (read === undefined)
      tally.add(claudeCodeLoss.synthesizedTimestamp, "a line without a valid timestamp");
    const timestamp = read ?? this.#clock ?? epoch;
    this.#clock = timestamp;
    if (type === "system") {
      if (subtype === "compact_boundary") {
        const block = compactionOfBoundary(value, reader);
        reader.openCompaction = block;
        this.#push({ role: "user", content: [block], timestamp });
        return;
      }
      const content = stringAt(value, "content");
      if (content !== undefined)
        this.#push({ role: "user", content: readStringContent(content, reader), timestamp });
      return;
    }
    const message = objectAt(value, "message");
    if (message === undefined) {
      tally.add(claudeCodeLoss.lineDropped, `left out a ${type} line without a message`);
      return;
    }
    const content = ownValue(message, "content");
    if (type === "user") {
      if (Object.hasOwn(value, "toolUseResult"))
        tally.add(claudeCodeLoss.toolUseResult, "left out the toolUseResult beside a tool result");
      if (ownValue(value, "isCompactSummary") === true) {
        const summary = summaryText(content);
        if (reader.openCompaction !== undefined) reader.openCompaction.summary = summary;
        else this.#push({ role: "user", content: [{ type: "compaction", summary }], timestamp });
        reader.openCompaction = undefined;
        return;
      }
      reader.openCompaction = undefined;
      const read: Message = { role: "user", content: readContent(content, reader), timestamp };
      const found = contextOf(value, content);
      // An isMeta line right after a prompt command is that command's expansion.
      const previous = this.#previous?.content;
      if (
        found?.inferred === true &&
        found.context.source === undefined &&
        previous?.length === 1 &&
        previous[0]?.type === "tool_use" &&
        previous[0].tool.name === "Command"
      )
        found.context.source = "slash-command";
      if (found !== undefined) read.context = found.context;
      this.#push(read);
      return;
    }
    reader.openCompaction = undefined;
    const id = stringAt(message, "id");
    const usageRead = anthropicUsageToCommon(ownValue(message, "usage"));
    for (const key of usageRead?.details ?? [])
      tally.add(claudeCodeLoss.usageDetails, `left out usage.${key}`);
    for (const key of usageRead?.invalid ?? [])
      tally.add(claudeCodeLoss.usageCount, `usage.${key} is not a count and read as 0`);
    for (const key of usageRead?.absent ?? [])
      tally.add(claudeCodeLoss.usageCount, `usage.${key} is absent and read as 0`);
    const part = {
      content: readContent(content, reader),
      stopReason: anthropicStopReasonToCommon(ownValue(message, "stop_reason")),
      usage: usageRead?.usage,
    };
    const known = id === undefined || id === "" ? undefined : split.get(id);
    if (known !== undefined) {
      mergeAnthropicPart(known, part);
      return;
    }
    const model = stringAt(message, "model");
    const assistant: Message = { role: "assistant", content: [...part.content], timestamp };
    if (model !== undefined && model !== "" && model !== "<synthetic>") assistant.model = model;
    if (part.stopReason !== undefined) assistant.stopReason = part.stopReason;
    if (part.usage !== undefined) assistant.usage = part.usage;
    this.#push(assistant);
    if (id !== undefined && id !== "") split.set(id, assistant);
  }

  /**
   * Forget the message started under `id`: the streaming reader knows no
   * later line carries that id (so a long session does not keep every
   * assistant message for a merge that cannot come).
   */
  forget(id: string): void {
    this.#split.delete(id);
  }
}

/** Messages of one conversation's lines (a thread, in file order). */
export function readConversation(lines: readonly IndexedLine[], tally: LossTally): Message[] {
  const reader = new ConversationReader(tally);
  for (const { value } of lines) reader.line(value);
  return reader.messages;
}
