// Codex rollout → Common. Response items are the conversation; event
// messages (user_message, agent_message, agent_reasoning, item_completed)
// are their UI echo and are never read as messages, so nothing counts twice.
// token_count gives the last response's usage, turn_context the model,
// `compacted` a compaction marker with its replacement history. Reads every
// era: bare 2025 items, {session, items} documents, legacy and paginated lines.
import {
  arrayAt,
  type Block,
  type ConversionOptions,
  isJsonObject,
  type JsonObject,
  type Lineage,
  LossTally,
  type Message,
  type Meta,
  objectAt,
  ownValue,
  readTimestamp,
  stringAt,
  type Transcript,
  warn,
} from "@txcript/core";
import { ItemReader, type Pending } from "./codex-item-reader.js";
import { codexLoss } from "./codex-losses.js";
import { type CodexLine, type CodexRollout, isBareHeader, isEnvelope } from "./codex-schema.js";
import { parentThreadOf, subagentsOf } from "./codex-subagents.js";
import { usageOf } from "./codex-usage.js";

export type CodexReadOptions = ConversionOptions;

/** What the writer puts in cli_version when the transcript names none; reads back as none. */
export const unknownCliVersion = "0.0.0-txcript";

/** The session_meta key where txcript keeps where a session came from (Meta.lineage). */
export const lineageKey = "txcript_lineage";

function lineageOf(payload: JsonObject): Lineage | undefined {
  const value = objectAt(payload, lineageKey);
  if (value === undefined) return undefined;
  const harnessName = stringAt(value, "harness");
  const id = stringAt(value, "id");
  const txcriptVersion = stringAt(value, "txcriptVersion");
  const convertedAt = readTimestamp(ownValue(value, "convertedAt"));
  if (!harnessName || !id || !txcriptVersion || convertedAt === undefined) return undefined;
  return { harness: harnessName, id, txcriptVersion, convertedAt };
}

/** Line types that are bookkeeping, not conversation: named as codex.event-records. */
const bookkeepingLines = new Set([
  "world_state",
  "token_usage_record",
  "inter_agent_communication",
  "inter_agent_communication_metadata",
  "retained_context",
  "security_risk_score",
  "realtime_item",
]);

const epoch = "1970-01-01T00:00:00.000Z";

/**
 * The keys of each response item the item reader reads (codex-item-reader.ts);
 * a call's `id` is read only when it has no `call_id`. Others are named as
 * codex.record-fields. Items of other types are left out whole (codex.unmodeled-item).
 */
const itemKeys: Record<string, ReadonlySet<string>> = {
  message: new Set(["type", "role", "content"]),
  reasoning: new Set(["type", "summary", "content", "encrypted_content"]),
  function_call: new Set(["type", "namespace", "name", "arguments", "call_id"]),
  custom_tool_call: new Set(["type", "namespace", "name", "input", "call_id"]),
  local_shell_call: new Set(["type", "action", "call_id"]),
  web_search_call: new Set(["type", "action", "id"]),
  tool_search_call: new Set(["type", "arguments", "call_id"]),
  function_call_output: new Set(["type", "call_id", "output"]),
  custom_tool_call_output: new Set(["type", "call_id", "output"]),
  tool_search_output: new Set(["type", "call_id", "tools"]),
};
/** Call items whose `id` stands in for a missing `call_id`. */
const idForCall = new Set(["function_call", "custom_tool_call", "local_shell_call"]);
/** The envelope keys read: everything else on an envelope line (0.171's ordinal, metadata) is named. */
const envelopeKeys = new Set(["timestamp", "type", "payload"]);

/** session_meta keys read into Meta or the base instructions message. */
const sessionKeys = new Set([
  "id",
  "timestamp",
  "cwd",
  "git",
  "cli_version",
  "instructions",
  "base_instructions",
  lineageKey,
]);
/** The keys that link a subagent's rollout to its parent (with a `source` naming a thread spawn). */
const subagentKeys = new Set(["parent_thread_id", "agent_nickname", "agent_role"]);
/** Event messages that echo a response item or a compaction (never read, so nothing counts twice), and usage. */
const readEvents = new Set([
  "token_count",
  "user_message",
  "agent_message",
  "agent_reasoning",
  "agent_reasoning_raw_content",
  "item_completed",
  "context_compacted",
]);

