// OpenCode export → Common. A user message's text and image parts become
// blocks; an assistant message (one model step in OpenCode ≥ 1.x) becomes
// one assistant message, and the results held in its tool parts follow it
// as one user message of tool_result blocks, timed by the first result's
// end. A compaction part and the summary message after it become one
// compaction block; a user message of synthetic text parts is context.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  LossTally,
  type Message,
  type Meta,
  ownValue,
  readTimestamp,
  type Subagent,
  type Transcript,
  TxcriptError,
  warn,
} from "@txcript/core";
import { opencodeLossList as losses } from "./opencode-losses.js";
import {
  harness,
  numberField,
  type OpencodeEntry,
  type OpencodeSession,
  objectField,
  stringField,
} from "./opencode-schema.js";
import { opencodeToolToCommon } from "./opencode-tools.js";
import { usageFrom, usageOf } from "./opencode-usage.js";

/** AI SDK finish reasons with a canonical stop reason. */
const finishToStop: Record<string, string> = {
  stop: "end_turn",
  "tool-calls": "tool_use",
  length: "max_tokens",
  "content-filter": "refusal",
  error: "error",
};

const bookkeepingParts = new Set(["step-start", "step-finish"]);

interface Reader {
  options: ConversionOptions | undefined;
  clock: string;
  tally: LossTally;
}

/** Keys of a session's info carried into Meta (time and model: their created and id). */
const sessionKeys = new Set(["id", "title", "directory", "version", "time", "model"]);
/** Keys of a message's info read into Common (providerID: opencode.provider; error: opencode.message-error). */
const messageKeys: Record<string, ReadonlySet<string>> = {
  user: new Set(["role", "time"]),
  assistant: new Set([
    "role",
    "time",
    "modelID",
    "providerID",
    "tokens",
    "cost",
    "finish",
    "error",
    "summary",
  ]),
};
/** Keys of a part read into Common, by part type (tool: the state's are below). */
const partKeys: Record<string, ReadonlySet<string>> = {
  text: new Set(["type", "text"]),
  reasoning: new Set(["type", "text", "metadata"]),
  file: new Set(["type", "mime", "url"]),
  tool: new Set(["type", "callID", "tool", "state"]),
  compaction: new Set(["type", "auto"]),
};
/** Keys of a tool part's state read into Common. */
const stateKeys = new Set(["status", "input", "output", "error", "time"]);
/** The tool-state details OpenCode keeps beside a call and its result (opencode.tool-details). */
const toolDetails = new Set(["title", "metadata", "attachments", "raw"]);

/** Every key of an object outside `carried` (own keys only), each once. */
function dropped(object: JsonObject, carried: ReadonlySet<string>): string[] {
  return Object.keys(object).filter((key) => !carried.has(key));
}

/** The session keys with no Common slot, named (opencode.session-metadata, opencode.provider). */
function sessionBookkeeping(reader: Reader, info: JsonObject, child: boolean): void {
  const tally = reader.tally;
  // A child session read as a subagent: its parentID is where it stands (Transcript.subagents).
  for (const key of dropped(info, child ? new Set([...sessionKeys, "parentID"]) : sessionKeys))
    tally.add(losses.sessionMetadata, `the session's ${key} was not carried`, 1, `$.info.${key}`);
  const time = objectField(info, "time");
  for (const key of time === undefined ? [] : dropped(time, new Set(["created"])))
    tally.add(
      losses.sessionMetadata,
      `the session's time.${key} was not carried`,
      1,
      `$.info.time.${key}`,
    );
  const model = objectField(info, "model");
  for (const key of model === undefined ? [] : dropped(model, new Set(["id"]))) {
    if (key === "providerID")
      tally.add(losses.provider, "a providerID was not carried", 1, "$.info.model.providerID");
    else
      tally.add(
        losses.sessionMetadata,
        `the session's model.${key} was not carried`,
        1,
        `$.info.model.${key}`,
      );
  }
}

