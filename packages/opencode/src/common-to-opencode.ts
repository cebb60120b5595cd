// Common → OpenCode export document, in the shape `opencode import` decodes
// (ids, required fields and their order as OpenCode 1.18.33 prints them).
// A tool result is folded into its call's tool part; a compaction becomes a
// compaction part and the summary message after it; a context message
// becomes synthetic text parts. Every change to the transcript is a warning.
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
import { OpencodeIds, opencodeSessionId } from "./opencode-ids.js";
import { opencodeLossList as losses } from "./opencode-losses.js";
import type { OpencodeEntry, OpencodeSession } from "./opencode-schema.js";
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

interface PendingCall {
  part: JsonObject;
  /** Index of the Common message holding the call. */
  at: number;
  startMs: number;
}

interface Written {
  /** Index of the Common message an OpenCode message came from. */
  at: number;
  calls: PendingCall[];
}

interface Answer {
  call: PendingCall;
  /** The Common message holding the result and its block index. */
  at: number;
  block: number;
}

class Writer {
  readonly entries: OpencodeEntry[] = [];
  readonly written: Written[] = [];
  readonly answers: Answer[] = [];
  readonly pending = new Map<string, PendingCall>();
  readonly ids: OpencodeIds;
  lastUser: string | undefined;
  lastMs = Number.NEGATIVE_INFINITY;
  #warned = new Set<string>();

  constructor(
    readonly transcript: Transcript,
    readonly sessionId: string,
    readonly options: OpencodeWriteOptions | undefined,
  ) {
    this.ids = new OpencodeIds(sessionId);
  }

