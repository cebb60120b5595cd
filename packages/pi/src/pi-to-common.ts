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

interface Reader {
  readonly options: ConversionOptions | undefined;
  readonly version: number;
  readonly messages: Message[];
  /** The message the last entry's tool result went into, while results keep coming. */
  results: Message | undefined;
  clock: string;
  firstModel: string | undefined;
  /** Whether a model_change entry was on the path (its model, even none, is the session's). */
  modelChanged: boolean;
  lineage: Lineage | undefined;
  /** Index of the first message each entry read into (for a compaction's kept entries). */
  readonly starts: Map<JsonObject, number>;
  /** Every entry by id, and (v1) by position, for firstKeptEntryId / firstKeptEntryIndex. */
  readonly byId: Map<string, JsonObject>;
  readonly byIndex: readonly JsonObject[];
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
      const keptId = stringAt(entry, "firstKeptEntryId");
      const keptIndex = countAt(entry, "firstKeptEntryIndex");
      const kept =
        keptId !== undefined
          ? reader.byId.get(keptId)
          : keptIndex !== undefined
            ? reader.byIndex[keptIndex]
            : undefined;
      const start = kept === undefined ? undefined : reader.starts.get(kept);
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

export function piToCommon(session: PiSession, options?: PiReadOptions): Transcript {
  const tree = selectPath(session);
  const { header } = tree;
  if (header === undefined)
    warn(options, piLoss.notASession, "the first line is not a session header");
  else if (headerExtras.some((key) => ownValue(header, key) !== undefined))
    warn(options, piLoss.headerFields, "header fields Common has no place for");
  if (tree.abandonedCount > 0)
    warn(
      options,
      piLoss.branch,
      "left out entries of abandoned branches",
      undefined,
      tree.abandonedCount,
    );

  const headerTime = header === undefined ? undefined : isoTimestamp(ownValue(header, "timestamp"));
  const reader: Reader = {
    options,
    version: tree.version,
    messages: [],
    results: undefined,
    clock: headerTime ?? epoch,
    firstModel: undefined,
    modelChanged: false,
    lineage: undefined,
    starts: new Map(),
    byId: new Map(),
    byIndex: header === undefined ? tree.entries : [header, ...tree.entries],
  };
  for (const entry of tree.path) {
    const id = stringAt(entry, "id");
    if (id !== undefined) reader.byId.set(id, entry);
  }
  for (const entry of tree.path) {
    const before = reader.messages.length;
    const merging = reader.results;
    readEntry(reader, entry);
    // A tool result that joined the open results message starts in it.
    const joined =
      reader.messages.length === before && merging !== undefined && reader.results === merging;
    reader.starts.set(entry, joined && isToolResult(entry) ? before - 1 : before);
  }

  const id = header === undefined ? undefined : nonEmpty(stringAt(header, "id"));
  const meta: Meta = {
    id: id ?? "unknown-session",
    timestamp: headerTime ?? reader.messages[0]?.timestamp ?? epoch,
  };
  const cwd = header === undefined ? undefined : stringAt(header, "cwd");
  if (cwd !== undefined) meta.cwd = cwd;
  const title = readTitle(tree.entries);
  if (title !== undefined) meta.title = title;
  const headerModel = header === undefined ? undefined : nonEmpty(stringAt(header, "modelId"));
  const model =
    headerModel ??
    (reader.modelChanged
      ? reader.firstModel
      : reader.messages.find(
          (message) => message.role === "assistant" && message.model !== undefined,
        )?.model);
  if (model !== undefined) meta.model = model;
  if (reader.lineage !== undefined) meta.lineage = reader.lineage;
  return { meta, messages: reader.messages };
}
