// Common → pi session lines, one at a time: a version 3 header, a
// model_change and a thinking_level_change entry (so pi appends nothing when
// it opens the file), the lineage as a custom entry, then the messages as
// entries on one parentId chain with unique 8-hex ids, and the title as a
// session_info entry last. Never a file pi would migrate (v1) or discard.
import {
  type Block,
  type ConversionOptions,
  type Json,
  jsonEqual,
  type Message,
  stringifyJson,
  type Transcript,
  timestampMillis,
  toCanonical,
  uuidV5In,
  warn,
} from "@txcript/core";
import {
  apiOf,
  assistantBlockToPi,
  guessProvider,
  messageProvider,
  resultContentToPi,
  writeStopReason,
  writeUsage,
} from "./common-to-pi-blocks.js";
import { piLoss } from "./pi-losses.js";
import { piNamespace, piSessionId } from "./pi-paths.js";
import { currentVersion, harness, type PiLine, type PiSession, writtenLine } from "./pi-schema.js";
import { lineageType } from "./pi-to-common.js";
import { commonToolToPi } from "./pi-tools.js";

export interface PiWriteOptions extends ConversionOptions {
  /** The header's cwd instead of the transcript's (continue writes the directory pi will run in). */
  cwd?: string;
}

function print(value: object): string {
  return stringifyJson(value, undefined, harness);
}

function millis(timestamp: string): number {
  return timestampMillis(timestamp);
}

interface Writer {
  readonly options: ConversionOptions | undefined;
  readonly entryId: () => string;
  parent: string | null;
  /** Pi tool name of each call id, for toolResult.toolName. */
  readonly toolNames: ReadonlyMap<string, string>;
  /** Whether the last entry written was a tool result (the next one then reads back into its message). */
  lastWasResult: boolean;
  readonly messages: readonly Message[];
  /** The message being written, the id of each message's first entry, and whether that entry joins a results message. */
  index: number;
  readonly firstEntries: (string | undefined)[];
  readonly joinsResults: boolean[];
}

/** A new entry id, noted as its message's first when it is. */
function nextId(writer: Writer): string {
  const id = writer.entryId();
  if (writer.index >= 0 && writer.index < writer.messages.length)
    writer.firstEntries[writer.index] ??= id;
  return id;
}

/**
 * The entry a compaction keeps from (firstKeptEntryId): the first entry of
 * the message its history starts at, when the history is exactly the
 * messages before it, it stands alone in its message, and that entry starts
 * a message of its own when read back. Otherwise none: pi keeps nothing.
 */
function keptEntry(writer: Writer, block: Block & { type: "compaction" }): string | undefined {
  const history = block.history;
  const at = writer.index;
  const message = writer.messages[at] as Message;
  if (
    history === undefined ||
    history.length === 0 ||
    history.length > at ||
    message.content.length !== 1
  )
    return undefined;
  const start = at - history.length;
  if (writer.joinsResults[start] === true || !jsonEqual(history, writer.messages.slice(start, at)))
    return undefined;
  return writer.firstEntries[start];
}

function entry(
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

function userRun(writer: Writer, message: Message, run: Json[]): string {
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

function resultEntry(
  writer: Writer,
  block: Block & { type: "tool_result" },
  timestamp: string,
): string {
  // The message's first entry is this result, read back into the results message before it.
  if (writer.firstEntries[writer.index] === undefined && writer.lastWasResult)
    writer.joinsResults[writer.index] = true;
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

function compactionEntry(
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

function* userEntries(writer: Writer, message: Message): Generator<string> {
  const { options } = writer;
  if (
    message.model !== undefined ||
    message.stopReason !== undefined ||
    message.usage !== undefined
  )
    warn(options, piLoss.userMessageFields, "dropped model fields of a user message");
  let run: Json[] | undefined;
  const add = (item: Json) => {
    run ??= [];
    run.push(item);
  };
  // How many messages the entries read back as (consecutive results are one), and whether the context survives.
  let groups = 0;
  let contextLost = false;
  const mergesWithPrevious = message.content[0]?.type === "tool_result" && writer.lastWasResult;
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        add({ type: "text", text: block.text });
        break;
      case "image":
        add({
          type: "image",
          data: block.source.data,
          mimeType: block.source.mediaType,
        });
        break;
      case "tool_use": {
        warn(options, piLoss.userToolUse, "a tool call on a user message became text");
        const { name, input } = toCanonical(block.tool);
        add({
          type: "text",
          text: `[tool call ${name} ${stringifyJson(input, undefined, harness)}]`,
        });
        break;
      }
      case "thinking":
        warn(options, piLoss.userThinking, "dropped thinking on a user message");
        break;
      case "tool_result":
      case "compaction":
        if (run !== undefined) {
          groups += 1;
          yield userRun(writer, message, run);
          run = undefined;
        }
        if (block.type === "compaction" || !writer.lastWasResult) groups += 1;
        if (message.context !== undefined) contextLost = true;
        yield block.type === "tool_result"
          ? resultEntry(writer, block, message.timestamp)
          : compactionEntry(writer, block, message.timestamp);
        break;
    }
  }
  if (run !== undefined || message.content.length === 0) {
    groups += 1;
    yield userRun(writer, message, run ?? []);
  }
  if (groups !== 1 || mergesWithPrevious || contextLost)
    warn(options, piLoss.messageShape, "a message was regrouped the way pi stores it");
}

function* assistantEntries(writer: Writer, message: Message): Generator<string> {
  const { options } = writer;
  if (message.context !== undefined)
    warn(options, piLoss.assistantContext, "dropped context marking on an assistant message");
  const content: Json[] = [];
  const after: Block[] = [];
  for (const block of message.content) {
    if (block.type === "tool_result" || block.type === "compaction") after.push(block);
    else {
      const written = assistantBlockToPi(block, options);
      if (written !== undefined) content.push(written);
    }
  }
  const provider = messageProvider(message, options);
  writer.lastWasResult = false;
  yield entry(writer, "message", message.timestamp, {
    message: {
      role: "assistant",
      content,
      api: apiOf(provider),
      provider,
      model: message.model ?? "",
      usage: writeUsage(message, options),
      stopReason: writeStopReason(message, options),
      timestamp: millis(message.timestamp),
    },
  });
  if (after.some((block) => block.type === "tool_result"))
    warn(options, piLoss.resultOnAssistant, "moved tool results after the assistant message");
  if (after.some((block) => block.type === "compaction"))
    warn(options, piLoss.messageShape, "moved a compaction after the assistant message");
  if (message.model === "")
    warn(options, piLoss.emptyModel, "an empty model name reads back as none");
  for (const block of after)
    yield block.type === "tool_result"
      ? resultEntry(writer, block, message.timestamp)
      : compactionEntry(writer, block as Block & { type: "compaction" }, message.timestamp);
}

function toolNamesOf(transcript: Transcript): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of transcript.messages)
    for (const block of message.content)
      if (block.type === "tool_use" && !names.has(block.id))
        names.set(block.id, commonToolToPi(block.tool).name);
  return names;
}