/** A user or assistant message's keys with no Common slot, named. */
function messageBookkeeping(reader: Reader, info: JsonObject, role: string, path: string): void {
  const tally = reader.tally;
  for (const key of dropped(info, messageKeys[role] as ReadonlySet<string>))
    tally.add(
      losses.messageBookkeeping,
      `a ${role} message's ${key} was not carried`,
      1,
      `${path}.info.${key}`,
    );
  const time = objectField(info, "time");
  for (const key of time === undefined ? [] : dropped(time, new Set(["created"])))
    tally.add(
      losses.messageBookkeeping,
      `a ${role} message's time.${key} was not carried`,
      1,
      `${path}.info.time.${key}`,
    );
  if (role !== "assistant") return;
  if (Object.hasOwn(info, "providerID"))
    tally.add(losses.provider, "a providerID was not carried", 1, `${path}.info.providerID`);
  if (objectField(info, "error") !== undefined)
    tally.add(
      losses.messageError,
      "an error's name and data were not carried (it reads as the stop reason aborted or error)",
      1,
      `${path}.info.error`,
    );
}

/** What a read part (not an unmodeled one) keeps that Common has no slot for, named. */
function partBookkeeping(
  reader: Reader,
  part: JsonObject,
  type: string,
  where: string,
  context: boolean,
): void {
  const tally = reader.tally;
  const carried = new Set(partKeys[type] ?? ["type"]);
  // A tool part without a callID is known by its part id.
  if (type === "tool" && !stringField(part, "callID")) carried.add("id");
  for (const key of dropped(part, carried)) {
    if (context && type === "text" && key === "synthetic") continue;
    if (type === "tool" && key === "metadata")
      tally.add(
        losses.toolDetails,
        "a tool part's provider metadata was not carried",
        1,
        `${where}.metadata`,
      );
    else
      tally.add(
        losses.partBookkeeping,
        `a ${type} part's ${key} was not carried`,
        1,
        `${where}.${key}`,
      );
  }
  if (type === "reasoning") {
    const metadata = objectField(part, "metadata");
    const extra = metadata === undefined ? 0 : reasoningExtras(metadata);
    for (let index = 0; index < extra; index += 1)
      tally.add(
        losses.partBookkeeping,
        "reasoning metadata beyond a signature or encrypted content was not carried",
        1,
        `${where}.metadata`,
      );
  }
  const state = type === "tool" ? objectField(part, "state") : undefined;
  if (state === undefined) return;
  for (const key of dropped(state, stateKeys))
    tally.add(
      toolDetails.has(key) ? losses.toolDetails : losses.partBookkeeping,
      `a tool's ${key} was not carried`,
      1,
      `${where}.state.${key}`,
    );
  const time = objectField(state, "time");
  for (const key of time === undefined ? [] : dropped(time, new Set(["end"])))
    tally.add(
      losses.toolDetails,
      `a tool's time.${key} was not carried`,
      1,
      `${where}.state.time.${key}`,
    );
}

/**
 * How many fields of a reasoning part's metadata the thinking block does not
 * take: every key of providers after the first, and in the first each key but
 * signature, reasoningEncryptedContent and redactedData (a provider that is not
 * an object: one).
 */
function reasoningExtras(metadata: JsonObject): number {
  let extras = 0;
  Object.keys(metadata).forEach((provider, index) => {
    const fields = objectField(metadata, provider);
    if (index > 0 || fields === undefined) {
      extras += 1;
      return;
    }
    extras += dropped(
      fields,
      new Set(["signature", "reasoningEncryptedContent", "redactedData"]),
    ).length;
  });
  return extras;
}

function timeOf(reader: Reader, value: Json | undefined, path: string): string {
  const timestamp = readTimestamp(value);
  if (timestamp === undefined) {
    warn(reader.options, losses.invalidTime, "a message or tool time is not valid epoch ms", path);
    return reader.clock;
  }
  reader.clock = timestamp;
  return timestamp;
}

/**
 * An assistant message's parts, one list per model step. OpenCode ≥ 1.x
 * writes one step per message; earlier versions put every step of a turn
 * in one message, each opened by a step-start part.
 */
function stepsOf(parts: readonly JsonObject[]): JsonObject[][] {
  const starts = parts.filter((part) => ownValue(part, "type") === "step-start").length;
  if (starts < 2) return [[...parts]];
  const steps: JsonObject[][] = [];
  let current: JsonObject[] = [];
  for (const part of parts) {
    if (ownValue(part, "type") === "step-start" && current.length > 0) {
      steps.push(current);
      current = [];
    }
    current.push(part);
  }
  steps.push(current);
  return steps;
}

