// The state and part builders of the OpenCode writer (common-to-opencode.ts
// drives them message by message): ids drawn in order, the calls still
// waiting for a result, and how one Common block becomes one OpenCode part.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  jsonEqual,
  type Loss,
  type Message,
  stringifyJson,
  type Transcript,
  warn,
} from "@txcript/core";
import { OpencodeIds } from "./opencode-ids.js";
import { opencodeLossList as losses } from "./opencode-losses.js";
import type { OpencodeEntry } from "./opencode-schema.js";
import { opencodeSpelling, opencodeToolToCommon } from "./opencode-tools.js";
/** The OpenCode version whose import schema the writer follows. */
export const OPENCODE_SCHEMA_VERSION = "1.18.33";

export interface OpencodeWriteOptions extends ConversionOptions {
  /** providerID for every model (default: guessed from the model name). */
  providerID?: string;
  /** The agent written on every message (default "build"). */
  agent?: string;
}

const stopToFinish: Record<string, string> = {
  end_turn: "stop",
  tool_use: "tool-calls",
  max_tokens: "length",
  refusal: "content-filter",
  error: "error",
};
const finishNames = new Set(["stop", "tool-calls", "length", "content-filter"]);

/** The provider a model name most likely belongs to, for the required providerID. */
export function guessProvider(model: string): string {
  if (/^claude|anthropic/i.test(model)) return "anthropic";
  if (/^(gpt|o\d|codex|chatgpt)/i.test(model)) return "openai";
  if (/^gemini/i.test(model)) return "google";
  return "opencode";
}

export interface PendingCall {
  part: JsonObject;
  /** Index of the Common message holding the call. */
  at: number;
  startMs: number;
}

export interface Written {
  /** Index of the Common message an OpenCode message came from. */
  at: number;
  calls: PendingCall[];
}

export interface Answer {
  call: PendingCall;
  /** The Common message holding the result and its block index. */
  at: number;
  block: number;
}

export class Writer {
  readonly entries: OpencodeEntry[] = [];
  readonly written: Written[] = [];
  readonly answers: Answer[] = [];
  readonly pending = new Map<string, PendingCall>();
  readonly ids: OpencodeIds;
  lastUser: string | undefined;
  lastMs = Number.NEGATIVE_INFINITY;

  constructor(
    readonly transcript: Transcript,
    readonly sessionId: string,
    readonly options: OpencodeWriteOptions | undefined,
  ) {
    this.ids = new OpencodeIds(sessionId);
  }

  warnOnce(loss: Loss, message: string, path: string): void {
    warn(this.options, loss, message, path);
  }

  get agent(): string {
    return this.options?.agent ?? "build";
  }

  provider(model: string): string {
    return this.options?.providerID ?? guessProvider(model);
  }

  /** The model a user message names: the next assistant's, else the session's. */
  userModel(at: number): { providerID: string; modelID: string } {
    const messages = this.transcript.messages;
    let model: string | undefined;
    for (let index = at + 1; index < messages.length && model === undefined; index += 1)
      if (messages[index]?.role === "assistant") model = messages[index]?.model;
    model ??= this.transcript.meta.model ?? "";
    return { providerID: this.provider(model), modelID: model };
  }

  message(
    role: "user" | "assistant",
    ms: number,
    at: number,
    fields: JsonObject,
    parts: JsonObject[],
  ): OpencodeEntry {
    const id = this.ids.next("msg", ms, `${at}:${this.entries.length}`);
    const info: JsonObject = {
      role,
      time: role === "user" ? { created: ms } : { created: ms, completed: ms },
    };
    if (role === "assistant") info.parentID = this.lastUser ?? id;
    Object.assign(info, fields, { id, sessionID: this.sessionId });
    if (role === "user") this.lastUser = id;
    const entry: OpencodeEntry = { info, parts: [] };
    for (const part of parts) this.part(entry, ms, part);
    this.entries.push(entry);
    return entry;
  }

  part(entry: OpencodeEntry, ms: number, part: JsonObject): JsonObject {
    const id = this.ids.next("prt", ms, `${entry.info.id as string}:${entry.parts.length}`);
    Object.assign(part, { id, sessionID: this.sessionId, messageID: entry.info.id as string });
    entry.parts.push(part);
    return part;
  }

