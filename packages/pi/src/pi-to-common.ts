// pi session → Common transcript. Walks the path pi-tree picks, in order:
// messages map role by role (consecutive tool results become one user
// message), compactions become the Common compaction block, extension and
// branch-summary messages injected context, and the title is the latest
// session_info name. Never throws on a parsed session.
import {
  type Block,
  type CompactionBlock,
  type ConversionOptions,
  type JsonObject,
  type Lineage,
  type Message,
  type MessageContext,
  type Meta,
  ownValue,
  type Transcript,
  warn,
} from "@txcript/core";
import {
  bashExecutionText,
  epoch,
  isoTimestamp,
  readAssistantBlock,
  readResultContent,
  readStopReason,
  readUsage,
  readUserContent,
} from "./pi-content.js";
import { piLoss } from "./pi-losses.js";
import { readLineage, readTitle, recordedContext } from "./pi-read-meta.js";
import { countAt, objectAt, type PiSession, stringAt } from "./pi-schema.js";
import { selectPath } from "./pi-tree.js";

export interface PiReadOptions extends ConversionOptions {}

/** customType of the custom entry txcript writes a session's lineage into. */
export const lineageType = "txcript.lineage";

const headerExtras = ["parentSession", "provider", "modelId", "thinkingLevel", "branchedFrom"];

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * The messages read so far, as the reader sees them: how many, the last one
 * pushed growing while tool results come, and those from `start` on (a
 * compaction copies them). An array for the whole read; the streaming reader
 * (pi-stream.ts) keeps only those not yet handed out or still to be copied.
 */
export interface MessageLog {
  readonly length: number;
  push(message: Message): unknown;
  slice(start: number): Message[];
}

/** The reader's state as it walks the path, entry by entry (readPathEntry). */
export interface Reader {
  readonly options: ConversionOptions | undefined;
  readonly version: number;
  readonly messages: MessageLog;
  /** The message the last entry's tool result went into, while results keep coming. */
  results: Message | undefined;
  clock: string;
  firstModel: string | undefined;
  /** Whether a model_change entry was on the path (its model, even none, is the session's). */
  modelChanged: boolean;
  lineage: Lineage | undefined;
  /**
   * Where the messages kept by a compaction (firstKeptEntryId, else
   * firstKeptEntryIndex) start: the first message its kept entry read into,
   * if that entry is on the path and was read before it.
   */
  readonly keptStart: (compaction: JsonObject) => number | undefined;
}

/** A reader at the start of a path. */
export function newReader(
  options: ConversionOptions | undefined,
  version: number,
  header: JsonObject | undefined,
  messages: MessageLog,
  keptStart: Reader["keptStart"],
): Reader {
  const headerTime = header === undefined ? undefined : isoTimestamp(ownValue(header, "timestamp"));
  return {
    options,
    version,
    messages,
    results: undefined,
    clock: headerTime ?? epoch,
    firstModel: undefined,
    modelChanged: false,
    lineage: undefined,
    keptStart,
  };
}

function push(reader: Reader, message: Message): void {
  reader.messages.push(message);
  reader.results = undefined;
}

/** An extension message (custom_message entry, custom or v2 hookMessage role) as injected context. */
function readExtensionMessage(reader: Reader, value: JsonObject, timestamp: string): void {
  const details = objectAt(value, "details");
  const recorded = recordedContext(details);
  if (recorded === undefined && ownValue(value, "details") !== undefined)
    warn(reader.options, piLoss.extensionMessageFields, "dropped an extension message's details");
  const customType = nonEmpty(stringAt(value, "customType"));
  const context: MessageContext = recorded ?? {
    kind: "injected",
    ...(customType === undefined ? {} : { source: customType }),
  };
  push(reader, {
    role: "user",
    content: readUserContent(ownValue(value, "content"), reader.options),
    timestamp,
    context,
  });
}

function compactionMessage(
  summary: string,
  tokens: number | undefined,
  timestamp: string,
  hook: boolean,
): Message {
  const block: Block = {
    type: "compaction",
    summary,
    ...(hook ? { trigger: "extension" } : {}),
    ...(tokens === undefined ? {} : { preTokens: tokens }),
  };
  return { role: "user", content: [block], timestamp };
}