function stopReasonOf(info: JsonObject): string | undefined {
  const error = objectField(info, "error");
  if (error !== undefined)
    return stringField(error, "name") === "MessageAbortedError" ? "aborted" : "error";
  const finish = stringField(info, "finish");
  if (finish === undefined || finish === "") return undefined;
  return Object.hasOwn(finishToStop, finish) ? finishToStop[finish] : finish;
}

function stepReasonOf(finish: JsonObject | undefined): string | undefined {
  const reason = finish === undefined ? undefined : stringField(finish, "reason");
  if (!reason) return undefined;
  return Object.hasOwn(finishToStop, reason) ? finishToStop[reason] : reason;
}

function thinkingOf(part: JsonObject, text: string): Block {
  const block: Block = { type: "thinking", text };
  const metadata = objectField(part, "metadata");
  if (metadata === undefined) return block;
  const [provider] = Object.keys(metadata);
  const fields = provider === undefined ? undefined : objectField(metadata, provider);
  if (provider === undefined || fields === undefined) return block;
  const signature = stringField(fields, "signature");
  const encrypted =
    stringField(fields, "reasoningEncryptedContent") ?? stringField(fields, "redactedData");
  if (signature !== undefined) block.signature = signature;
  if (encrypted !== undefined) block.encrypted = encrypted;
  block.provider = provider;
  return block;
}

/** A base64 image from a file part whose url is `data:<mime>;base64,…`, else undefined. */
function imageOf(part: JsonObject): Block | undefined {
  const mime = stringField(part, "mime");
  const url = stringField(part, "url");
  if (mime === undefined || url === undefined || !mime.startsWith("image/")) return undefined;
  const prefix = `data:${mime};base64,`;
  if (!url.startsWith(prefix)) return undefined;
  return {
    type: "image",
    source: { type: "base64", mediaType: mime, data: url.slice(prefix.length) },
  };
}

interface Converted {
  content: Block[];
  results: { block: Block; end: Json | undefined }[];
}

/** How a part list is read: a step of a message of several (whose step-finish gives usage), in a context message. */
interface PartsRead {
  path: string;
  stepped: boolean;
  last: boolean;
  context: boolean;
}

/** A step part's keys with no Common slot: all but its type, and a step's usage and (but the last's) reason when it is one of several. */
function stepBookkeeping(
  reader: Reader,
  part: JsonObject,
  type: string,
  where: string,
  read: PartsRead,
): void {
  const carried = new Set(["type"]);
  if (type === "step-finish" && read.stepped) {
    carried.add("tokens");
    carried.add("cost");
    if (!read.last) carried.add("reason");
  }
  for (const key of dropped(part, carried))
    reader.tally.add(
      losses.partBookkeeping,
      `a ${type} part's ${key} was not carried`,
      1,
      `${where}.${key}`,
    );
}

function convertParts(reader: Reader, parts: readonly JsonObject[], read: PartsRead): Converted {
  const { path } = read;
  const content: Block[] = [];
  const results: Converted["results"] = [];
  parts.forEach((part, index) => {
    const type = ownValue(part, "type");
    const where = `${path}.parts[${index}]`;
    const unmodeled = () =>
      warn(
        reader.options,
        losses.unmodeledPart,
        `a ${String(type)} part has no Common block`,
        where,
      );
    if (typeof type === "string" && bookkeepingParts.has(type)) {
      stepBookkeeping(reader, part, type, where, read);
      return;
    }
    if (type === "text" || type === "reasoning") {
      const text = stringField(part, "text");
      if (text === undefined) {
        unmodeled();
        return;
      }
      content.push(type === "text" ? { type: "text", text } : thinkingOf(part, text));
      partBookkeeping(reader, part, type, where, read.context);
      return;
    }
    if (type === "file") {
      const image = imageOf(part);
      if (image === undefined) {
        unmodeled();
        return;
      }
      content.push(image);
      partBookkeeping(reader, part, type, where, read.context);
      return;
    }
    if (type === "tool") {
      const state = objectField(part, "state");
      const id = stringField(part, "callID") || stringField(part, "id");
      const name = stringField(part, "tool");
      if (state === undefined || !id || name === undefined) {
        unmodeled();
        return;
      }
      const input = ownValue(state, "input") ?? {};
      content.push({ type: "tool_use", id, tool: opencodeToolToCommon(name, input) });
      partBookkeeping(reader, part, type, where, read.context);
      const status = ownValue(state, "status");
      const time = objectField(state, "time");
      const end = time === undefined ? undefined : ownValue(time, "end");
      if (status === "completed")
        results.push({
          block: {
            type: "tool_result",
            toolUseId: id,
            content: ownValue(state, "output") ?? "",
            isError: false,
          },
          end,
        });
      else if (status === "error")
        results.push({
          block: {
            type: "tool_result",
            toolUseId: id,
            content: ownValue(state, "error") ?? "",
            isError: true,
          },
          end,
        });
      else
        warn(
          reader.options,
          losses.toolStatus,
          `a ${String(status)} tool call has no result`,
          where,
        );
      return;
    }
    unmodeled();
  });
  return { content, results };
}