/**
 * The lines fromCommon writes, one text at a time (without its newline; the
 * session ends with one after the last line), so a caller can stream them to
 * a file. Losses are reported as the messages are reached.
 */
export function* commonToPiLines(
  transcript: Transcript,
  options?: PiWriteOptions,
): Generator<string> {
  const { meta, messages } = transcript;
  const sessionId = piSessionId(meta.id);
  if (sessionId !== meta.id)
    warn(options, piLoss.foreignSessionId, `session id ${meta.id} became ${sessionId}`);
  if (meta.gitBranch !== undefined || meta.cliVersion !== undefined)
    warn(options, piLoss.metaFields, "the git branch and CLI version are not written");
  if (transcript.subagents !== undefined)
    warn(
      options,
      piLoss.subagents,
      "subagent conversations are not written",
      undefined,
      Math.max(1, transcript.subagents.length),
    );
  const cwd = options?.cwd ?? meta.cwd;
  yield print({
    type: "session",
    version: currentVersion,
    id: sessionId,
    timestamp: meta.timestamp,
    cwd,
  });

  const derive = uuidV5In(piNamespace);
  const used = new Set<string>();
  let ordinal = 0;
  const entryId = (): string => {
    for (;;) {
      const id = derive(`${sessionId}:entry:${ordinal++}`).slice(0, 8);
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  const writer: Writer = {
    options,
    entryId,
    parent: null,
    toolNames: toolNamesOf(transcript),
    lastWasResult: false,
    messages,
    index: -1,
    firstEntries: [],
    joinsResults: [],
  };
  // The session model only: pi itself takes the model to resume with from the last assistant message.
  const modelId = meta.model ?? "";
  if (meta.model === "") warn(options, piLoss.emptyModel, "an empty model name reads back as none");
  const thinks = messages.some((message) =>
    message.content.some((block) => block.type === "thinking"),
  );
  yield entry(writer, "model_change", meta.timestamp, {
    provider: guessProvider(modelId),
    modelId,
  });
  yield entry(writer, "thinking_level_change", meta.timestamp, {
    thinkingLevel: thinks ? "medium" : "off",
  });
  if (meta.lineage !== undefined) {
    // pi's own custom entries put customType and data before the envelope.
    const id = writer.entryId();
    yield print({
      type: "custom",
      customType: lineageType,
      data: { ...meta.lineage },
      id,
      parentId: writer.parent,
      timestamp: meta.timestamp,
    });
    writer.parent = id;
  }
  for (const [index, message] of messages.entries()) {
    writer.index = index;
    writer.joinsResults[index] = false;
    if (message.role === "user") yield* userEntries(writer, message);
    else yield* assistantEntries(writer, message);
  }
  writer.index = messages.length;
  if (meta.title !== undefined) {
    if (meta.title.trim() === "")
      warn(options, piLoss.blankTitle, "a blank title reads back as none");
    else
      yield entry(writer, "session_info", messages.at(-1)?.timestamp ?? meta.timestamp, {
        name: meta.title,
      });
  }
}

export function commonToPi(transcript: Transcript, options?: PiWriteOptions): PiSession {
  const lines: PiLine[] = [];
  for (const text of commonToPiLines(transcript, options)) lines.push(writtenLine(text));
  return { lines, trailingNewline: true };
}
