// Common → pi session lines, one at a time: a version 3 header, a
// model_change and a thinking_level_change entry (so pi appends nothing when
// it opens the file), the lineage as a custom entry, then the messages as
// entries on one parentId chain with unique 8-hex ids (in the order pi
// records them: pi-message-order.ts), and the title as a
// session_info entry last. Never a file pi would migrate (v1) or discard.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  type Meta,
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
  orphanResultText,
  print,
  resultEntry,
  userRun,
  type Writer,
} from "./common-to-pi-entries.js";
import { piLoss } from "./pi-losses.js";
import { PiMessageOrder, piMessageOrder } from "./pi-message-order.js";
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
  const first = message.content[0];
  const mergesWithPrevious =
    first?.type === "tool_result" && writer.calls.has(first.toolUseId) && writer.lastWasResult;
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
        // A result whose call was made text (or never written) goes as text with it.
        if (block.type === "tool_result" && !writer.calls.has(block.toolUseId)) {
          add(orphanResultText(writer, block));
          break;
        }
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
      if (block.type === "tool_use") writer.calls.add(block.id);
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
    if (block.type === "tool_result" && !writer.calls.has(block.toolUseId))
      // A result without its call: a user message of its text (pi.orphan-result).
      yield userRun(writer, { role: "user", content: [], timestamp: message.timestamp }, [
        orphanResultText(writer, block),
      ]);
    else
      yield block.type === "tool_result"
        ? resultEntry(writer, block, message.timestamp)
        : compactionEntry(writer, block as Block & { type: "compaction" }, message.timestamp);
}

/**
 * What the lines need before the messages are written, found in one look
 * over them: the thinking level entry near the top says whether any
 * message thinks, a result names the tool of its call (which may come
 * later), and a compaction keeps from an earlier entry only when its
 * history equals the messages before it, so those are held until then.
 */
export interface PiPlan {
  readonly messages: number;
  /** How many subagents the transcript has (they are not written). */
  readonly subagents: number;
  readonly thinks: boolean;
  /** Pi tool name of each call id (its first call), for toolResult.toolName. */
  readonly toolNames: ReadonlyMap<string, string>;
  /** Each compaction that may keep from an earlier message: the message it compares from, and its own. */
  readonly windows: readonly { readonly start: number; readonly at: number }[];
}

/**
 * A PiPlan built a message at a time (a transcript held whole, or a
 * stream's replay), of the messages in the order they are written
 * (pi-message-order.ts), silently.
 */
export class PiPlanner {
  #messages = 0;
  #thinks = false;
  readonly #toolNames = new Map<string, string>();
  readonly #windows: { start: number; at: number }[] = [];
  readonly #order = new PiMessageOrder();

