// ampProject: what toCommon(fromCommon(c)) equals, written from
// docs/formats/amp.md ("What fromCommon writes", "Tools", "Losses") and not
// from the writer: it calls none of the writer's or the tool dialect's
// functions, so the law suite checks the codec against the documented
// rules instead of against itself. Each rule names its loss code. It is
// documentation that runs, not a conversion path: nothing in the codec
// calls it.
import {
  type Block,
  fromCanonical,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  stringifyJson,
  type Tool,
  type Transcript,
  type Usage,
  uuidV5,
} from "@txcript/core";
import { AMP_THREAD_ID_NAMESPACE } from "./amp-ids.js";

/**
 * The doc's tool table: each Amp name, the canonical tool it reads as and
 * its input keys (Amp key → canonical key). Read and Grep, whose values
 * change shape, are handled below.
 */
const renamings: readonly [amp: string, canonical: string, keys: readonly [string, string][]][] = [
  [
    "Bash",
    "Bash",
    [
      ["cmd", "command"],
      ["cwd", "workdir"],
    ],
  ],
  [
    "shell_command",
    "Bash",
    [
      ["command", "command"],
      ["workdir", "workdir"],
    ],
  ],
  [
    "edit_file",
    "Edit",
    [
      ["path", "file_path"],
      ["old_str", "old_string"],
      ["new_str", "new_string"],
      ["replace_all", "replace_all"],
    ],
  ],
  [
    "create_file",
    "Write",
    [
      ["path", "file_path"],
      ["content", "content"],
    ],
  ],
  ["glob", "Glob", [["filePattern", "pattern"]]],
  ["todo_write", "TodoWrite", [["todos", "todos"]]],
  ["todo_read", "TodoRead", []],
  [
    "read_web_page",
    "WebFetch",
    [
      ["url", "url"],
      ["objective", "prompt"],
    ],
  ],
  [
    "Task",
    "Task",
    [
      ["prompt", "prompt"],
      ["description", "description"],
    ],
  ],
];

const grepKeys = new Map([
  ["pattern", "pattern"],
  ["path", "path"],
  ["glob", "glob"],
]);

function isObject(value: Json): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The canonical input an Amp call reads as, per the table, or undefined (Raw). */
function canonicalInput(name: string, input: JsonObject): [string, JsonObject] | undefined {
  const out: JsonObject = {};
  const set = (key: string, value: Json) =>
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  if (name === "Read") {
    for (const key of Object.keys(input)) {
      const value = input[key] as Json;
      if (key === "path") set("file_path", value);
      else if (key === "read_range" && Array.isArray(value) && value.length === 2) {
        const [first, last] = value as [Json, Json];
        if (typeof first !== "number" || typeof last !== "number") return undefined;
        const limit = last - first + 1;
        if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last)) return undefined;
        if (!Number.isSafeInteger(limit)) return undefined;
        set("offset", first);
        set("limit", limit);
      } else return undefined;
    }
    return ["Read", out];
  }
  if (name === "Grep") {
    for (const key of Object.keys(input)) {
      const value = input[key] as Json;
      const renamed = grepKeys.get(key);
      if (renamed !== undefined) set(renamed, value);
      else if (key === "caseSensitive" && typeof value === "boolean") set("-i", !value);
      else return undefined;
    }
    return ["Grep", out];
  }
  const row = renamings.find(([amp]) => amp === name);
  if (row === undefined) return undefined;
  const keys = new Map(row[2]);
  for (const key of Object.keys(input)) {
    const renamed = keys.get(key);
    if (renamed === undefined) return undefined;
    set(renamed, input[key] as Json);
  }
  return [row[1], out];
}

/** How Amp reads a call: typed when the table maps it onto a valid typed input, else Raw. */
function readCall(name: string, input: Json): Tool {
  const mapped = isObject(input) ? canonicalInput(name, input) : undefined;
  if (mapped !== undefined) {
    const tool = fromCanonical(mapped[0], mapped[1]);
    if (tool.name !== "Raw") return tool;
  }
  return { name: "Raw", toolName: name, input };
}

/** Canonical keys each typed tool can be spelled with in Amp (the table, read backwards). */
const spellableKeys: Record<string, readonly string[]> = {
  Bash: ["command", "workdir"],
  Edit: ["file_path", "old_string", "new_string", "replace_all"],
  Write: ["file_path", "content"],
  Glob: ["pattern"],
  TodoWrite: ["todos"],
  TodoRead: [],
  WebFetch: ["url", "prompt"],
  Task: ["prompt", "description"],
  Grep: ["pattern", "path", "glob", "-i"],
  Read: ["file_path", "offset", "limit"],
};