function readMeta(payload: JsonObject, fallbackTimestamp: string): Meta {
  const id = stringAt(payload, "id");
  const meta: Meta = {
    id: id !== undefined && id !== "" ? id : "codex-session",
    timestamp: readTimestamp(ownValue(payload, "timestamp")) ?? fallbackTimestamp,
  };
  const cwd = stringAt(payload, "cwd");
  if (cwd !== undefined && cwd !== "") meta.cwd = cwd;
  const branch = stringAt(objectAt(payload, "git") ?? {}, "branch");
  if (branch !== undefined && branch !== "") meta.gitBranch = branch;
  const lineage = lineageOf(payload);
  if (lineage !== undefined) meta.lineage = lineage;
  const version = stringAt(payload, "cli_version");
  if (version !== undefined && version !== unknownCliVersion) meta.cliVersion = version;
  return meta;
}

/** The instructions a session_meta or header carries (0.3x–0.7x `instructions`, 0.1xx `base_instructions`). */
function instructionsOf(payload: JsonObject): string | undefined {
  const base = objectAt(payload, "base_instructions");
  return stringAt(base ?? {}, "text") ?? stringAt(payload, "instructions");
}

/**
 * Reads a rollout into messages one line (or document item) at a time:
 * codexToCommon feeds it a whole rollout, the streaming reader
 * (codex-stream-read.ts) one line at a time, taking each message once
 * `finalCount` says no later line can change it.
 */
export class RolloutReader {
  readonly #pending: Pending = { calls: new Map(), outputs: new Set() };
  readonly reader: ItemReader;
  meta: Meta | undefined;
  #firstModel: string | undefined;
  #timestamp = epoch;
  readonly #tally = new LossTally();