function isContext(entry: OpencodeEntry): boolean {
  return (
    entry.parts.length > 0 &&
    entry.parts.every(
      (part) => ownValue(part, "type") === "text" && ownValue(part, "synthetic") === true,
    )
  );
}

function summaryOf(entry: OpencodeEntry | undefined): string | undefined {
  if (entry === undefined) return undefined;
  if (ownValue(entry.info, "role") !== "assistant" || ownValue(entry.info, "summary") !== true)
    return undefined;
  return entry.parts
    .flatMap((part) => (ownValue(part, "type") === "text" ? [stringField(part, "text") ?? ""] : []))
    .join("");
}

function metaOf(info: JsonObject, reader: Reader): Meta {
  const id = stringField(info, "id");
  if (!id)
    throw new TxcriptError("INVALID_DOCUMENT", "the session has no id", {
      harness,
      location: { path: "$.info.id" },
      hint: 'expected "info": {"id": "ses_…", …}',
    });
  const time = objectField(info, "time");
  const meta: Meta = {
    id,
    timestamp: timeOf(reader, time && ownValue(time, "created"), "$.info.time.created"),
  };
  const directory = stringField(info, "directory");
  if (directory !== undefined) meta.cwd = directory;
  const title = stringField(info, "title");
  if (title !== undefined) meta.title = title;
  const version = stringField(info, "version");
  if (version !== undefined) meta.cliVersion = version;
  const model = objectField(info, "model");
  const modelId = model === undefined ? undefined : stringField(model, "id");
  if (modelId) meta.model = modelId;
  return meta;
}

/**
 * The reading of an OpenCode session, one message entry at a time (`readEntry`, given the entry
 * after it, which a compaction's summary message is): opencodeToCommon over a document held
 * whole, and the streaming reader over entries as they are read.
 */
export class OpencodeEntryReader {
  readonly messages: Message[] = [];
  readonly meta: Meta;
  readonly #reader: Reader;

  constructor(info: JsonObject, options: ConversionOptions | undefined, asSubagent: boolean) {
    const reader: Reader = { options, clock: new Date(0).toISOString(), tally: new LossTally() };
    this.meta = metaOf(info, reader);
    sessionBookkeeping(reader, info, asSubagent);
    reader.clock = this.meta.timestamp;
    this.#reader = reader;
  }

