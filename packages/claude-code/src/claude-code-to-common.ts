// Claude Code session → Common transcript. Reads the thread claude-code-thread
// picks: merges assistant lines split by message.id (usage from the part with
// the largest total, as ccusage counts it), maps slash-command markup to the
// Common Command tool with its output as the result, and takes the title from
// custom-title over summary over ai-title. Never throws on a parsed session.
import {
  type Block,
  type ConversionOptions,
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  ownValue,
  type Transcript,
  type Usage,
  warn,
} from "@txcript/core";
import { parseCommand, parseCommandOutput } from "./claude-code-commands.js";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { commandId } from "./claude-code-project.js";
import { type ClaudeCodeSession, objectAt, stringAt } from "./claude-code-schema.js";
import { type IndexedLine, selectThread } from "./claude-code-thread.js";

export interface ClaudeCodeReadOptions extends ConversionOptions {}

const epoch = "1970-01-01T00:00:00.000Z";

function isoTimestamp(value: Json | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return undefined;
  const date = new Date(time);
  return date.getUTCFullYear() >= 0 && date.getUTCFullYear() <= 9999
    ? date.toISOString()
    : undefined;
}

function count(value: Json | undefined): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

function readUsage(usage: JsonObject | undefined): Usage | undefined {
  if (usage === undefined) return undefined;
  return {
    inputTokens: count(ownValue(usage, "input_tokens")),
    outputTokens: count(ownValue(usage, "output_tokens")),
    cacheReadInputTokens: count(ownValue(usage, "cache_read_input_tokens")),
    cacheCreationInputTokens: count(ownValue(usage, "cache_creation_input_tokens")),
  };
}

function total(usage: Usage): number {
  return (
    usage.inputTokens +
    usage.outputTokens +
    usage.cacheReadInputTokens +
    usage.cacheCreationInputTokens
  );
}

interface Reader {
  options: ConversionOptions | undefined;
  commandOrdinal: number;
  /** The last slash command still waiting for its output. */
  pendingCommand: string | undefined;
}

function readBlock(block: Json, reader: Reader): Block | undefined {
  if (!isJsonObject(block)) return unknownBlock(reader, "a content block that is not an object");
  const type = ownValue(block, "type");
  switch (type) {
    case "text": {
      const text = ownValue(block, "text");
      return { type: "text", text: typeof text === "string" ? text : "" };
    }
    case "thinking": {
      const text = ownValue(block, "thinking");
      const signature = stringAt(block, "signature");
      return {
        type: "thinking",
        text: typeof text === "string" ? text : "",
        ...(signature === undefined ? {} : { signature }),
        provider: "anthropic",
      };
    }
    case "redacted_thinking":
      return {
        type: "thinking",
        text: "",
        encrypted: stringAt(block, "data") ?? "",
        provider: "anthropic",
      };
    case "tool_use": {
      const id = stringAt(block, "id");
      const name = stringAt(block, "name");
      if (id === undefined || id === "" || name === undefined)
        return unknownBlock(reader, "a tool_use without id or name");
      return { type: "tool_use", id, tool: fromCanonical(name, ownValue(block, "input") ?? null) };
    }
    case "tool_result": {
      const toolUseId = stringAt(block, "tool_use_id");
      if (toolUseId === undefined || toolUseId === "")
        return unknownBlock(reader, "a tool_result without tool_use_id");
      return {
        type: "tool_result",
        toolUseId,
        content: ownValue(block, "content") ?? "",
        isError: ownValue(block, "is_error") === true,
      };
    }
    case "image": {
      const source = objectAt(block, "source");
      const mediaType = source === undefined ? undefined : stringAt(source, "media_type");
      const data = source === undefined ? undefined : stringAt(source, "data");
      if (
        (source === undefined ? undefined : ownValue(source, "type")) !== "base64" ||
        mediaType === undefined ||
        mediaType === "" ||
        data === undefined
      )
        return unknownBlock(reader, "an image that is not inline base64");
      return { type: "image", source: { type: "base64", mediaType, data } };
    }
    default:
      return unknownBlock(reader, `a ${typeof type === "string" ? type : "untyped"} block`);
  }
}

function unknownBlock(reader: Reader, what: string): undefined {
  warn(reader.options, claudeCodeLoss.unknownBlock, `dropped ${what}`);
  return undefined;
}

/** The blocks of a string content: a slash command, its output, or plain text. */
function readStringContent(content: string, reader: Reader): Block[] {
  const command = parseCommand(content);
  if (command !== undefined) {
    reader.commandOrdinal += 1;
    const id = commandId(reader.commandOrdinal);
    reader.pendingCommand = id;
    warn(
      reader.options,
      claudeCodeLoss.commandMarkup,
      "slash-command markup became a Command call",
    );
    return [{ type: "tool_use", id, tool: fromCanonical("Command", command as unknown as Json) }];
  }
  const output = parseCommandOutput(content);
  if (output !== undefined && reader.pendingCommand !== undefined) {
    const toolUseId = reader.pendingCommand;
    reader.pendingCommand = undefined;
    return [{ type: "tool_result", toolUseId, content: output.text, isError: output.isError }];
  }
  return [{ type: "text", text: content }];
}

function readContent(content: Json | undefined, reader: Reader): Block[] {
  if (typeof content === "string") return readStringContent(content, reader);
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const block of content) {
    const read = readBlock(block, reader);
    if (read !== undefined) blocks.push(read);
  }
  return blocks;
}

