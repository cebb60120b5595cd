// Codex rollout → Common. Response items are the conversation; event
// messages (user_message, agent_message, agent_reasoning, item_completed)
// are their UI echo and are never read as messages, so nothing counts twice.
// token_count gives the last response's usage, turn_context the model,
// `compacted` a compaction marker with its replacement history. Reads every
// era: bare 2025 items, {session, items} documents, legacy and paginated lines.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  type Lineage,
  type Message,
  type Meta,
  ownValue,
  readTimestamp,
  type Tool,
  type Transcript,
  warn,
} from "@txcript/core";
import { imageFromDataUrl, injectedSource, MessageGrouper, type Side } from "./codex-items.js";
import { codexLoss } from "./codex-losses.js";
import {
  arrayAt,
  type CodexRollout,
  isBareHeader,
  isEnvelope,
  objectAt,
  stringAt,
} from "./codex-schema.js";
import { subagentsOf } from "./codex-subagents.js";
import { codexToolToCommon, namespacedName } from "./codex-tools.js";
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

/** Line types that are bookkeeping, not conversation: skipped without a warning. */
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

function textsOf(items: Json[] | undefined, types: readonly string[]): string[] {
  const texts: string[] = [];
  for (const item of items ?? []) {
    if (!isJsonObject(item)) continue;
    const type = stringAt(item, "type");
    const text = stringAt(item, "text");
    if (type !== undefined && types.includes(type) && text !== undefined) texts.push(text);
  }
  return texts;
}

/** A function_call's arguments: the JSON they spell, or the string itself when it is not JSON. */
function argumentsOf(value: Json | undefined): Json {
  if (typeof value !== "string") return value ?? null;
  try {
    return JSON.parse(value) as Json;
  } catch {
    return value;
  }
}

interface Pending {
  calls: Map<string, string>;
  outputs: Set<string>;
}

/** Reads items into a grouper; shared by the conversation and a compaction's history. */
class ItemReader {
  readonly grouper = new MessageGrouper();
  model: string | undefined;
  /** Whether an assistant-side item was read, and the model in force at the first. */
  sawAssistant = false;
  modelAtFirst: string | undefined;
  #searches = 0;

  constructor(
    private readonly options: ConversionOptions | undefined,
    private readonly pending: Pending | undefined,
  ) {}

