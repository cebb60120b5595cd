// The Claude Code normalization of a Common transcript: every change writing
// it as a Claude Code session makes, written as code. fromCommon writes
// exactly this transcript, so toCommon(parse(serialize(fromCommon(c)))) equals
// claudeCodeProject(c) — the law suite checks it. Not the writer itself:
// see common-to-claude-code.ts for the lines.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type Message,
  type Meta,
  ownValue,
  stringifyJson,
  type ToolResultBlock,
  type Transcript,
  toCanonical,
  warn,
} from "@txcript/core";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { claudeSessionId } from "./claude-code-paths.js";

/** The content of the result synthesized for a tool call that has none. */
export const missingResultText =
  "[txcript: this tool call has no result in the source session; the call was not answered]";

/** Id a user slash command reads back with: its 1-based ordinal in the session. */
export function commandId(ordinal: number): string {
  return `command-${ordinal}`;
}

/** A Claude Code tool_result content: a string, or a non-empty list of plain text/image blocks. */
export function isClaudeBlockList(content: Json): boolean {
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((item) => {
    if (!isJsonObject(item)) return false;
    const keys = Object.keys(item).sort().join(",");
    const type = ownValue(item, "type");
    if (type === "text") return keys === "text,type" && typeof ownValue(item, "text") === "string";
    const source = ownValue(item, "source");
    if (type !== "image" || keys !== "source,type" || !isJsonObject(source)) return false;
    return (
      Object.keys(source).sort().join(",") === "data,media_type,type" &&
      ownValue(source, "type") === "base64" &&
      typeof ownValue(source, "media_type") === "string" &&
      typeof ownValue(source, "data") === "string"
    );
  });
}

function flattenContent(content: Json, options: ConversionOptions | undefined): Json {
  if (typeof content === "string" || isClaudeBlockList(content)) return content;
  warn(options, claudeCodeLoss.jsonToolOutput, "structured tool output became its JSON text");
  return stringifyJson(content, undefined, "claude_code");
}

function normalizeThinking(
  block: Block & { type: "thinking" },
  options?: ConversionOptions,
): Block[] {
  if (block.provider !== undefined && block.provider !== "anthropic") {
    warn(options, claudeCodeLoss.thinkingDropped, `dropped ${block.provider} reasoning`);
    return [];
  }
  if (block.signature !== undefined) {
    if (block.encrypted !== undefined)
      warn(options, claudeCodeLoss.thinkingEncryptedDropped, "dropped encrypted reasoning");
    return [
      { type: "thinking", text: block.text, signature: block.signature, provider: "anthropic" },
    ];
  }
  if (block.encrypted !== undefined && block.text === "") {
    return [{ type: "thinking", text: "", encrypted: block.encrypted, provider: "anthropic" }];
  }
  warn(options, claudeCodeLoss.thinkingDropped, "dropped thinking without a signature");
  return [];
}

function isUserCommand(block: Block): boolean {
  return block.type === "tool_use" && block.tool.name === "Command";
}

/** Meta as it reads back; `model` is settled once the messages are. */
function normalizeMeta(meta: Meta, options?: ConversionOptions): Meta {
  const id = claudeSessionId(meta.id);
  if (id !== meta.id && id !== meta.id.toLowerCase())
    warn(options, claudeCodeLoss.foreignSessionId, `session id ${meta.id} became ${id}`);
  const normalized: Meta = { id, timestamp: meta.timestamp };
  if (meta.cwd !== undefined) normalized.cwd = meta.cwd;
  if (meta.gitBranch !== undefined && meta.gitBranch !== "") normalized.gitBranch = meta.gitBranch;
  else if (meta.gitBranch === "") warn(options, claudeCodeLoss.emptyGitBranch, "empty git branch");
  if (meta.title !== undefined) normalized.title = meta.title;
  if (meta.cliVersion !== undefined) normalized.cliVersion = meta.cliVersion;
  return normalized;
}

function userMessage(content: Block[], timestamp: string): Message {
  return { role: "user", content, timestamp };
}

/**
 * Step 1: one message per Claude Code line. Thinking follows Anthropic's
 * rules, results leave assistant messages, user messages lose model fields,
 * and a user slash Command (with its result right after it) gets a line of
 * its own.
 */
function splitMessages(messages: Message[], options?: ConversionOptions): Message[] {
  const commandIds = new Set<string>();
  for (const message of messages)
    if (message.role === "user")
      for (const block of message.content)
        if (isUserCommand(block)) commandIds.add((block as { id: string }).id);
  const commandResults = new Map<string, ToolResultBlock>();
  for (const message of messages)
    for (const block of message.content)
      if (
        block.type === "tool_result" &&
        commandIds.has(block.toolUseId) &&
        !commandResults.has(block.toolUseId)
      )
        commandResults.set(block.toolUseId, block);
  const placed = new Set<ToolResultBlock>();
  const out: Message[] = [];
  for (const message of messages) {
    const blocks: Block[] = [];
    for (const block of message.content) {
      if (block.type === "thinking") blocks.push(...normalizeThinking(block, options));
      else blocks.push(block);
    }
    if (message.role === "assistant") {
      const kept = blocks.filter((block) => block.type !== "tool_result");
      const moved = blocks.filter((block) => block.type === "tool_result");
      const { content: _, ...fields } = message;
      out.push({ ...fields, content: kept });
      if (moved.length > 0) {
        warn(
          options,
          claudeCodeLoss.resultOnAssistant,
          "moved tool results to a user message",
          undefined,
          moved.length,
        );
        out.push(userMessage(moved, message.timestamp));
      }
      continue;
    }
    if (
      message.model !== undefined ||
      message.stopReason !== undefined ||
      message.usage !== undefined
    )
      warn(options, claudeCodeLoss.userMessageFields, "dropped model fields of a user message");
    let group: Block[] = [];
    let grouped = false;
    const flush = () => {
      if (grouped) out.push(userMessage(group, message.timestamp));
      group = [];
      grouped = false;
    };
    // A message with no blocks stays one (empty) message.
    if (blocks.length === 0) out.push(userMessage([], message.timestamp));
    for (const block of blocks) {
      if (isUserCommand(block)) {
        flush();
        out.push(userMessage([block], message.timestamp));
        const result = commandResults.get((block as { id: string }).id);
        if (result !== undefined && !placed.has(result)) {
          placed.add(result);
          out.push(userMessage([result], message.timestamp));
        }
      } else if (block.type === "tool_result" && commandResults.get(block.toolUseId) === block) {
        // Placed right after its command (or dropped with the duplicate).
      } else if (block.type === "tool_use") {
        warn(options, claudeCodeLoss.userToolUse, "a tool call on a user message became text");
        const { name, input } = toCanonical(block.tool);
        group.push({ type: "text", text: `[tool call ${name} ${stringifyJson(input)}]` });
        grouped = true;
      } else {
        group.push(block);
        grouped = true;
      }
    }
    // A message left with nothing of its own (its command output moved) adds no line.
    flush();
  }
  return out;
}