/** Whether Amp has a spelling of this typed tool that reads back as the same tool. */
function spellable(tool: Exclude<Tool, { name: "Raw" }>): boolean {
  const keys = spellableKeys[tool.name];
  if (keys === undefined) return false;
  const input = tool.input as JsonObject;
  if (!Object.keys(input).every((key) => keys.includes(key))) return false;
  if (tool.name !== "Read") return true;
  // read_range holds both ends: only offset and limit together, with a safe last line.
  const { offset, limit } = input;
  if (offset === undefined && limit === undefined) return true;
  if (typeof offset !== "number" || typeof limit !== "number") return false;
  return Number.isSafeInteger(offset + limit - 1);
}

/**
 * amp.tool-spelling: what a Common tool reads back as after a trip through
 * Amp's tool dialect (either era): unspellable typed tools come back Raw,
 * Raw pairs read as Amp reads them. Shared with @txcript/stream-json's Amp
 * dialect, whose tools are the same.
 */
export function ampToolProject(tool: Tool): Tool {
  if (tool.name === "Raw") return readCall(tool.toolName, tool.input);
  // Unspellable: written under its canonical name and input, read as Amp reads that call.
  return spellable(tool) ? tool : readCall(tool.name, tool.input as Json);
}

function projectBlock(block: Block): Block {
  switch (block.type) {
    case "tool_use":
      return { type: "tool_use", id: block.id, tool: ampToolProject(block.tool) };
    case "tool_result":
      // amp.structured-error: an error's content is run.error.message, text.
      return block.isError && typeof block.content !== "string"
        ? { ...block, content: stringifyJson(block.content) }
        : block;
    case "compaction":
      // amp.compaction: a prompt holding the summary.
      return { type: "text", text: block.summary };
    default:
      return block;
  }
}

/** Whether Amp records this message's own time: prompts (sentAt) and assistant turns with usage or a model. */
function recordsTime(message: Message): boolean {
  if (message.role === "assistant")
    return message.usage !== undefined || message.model !== undefined;
  const resultsOnly =
    message.content.length > 0 && message.content.every((block) => block.type === "tool_result");
  return !resultsOnly;
}

/** amp.usage-extras: Amp's usage holds the four counts only. */
function projectUsage(usage: Usage): Usage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens,
  };
}

const threadIdShape = /^T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The documented normalization of the Amp codec (the law suite's `project`). */
export function ampProject(transcript: Transcript): Transcript {
  let clock = transcript.meta.timestamp;
  const messages = transcript.messages.map((message): Message => {
    // amp.inherited-timestamp
    if (recordsTime(message)) clock = message.timestamp;
    // amp.context: the mark is dropped, the message stays.
    const projected: Message = {
      role: message.role,
      content: message.content.map(projectBlock),
      timestamp: clock,
    };
    // amp.user-attribution: user messages keep no model, stop reason or usage.
    if (message.role === "assistant") {
      if (message.model !== undefined) projected.model = message.model;
      // amp.stateless-assistant
      projected.stopReason = message.stopReason ?? "end_turn";
      if (message.usage !== undefined) projected.usage = projectUsage(message.usage);
    }
    return projected;
  });
  const { meta } = transcript;
  // amp.thread-id
  const id = threadIdShape.test(meta.id)
    ? meta.id
    : `T-${uuidV5(meta.id, AMP_THREAD_ID_NAMESPACE)}`;
  const projectedMeta: Meta = { id, timestamp: meta.timestamp };
  // amp.ill-formed-cwd: lone surrogates become U+FFFD.
  if (meta.cwd !== undefined)
    projectedMeta.cwd = (meta.cwd as unknown as { toWellFormed(): string }).toWellFormed();
  if (meta.gitBranch !== undefined) projectedMeta.gitBranch = meta.gitBranch;
  if (meta.title !== undefined) projectedMeta.title = meta.title;
  if (meta.cliVersion !== undefined) projectedMeta.cliVersion = meta.cliVersion;
  // amp.meta-model: the first assistant turn's model.
  const model = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (model !== undefined) projectedMeta.model = model;
  // Lineage: carried under the thread's txcriptLineage key.
  if (meta.lineage !== undefined) projectedMeta.lineage = meta.lineage;
  // amp.subagents: not written.
  return { meta: projectedMeta, messages };
}
