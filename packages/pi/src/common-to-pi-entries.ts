// The entries of a pi session as the writer prints them: the envelope
// ({type, id, parentId, timestamp}) on one parentId chain, a user message's
// text run (a plain message, or an extension message for context), a tool
// result, and a compaction with the entry it keeps from. common-to-pi.ts
// walks the transcript and calls these; losses are reported as they happen.
import {
  type Block,
  type ConversionOptions,
  type Json,
  jsonEqual,
  type Message,
  stringifyJson,
  timestampMillis,
  warn,
} from "@txcript/core";
import { resultContentToPi } from "./common-to-pi-blocks.js";
import { piLoss } from "./pi-losses.js";
import { harness } from "./pi-schema.js";

export function print(value: object): string {
  return stringifyJson(value, undefined, harness);
}

export function millis(timestamp: string): number {
  return timestampMillis(timestamp);
}

export interface Writer {
  readonly options: ConversionOptions | undefined;
  readonly entryId: () => string;
  parent: string | null;
  /** Pi tool name of each call id, for toolResult.toolName. */
  readonly toolNames: ReadonlyMap<string, string>;
  /** The ids of the tool calls written so far on assistant entries: a result pairs only with one of these. */
  readonly calls: Set<string>;
  /** Whether the last entry written was a tool result (the next one then reads back into its message). */
  lastWasResult: boolean;
  /** The message being written and its index (none before the first and after the last). */
  message: Message | undefined;
  index: number;
  /** The messages from `start` up to the one being written, when held for a compaction to compare. */
  readonly held: (start: number) => readonly Message[] | undefined;
  /** The id of a message's first entry, and whether that entry joins a results message (kept while needed). */
  readonly firstEntries: Map<number, string>;
  readonly joinsResults: Set<number>;
}

/** A new entry id, noted as its message's first when it is. */
export function nextId(writer: Writer): string {
  const id = writer.entryId();
  if (writer.message !== undefined && !writer.firstEntries.has(writer.index))
    writer.firstEntries.set(writer.index, id);
  return id;
}

/**
 * The entry a compaction keeps from (firstKeptEntryId): the first entry of
 * the message its history starts at, when the history is exactly the
 * messages before it, it stands alone in its message, and that entry starts
 * a message of its own when read back. Otherwise none: pi keeps nothing.
 */
export function keptEntry(
  writer: Writer,
  block: Block & { type: "compaction" },
): string | undefined {
  const history = block.history;
  const at = writer.index;
  const message = writer.message as Message;
  if (
    history === undefined ||
    history.length === 0 ||
    history.length > at ||
    message.content.length !== 1
  )
    return undefined;
  const start = at - history.length;
  const before = writer.held(start);
  if (before === undefined || writer.joinsResults.has(start) || !jsonEqual(history, before))
    return undefined;
  return writer.firstEntries.get(start);
}

export function entry(
  writer: Writer,
  type: string,
  timestamp: string,
  fields: Record<string, Json | undefined>,
): string {
  const id = nextId(writer);
  const text = print({ type, id, parentId: writer.parent, timestamp, ...fields });
  writer.parent = id;
  return text;
}

export function userRun(writer: Writer, message: Message, run: Json[]): string {
  writer.lastWasResult = false;
  const { context, timestamp } = message;
  if (context !== undefined)
    return entry(writer, "custom_message", timestamp, {
      customType: context.source ?? `txcript.${context.kind}`,
      content: run,
      display: false,
      details: {
        txcript: {
          context: {
            kind: context.kind,
            ...(context.source === undefined ? {} : { source: context.source }),
          },
        },
      },
    });
  return entry(writer, "message", timestamp, {
    message: { role: "user", content: run, timestamp: millis(timestamp) },
  });
}

/**
 * A result whose call is not an earlier assistant tool call, as the text
 * written in its place (pi.orphan-result): pi would send it as a `tool`
 * message without its call.
 */
export function orphanResultText(writer: Writer, block: Block & { type: "tool_result" }): Json {
  warn(
    writer.options,
    piLoss.orphanResult,
    "a tool result whose call is not an assistant tool call became text",
  );
  const content =
    typeof block.content === "string"
      ? block.content
      : stringifyJson(block.content, undefined, harness);
  return { type: "text", text: `[tool result${block.isError ? " (error)" : ""}] ${content}` };
}

export function resultEntry(
  writer: Writer,
  block: Block & { type: "tool_result" },
  timestamp: string,
): string {
  // The message's first entry is this result, read back into the results message before it.
  if (!writer.firstEntries.has(writer.index) && writer.lastWasResult)
    writer.joinsResults.add(writer.index);
  writer.lastWasResult = true;
  return entry(writer, "message", timestamp, {
    message: {
      role: "toolResult",
      toolCallId: block.toolUseId,
      toolName: writer.toolNames.get(block.toolUseId) ?? "",
      content: resultContentToPi(block.content, writer.options),
      isError: block.isError,
      timestamp: millis(timestamp),
    },
  });
}

export function compactionEntry(
  writer: Writer,
  block: Block & { type: "compaction" },
  timestamp: string,
): string {
  writer.lastWasResult = false;
  const hook = block.trigger === "extension";
  if (block.history !== undefined)
    warn(
      writer.options,
      piLoss.compactionHistory,
      "a compaction's history is written as the entries pi keeps after it",
    );
  if ((block.trigger !== undefined && !hook) || block.preTokens === undefined)
    warn(
      writer.options,
      piLoss.compactionHistory,
      "a compaction keeps its summary and token count",
    );
  const kept = keptEntry(writer, block);
  const id = nextId(writer);
  // Keeping nothing, firstKeptEntryId names the compaction itself: the summary stands for all that came before.
  const text = print({
    type: "compaction",
    id,
    parentId: writer.parent,
    timestamp,
    summary: block.summary,
    firstKeptEntryId: kept ?? id,
    tokensBefore: block.preTokens ?? 0,
    ...(hook ? { fromHook: true } : {}),
  });
  writer.parent = id;
  return text;
}
