// Common transcript → Amp thread document, shaped like the local-first CLI's
// own files so the era-matched CLI (0.0.1768018268) reads it and usage tools
// count it: `created` always, messageId and state everywhere they belong,
// `usageLedger.events` derived from assistant usage, txcript's lineage under
// its own top-level key. Not a resume helper: current Amp builds ignore
// local thread files. Every change a write makes is reported (amp-losses.ts).
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  type Meta,
  stringifyJson,
  type Transcript,
  warn,
} from "@txcript/core";
import { ampThreadId } from "./amp-ids.js";
import { ampLoss as losses } from "./amp-losses.js";
import {
  type AmpBlock,
  type AmpLedgerEvent,
  type AmpMessage,
  type AmpState,
  type AmpThread,
  type AmpThreadDocument,
  lineageKey,
} from "./amp-schema.js";
import {
  type AmpToolEra,
  ampSpelling,
  ampToolFromCommon,
  ampToolToCommon,
  defaultAmpToolEra,
} from "./amp-tools.js";
import { fileUriFromPath } from "./amp-uri.js";

export interface AmpWriteOptions extends ConversionOptions {
  /** Spelling of the shell tool (see AmpToolEra). Default `legacy` (defaultAmpToolEra), what the era-matched CLI reads. */
  toolEra?: AmpToolEra;
}

/** A user message that carries only tool results: Amp writes no `sentAt` on it. */
export function isToolResultCarrier(message: Message): boolean {
  return (
    message.role === "user" &&
    message.content.length > 0 &&
    message.content.every((block) => block.type === "tool_result")
  );
}

/** Whether the Amp form of `message` records its own time (else it inherits the previous one). */
export function carriesTimestamp(message: Message): boolean {
  return message.role === "user"
    ? !isToolResultCarrier(message)
    : message.usage !== undefined || message.model !== undefined;
}

/** The JSONPath of block `blockIndex` of message `index`, built only when a loss is reported. */
function blockPath(index: number, blockIndex: number): string {
  return `$.messages[${index}].content[${blockIndex}]`;
}

function writeBlock(
  block: Block,
  index: number,
  blockIndex: number,
  options: AmpWriteOptions | undefined,
): AmpBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking": {
      const thinking: AmpBlock = { type: "thinking", thinking: block.text };
      if (block.signature !== undefined) thinking.signature = block.signature;
      if (block.provider !== undefined) thinking.provider = block.provider;
      if (block.encrypted !== undefined)
        thinking.openAIReasoning = { encryptedContent: block.encrypted };
      return thinking;
    }
    case "tool_use": {
      const tool = block.tool;
      let written: { name: string; input: Json };
      if (tool.name === "Raw") {
        written = ampToolFromCommon(tool, { toolEra: options?.toolEra ?? defaultAmpToolEra });
        // A Raw pair that is an Amp spelling of a typed tool reads back typed.
        if (ampToolToCommon(written.name, written.input).name !== "Raw")
          warn(
            options,
            losses.toolSpelling,
            `a Raw ${written.name} call is an Amp spelling and reads back typed`,
            blockPath(index, blockIndex),
          );
      } else {
        // What ampToolFromCommon does for a typed tool, with the spelling
        // looked up once for both the loss report and the output.
        const spelled = ampSpelling(tool, options?.toolEra);
        if (spelled === undefined)
          warn(
            options,
            losses.toolSpelling,
            `${tool.name} has no exact Amp spelling`,
            blockPath(index, blockIndex),
          );
        written = spelled ?? { name: tool.name, input: tool.input as Json };
      }
      return {
        type: "tool_use",
        complete: true,
        id: block.id,
        name: written.name,
        input: written.input,
      } as AmpBlock;
    }
    case "tool_result": {
      if (!block.isError)
        return {
          type: "tool_result",
          toolUseID: block.toolUseId,
          run: { status: "done", result: block.content },
        };
      let message: string;
      if (typeof block.content === "string") message = block.content;
      else {
        warn(
          options,
          losses.structuredError,
          "a structured error result was written as JSON text",
          blockPath(index, blockIndex),
        );
        message = stringifyJson(block.content, undefined, "amp");
      }
      return {
        type: "tool_result",
        toolUseID: block.toolUseId,
        run: { status: "error", error: { message } },
      };
    }
    case "image":
      return {
        type: "image",
        source: { type: "base64", mediaType: block.source.mediaType, data: block.source.data },
      };
    case "compaction":
      warn(
        options,
        losses.compaction,
        "a compaction marker was written as a prompt with its summary",
        blockPath(index, blockIndex),
      );
      return { type: "text", text: block.summary };
  }
}