  /** Read entry `index` into `messages`; true when it took `next` too (a compaction's summary). */
  readEntry(entry: OpencodeEntry, index: number, next: OpencodeEntry | undefined): boolean {
    const reader = this.#reader;
    const options = reader.options;
    const messages = this.messages;
    const path = `$.messages[${index}]`;
    const info = entry.info;
    const role = ownValue(info, "role");
    const time = objectField(info, "time");
    if (role !== "user" && role !== "assistant") {
      warn(options, losses.unmodeledRole, `a ${String(role)} message has no Common role`, path);
      return false;
    }
    const timestamp = timeOf(
      reader,
      time && ownValue(time, "created"),
      `${path}.info.time.created`,
    );
    messageBookkeeping(reader, info, role, path);
    const compaction = entry.parts.find((part) => ownValue(part, "type") === "compaction");
    if (role === "user" && compaction !== undefined) {
      const summary = summaryOf(next);
      const where = `${path}.parts[${entry.parts.indexOf(compaction)}]`;
      partBookkeeping(reader, compaction, "compaction", where, false);
      entry.parts.forEach((part, at) => {
        if (part !== compaction)
          warn(
            options,
            losses.unmodeledPart,
            `a ${String(ownValue(part, "type"))} part beside a compaction has no Common block`,
            `${path}.parts[${at}]`,
          );
      });
      if (summary !== undefined) {
        warn(
          options,
          losses.summaryMessage,
          "a summary message became a compaction summary",
          `$.messages[${index + 1}]`,
        );
      }
      const trigger = ownValue(compaction, "auto") === true ? "auto" : "manual";
      messages.push({
        role: "user",
        content: [{ type: "compaction", summary: summary ?? "", trigger }],
        timestamp,
      });
      return summary !== undefined;
    }
    const steps = role === "assistant" ? stepsOf(entry.parts) : [entry.parts];
    const context = role === "user" && isContext(entry);
    steps.forEach((parts, step) => {
      const { content, results } = convertParts(reader, parts, {
        path,
        stepped: steps.length > 1,
        last: step === steps.length - 1,
        context,
      });
      const message: Message = { role, content, timestamp };
      if (role === "assistant") {
        const model = stringField(info, "modelID");
        if (model) message.model = model;
        const last = step === steps.length - 1;
        const finish = parts.find((part) => ownValue(part, "type") === "step-finish");
        const stopReason = last ? stopReasonOf(info) : stepReasonOf(finish);
        if (stopReason !== undefined) message.stopReason = stopReason;
        const usage =
          steps.length === 1
            ? usageOf(reader, info, parts, path)
            : finish === undefined
              ? undefined
              : usageFrom(
                  reader,
                  objectField(finish, "tokens"),
                  numberField(finish, "cost") ?? 0,
                  true,
                  `${path}.parts[${entry.parts.indexOf(finish)}].tokens`,
                );
        if (usage !== undefined) message.usage = usage;
      } else if (context) message.context = { kind: "injected" };
      messages.push(message);
      if (results.length > 0) {
        const first = results[0] as Converted["results"][number];
        const resultTime =
          first.end === undefined ? timestamp : timeOf(reader, first.end, `${path}.parts`);
        messages.push({
          role: "user",
          content: results.map((result) => result.block),
          timestamp: resultTime,
        });
      }
    });

    return false;
  }

  /** The tally's warnings, once every entry was read. */
  finish(): void {
    this.#reader.tally.flush(this.#reader.options);
  }
}

/** The Common transcript of one OpenCode session. */
export function opencodeToCommon(
  session: OpencodeSession,
  options?: ConversionOptions,
  asSubagent = false,
): Transcript {
  const read = new OpencodeEntryReader(session.document.info, options, asSubagent);
  const entries = session.document.messages;
  for (let index = 0; index < entries.length; index += 1)
    if (read.readEntry(entries[index] as OpencodeEntry, index, entries[index + 1])) index += 1;
  read.finish();
  const { meta, messages } = read;
  if (session.children !== undefined && session.children.length > 0)
    return { meta, messages, subagents: subagentsOf(session, options) };
  return { meta, messages };
}

/** The task tool call that spawned a child session (its state.metadata.sessionId), if recorded. */
function spawningCall(
  session: OpencodeSession,
  childId: string,
): { id: string; agentType?: string } | undefined {
  for (const entry of session.document.messages)
    for (const part of entry.parts) {
      if (ownValue(part, "type") !== "tool") continue;
      const state = objectField(part, "state");
      const metadata = state === undefined ? undefined : objectField(state, "metadata");
      if (metadata === undefined || stringField(metadata, "sessionId") !== childId) continue;
      const id = stringField(part, "callID");
      if (!id) return undefined;
      const input = state === undefined ? undefined : objectField(state, "input");
      const agentType = input === undefined ? undefined : stringField(input, "subagent_type");
      return agentType ? { id, agentType } : { id };
    }
  return undefined;
}

/** Child sessions (loaded by a store) as Common subagents, linked to their task calls. */
function subagentsOf(session: OpencodeSession, options?: ConversionOptions): Subagent[] {
  return (session.children ?? []).map((child) => {
    const transcript = opencodeToCommon(child, options, true);
    const subagent: Subagent = { id: transcript.meta.id, messages: transcript.messages };
    const call = spawningCall(session, transcript.meta.id);
    if (call !== undefined) {
      subagent.toolUseId = call.id;
      if (call.agentType !== undefined) subagent.agentType = call.agentType;
    }
    if (transcript.meta.title !== undefined) subagent.title = transcript.meta.title;
    if (transcript.meta.model !== undefined) subagent.model = transcript.meta.model;
    if (transcript.subagents !== undefined) subagent.subagents = transcript.subagents;
    return subagent;
  });
}