function readMessage(reader: Reader, message: JsonObject, entryTimestamp: string): void {
  const { options } = reader;
  const timestamp = isoTimestamp(ownValue(message, "timestamp")) ?? entryTimestamp;
  const role = stringAt(message, "role");
  switch (role) {
    case "user":
      push(reader, {
        role: "user",
        content: readUserContent(ownValue(message, "content"), options),
        timestamp,
      });
      return;
    case "assistant": {
      const provider = nonEmpty(stringAt(message, "provider"));
      if (
        provider !== undefined ||
        nonEmpty(stringAt(message, "api")) !== undefined ||
        ownValue(message, "responseId") !== undefined
      )
        warn(
          options,
          piLoss.messageProvider,
          "the provider, api and response id of an assistant message",
        );
      if (ownValue(message, "errorMessage") !== undefined)
        warn(options, piLoss.errorMessage, "dropped the error message of a failed turn");
      const content: Block[] = [];
      const blocks = ownValue(message, "content");
      if (Array.isArray(blocks))
        for (const block of blocks) {
          const read = readAssistantBlock(block, provider, options);
          if (read !== undefined) content.push(read);
        }
      const read: Message = { role: "assistant", content, timestamp };
      const model = nonEmpty(stringAt(message, "model"));
      if (model !== undefined) read.model = model;
      const stopReason = readStopReason(ownValue(message, "stopReason"));
      if (stopReason !== undefined) read.stopReason = stopReason;
      const usage = objectAt(message, "usage");
      if (usage !== undefined) read.usage = readUsage(usage, options);
      push(reader, read);
      return;
    }
    case "toolResult": {
      if (ownValue(message, "details") !== undefined)
        warn(options, piLoss.toolResultDetails, "dropped the details of a tool result");
      const block: Block = {
        type: "tool_result",
        toolUseId: nonEmpty(stringAt(message, "toolCallId")) ?? "unknown-tool-call",
        content: readResultContent(ownValue(message, "content")),
        isError: ownValue(message, "isError") === true,
      };
      if (reader.results !== undefined) reader.results.content.push(block);
      else {
        const results: Message = { role: "user", content: [block], timestamp };
        push(reader, results);
        reader.results = results;
      }
      return;
    }
    case "bashExecution":
      warn(options, piLoss.bashExecution, "a shell command the person ran became injected context");
      push(reader, {
        role: "user",
        content: [{ type: "text", text: bashExecutionText(message) }],
        timestamp,
        context: { kind: "injected", source: "bashExecution" },
      });
      return;
    case "branchSummary":
      push(reader, {
        role: "user",
        content: [{ type: "text", text: stringAt(message, "summary") ?? "" }],
        timestamp,
        context: { kind: "injected", source: "branch_summary" },
      });
      return;
    case "compactionSummary":
      push(
        reader,
        compactionMessage(
          stringAt(message, "summary") ?? "",
          countAt(message, "tokensBefore"),
          timestamp,
          false,
        ),
      );
      return;
    case "custom":
      readExtensionMessage(reader, message, timestamp);
      return;
    case "hookMessage":
      // v2's name for the custom role; in a v3 file pi leaves it out of the context.
      if (reader.version < 3) {
        readExtensionMessage(reader, message, timestamp);
        return;
      }
      break;
  }
  warn(options, piLoss.unknownEntry, `left out a message of role ${role ?? "(none)"}`);
}

function readEntry(reader: Reader, entry: JsonObject): void {
  const { options } = reader;
  const timestamp = isoTimestamp(ownValue(entry, "timestamp")) ?? reader.clock;
  reader.clock = timestamp;
  const type = stringAt(entry, "type");
  switch (type) {
    case "message": {
      const message = objectAt(entry, "message");
      if (message === undefined) break;
      readMessage(reader, message, timestamp);
      const time = isoTimestamp(ownValue(message, "timestamp"));
      if (time !== undefined) reader.clock = time;
      return;
    }
    case "custom_message":
      readExtensionMessage(reader, entry, timestamp);
      return;
    case "branch_summary": {
      const summary = stringAt(entry, "summary");
      // pi sends a branch summary only when it has text.
      if (summary === undefined || summary === "") return;
      push(reader, {
        role: "user",
        content: [{ type: "text", text: summary }],
        timestamp,
        context: { kind: "injected", source: "branch_summary" },
      });
      return;
    }
    case "compaction": {
      if (ownValue(entry, "details") !== undefined)
        warn(options, piLoss.compactionFields, "dropped a compaction's details");
      const message = compactionMessage(
        stringAt(entry, "summary") ?? "",
        countAt(entry, "tokensBefore"),
        timestamp,
        ownValue(entry, "fromHook") === true,
      );
      // What pi sends in place of the history: the summary, then the entries kept from firstKeptEntryId on.
      const start = reader.keptStart(entry);
      if (start !== undefined && start < reader.messages.length)
        (message.content[0] as CompactionBlock).history = structuredClone(
          reader.messages.slice(start),
        );
      push(reader, message);
      return;
    }
    case "model_change":
      if (!reader.modelChanged) reader.firstModel = nonEmpty(stringAt(entry, "modelId"));
      reader.modelChanged = true;
      warn(options, piLoss.settingsEntry, "a model change is not kept");
      return;
    case "thinking_level_change":
      warn(options, piLoss.settingsEntry, "a thinking level change is not kept");
      return;
    case "custom": {
      const lineage =
        stringAt(entry, "customType") === lineageType
          ? readLineage(objectAt(entry, "data"))
          : undefined;
      if (lineage !== undefined) reader.lineage ??= lineage;
      else warn(options, piLoss.customEntry, "dropped an extension's custom entry");
      return;
    }
    case "label":
      warn(options, piLoss.label, "dropped a label");
      return;
    case "session_info":
      return;
  }
  warn(options, piLoss.unknownEntry, `left out a ${type ?? "untyped"} entry`);
}