  warnOnce(loss: Loss, message: string, path: string): void {
    warn(this.options, loss, message, path);
    this.#warned.add(loss.code);
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

function tokensOf(message: Message, writer: Writer, path: string): JsonObject {
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

function thinkingPart(
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

function toolPart(
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

function resultText(content: Json, writer: Writer, path: string): string {
  if (typeof content === "string") return content;
  writer.warnOnce(
    losses.structuredResult,
    "structured result content is written as JSON text",
    path,
  );
  return stringifyJson(content);
}

const zeroTokens = (): JsonObject => ({
  input: 0,
  output: 0,
  reasoning: 0,
  cache: { read: 0, write: 0 },
});

function fillResult(
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

function writeCompaction(
  writer: Writer,
  block: Extract<Block, { type: "compaction" }>,
  ms: number,
  at: number,
  path: string,
): void {
  const trigger = block.trigger;
  if (
    (trigger !== "auto" && trigger !== "manual") ||
    block.preTokens !== undefined ||
    block.history !== undefined
  )
    writer.warnOnce(
      losses.compactionDetails,
      "a compaction keeps only its summary and trigger",
      path,
    );
  const model = writer.userModel(at);
  writer.message("user", ms, at, { agent: writer.agent, model }, [
    { type: "compaction", auto: trigger === "auto" },
  ]);
  const cwd = writer.transcript.meta.cwd ?? "";
  writer.message(
    "assistant",
    ms,
    at,
    {
      modelID: model.modelID,
      providerID: model.providerID,
      mode: "compaction",
      agent: "compaction",
      summary: true,
      path: { cwd, root: cwd },
      cost: 0,
      tokens: zeroTokens(),
      finish: "stop",
    },
    [{ type: "text", text: block.summary }],
  );
}

function checkContext(message: Message, writer: Writer, path: string): boolean {
  if (message.context === undefined) return false;
  const contextual =
    message.role === "user" &&
    message.content.length > 0 &&
    message.content.every((block) => block.type === "text");
  if (!contextual) writer.warnOnce(losses.contextShape, "a context mark is dropped", path);
  else if (message.context.kind !== "injected" || message.context.source !== undefined)
    writer.warnOnce(losses.contextKind, "a context message reads back as injected", path);
  return contextual;
}

function writeMessage(writer: Writer, message: Message, at: number): void {
  const path = `$.messages[${at}]`;
  const ms = Date.parse(message.timestamp);
  if (ms < writer.lastMs)
    writer.warnOnce(losses.timeOrder, "a message is earlier than the one before it", path);
  writer.lastMs = Math.max(writer.lastMs, ms);
  const { role, content } = message;
  if (
    role === "user" &&
    (message.model !== undefined || message.stopReason !== undefined || message.usage !== undefined)
  )
    writer.warnOnce(losses.userAttribution, "model fields on a user message are dropped", path);
  const synthetic = checkContext(message, writer, path);
  const marker = role === "user" && content.length === 1 && content[0]?.type === "compaction";
  if (!marker && content.some((block) => block.type === "compaction"))
    writer.warnOnce(
      losses.compactionPlacement,
      "a compaction block is split from its message",
      path,
    );
  const fields = (): JsonObject =>
    role === "user"
      ? { agent: writer.agent, model: writer.userModel(at) }
      : writer.assistantFields(message, path);
  let parts: JsonObject[] = [];
  let calls: PendingCall[] = [];
  const flush = (force: boolean) => {
    if (parts.length === 0 && !force) return;
    const own = fields();
    const body = role === "assistant" ? [{ type: "step-start" }, ...parts] : parts;
    if (role === "assistant" && message.usage !== undefined)
      body.push({
        type: "step-finish",
        reason: (own.finish as string | undefined) ?? "unknown",
        cost: own.cost as number,
        tokens: own.tokens as JsonObject,
      });
    writer.message(role, ms, at, own, body);
    writer.written.push({ at, calls });
    parts = [];
    calls = [];
  };
  content.forEach((block, index) => {
    const where = `${path}.content[${index}]`;
    switch (block.type) {
      case "text":
        parts.push(
          synthetic
            ? { type: "text", text: block.text, synthetic: true }
            : { type: "text", text: block.text },
        );
        return;
      case "thinking":
        parts.push(thinkingPart(block, ms, writer, where));
        return;
      case "image":
        if (!block.source.mediaType.startsWith("image/"))
          writer.warnOnce(
            losses.imageType,
            "an image that is not image/* reads back as a file",
            where,
          );
        parts.push({
          type: "file",
          mime: block.source.mediaType,
          url: `data:${block.source.mediaType};base64,${block.source.data}`,
        });
        return;
      case "tool_use": {
        const part = toolPart(block, writer, where);
        parts.push(part);
        const call = { part, at, startMs: ms };
        calls.push(call);
        writer.pending.set(block.id, call);
        return;
      }
      case "tool_result": {
        const call = writer.pending.get(block.toolUseId);
        if (call === undefined) {
          writer.warnOnce(
            losses.orphanResult,
            "a result without its call is written as text",
            where,
          );
          parts.push({ type: "text", text: resultText(block.content, writer, where) });
          return;
        }
        writer.pending.delete(block.toolUseId);
        fillResult(call, block, ms, writer, where);
        writer.answers.push({ call, at, block: index });
        return;
      }
      case "compaction":
        flush(false);
        writeCompaction(writer, block, ms, at, where);
        return;
    }
  });
  flush(content.length === 0);
}

/** Whether every answered call's results read back exactly where they are. */
function checkPlacement(writer: Writer): void {
  const byCall = new Map(writer.answers.map((answer) => [answer.call, answer]));
  const messages = writer.transcript.messages;
  for (const written of writer.written) {
    const answers = written.calls.flatMap((call) => {
      const answer = byCall.get(call);
      return answer === undefined ? [] : [answer];
    });
    if (answers.length === 0) continue;
    const next = messages[written.at + 1];
    const exact =
      next !== undefined &&
      next.role === "user" &&
      next.context === undefined &&
      next.content.length === answers.length &&
      answers.every((answer, index) => answer.at === written.at + 1 && answer.block === index);
    if (!exact)
      writer.warnOnce(
        losses.resultPlacement,
        "tool results move next to their calls",
        `$.messages[${written.at}]`,
      );
  }
}

function checkDuplicateIds(writer: Writer): void {
  const seen = new Set<string>();
  writer.transcript.messages.forEach((message, at) => {
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      if (seen.has(block.id))
        writer.warnOnce(losses.duplicateCallId, "two calls share an id", `$.messages[${at}]`);
      seen.add(block.id);
    }
  });
}

/** A Common transcript as the export document `opencode import` takes. */
export function commonToOpencode(
  transcript: Transcript,
  options?: OpencodeWriteOptions,
): OpencodeSession {
  const { meta } = transcript;
  const createdMs = Date.parse(meta.timestamp);
  const sessionId = opencodeSessionId(meta.id, createdMs);
  if (sessionId !== meta.id)
    warn(options, losses.sessionId, "the session id is not in OpenCode's form", "$.meta.id");
  if (meta.gitBranch !== undefined)
    warn(options, losses.gitBranch, "the git branch is dropped", "$.meta.gitBranch");
  if (meta.lineage !== undefined)
    warn(options, losses.lineage, "the lineage is dropped", "$.meta.lineage");
  if ((transcript.subagents?.length ?? 0) > 0)
    warn(
      options,
      losses.subagents,
      "subagents are not written",
      "$.subagents",
      transcript.subagents?.length,
    );
  if (meta.title === undefined)
    warn(options, losses.defaultTitle, "the session gets a default title", "$.meta.title");
  if (meta.cliVersion === undefined)
    warn(options, losses.defaultVersion, "the session gets a default version", "$.meta.cliVersion");
  if (meta.model === "")
    warn(options, losses.emptyModel, "an empty model name reads back as none", "$.meta.model");
  const writer = new Writer(transcript, sessionId, options);
  checkDuplicateIds(writer);
  transcript.messages.forEach((message, at) => writeMessage(writer, message, at));
  checkPlacement(writer);
  const info: JsonObject = { id: sessionId, slug: `txcript-${sessionId.slice(-6).toLowerCase()}` };
  if (meta.cwd !== undefined) info.directory = meta.cwd;
  info.title = meta.title ?? `New session - ${meta.timestamp}`;
  if (meta.model) info.model = { id: meta.model, providerID: writer.provider(meta.model) };
  info.version = meta.cliVersion ?? OPENCODE_SCHEMA_VERSION;
  info.time = { created: createdMs, updated: Math.max(createdMs, writer.lastMs) };
  return { document: { info, messages: writer.entries }, finalNewline: true };
}