  add(message: Message): void {
    for (const ordered of this.#order.push(message)) this.#addOrdered(ordered);
  }

  #addOrdered(message: Message): void {
    const at = this.#messages;
    this.#messages += 1;
    for (const block of message.content) {
      if (block.type === "thinking") this.#thinks = true;
      else if (block.type === "tool_use" && !this.#toolNames.has(block.id))
        this.#toolNames.set(block.id, commonToolToPi(block.tool).name);
    }
    const only = message.content.length === 1 ? message.content[0] : undefined;
    const length = only?.type === "compaction" ? (only.history?.length ?? 0) : 0;
    if (length > 0 && length <= at) this.#windows.push({ start: at - length, at });
  }

  plan(subagents: number): PiPlan {
    for (const ordered of this.#order.end()) this.#addOrdered(ordered);
    return {
      messages: this.#messages,
      subagents,
      thinks: this.#thinks,
      toolNames: this.#toolNames,
      windows: this.#windows,
    };
  }
}

/** Whether two plans are the same (a stream's replay against its read). */
export function samePlan(left: PiPlan, right: PiPlan): boolean {
  return (
    left.messages === right.messages &&
    left.subagents === right.subagents &&
    left.thinks === right.thinks &&
    JSON.stringify(left.windows) === JSON.stringify(right.windows) &&
    JSON.stringify([...left.toolNames]) === JSON.stringify([...right.toolNames])
  );
}

/** The plan of a transcript held whole. */
export function piPlanOf(transcript: Transcript): PiPlan {
  const planner = new PiPlanner();
  for (const message of transcript.messages) planner.add(message);
  return planner.plan(transcript.subagents?.length ?? 0);
}

/**
 * The messages a compaction may compare, held from the first message of its
 * window until it is written, and let go after: the rest pass through.
 */
class HeldMessages {
  readonly #windows: PiPlan["windows"];
  readonly #held = new Map<number, Message>();
  /** Message index → the held messages to let go once it is written. */
  readonly #release = new Map<number, number[]>();
  readonly starts: ReadonlySet<number>;

  constructor(windows: PiPlan["windows"]) {
    this.#windows = windows;
    this.starts = new Set(windows.map((window) => window.start));
  }

  /** Holds message `index` if a later compaction compares it. */
  hold(index: number, message: Message): void {
    let until = -1;
    for (const { start, at } of this.#windows)
      if (start <= index && index < at && at > until) until = at;
    if (until < 0) return;
    this.#held.set(index, message);
    const bucket = this.#release.get(until);
    if (bucket === undefined) this.#release.set(until, [index]);
    else bucket.push(index);
  }

  /** Lets go of what the compaction at `index` was the last to compare. */
  written(index: number): void {
    for (const held of this.#release.get(index) ?? []) this.#held.delete(held);
    this.#release.delete(index);
  }

  /** The held messages from `start` up to `at` (not included), or undefined when one is not held. */
  range(start: number, at: number): Message[] | undefined {
    const range: Message[] = [];
    for (let index = start; index < at; index += 1) {
      const message = this.#held.get(index);
      if (message === undefined) return undefined;
      range.push(message);
    }
    return range;
  }
}

/**
 * The lines of a session, one text at a time (without its newline; the
 * session ends with one after the last line), from its meta, its messages
 * as they come (iterated once) and their plan. Losses are reported as the
 * messages are reached. The whole writer and the stream writer both write
 * through this.
 */
export function* piLinesOf(
  meta: Meta,
  messages: Iterable<Message>,
  plan: PiPlan,
  options?: PiWriteOptions,
): Generator<string> {
  const sessionId = piSessionId(meta.id);
  if (sessionId !== meta.id)
    warn(options, piLoss.foreignSessionId, `session id ${meta.id} became ${sessionId}`);
  if (meta.gitBranch !== undefined || meta.cliVersion !== undefined)
    warn(options, piLoss.metaFields, "the git branch and CLI version are not written");
  if (plan.subagents > 0)
    warn(
      options,
      piLoss.subagents,
      "subagent conversations are not written",
      undefined,
      plan.subagents,
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
  const held = new HeldMessages(plan.windows);
  const writer: Writer = {
    options,
    entryId,
    parent: null,
    toolNames: plan.toolNames,
    calls: new Set(),
    lastWasResult: false,
    message: undefined,
    index: -1,
    held: (start) => held.range(start, writer.index),
    firstEntries: new Map(),
    joinsResults: new Set(),
  };
  // The session model only: pi itself takes the model to resume with from the last assistant message.
  const modelId = meta.model ?? "";
  if (meta.model === "") warn(options, piLoss.emptyModel, "an empty model name reads back as none");
  yield entry(writer, "model_change", meta.timestamp, {
    provider: guessProvider(modelId),
    modelId,
  });
  yield entry(writer, "thinking_level_change", meta.timestamp, {
    thinkingLevel: plan.thinks ? "medium" : "off",
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
  let last: Message | undefined;
  for (const message of piMessageOrder(messages, options)) {
    writer.index += 1;
    writer.message = message;
    if (message.role === "user") yield* userEntries(writer, message);
    else yield* assistantEntries(writer, message);
    const index = writer.index;
    held.hold(index, message);
    held.written(index);
    // Only a compaction's first message needs its first entry later.
    if (!held.starts.has(index)) {
      writer.firstEntries.delete(index);
      writer.joinsResults.delete(index);
    }
    last = message;
  }
  writer.message = undefined;
  if (meta.title !== undefined) {
    if (meta.title.trim() === "")
      warn(options, piLoss.blankTitle, "a blank title reads back as none");
    else
      yield entry(writer, "session_info", last?.timestamp ?? meta.timestamp, {
        name: meta.title,
      });
  }
}

/**
 * The lines fromCommon writes, one text at a time (without its newline; the
 * session ends with one after the last line), so a caller can stream them to
 * a file. Losses are reported as the messages are reached.
 */
export function commonToPiLines(
  transcript: Transcript,
  options?: PiWriteOptions,
): Generator<string> {
  return piLinesOf(transcript.meta, transcript.messages, piPlanOf(transcript), options);
}

export function commonToPi(transcript: Transcript, options?: PiWriteOptions): PiSession {
  const lines: PiLine[] = [];
  for (const text of commonToPiLines(transcript, options)) lines.push(writtenLine(text));
  return { lines, finalNewline: true };
}
