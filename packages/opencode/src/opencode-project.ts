// opencodeProject: what toCommon(fromCommon(c)) equals, written as code from
// docs/formats/opencode.md (not from the writer's functions). Each rule is a
// write loss in opencode-losses.ts; the law suite checks it over the whole
// Common generator. Nothing in the codec calls it.
import {
  type Block,
  fromCanonical,
  isJsonObject,
  type Json,
  type Message,
  type Meta,
  type Tool,
  type Transcript,
  type TypedToolName,
  type Usage,
  uuidV5,
} from "@txcript/core";
import { OPENCODE_ID_NAMESPACE } from "./opencode-ids.js";

/** OpenCode tool names with an exact canonical counterpart, and their camelCase keys (format doc, "Tools"). */
const dialect: Record<string, [TypedToolName, Record<string, string>]> = {
  bash: [
    "Bash",
    { command: "command", description: "description", timeout: "timeout", workdir: "workdir" },
  ],
  read: ["Read", { file_path: "filePath", offset: "offset", limit: "limit" }],
  write: ["Write", { file_path: "filePath", content: "content" }],
  edit: [
    "Edit",
    {
      file_path: "filePath",
      old_string: "oldString",
      new_string: "newString",
      replace_all: "replaceAll",
    },
  ],
  glob: ["Glob", { pattern: "pattern", path: "path" }],
  grep: ["Grep", { pattern: "pattern", path: "path", glob: "include" }],
  list: ["LS", { path: "path", ignore: "ignore" }],
  todowrite: ["TodoWrite", { todos: "todos" }],
  todoread: ["TodoRead", {}],
  task: ["Task", { description: "description", prompt: "prompt", subagent_type: "subagent_type" }],
  websearch: ["WebSearch", { query: "query" }],
};

/** The name and input a tool is written under: OpenCode's spelling, else its own name and input. */
function written(tool: Tool): { name: string; input: Json } {
  if (tool.name === "Raw") return { name: tool.toolName, input: tool.input };
  const input = tool.input as Record<string, Json>;
  for (const [name, [canonical, keys]] of Object.entries(dialect))
    if (canonical === tool.name && Object.keys(input).every((key) => Object.hasOwn(keys, key)))
      return { name, input: tool.input as Json };
  return { name: tool.name, input: tool.input as Json };
}

/** opencode.tool-spelling, opencode.tool-input: how a tool reads back. */
function projectTool(tool: Tool): Tool {
  const { name } = written(tool);
  let input = written(tool).input;
  if (!isJsonObject(input)) input = { value: input };
  const entry = Object.hasOwn(dialect, name) ? dialect[name] : undefined;
  if (entry !== undefined && tool.name !== "Raw" && tool.name === entry[0]) return tool;
  if (entry !== undefined && tool.name === "Raw") {
    // A Raw call under an OpenCode name reads typed when its keys are OpenCode's.
    const [canonical, keys] = entry;
    const back = Object.fromEntries(Object.entries(keys).map(([from, to]) => [to, from]));
    if (Object.keys(input).every((key) => Object.hasOwn(back, key))) {
      const canonicalInput: Record<string, Json> = {};
      for (const key of Object.keys(input))
        canonicalInput[back[key] as string] = input[key] as Json;
      const typed = fromCanonical(canonical, canonicalInput);
      if (typed.name !== "Raw") return typed;
    }
  }
  return { name: "Raw", toolName: name, input };
}

/** opencode.thinking-provider */
function projectThinking(block: Extract<Block, { type: "thinking" }>): Block {
  if (
    block.provider === undefined &&
    (block.signature !== undefined || block.encrypted !== undefined)
  )
    return { ...block, provider: "anthropic" };
  return block;
}

const finishNames: Record<string, string> = {
  stop: "end_turn",
  "tool-calls": "tool_use",
  length: "max_tokens",
  "content-filter": "refusal",
};

/** opencode.usage-spelling */
function projectUsage(usage: Usage): Usage {
  const reasoning = usage.reasoningOutputTokens ?? 0;
  const projected: Usage = {
    inputTokens: usage.inputTokens,
    outputTokens: Math.max(usage.outputTokens, reasoning),
    cacheReadInputTokens: usage.cacheReadInputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens,
  };
  if (reasoning > 0) projected.reasoningOutputTokens = reasoning;
  if (usage.costUsd !== undefined && usage.costUsd > 0) projected.costUsd = usage.costUsd;
  return projected;
}

interface Call {
  id: string;
  tool: Tool;
  result?: { content: Json; isError: boolean; timestamp: string };
}

type Item = Block | Call;

interface Stored {
  source: Message;
  items: Item[];
  context: boolean;
  compaction?: Extract<Block, { type: "compaction" }>;
}