function isToolResult(entry: JsonObject): boolean {
  const message = objectAt(entry, "message");
  return message !== undefined && stringAt(message, "role") === "toolResult";
}

/**
 * Read one entry of the path; returns the index of the first message it
 * read into (a tool result that joined the open results message starts in
 * it), where a later compaction keeping this entry starts its history.
 */
export function readPathEntry(reader: Reader, entry: JsonObject): number {
  const before = reader.messages.length;
  const merging = reader.results;
  readEntry(reader, entry);
  const joined =
    reader.messages.length === before && merging !== undefined && reader.results === merging;
  return joined && isToolResult(entry) ? before - 1 : before;
}

/** Where a compaction's kept entries are named: firstKeptEntryId, else firstKeptEntryIndex. */
export function keptReference(
  compaction: JsonObject,
): { id: string } | { index: number } | undefined {
  const id = stringAt(compaction, "firstKeptEntryId");
  if (id !== undefined) return { id };
  const index = countAt(compaction, "firstKeptEntryIndex");
  return index === undefined ? undefined : { index };
}

/** The read's warnings about the header and the abandoned branches, before any entry's. */
export function headerWarnings(
  header: JsonObject | undefined,
  abandonedCount: number,
  options: ConversionOptions | undefined,
): void {
  if (header === undefined)
    warn(options, piLoss.notASession, "the first line is not a session header");
  else if (headerExtras.some((key) => ownValue(header, key) !== undefined))
    warn(options, piLoss.headerFields, "header fields Common has no place for");
  if (abandonedCount > 0)
    warn(
      options,
      piLoss.branch,
      "left out entries of abandoned branches",
      undefined,
      abandonedCount,
    );
}

/** What the meta takes from the path, beside the header and the title. */
export interface PathFacts {
  /** The first message's timestamp (the session's, when the header has none). */
  firstTimestamp: string | undefined;
  /** Whether a model_change is on the path; then its model (even none) is the session's. */
  modelChanged: boolean;
  /** The first model_change's model on the path, else the first assistant message's model. */
  model: string | undefined;
  lineage: Lineage | undefined;
}

/** The transcript's meta: the header's id, time, cwd and model, the title, and the path's facts. */
export function piMeta(
  header: JsonObject | undefined,
  title: string | undefined,
  facts: PathFacts,
): Meta {
  const headerTime = header === undefined ? undefined : isoTimestamp(ownValue(header, "timestamp"));
  const id = header === undefined ? undefined : nonEmpty(stringAt(header, "id"));
  const meta: Meta = {
    id: id ?? "unknown-session",
    timestamp: headerTime ?? facts.firstTimestamp ?? epoch,
  };
  const cwd = header === undefined ? undefined : stringAt(header, "cwd");
  if (cwd !== undefined) meta.cwd = cwd;
  if (title !== undefined) meta.title = title;
  const headerModel = header === undefined ? undefined : headerModelOf(header);
  const model = headerModel ?? facts.model;
  if (model !== undefined) meta.model = model;
  if (facts.lineage !== undefined) meta.lineage = facts.lineage;
  return meta;
}

/** The header's model, when it names one (then the path's does not count). */
export function headerModelOf(header: JsonObject): string | undefined {
  return nonEmpty(stringAt(header, "modelId"));
}

/** The model an assistant message entry names, if any (what its Common message's model is). */
export function assistantModelOf(entry: JsonObject): string | undefined {
  if (stringAt(entry, "type") !== "message") return undefined;
  const message = objectAt(entry, "message");
  return message !== undefined && stringAt(message, "role") === "assistant"
    ? nonEmpty(stringAt(message, "model"))
    : undefined;
}

export function piToCommon(session: PiSession, options?: PiReadOptions): Transcript {
  const tree = selectPath(session);
  const { header } = tree;
  headerWarnings(header, tree.abandonedCount, options);
  // Every entry of the path by id (a repeated id names its last), and (v1) by position.
  const byId = new Map<string, JsonObject>();
  for (const entry of tree.path) {
    const id = stringAt(entry, "id");
    if (id !== undefined) byId.set(id, entry);
  }
  const byIndex = header === undefined ? tree.entries : [header, ...tree.entries];
  const starts = new Map<JsonObject, number>();
  const keptStart = (compaction: JsonObject): number | undefined => {
    const reference = keptReference(compaction);
    const kept =
      reference === undefined
        ? undefined
        : "id" in reference
          ? byId.get(reference.id)
          : byIndex[reference.index];
    return kept === undefined ? undefined : starts.get(kept);
  };
  const messages: Message[] = [];
  const reader = newReader(options, tree.version, header, messages, keptStart);
  for (const entry of tree.path) starts.set(entry, readPathEntry(reader, entry));
  const meta = piMeta(header, readTitle(tree.entries), {
    firstTimestamp: messages[0]?.timestamp,
    modelChanged: reader.modelChanged,
    model: reader.modelChanged
      ? reader.firstModel
      : messages.find((message) => message.role === "assistant" && message.model !== undefined)
          ?.model,
    lineage: reader.lineage,
  });
  return { meta, messages };
}