function environment(meta: Meta, options: AmpWriteOptions | undefined): Json {
  const { cwd, gitBranch, cliVersion } = meta;
  const initial: Record<string, Json> = {};
  if (cwd !== undefined || gitBranch !== undefined) {
    const tree: Record<string, Json> = {};
    if (cwd !== undefined) {
      if (!(cwd as unknown as { isWellFormed(): boolean }).isWellFormed())
        warn(
          options,
          losses.illFormedText,
          "lone surrogates in the cwd became U+FFFD",
          "$.meta.cwd",
        );
      tree.uri = fileUriFromPath(cwd);
      const name = cwd.split(/[\\/]/).filter(Boolean).pop();
      if (name !== undefined) tree.displayName = name;
    }
    if (gitBranch !== undefined) tree.repository = { type: "git", ref: `refs/heads/${gitBranch}` };
    initial.trees = [tree];
  }
  if (cliVersion !== undefined) initial.platform = { clientVersion: cliVersion };
  return { initial };
}

function messagePath(index: number): string {
  return `$.messages[${index}]`;
}

/** What the thread's keys before `messages` need to know of the messages: read ahead. */
export interface AmpLookahead {
  /** The first assistant turn's model (Meta.model is compared with it). */
  firstModel: string | undefined;
  /** How many messages there are (`nextMessageId`). */
  messages: number;
  /** How many subagents there are (none are written). */
  subagents: number;
}

/** The thread's id, with the write's first warnings (the id, Meta.model, subagents), as the whole write gives them. */
export function startAmpThread(
  meta: Meta,
  ahead: AmpLookahead,
  options: AmpWriteOptions | undefined,
): string {
  const id = ampThreadId(meta.id);
  if (id !== meta.id) warn(options, losses.threadId, `the session id became ${id}`, "$.meta.id");
  if (meta.model !== ahead.firstModel)
    warn(
      options,
      losses.metaModel,
      "Meta.model is not the first assistant turn's model",
      "$.meta.model",
    );
  if (ahead.subagents > 0)
    warn(
      options,
      losses.subagents,
      "subagent conversations were not written",
      "$.subagents",
      ahead.subagents,
    );
  return id;
}

/**
 * The messages of a thread, one at a time, in order (`write(message)` returns its Amp form);
 * the usage ledger's events gather as they go.
 */
export class AmpMessageWriter {
  readonly events: AmpLedgerEvent[] = [];
  #index = 0;
  #lastPrompt = 0;
  #clock: string;
  readonly #options: AmpWriteOptions | undefined;

  constructor(meta: Meta, options: AmpWriteOptions | undefined) {
    this.#clock = meta.timestamp;
    this.#options = options;
  }