const resultText = (content: Json): string =>
  typeof content === "string" ? content : JSON.stringify(content);

/** The session id: kept when in OpenCode's form, else derived (opencode.session-id). */
function projectId(meta: Meta): string {
  if (/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/.test(meta.id)) return meta.id;
  const time = ~(BigInt(Date.parse(meta.timestamp)) * 4096n + 1n) & ((1n << 48n) - 1n);
  let value = BigInt(
    `0x${uuidV5(`session:${meta.id}`, OPENCODE_ID_NAMESPACE).replaceAll("-", "")}`,
  );
  let tail = "";
  const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  for (let index = 0; index < 14; index += 1) {
    tail += digits[Number(value % 62n)];
    value /= 62n;
  }
  return `ses_${time.toString(16).padStart(12, "0")}${tail}`;
}

function projectMeta(meta: Meta): Meta {
  const projected: Meta = { id: projectId(meta), timestamp: meta.timestamp };
  if (meta.cwd !== undefined) projected.cwd = meta.cwd;
  projected.title = meta.title ?? `New session - ${meta.timestamp}`;
  projected.cliVersion = meta.cliVersion ?? "1.18.33";
  if (meta.model) projected.model = meta.model;
  return projected;
}

/** Lay the messages out as OpenCode stores them: results inside their calls, compactions apart. */
function store(messages: readonly Message[]): Stored[] {
  const stored: Stored[] = [];
  const pending = new Map<string, Call>();
  let clock = "";
  for (const original of messages) {
    // opencode.time-order: times never go backwards.
    if (original.timestamp > clock) clock = original.timestamp;
    const message = original.timestamp === clock ? original : { ...original, timestamp: clock };
    const context =
      message.context !== undefined &&
      message.role === "user" &&
      message.content.length > 0 &&
      message.content.every((block) => block.type === "text");
    let items: Item[] = [];
    const flush = (force: boolean) => {
      if (items.length > 0 || force) stored.push({ source: message, items, context });
      items = [];
    };
    for (const block of message.content) {
      if (block.type === "tool_use") {
        const call: Call = { id: block.id, tool: projectTool(block.tool) };
        pending.set(block.id, call);
        items.push(call);
      } else if (block.type === "tool_result") {
        const call = pending.get(block.toolUseId);
        const content = resultText(block.content);
        if (call === undefined) items.push({ type: "text", text: content });
        else {
          pending.delete(block.toolUseId);
          call.result = { content, isError: block.isError, timestamp: message.timestamp };
        }
      } else if (block.type === "compaction") {
        flush(false);
        stored.push({ source: message, items: [], context: false, compaction: block });
      } else if (block.type === "thinking") items.push(projectThinking(block));
      else if (block.type === "image") {
        if (block.source.mediaType.startsWith("image/")) items.push(block);
      } else items.push(block);
    }
    flush(message.content.length === 0);
  }
  return stored;
}

/** Read the stored layout back: each message, then its calls' results in one user message. */
function readBack(stored: Stored[]): Message[] {
  const messages: Message[] = [];
  for (const { source, items, context, compaction } of stored) {
    const timestamp = source.timestamp;
    if (compaction !== undefined) {
      const trigger = compaction.trigger === "auto" ? "auto" : "manual";
      messages.push({
        role: "user",
        content: [{ type: "compaction", summary: compaction.summary, trigger }],
        timestamp,
      });
      continue;
    }
    const content = items.map(
      (item): Block => ("type" in item ? item : { type: "tool_use", id: item.id, tool: item.tool }),
    );
    const message: Message = { role: source.role, content, timestamp };
    if (source.role === "assistant") {
      if (source.model) message.model = source.model;
      const stop = source.stopReason;
      if (stop !== undefined)
        message.stopReason = Object.hasOwn(finishNames, stop)
          ? (finishNames[stop] as string)
          : stop;
      if (source.usage !== undefined) message.usage = projectUsage(source.usage);
    } else if (context) message.context = { kind: "injected" };
    messages.push(message);
    const answered = items.flatMap((item) =>
      "type" in item || item.result === undefined ? [] : [item],
    );
    const first = answered[0]?.result;
    if (first !== undefined)
      messages.push({
        role: "user",
        content: answered.map(
          (call): Block => ({
            type: "tool_result",
            toolUseId: call.id,
            content: call.result?.content ?? "",
            isError: call.result?.isError ?? false,
          }),
        ),
        timestamp: first.timestamp,
      });
  }
  return messages;
}

/** The documented normalization of the OpenCode codec (the law suite's `project`). */
export function opencodeProject(transcript: Transcript): Transcript {
  return { meta: projectMeta(transcript.meta), messages: readBack(store(transcript.messages)) };
}