  /** `asSubagent`: the rollout is read as a subagent of its parent's session, which carries its parent link. */
  constructor(
    private readonly options: CodexReadOptions | undefined,
    private readonly asSubagent = false,
  ) {
    this.reader = new ItemReader(options, this.#pending);
  }

  /** The messages read so far that are not yet taken (the streaming reader takes from the front). */
  get messages(): Message[] {
    return this.reader.grouper.messages;
  }

  /**
   * How many of `messages`, from the front, no later line can change: those
   * before the last assistant message (a line only ever adds to the last
   * message, or gives usage to the last assistant message).
   */
  finalCount(): number {
    const messages = this.messages;
    for (let index = messages.length - 1; index >= 0; index -= 1)
      if (messages[index]?.role === "assistant") return index;
    return 0;
  }

  /** Whether the session's model is settled: a first response was read. */
  get modelSettled(): boolean {
    return this.reader.sawAssistant;
  }

  /** The session keys Meta has no slot for, named; `where` gives a key's path. */
  #sessionBookkeeping(payload: JsonObject, where: (key: string) => string): void {
    const parent = parentThreadOf(payload);
    const source = ownValue(payload, "source");
    const spawned = isJsonObject(source) && Object.hasOwn(source, "subagent");
    for (const key of Object.keys(payload)) {
      if (sessionKeys.has(key)) continue;
      if (parent !== undefined && (subagentKeys.has(key) || (key === "source" && spawned)))
        continue;
      this.#tally.add(
        codexLoss.sessionMetadata,
        `the session's ${key} was not carried`,
        1,
        where(key),
      );
    }
    for (const key of Object.keys(objectAt(payload, "git") ?? {}))
      if (key !== "branch")
        this.#tally.add(
          codexLoss.sessionMetadata,
          `the session's git.${key} was not carried`,
          1,
          where(`git.${key}`),
        );
    if (parent !== undefined && !this.asSubagent)
      warn(
        this.options,
        codexLoss.parentThread,
        `this rollout is a subagent of thread ${parent}: read on its own, its parent link, nickname and role are not carried`,
        where(Object.hasOwn(payload, "parent_thread_id") ? "parent_thread_id" : "source"),
      );
  }

  /** A response item's keys the item reader does not read, named (codex.record-fields). */
  #itemFields(item: JsonObject, path: string): void {
    const type = stringAt(item, "type");
    const read = type === undefined ? undefined : itemKeys[type];
    if (read === undefined) return;
    const idIsCall = idForCall.has(type as string) && stringAt(item, "call_id") === undefined;
    for (const key of Object.keys(item)) {
      if (read.has(key) || (key === "id" && idIsCall) || ownValue(item, key) === null) continue;
      this.#tally.add(
        codexLoss.recordFields,
        `a ${type} item's ${key} was not carried`,
        1,
        () => `${path}.${key}`,
      );
    }
  }

  /** A token_count's keys but its last_token_usage (read as the response's usage), named. */
  #usageFields(payload: JsonObject, path: string): void {
    for (const key of Object.keys(payload))
      if (key !== "type" && key !== "info" && ownValue(payload, key) !== null)
        this.#tally.add(
          codexLoss.recordFields,
          `a token_count's ${key} was not carried`,
          1,
          () => `${path}, payload.${key}`,
        );
    const info = objectAt(payload, "info") ?? {};
    for (const key of Object.keys(info))
      if (key !== "last_token_usage" && ownValue(info, key) !== null)
        this.#tally.add(
          codexLoss.recordFields,
          `a token_count's info.${key} was not carried`,
          1,
          () => `${path}, payload.info.${key}`,
        );
  }

  #startSession(payload: JsonObject, at: string, where: (key: string) => string): void {
    this.#sessionBookkeeping(payload, where);
    const meta = readMeta(payload, at);
    this.meta = meta;
    this.#timestamp = meta.timestamp;
    const instructions = instructionsOf(payload);
    if (instructions !== undefined)
      this.reader.grouper.alone([{ type: "text", text: instructions }], meta.timestamp, {
        kind: "system",
        source: "base_instructions",
      });
  }

  #compaction(payload: JsonObject, at: string, path: string): void {
    const block: Block = { type: "compaction", summary: stringAt(payload, "message") ?? "" };
    const replacement = arrayAt(payload, "replacement_history");
    if (replacement !== undefined) {
      const history = new ItemReader(this.options, undefined);
      replacement.forEach((item, index) => {
        if (isJsonObject(item)) history.item(item, at, `${path}.replacement_history[${index}]`);
      });
      block.history = history.grouper.messages;
    }
    this.reader.grouper.alone([block], at);
  }

  /** A `{session, items}` document, whole. */
  document(value: JsonObject): void {
    const session = objectAt(value, "session") ?? {};
    this.#startSession(
      session,
      readTimestamp(ownValue(session, "timestamp")) ?? epoch,
      (key) => `$.session.${key}`,
    );
    (arrayAt(value, "items") ?? []).forEach((item, index) => {
      if (!isJsonObject(item)) return;
      this.#itemFields(item, `$.items[${index}]`);
      this.reader.item(item, this.#timestamp, `$.items[${index}]`);
    });
  }

  /** Line `index` (0-based) of a JSON-lines rollout. */
  line(line: CodexLine, index: number): void {
    const options = this.options;
    const reader = this.reader;
    const path = `line ${index + 1}`;
    if (line.invalid) {
      warn(options, codexLoss.invalidLine, "a line that is not a JSON object was skipped", path);
      return;
    }
    const value = line.value;
    if (value === undefined) return;
    if (!isEnvelope(value)) {
      if (this.meta === undefined && isBareHeader(value))
        this.#startSession(value, epoch, (key) => `${path}, ${key}`);
      else if (ownValue(value, "record_type") !== undefined) return;
      else if (typeof ownValue(value, "type") === "string") {
        this.#itemFields(value, path);
        reader.item(value, this.#timestamp, path);
      } else warn(options, codexLoss.unmodeledItem, "a line of no known shape was left out", path);
      return;
    }
    const type = stringAt(value, "type") as string;
    const payload = objectAt(value, "payload") as JsonObject;
    for (const key of Object.keys(value))
      if (!envelopeKeys.has(key) && ownValue(value, key) !== null)
        this.#tally.add(
          codexLoss.recordFields,
          `a line's ${key} was not carried`,
          1,
          () => `${path}, ${key}`,
        );
    const at = readTimestamp(ownValue(value, "timestamp")) ?? this.#timestamp;
    this.#timestamp = at;
    if (type === "session_meta") {
      if (this.meta === undefined)
        this.#startSession(payload, at, (key) => `${path}, payload.${key}`);
      else
        this.#tally.add(
          codexLoss.sessionMetadata,
          "a later session_meta line was not carried",
          1,
          path,
        );
    } else if (type === "response_item") {
      this.#itemFields(payload, `${path}, payload`);
      reader.item(payload, at, path);
    } else if (type === "turn_context") {
      for (const key of Object.keys(payload))
        if (key !== "model")
          this.#tally.add(
            codexLoss.turnSettings,
            `a turn_context's ${key} was not carried`,
            1,
            `${path}, payload.${key}`,
          );
      const model = stringAt(payload, "model");
      if (model !== undefined) {
        reader.model = model;
        this.#firstModel ??= model;
      }
      reader.grouper.close();
    } else if (type === "event_msg") {
      const event = stringAt(payload, "type");
      if (event === undefined || !readEvents.has(event))
        this.#tally.add(
          codexLoss.eventRecords,
          `a ${event ?? "untyped"} event was not carried`,
          1,
          path,
        );
      if (event !== "token_count") return;
      this.#usageFields(payload, path);
      const last = objectAt(objectAt(payload, "info") ?? {}, "last_token_usage");
      if (last !== undefined) reader.grouper.usage(usageOf(last, options, path));
    } else if (type === "compacted") this.#compaction(payload, at, path);
    else if (bookkeepingLines.has(type))
      this.#tally.add(codexLoss.eventRecords, `a ${type} line was not carried`, 1, path);
    else warn(options, codexLoss.unmodeledItem, `a ${type} line was left out`, path);
  }

  /** The session's meta as read so far: its model is the one in force at the first response, else the first turn's. */
  currentMeta(): Meta {
    const result: Meta = { ...(this.meta ?? { id: "codex-session", timestamp: this.#timestamp }) };
    const model = this.reader.sawAssistant ? this.reader.modelAtFirst : this.#firstModel;
    if (model !== undefined) result.model = model;
    return result;
  }

  /** After the last line: the calls and outputs that do not pair, warned; the meta. */
  finish(): Meta {
    const options = this.options;
    const pending = this.#pending;
    this.#tally.flush(options);
    for (const [id, name] of pending.calls)
      if (!pending.outputs.has(id))
        warn(options, codexLoss.callWithoutOutput, `the ${name} call ${id} has no output`);
    for (const id of pending.outputs)
      if (!pending.calls.has(id))
        warn(options, codexLoss.outputWithoutCall, `the output for ${id} has no call`);
    return this.currentMeta();
  }
}

export function codexToCommon(
  rollout: CodexRollout,
  options?: CodexReadOptions,
  asSubagent = false,
): Transcript {
  const read = new RolloutReader(options, asSubagent);
  if (rollout.kind === "document") read.document(rollout.value);
  else
    rollout.lines.forEach((line, index) => {
      read.line(line, index);
    });
  const meta = read.finish();
  const transcript: Transcript = { meta, messages: read.messages };
  if (rollout.kind === "lines" && rollout.subagents !== undefined && rollout.subagents.length > 0)
    transcript.subagents = subagentsOf(transcript, rollout.subagents, (child) =>
      codexToCommon(child, options, true),
    );
  return transcript;
}
