// Common → pi session lines, one at a time: a version 3 header, a
// model_change and a thinking_level_change entry (so pi appends nothing when
// it opens the file), the lineage as a custom entry, then the messages as
// entries on one parentId chain with unique 8-hex ids, and the title as a
// session_info entry last. Never a file pi would migrate (v1) or discard.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  stringifyJson,
  type Transcript,
  toCanonical,
  uuidV5In,
  warn,
} from "@txcript/core";
import {
  apiOf,
  assistantBlockToPi,
  guessProvider,
  messageProvider,
  writeStopReason,
  writeUsage,
} from "./common-to-pi-blocks.js";
import {
  compactionEntry,
  entry,
  millis,
  print,
  resultEntry,
  userRun,
  type Writer,
} from "./common-to-pi-entries.js";
import { piLoss } from "./pi-losses.js";
import { piNamespace, piSessionId } from "./pi-paths.js";
import { currentVersion, harness, type PiLine, type PiSession, writtenLine } from "./pi-schema.js";
import { lineageType } from "./pi-to-common.js";
import { commonToolToPi } from "./pi-tools.js";

export interface PiWriteOptions extends ConversionOptions {
  /** The header's cwd instead of the transcript's (continue writes the directory pi will run in). */
  cwd?: string;
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
  return { lines, finalNewline: true };
}
