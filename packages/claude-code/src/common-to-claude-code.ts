// Common → Claude Code session lines, in one pass: the messages of the
// projection (claudeCodeProjection, where every loss happens and is reported
// once) are printed as they come, so no normalized copy of the transcript
// and no tree of line objects outlives its own line (and a caller may write
// each line out before the next is made: commonToClaudeCodeLines). A leading system line
// carries the session's start, one line per message follows with a full
// envelope on one parentUuid chain, and the title comes last.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  stringifyJson,
  type Transcript,
  toCanonical,
} from "@txcript/core";
import { commandMarkup, commandOutputMarkup } from "./claude-code-commands.js";
import { claudeSessionId } from "./claude-code-paths.js";
import { claudeCodeProjection, isCommandLine } from "./claude-code-project.js";
import {
  type ClaudeCodeLine,
  type ClaudeCodeSession,
  harness,
  writtenLine,
} from "./claude-code-schema.js";
import { claudeUuid, claudeUuidHex } from "./claude-code-uuid.js";

/** Text of the system line that opens every session txcript writes. */
export const importNotice = "Session converted by txcript.";

export interface ClaudeCodeWriteOptions extends ConversionOptions {}

// The objects below are literals with the writer's own keys only (values
// from the transcript are placed, never used as keys), and they exist just
// long enough to be printed. A key whose value is undefined is left out by
// JSON.stringify, which is how an optional key (cwd, version, model, usage)
// is omitted; nothing else ever sees these objects.

function blockToClaude(block: Block): Json {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return block.signature !== undefined
        ? { type: "thinking", thinking: block.text, signature: block.signature }
        : { type: "redacted_thinking", data: block.encrypted ?? "" };
    case "tool_use": {
      const { name, input } = toCanonical(block.tool);
      return { type: "tool_use", id: block.id, name, input };
    }
    case "tool_result":
      return {
        type: "tool_result",
        tool_use_id: block.toolUseId,
        content: block.content,
        is_error: block.isError,
      };
    case "image":
      return {
        type: "image",
        source: { type: "base64", media_type: block.source.mediaType, data: block.source.data },
      };
  }
}

function contentToClaude(content: readonly Block[]): Json[] {
  const blocks: Json[] = new Array(content.length);
  for (let index = 0; index < content.length; index += 1)
    blocks[index] = blockToClaude(content[index] as Block);
  return blocks;
}

function userContent(message: Message, commandIds: ReadonlySet<string>): Json {
  if (isCommandLine(message, commandIds)) {
    const block = message.content[0] as Block;
    if (block.type === "tool_use") {
      const input = block.tool.input as { command: string; args?: string };
      return commandMarkup(input.command, input.args);
    }
    if (block.type === "tool_result")
      return commandOutputMarkup(block.content as string, block.isError);
  }
  // Always a block array: Claude Code reads markup only from string content,
  // so a user's text can never be mistaken for a slash command.
  return contentToClaude(message.content);
}

function usageToClaude(usage: Message["usage"]): Json | undefined {
  if (usage === undefined) return undefined;
  return {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    output_tokens: usage.outputTokens,
  };
}

function print(value: object): string {
  return stringifyJson(value, undefined, harness);
}

/**
 * The lines fromCommon writes, one text at a time (without its newline; the
 * session ends with one after the last), each printed when asked for: a
 * caller writing them straight to a file never holds the whole session.
 * Losses are reported as the messages are reached, meta's after the last.
 */
export function* commonToClaudeCodeLines(
  transcript: Transcript,
  options?: ClaudeCodeWriteOptions,
): Generator<string> {
  const projection = claudeCodeProjection(transcript, options);
  const { meta } = transcript;
  const sessionId = claudeSessionId(meta.id);
  // The envelope every conversation line opens with, in Claude Code's key order.
  const cwd = meta.cwd;
  const version = meta.cliVersion;
  const gitBranch = meta.gitBranch ?? "";
  let ordinal = 0;
  const nextUuid = () => claudeUuid(`${sessionId}:line:${ordinal++}`);

  let parent = nextUuid();
  yield print({
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd,
    sessionId,
    version,
    gitBranch,
    type: "system",
    subtype: "informational",
    content: importNotice,
    isMeta: false,
    timestamp: meta.timestamp,
    uuid: parent,
    level: "info",
  });

  let index = 0;
  let firstModel: string | undefined;
  for (const message of projection.messages) {
    const uuid = nextUuid();
    if (message.role === "user") {
      yield print({
        parentUuid: parent,
        isSidechain: false,
        userType: "external",
        cwd,
        sessionId,
        version,
        gitBranch,
        type: "user",
        message: { role: "user", content: userContent(message, projection.commandIds) },
        uuid,
        timestamp: message.timestamp,
      });
    } else {
      firstModel ??= message.model;
      yield print({
        parentUuid: parent,
        isSidechain: false,
        userType: "external",
        cwd,
        sessionId,
        version,
        gitBranch,
        message: {
          model: message.model,
          id: `msg_txcript${claudeUuidHex(`${sessionId}:message:${index}`)}`,
          type: "message",
          role: "assistant",
          content: contentToClaude(message.content),
          stop_reason: message.stopReason ?? null,
          stop_sequence: null,
          usage: usageToClaude(message.usage),
        },
        requestId: `req_txcript${claudeUuidHex(`${sessionId}:request:${index}`)}`,
        type: "assistant",
        uuid,
        timestamp: message.timestamp,
      });
    }
    parent = uuid;
    index += 1;
  }
  // Reports the meta losses, after the messages' (the model needs them all).
  projection.meta(firstModel);

  if (meta.title !== undefined)
    yield print({ type: "custom-title", customTitle: meta.title, sessionId });
}

export function commonToClaudeCode(
  transcript: Transcript,
  options?: ClaudeCodeWriteOptions,
): ClaudeCodeSession {
  const lines: ClaudeCodeLine[] = [];
  for (const text of commonToClaudeCodeLines(transcript, options)) lines.push(writtenLine(text));
  return { lines, trailingNewline: true };
}
