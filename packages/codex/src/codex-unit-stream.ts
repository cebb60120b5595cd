// The stream of units a transcript is written as: meta-level losses first,
// then each message through UnitWriter (context, blocks, compactions,
// usage), and a turn context at the end for a session with no response.
// common-to-codex.ts renders the stream as lines.
import type { ConversionOptions, JsonObject, Message, Meta } from "@txcript/core";
import { isRunBlock } from "./codex-content.js";
import type { Side } from "./codex-items.js";
import { codexSessionId } from "./codex-paths.js";
import { type Unit, UnitWriter } from "./codex-units.js";

/** What the units are written from: the meta, whether subagents follow, and the messages in order. */
export interface UnitSource {
  meta: Meta;
  subagents: boolean;
  /** Whether the first message is the base instructions (written into session_meta). */
  skipFirst: boolean;
  messages: Iterable<Message>;
}

/** The units of a transcript given as a UnitSource (a stream of its messages, say). */
export function* unitsOf(
  source: UnitSource,
  options: ConversionOptions | undefined,
): Generator<Unit> {
  const { meta, skipFirst } = source;
  const writer = new UnitWriter(source, options);
  const id = codexSessionId(meta.id, meta.timestamp);
  if (id !== meta.id)
    writer.warn("foreignSessionId", `session id ${meta.id} became ${id}`, "$.meta.id");
  if (meta.title !== undefined)
    writer.warn("title", "the title goes to session_index.jsonl, not the rollout", "$.meta.title");
  if (source.subagents)
    writer.warn("subagents", "subagent conversations were dropped", "$.subagents");
  if (meta.cwd === "" || meta.gitBranch === "")
    writer.warn("emptyField", "an empty cwd or git branch reads back as none", "$.meta");

  let index = -1;
  for (const message of source.messages) {
    index += 1;
    if (index === 0 && skipFirst) continue;
    const path = `$.messages[${index}]`;
    if (message.stopReason !== undefined)
      writer.warn("stopReason", "the stop reason was dropped", path);
    if (
      message.role === "user" &&
      message.context === undefined &&
      (message.model !== undefined || message.usage !== undefined)
    )
      writer.warn("userMessageFields", "a user message's model or usage was dropped", path);
    if (message.content.length === 0) {
      writer.warn("emptyMessage", "an empty message was dropped", path);
      continue;
    }
    let sides = new Set<Side>();
    let assistant = 0;
    if (message.context !== undefined) {
      yield* writer.context(message, index, path);
      const rest = message.content.filter((block) => !isRunBlock(block));
      if (rest.length > 0) {
        writer.warn("sideSplit", "blocks beside context text became messages of their own", path);
        const restMessage: Message = {
          role: message.role,
          content: rest,
          timestamp: message.timestamp,
        };
        if (message.model !== undefined) restMessage.model = message.model;
        yield* writer.blocks(restMessage, index, path, false);
      }
      continue;
    }
    const compactions = message.content.filter((block) => block.type === "compaction");
    if (
      compactions.length > 0 &&
      (compactions.length !== message.content.length || message.role !== "user")
    )
      writer.warn("sideSplit", "a compaction marker shares its message with other blocks", path);
    const state = yield* writer.blocks(message, index, path, false);
    sides = state.sides;
    assistant = state.assistant;
    for (const block of compactions) {
      if (block.type !== "compaction") continue;
      if (
        block.trigger !== undefined ||
        block.preTokens !== undefined ||
        (block.history?.length ?? 0) > 0
      )
        writer.warn(
          "compactionFields",
          "compaction fields the rollout cannot hold were dropped",
          path,
        );
      const payload: JsonObject = { message: block.summary };
      if (block.history !== undefined)
        payload.replacement_history = writer.history(block.history, path);
      writer.open = undefined;
      writer.run = undefined;
      yield { kind: "compaction", payload, timestamp: message.timestamp };
    }
    if (sides.size > 1 || (sides.size === 1 && !sides.has(message.role)))
      writer.warn("sideSplit", "the message's blocks went to both sides", path);
    if (sides.size === 0 && compactions.length === 0)
      writer.warn("emptyMessage", "a message with nothing Codex can hold was dropped", path);
    if (message.role === "assistant" && message.usage !== undefined) {
      if (assistant === 0)
        writer.warn("emptyMessage", "usage of a message with no assistant item was dropped", path);
      else {
        if (message.usage.costUsd !== undefined)
          writer.warn("cost", "the recorded cost was dropped", path);
        if (message.usage.reasoningOutputTokens === 0)
          writer.warn(
            "zeroReasoningTokens",
            "a reasoning token count of 0 reads back as none",
            path,
          );
        writer.open = undefined;
        writer.run = undefined;
        const timestamp = writer.assistantTimestamp ?? message.timestamp;
        writer.open = undefined;
        yield { kind: "usage", usage: message.usage, timestamp };
      }
    }
  }
  // A session with no response still records its model, in a turn context at the end.
  if (!writer.sawAssistant && meta.model !== undefined)
    yield { kind: "turn", model: meta.model, timestamp: meta.timestamp };
}