  #add(side: Side, block: Block, timestamp: string): void {
    if (side === "assistant" && !this.sawAssistant) {
      this.sawAssistant = true;
      this.modelAtFirst = this.model;
    }
    this.grouper.add(side, block, timestamp, this.model);
  }

  #contentBlocks(items: Json[] | undefined, path: string): Block[] {
    const blocks: Block[] = [];
    for (const item of items ?? []) {
      if (!isJsonObject(item)) continue;
      const type = stringAt(item, "type");
      const text = stringAt(item, "text") ?? stringAt(item, "refusal");
      if (
        (type === "input_text" || type === "output_text" || type === "refusal") &&
        text !== undefined
      )
        blocks.push({ type: "text", text });
      else if (type === "input_image") {
        const url = stringAt(item, "image_url");
        const image = url === undefined ? undefined : imageFromDataUrl(url);
        if (image !== undefined) blocks.push(image);
        else warn(this.options, codexLoss.imageUrl, "an image not given inline was dropped", path);
      } else
        warn(
          this.options,
          codexLoss.unmodeledItem,
          `a ${type ?? "untyped"} content item was left out`,
          path,
        );
    }
    return blocks;
  }

  #call(side: Side, id: string, tool: Tool, timestamp: string) {
    this.pending?.calls.set(id, tool.name === "Raw" ? tool.toolName : tool.name);
    this.#add(side, { type: "tool_use", id, tool }, timestamp);
  }

  #output(id: string, content: Json, timestamp: string): void {
    this.pending?.outputs.add(id);
    this.#add("user", { type: "tool_result", toolUseId: id, content, isError: false }, timestamp);
  }

  item(payload: JsonObject, timestamp: string, path: string): void {
    const type = stringAt(payload, "type");
    if (type === "message") {
      const role = stringAt(payload, "role");
      const blocks = this.#contentBlocks(arrayAt(payload, "content"), path);
      if (role === "developer" || role === "system") {
        this.grouper.alone(blocks, timestamp, { kind: role === "system" ? "system" : "developer" });
        return;
      }
      if (role === "user") {
        const first = blocks[0];
        const source = injectedSource(first?.type === "text" ? first.text : undefined);
        if (source !== undefined) {
          this.grouper.alone(blocks, timestamp, { kind: "injected", source });
          return;
        }
      }
      const side: Side = role === "assistant" ? "assistant" : "user";
      for (const block of blocks) {
        if (side === "assistant" && block.type === "image") {
          warn(this.options, codexLoss.assistantImage, "an assistant image was dropped", path);
          continue;
        }
        this.#add(side, block, timestamp);
      }
      return;
    }
    if (type === "reasoning") {
      const summary = textsOf(arrayAt(payload, "summary"), ["summary_text"]);
      const content = textsOf(arrayAt(payload, "content"), ["reasoning_text", "text"]);
      if (summary.length > 0 && content.length > 0)
        warn(
          this.options,
          codexLoss.reasoningContent,
          "raw reasoning text beside a summary was dropped",
          path,
        );
      const text = (summary.length > 0 ? summary : content).join("\n\n");
      const encrypted = stringAt(payload, "encrypted_content");
      const block: Block = { type: "thinking", text, provider: "openai" };
      if (encrypted !== undefined) block.encrypted = encrypted;
      this.#add("assistant", block, timestamp);
      return;
    }
    if (type === "function_call" || type === "custom_tool_call") {
      const name = namespacedName(stringAt(payload, "namespace"), stringAt(payload, "name") ?? "");
      const input =
        type === "function_call"
          ? argumentsOf(ownValue(payload, "arguments"))
          : (ownValue(payload, "input") ?? null);
      const id = stringAt(payload, "call_id") || stringAt(payload, "id") || `call-${path}`;
      this.#call("assistant", id, codexToolToCommon(name, input), timestamp);
      return;
    }
    if (type === "local_shell_call") {
      const action = ownValue(payload, "action") ?? null;
      const command = isJsonObject(action) ? ownValue(action, "command") : undefined;
      const id = stringAt(payload, "call_id") || stringAt(payload, "id") || `call-${path}`;
      const exact =
        isJsonObject(action) &&
        Object.keys(action).every((key) => key === "type" || key === "command") &&
        Array.isArray(command) &&
        command.length === 3 &&
        command[0] === "bash" &&
        command[1] === "-lc" &&
        typeof command[2] === "string";
      const tool = exact
        ? codexToolToCommon("shell", { command })
        : codexToolToCommon("local_shell", action);
      this.#call("assistant", id, tool, timestamp);
      return;
    }
    if (type === "web_search_call") {
      const action = ownValue(payload, "action") ?? null;
      this.#searches += 1;
      const id = stringAt(payload, "id") || `web_search-${this.#searches}`;
      const query = isJsonObject(action) ? ownValue(action, "query") : undefined;
      const plain =
        isJsonObject(action) &&
        Object.keys(action).every((key) => key === "type" || key === "query") &&
        typeof query === "string";
      const tool = plain
        ? codexToolToCommon("web_search", { query })
        : codexToolToCommon("web_search", action);
      // A hosted search has no output item: it is not an unanswered call.
      this.#add("assistant", { type: "tool_use", id, tool }, timestamp);
      return;
    }
    if (type === "tool_search_call") {
      const id = stringAt(payload, "call_id") || `call-${path}`;
      this.#call(
        "assistant",
        id,
        codexToolToCommon("tool_search", ownValue(payload, "arguments") ?? null),
        timestamp,
      );
      return;
    }
    if (type === "function_call_output" || type === "custom_tool_call_output") {
      const id = stringAt(payload, "call_id") ?? "";
      const output = ownValue(payload, "output");
      this.#output(id || `output-${path}`, output ?? "", timestamp);
      return;
    }
    if (type === "tool_search_output") {
      const id = stringAt(payload, "call_id") ?? "";
      this.#output(id || `output-${path}`, ownValue(payload, "tools") ?? null, timestamp);
      return;
    }
    warn(
      this.options,
      codexLoss.unmodeledItem,
      `a ${type ?? "untyped"} response item was left out`,
      path,
    );
  }
}

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