  assistantFields(message: Message, path: string): JsonObject {
    const model = message.model ?? "";
    if (message.model === "")
      this.warnOnce(losses.emptyModel, "an empty model name reads back as none", path);
    const cwd = this.transcript.meta.cwd ?? "";
    const fields: JsonObject = {
      modelID: model,
      providerID: this.provider(model),
      mode: this.agent,
      agent: this.agent,
      path: { cwd, root: cwd },
      cost: 0,
      tokens: tokensOf(message, this, path),
    };
    const usage = message.usage;
    if (usage?.costUsd !== undefined) fields.cost = usage.costUsd;
    const stop = message.stopReason;
    if (stop === "aborted")
      fields.error = { name: "MessageAbortedError", data: { message: "Aborted" } };
    else if (stop !== undefined) {
      if (finishNames.has(stop))
        this.warnOnce(
          losses.stopReasonSpelling,
          `the stop reason ${stop} reads back canonical`,
          path,
        );
      fields.finish = Object.hasOwn(stopToFinish, stop) ? (stopToFinish[stop] as string) : stop;
    }
    return fields;
  }
}

export function tokensOf(message: Message, writer: Writer, path: string): JsonObject {
  const usage = message.usage;
  if (usage === undefined)
    return { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
  const reasoning = usage.reasoningOutputTokens ?? 0;
  if (usage.reasoningOutputTokens === 0 || usage.costUsd === 0 || reasoning > usage.outputTokens)
    writer.warnOnce(
      losses.usageSpelling,
      "a zero or inconsistent usage field does not read back as is",
      path,
    );
  return {
    input: usage.inputTokens,
    output: Math.max(0, usage.outputTokens - reasoning),
    reasoning,
    cache: { read: usage.cacheReadInputTokens, write: usage.cacheCreationInputTokens },
  };
}

export function thinkingPart(
  block: Extract<Block, { type: "thinking" }>,
  ms: number,
  writer: Writer,
  path: string,
): JsonObject {
  const part: JsonObject = { type: "reasoning", text: block.text };
  const hasData = block.signature !== undefined || block.encrypted !== undefined;
  if (block.provider !== undefined || hasData) {
    if (block.provider === undefined)
      writer.warnOnce(
        losses.thinkingProvider,
        "reasoning data without a provider is filed under anthropic",
        path,
      );
    const provider = block.provider ?? "anthropic";
    const fields: JsonObject = {};
    if (block.signature !== undefined) fields.signature = block.signature;
    if (block.encrypted !== undefined)
      fields[provider === "openai" ? "reasoningEncryptedContent" : "redactedData"] =
        block.encrypted;
    const metadata: JsonObject = {};
    Object.defineProperty(metadata, provider, {
      value: fields,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    part.metadata = metadata;
  }
  part.time = { start: ms, end: ms };
  return part;
}

export function toolPart(
  block: Extract<Block, { type: "tool_use" }>,
  writer: Writer,
  path: string,
): JsonObject {
  const tool = block.tool;
  let name: string;
  let input: Json;
  const spelled = opencodeSpelling(tool);
  if (spelled !== undefined) ({ name, input } = spelled);
  else if (tool.name === "Raw") {
    name = tool.toolName;
    input = tool.input;
  } else {
    name = tool.name;
    input = tool.input as Json;
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    writer.warnOnce(losses.toolInput, "a tool input that is not an object is wrapped", path);
    input = { value: input };
  }
  if (!jsonEqual(opencodeToolToCommon(name, input), tool))
    writer.warnOnce(losses.toolSpelling, `the tool ${name} reads back in another spelling`, path);
  return {
    type: "tool",
    callID: block.id,
    tool: name,
    state: { status: "pending", input, raw: "" },
  };
}

export function resultText(content: Json, writer: Writer, path: string): string {
  if (typeof content === "string") return content;
  writer.warnOnce(
    losses.structuredResult,
    "structured result content is written as JSON text",
    path,
  );
  return stringifyJson(content);
}

export const zeroTokens = (): JsonObject => ({
  input: 0,
  output: 0,
  reasoning: 0,
  cache: { read: 0, write: 0 },
});

export function fillResult(
  call: PendingCall,
  block: Extract<Block, { type: "tool_result" }>,
  ms: number,
  writer: Writer,
  path: string,
): void {
  const state = call.part.state as JsonObject;
  const input = state.input as Json;
  const text = resultText(block.content, writer, path);
  const time = { start: call.startMs, end: ms };
  call.part.state = block.isError
    ? { status: "error", input, error: text, time }
    : { status: "completed", input, output: text, title: "", metadata: {}, time };
}