  write(message: Message): AmpMessage {
    const options = this.#options;
    const index = this.#index;
    this.#index += 1;
    const blocks = message.content;
    const content: AmpBlock[] = new Array(blocks.length);
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex += 1)
      content[blockIndex] = writeBlock(blocks[blockIndex] as Block, index, blockIndex, options);
    if (message.context !== undefined)
      warn(
        options,
        losses.context,
        `a ${message.context.kind} context message was written as a prompt`,
        messagePath(index),
      );
    if (carriesTimestamp(message)) this.#clock = message.timestamp;
    else if (message.timestamp !== this.#clock)
      warn(
        options,
        losses.inheritedTimestamp,
        "a message's own time has no Amp slot",
        messagePath(index),
      );
    if (message.role === "user") {
      if (
        message.model !== undefined ||
        message.stopReason !== undefined ||
        message.usage !== undefined
      )
        warn(
          options,
          losses.userAttribution,
          "a user message's model/stop reason/usage was dropped",
          messagePath(index),
        );
      // Key order as the CLI writes a prompt: role, messageId, meta, content.
      if (isToolResultCarrier(message)) return { role: "user", messageId: index, content };
      this.#lastPrompt = index;
      return {
        role: "user",
        messageId: index,
        meta: { sentAt: Date.parse(message.timestamp) },
        content,
      };
    }
    let state: AmpState;
    if (message.stopReason === "aborted") state = { type: "cancelled" };
    else {
      if (message.stopReason === undefined)
        warn(
          options,
          losses.statelessAssistant,
          "an assistant turn without a stop reason became end_turn",
          messagePath(index),
        );
      state = { type: "complete", stopReason: message.stopReason ?? "end_turn" };
    }
    const written: AmpMessage = { role: message.role, messageId: index, content, state };
    const usage = message.usage;
    if (usage?.reasoningOutputTokens !== undefined || usage?.costUsd !== undefined)
      warn(
        options,
        losses.usageExtras,
        "reasoning tokens or cost were not written",
        `${messagePath(index)}.usage`,
      );
    if (usage !== undefined) {
      const totalInputTokens =
        usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
      // Key order as the CLI writes it: model (when known) first.
      written.usage =
        message.model === undefined
          ? {
              timestamp: message.timestamp,
              inputTokens: usage.inputTokens,
              outputTokens: usage.outputTokens,
              cacheReadInputTokens: usage.cacheReadInputTokens,
              cacheCreationInputTokens: usage.cacheCreationInputTokens,
              totalInputTokens,
            }
          : {
              model: message.model,
              timestamp: message.timestamp,
              inputTokens: usage.inputTokens,
              outputTokens: usage.outputTokens,
              cacheReadInputTokens: usage.cacheReadInputTokens,
              cacheCreationInputTokens: usage.cacheCreationInputTokens,
              totalInputTokens,
            };
      this.events.push({
        id: `txcript-usage-${index}`,
        timestamp: message.timestamp,
        model: message.model ?? "unknown",
        credits: 0,
        tokens: { input: usage.inputTokens, output: usage.outputTokens },
        operationType: "inference",
        fromMessageId: this.#lastPrompt,
        toMessageId: index,
      });
    } else if (message.model !== undefined)
      written.usage = { model: message.model, timestamp: message.timestamp };
    return written;
  }
}

/**
 * The thread document around its messages, keys in the CLI's order; `env` is written by
 * ampEnvironment (its warning comes after the messages' in the whole write).
 */
export function ampDocument(
  meta: Meta,
  id: string,
  env: Json,
  messages: Json[],
  events: AmpLedgerEvent[],
  nextMessageId: number,
): AmpThreadDocument {
  const document: Record<string, Json> = { v: 1, id, created: Date.parse(meta.timestamp) };
  if (meta.title !== undefined) document.title = meta.title;
  document.agentMode = "smart";
  document.nextMessageId = nextMessageId;
  document.env = env;
  document.messages = messages;
  document.usageLedger = { events: events as unknown as Json[] };
  if (meta.lineage !== undefined) document[lineageKey] = { ...meta.lineage };
  return document as AmpThreadDocument;
}

export { environment as ampEnvironment };

/** The first assistant turn's model, if any. */
export function firstAssistantModel(messages: readonly Message[]): string | undefined {
  return messages.find((message) => message.role === "assistant" && message.model !== undefined)
    ?.model;
}

/** Common transcript → Amp thread (a local-first CLI file: no final newline). */
export function commonToAmp(transcript: Transcript, options?: AmpWriteOptions): AmpThread {
  const { meta } = transcript;
  const id = startAmpThread(
    meta,
    {
      firstModel: firstAssistantModel(transcript.messages),
      messages: transcript.messages.length,
      subagents: transcript.subagents?.length ?? 0,
    },
    options,
  );
  const writer = new AmpMessageWriter(meta, options);
  const source = transcript.messages;
  const messages: AmpMessage[] = new Array(source.length);
  for (let index = 0; index < source.length; index += 1)
    messages[index] = writer.write(source[index] as Message);
  const env = environment(meta, options);
  const document = ampDocument(
    meta,
    id,
    env,
    messages as unknown as Json[],
    writer.events,
    messages.length,
  );
  return { document, finalNewline: false };
}