export function codexToCommon(rollout: CodexRollout, options?: CodexReadOptions): Transcript {
  const pending: Pending = { calls: new Map(), outputs: new Set() };
  const reader = new ItemReader(options, pending);
  let meta: Meta | undefined;
  let firstModel: string | undefined;
  let timestamp = epoch;

  const startSession = (payload: JsonObject, at: string) => {
    meta = readMeta(payload, at);
    timestamp = meta.timestamp;
    const instructions = instructionsOf(payload);
    if (instructions !== undefined)
      reader.grouper.alone([{ type: "text", text: instructions }], meta.timestamp, {
        kind: "system",
        source: "base_instructions",
      });
  };

  const compaction = (payload: JsonObject, at: string, path: string) => {
    const block: Block = { type: "compaction", summary: stringAt(payload, "message") ?? "" };
    const replacement = arrayAt(payload, "replacement_history");
    if (replacement !== undefined) {
      const history = new ItemReader(options, undefined);
      replacement.forEach((item, index) => {
        if (isJsonObject(item)) history.item(item, at, `${path}.replacement_history[${index}]`);
      });
      block.history = history.grouper.messages;
    }
    reader.grouper.alone([block], at);
  };

  if (rollout.kind === "document") {
    const session = objectAt(rollout.value, "session") ?? {};
    startSession(session, readTimestamp(ownValue(session, "timestamp")) ?? epoch);
    (arrayAt(rollout.value, "items") ?? []).forEach((item, index) => {
      if (isJsonObject(item)) reader.item(item, timestamp, `$.items[${index}]`);
    });
  } else {
    rollout.lines.forEach((line, index) => {
      const path = `line ${index + 1}`;
      if (line.invalid) {
        warn(options, codexLoss.invalidLine, "a line that is not a JSON object was skipped", path);
        return;
      }
      const value = line.value;
      if (value === undefined) return;
      if (!isEnvelope(value)) {
        if (meta === undefined && isBareHeader(value)) startSession(value, epoch);
        else if (ownValue(value, "record_type") !== undefined) return;
        else if (typeof ownValue(value, "type") === "string") reader.item(value, timestamp, path);
        else warn(options, codexLoss.unmodeledItem, "a line of no known shape was left out", path);
        return;
      }
      const type = stringAt(value, "type") as string;
      const payload = objectAt(value, "payload") as JsonObject;
      const at = readTimestamp(ownValue(value, "timestamp")) ?? timestamp;
      timestamp = at;
      if (type === "session_meta") {
        if (meta === undefined) startSession(payload, at);
      } else if (type === "response_item") reader.item(payload, at, path);
      else if (type === "turn_context") {
        const model = stringAt(payload, "model");
        if (model !== undefined) {
          reader.model = model;
          firstModel ??= model;
        }
        reader.grouper.close();
      } else if (type === "event_msg") {
        if (stringAt(payload, "type") !== "token_count") return;
        const last = objectAt(objectAt(payload, "info") ?? {}, "last_token_usage");
        if (last !== undefined) reader.grouper.usage(usageOf(last, options, path));
      } else if (type === "compacted") compaction(payload, at, path);
      else if (!bookkeepingLines.has(type))
        warn(options, codexLoss.unmodeledItem, `a ${type} line was left out`, path);
    });
  }

  for (const [id, name] of pending.calls)
    if (!pending.outputs.has(id))
      warn(options, codexLoss.callWithoutOutput, `the ${name} call ${id} has no output`);
  for (const id of pending.outputs)
    if (!pending.calls.has(id))
      warn(options, codexLoss.outputWithoutCall, `the output for ${id} has no call`);

  const result: Meta = meta ?? { id: "codex-session", timestamp };
  // The session's model: the one in force at the first response, else the first turn's.
  const model = reader.sawAssistant ? reader.modelAtFirst : firstModel;
  if (model !== undefined) result.model = model;
  const messages: Message[] = reader.grouper.messages;
  const transcript: Transcript = { meta: result, messages };
  if (rollout.kind === "lines" && rollout.subagents !== undefined && rollout.subagents.length > 0)
    transcript.subagents = subagentsOf(transcript, rollout.subagents, (child) =>
      codexToCommon(child, options),
    );
  return transcript;
}
