// Common transcript → Amp thread document, shaped like the local-first CLI's
// own files so the era-matched CLI (0.0.1768018268) reads it and usage tools
// count it: `created` always, messageId and state everywhere they belong,
// `usageLedger.events` derived from assistant usage. Not a resume helper:
// current Amp builds ignore local thread files.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  stringifyJson,
  type Transcript,
  warn,
} from "@txcript/core";
import { ampThreadId } from "./amp-ids.js";
import { ampLossList as losses } from "./amp-losses.js";
import type {
  AmpBlock,
  AmpLedgerEvent,
  AmpMessage,
  AmpThread,
  AmpThreadDocument,
} from "./amp-schema.js";
import { type AmpToolEra, ampSpelling, ampToolFromCommon } from "./amp-tools.js";
import { fileUriFromPath } from "./amp-uri.js";

export interface AmpWriteOptions extends ConversionOptions {
  /** Spelling of the shell tool (see AmpToolEra). Default `legacy`, what the era-matched CLI reads. */
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

function writeBlock(block: Block, path: string, options: AmpWriteOptions | undefined): AmpBlock {
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
      if (block.tool.name !== "Raw" && ampSpelling(block.tool, options?.toolEra) === undefined)
        warn(options, losses.toolSpelling, `${block.tool.name} has no exact Amp spelling`, path);
      const { name, input } = ampToolFromCommon(
        block.tool,
        options?.toolEra === undefined ? {} : { era: options.toolEra },
      );
      return { type: "tool_use", complete: true, id: block.id, name, input } as AmpBlock;
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
          path,
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
  }
}

function environment(transcript: Transcript, options: AmpWriteOptions | undefined): Json {
  const { cwd, gitBranch, cliVersion } = transcript.meta;
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

/** Common transcript → Amp thread (a local-first CLI file: no final newline). */
export function commonToAmp(transcript: Transcript, options?: AmpWriteOptions): AmpThread {
  const { meta } = transcript;
  const id = ampThreadId(meta.id);
  if (id !== meta.id) warn(options, losses.threadId, `the session id became ${id}`, "$.meta.id");
  const firstModel = transcript.messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (meta.model !== undefined && meta.model !== firstModel)
    warn(
      options,
      losses.metaModel,
      "Meta.model is not the first assistant turn's model",
      "$.meta.model",
    );

  const messages: AmpMessage[] = [];
  const events: AmpLedgerEvent[] = [];
  let lastPrompt = 0;
  let clock = meta.timestamp;
  transcript.messages.forEach((message, index) => {
    const path = `$.messages[${index}]`;
    const content = message.content.map((block, blockIndex) =>
      writeBlock(block, `${path}.content[${blockIndex}]`, options),
    );
    if (carriesTimestamp(message)) clock = message.timestamp;
    else if (message.timestamp !== clock)
      warn(options, losses.inheritedTimestamp, "a message's own time has no Amp slot", path);
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
          path,
        );
      const written: AmpMessage = { role: "user", messageId: index, content };
      if (!isToolResultCarrier(message)) {
        written.meta = { sentAt: Date.parse(message.timestamp) };
        lastPrompt = index;
      }
      messages.push(reorder(written, ["role", "messageId", "meta", "content"]));
      return;
    }
    const written: AmpMessage = { role: message.role, messageId: index, content };
    if (message.stopReason === "aborted") written.state = { type: "cancelled" };
    else {
      if (message.stopReason === undefined)
        warn(
          options,
          losses.statelessAssistant,
          "an assistant turn without a stop reason became end_turn",
          path,
        );
      written.state = { type: "complete", stopReason: message.stopReason ?? "end_turn" };
    }
    if (message.usage !== undefined || message.model !== undefined) {
      written.usage = {};
      if (message.model !== undefined) written.usage.model = message.model;
      written.usage.timestamp = message.timestamp;
      if (message.usage !== undefined) {
        const usage = message.usage;
        Object.assign(written.usage, {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          cacheReadInputTokens: usage.cacheReadInputTokens,
          cacheCreationInputTokens: usage.cacheCreationInputTokens,
          totalInputTokens:
            usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
        });
        events.push({
          id: `txcript-usage-${index}`,
          timestamp: message.timestamp,
          model: message.model ?? "unknown",
          credits: 0,
          tokens: { input: usage.inputTokens, output: usage.outputTokens },
          operationType: "inference",
          fromMessageId: lastPrompt,
          toMessageId: index,
        });
      }
    }
    messages.push(written);
  });

  const document: Record<string, Json> = { v: 1, id, created: Date.parse(meta.timestamp) };
  if (meta.title !== undefined) document.title = meta.title;
  document.agentMode = "smart";
  document.nextMessageId = messages.length;
  document.env = environment(transcript, options);
  document.messages = messages as unknown as Json[];
  document.usageLedger = { events: events as unknown as Json[] };
  return { document: document as AmpThreadDocument, finalNewline: false };
}

function reorder<T extends object>(object: T, keys: (keyof T)[]): T {
  const result = {} as T;
  for (const key of keys) if (object[key] !== undefined) result[key] = object[key];
  return result;
}