/** Step 2: tool results hold text or content blocks; commands get ordinal ids. */
function rewriteContent(messages: Message[], options?: ConversionOptions): Message[] {
  const renamed = new Map<string, string>();
  let ordinal = 0;
  for (const message of messages)
    if (
      message.role === "user" &&
      message.content.length === 1 &&
      isUserCommand(message.content[0] as Block)
    ) {
      ordinal += 1;
      const block = message.content[0] as Block & { type: "tool_use" };
      renamed.set(block.id, commandId(ordinal));
    }
  return messages.map((message) => {
    const content = message.content.map((block): Block => {
      if (block.type === "tool_result") {
        const toolUseId =
          message.role === "user" && message.content.length === 1
            ? renamed.get(block.toolUseId)
            : undefined;
        return {
          type: "tool_result",
          toolUseId: toolUseId ?? block.toolUseId,
          content:
            toolUseId !== undefined
              ? commandOutput(block.content)
              : flattenContent(block.content, options),
          isError: block.isError,
        };
      }
      if (block.type === "tool_use" && message.role === "user") {
        warn(options, claudeCodeLoss.userToolUse, "a slash command got a new id");
        const input = block.tool.input as { command: string; args?: string };
        const tool = {
          name: "Command" as const,
          input: { command: input.command, ...(input.args ? { args: input.args } : {}) },
        };
        return { type: "tool_use", id: renamed.get(block.id) ?? block.id, tool };
      }
      return block;
    });
    return { ...message, content };
  });
}

function commandOutput(content: Json): string {
  return typeof content === "string" ? content : stringifyJson(content, undefined, "claude_code");
}

/** Step 3: every tool call is answered in the user message right after it. */
function answerOrphans(messages: Message[], options?: ConversionOptions): Message[] {
  const answered = new Set<string>();
  for (const message of messages)
    if (message.role === "user")
      for (const block of message.content)
        if (block.type === "tool_result") answered.add(block.toolUseId);
  const commandIds = userCommandIds(messages);
  const out: Message[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    out.push(message);
    if (message.role !== "assistant") continue;
    const synthesized: Block[] = [];
    for (const block of message.content) {
      if (block.type !== "tool_use" || answered.has(block.id)) continue;
      answered.add(block.id);
      synthesized.push({
        type: "tool_result",
        toolUseId: block.id,
        content: missingResultText,
        isError: true,
      });
    }
    if (synthesized.length === 0) continue;
    warn(
      options,
      claudeCodeLoss.orphanToolUse,
      "synthesized an error result for an unanswered tool call",
      undefined,
      synthesized.length,
    );
    const next = messages[index + 1];
    if (next !== undefined && next.role === "user" && !isCommandLine(next, commandIds)) {
      messages[index + 1] = { ...next, content: [...synthesized, ...next.content] };
    } else {
      out.push(userMessage(synthesized, message.timestamp));
    }
  }
  return out;
}

/** Ids of the user slash commands: a Command call alone on a user message. */
export function userCommandIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    const block = message.content[0];
    if (message.role === "user" && message.content.length === 1 && block && isUserCommand(block))
      ids.add((block as { id: string }).id);
  }
  return ids;
}

/** A user message written as command markup: a lone slash Command, or its output. */
export function isCommandLine(message: Message, commandIds: ReadonlySet<string>): boolean {
  if (message.role !== "user" || message.content.length !== 1) return false;
  const block = message.content[0] as Block;
  if (block.type === "tool_use") return isUserCommand(block);
  return block.type === "tool_result" && commandIds.has(block.toolUseId);
}

/**
 * The transcript a Claude Code session written by fromCommon reads back as.
 * Pass `options` to hear each loss as it is applied (fromCommon does).
 */
export function claudeCodeProject(transcript: Transcript, options?: ConversionOptions): Transcript {
  const messages = answerOrphans(
    rewriteContent(splitMessages(transcript.messages, options), options),
    options,
  );
  const meta = normalizeMeta(transcript.meta, options);
  const firstModel = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (transcript.meta.model !== undefined && transcript.meta.model !== firstModel)
    warn(
      options,
      claudeCodeLoss.metaModel,
      "the session model reads back as the first assistant model",
    );
  if (firstModel !== undefined) meta.model = firstModel;
  return { meta, messages };
}