function readTitle(lines: readonly IndexedLine[], uuids: ReadonlySet<string>): string | undefined {
  let custom: string | undefined;
  let summary: string | undefined;
  let ai: string | undefined;
  for (const { value } of lines) {
    const type = stringAt(value, "type");
    if (type === "custom-title") custom = stringAt(value, "customTitle") ?? custom;
    else if (type === "ai-title") ai = stringAt(value, "aiTitle") ?? ai;
    else if (type === "summary") {
      // A summary names the leaf it summarizes; one naming a line of another file titles that session.
      const leaf = stringAt(value, "leafUuid");
      if (leaf !== undefined && uuids.has(leaf)) summary = stringAt(value, "summary") ?? summary;
    }
  }
  return custom ?? summary ?? ai;
}

function firstString(lines: readonly IndexedLine[], key: string): string | undefined {
  for (const { value } of lines) {
    const found = stringAt(value, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function claudeCodeToCommon(
  session: ClaudeCodeSession,
  options?: ClaudeCodeReadOptions,
): Transcript {
  const all: IndexedLine[] = [];
  session.lines.forEach((line, index) => {
    if (line.value !== undefined) all.push({ index, value: line.value });
  });
  const thread = selectThread(all);
  if (thread.sidechainCount > 0)
    warn(
      options,
      claudeCodeLoss.sidechain,
      "left out subagent lines",
      undefined,
      thread.sidechainCount,
    );
  if (thread.branchCount > 0)
    warn(
      options,
      claudeCodeLoss.branch,
      "left out lines of abandoned branches",
      undefined,
      thread.branchCount,
    );
  if (thread.duplicateCount > 0)
    warn(
      options,
      claudeCodeLoss.duplicateLine,
      "dropped lines repeating a uuid",
      undefined,
      thread.duplicateCount,
    );

  const reader: Reader = { options, commandOrdinal: 0, pendingCommand: undefined };
  const messages: Message[] = [];
  const byMessageId = new Map<string, Message>();
  let clock: string | undefined;
  for (const { value } of thread.lines) {
    const type = stringAt(value, "type");
    const timestamp = isoTimestamp(ownValue(value, "timestamp")) ?? clock ?? epoch;
    clock = timestamp;
    if (type === "system") {
      // Newer versions record local slash commands as system lines.
      const content = stringAt(value, "content");
      if (stringAt(value, "subtype") !== "local_command" || content === undefined) continue;
      messages.push({ role: "user", content: readStringContent(content, reader), timestamp });
      continue;
    }
    if (type !== "user" && type !== "assistant") continue;
    const message = objectAt(value, "message");
    if (message === undefined) continue;
    if (type === "user") {
      const parent = ownValue(value, "parentUuid");
      if (
        ownValue(value, "isCompactSummary") === true &&
        typeof parent === "string" &&
        thread.crossedBoundaries.has(parent)
      ) {
        warn(options, claudeCodeLoss.compactSummary, "left out a compaction summary");
        continue;
      }
      messages.push({
        role: "user",
        content: readContent(ownValue(message, "content"), reader),
        timestamp,
      });
      continue;
    }
    const id = stringAt(message, "id");
    const content = readContent(ownValue(message, "content"), reader);
    const stopReason = stringAt(message, "stop_reason");
    const known = id === undefined ? undefined : byMessageId.get(id);
    const usage = readUsage(objectAt(message, "usage"));
    if (known !== undefined) {
      known.content.push(...content);
      if (stopReason !== undefined && stopReason !== "") known.stopReason = stopReason;
      // Each part repeats the usage as streamed so far: keep the largest, as ccusage does.
      if (usage !== undefined && (known.usage === undefined || total(usage) > total(known.usage)))
        known.usage = usage;
      continue;
    }
    const model = stringAt(message, "model");
    const read: Message = { role: "assistant", content, timestamp };
    if (model !== undefined && model !== "" && model !== "<synthetic>") read.model = model;
    if (stopReason !== undefined && stopReason !== "") read.stopReason = stopReason;
    if (usage !== undefined) read.usage = usage;
    messages.push(read);
    if (id !== undefined) byMessageId.set(id, read);
  }

  const uuids = new Set<string>();
  for (const { value } of all) {
    const uuid = stringAt(value, "uuid");
    if (uuid !== undefined) uuids.add(uuid);
  }
  const sessionId = firstString(all, "sessionId");
  let timestamp: string | undefined;
  for (const { value } of all) {
    timestamp = isoTimestamp(ownValue(value, "timestamp"));
    if (timestamp !== undefined) break;
  }
  const meta: Meta = {
    id: sessionId !== undefined && sessionId !== "" ? sessionId : "unknown-session",
    timestamp: timestamp ?? messages[0]?.timestamp ?? epoch,
  };
  const cwd = firstString(all, "cwd");
  if (cwd !== undefined) meta.cwd = cwd;
  const gitBranch = firstString(all, "gitBranch");
  if (gitBranch !== undefined && gitBranch !== "") meta.gitBranch = gitBranch;
  const title = readTitle(all, uuids);
  if (title !== undefined) meta.title = title;
  const version = firstString(all, "version");
  if (version !== undefined) meta.cliVersion = version;
  const model = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (model !== undefined) meta.model = model;
  return { meta, messages };
}
