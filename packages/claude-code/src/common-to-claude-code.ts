// Common → Claude Code session lines. The transcript is first normalized by
// claudeCodeProject (every loss happens there, reported once); this module
// only prints the normalized transcript as lines Claude Code resumes: a
// leading system line carrying the session's start, one line per message
// with full envelopes on one parentUuid chain, and the title last.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  type Message,
  type Transcript,
  toCanonical,
  uuidV5,
} from "@txcript/core";
import { commandMarkup, commandOutputMarkup } from "./claude-code-commands.js";
import { claudeCodeNamespace } from "./claude-code-paths.js";
import { claudeCodeProject, isCommandLine, userCommandIds } from "./claude-code-project.js";
import {
  type ClaudeCodeLine,
  type ClaudeCodeSession,
  jsonObject,
  lineOf,
} from "./claude-code-schema.js";

/** Text of the system line that opens every session txcript writes. */
export const importNotice = "Session converted by txcript.";

export interface ClaudeCodeWriteOptions extends ConversionOptions {}

function hex(name: string): string {
  return uuidV5(name, claudeCodeNamespace).replaceAll("-", "");
}

function blockToClaude(block: Block): Json {
  switch (block.type) {
    case "text":
      return jsonObject([
        ["type", "text"],
        ["text", block.text],
      ]);
    case "thinking":
      if (block.signature !== undefined)
        return jsonObject([
          ["type", "thinking"],
          ["thinking", block.text],
          ["signature", block.signature],
        ]);
      return jsonObject([
        ["type", "redacted_thinking"],
        ["data", block.encrypted ?? ""],
      ]);
    case "tool_use": {
      const { name, input } = toCanonical(block.tool);
      return jsonObject([
        ["type", "tool_use"],
        ["id", block.id],
        ["name", name],
        ["input", input],
      ]);
    }
    case "tool_result":
      return jsonObject([
        ["type", "tool_result"],
        ["tool_use_id", block.toolUseId],
        ["content", block.content],
        ["is_error", block.isError],
      ]);
    case "image":
      return jsonObject([
        ["type", "image"],
        [
          "source",
          jsonObject([
            ["type", "base64"],
            ["media_type", block.source.mediaType],
            ["data", block.source.data],
          ]),
        ],
      ]);
  }
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
  return message.content.map(blockToClaude);
}

function usageToClaude(usage: NonNullable<Message["usage"]>): JsonObject {
  return jsonObject([
    ["input_tokens", usage.inputTokens],
    ["cache_creation_input_tokens", usage.cacheCreationInputTokens],
    ["cache_read_input_tokens", usage.cacheReadInputTokens],
    ["output_tokens", usage.outputTokens],
  ]);
}

export function commonToClaudeCode(
  transcript: Transcript,
  options?: ClaudeCodeWriteOptions,
): ClaudeCodeSession {
  const { meta, messages } = claudeCodeProject(transcript, options);
  const sessionId = meta.id;
  const commandIds = userCommandIds(messages);
  const envelope = (parentUuid: string | null): [string, Json | undefined][] => [
    ["parentUuid", parentUuid],
    ["isSidechain", false],
    ["userType", "external"],
    ["cwd", meta.cwd],
    ["sessionId", sessionId],
    ["version", meta.cliVersion],
    ["gitBranch", meta.gitBranch ?? ""],
  ];
  const lines: ClaudeCodeLine[] = [];
  let parent: string | null = null;
  let ordinal = 0;
  const nextUuid = () => uuidV5(`${sessionId}:line:${ordinal++}`, claudeCodeNamespace);

  const openingUuid = nextUuid();
  lines.push(
    lineOf(
      jsonObject([
        ...envelope(null),
        ["type", "system"],
        ["subtype", "informational"],
        ["content", importNotice],
        ["isMeta", false],
        ["timestamp", meta.timestamp],
        ["uuid", openingUuid],
        ["level", "info"],
      ]),
    ),
  );
  parent = openingUuid;

  messages.forEach((message, index) => {
    const uuid = nextUuid();
    if (message.role === "user") {
      lines.push(
        lineOf(
          jsonObject([
            ...envelope(parent),
            ["type", "user"],
            [
              "message",
              jsonObject([
                ["role", "user"],
                ["content", userContent(message, commandIds)],
              ]),
            ],
            ["uuid", uuid],
            ["timestamp", message.timestamp],
          ]),
        ),
      );
    } else {
      const apiMessage = jsonObject([
        ["model", message.model],
        ["id", `msg_txcript${hex(`${sessionId}:message:${index}`)}`],
        ["type", "message"],
        ["role", "assistant"],
        ["content", message.content.map(blockToClaude)],
        ["stop_reason", message.stopReason ?? null],
        ["stop_sequence", null],
        ["usage", message.usage === undefined ? undefined : usageToClaude(message.usage)],
      ]);
      lines.push(
        lineOf(
          jsonObject([
            ...envelope(parent),
            ["message", apiMessage],
            ["requestId", `req_txcript${hex(`${sessionId}:request:${index}`)}`],
            ["type", "assistant"],
            ["uuid", uuid],
            ["timestamp", message.timestamp],
          ]),
        ),
      );
    }
    parent = uuid;
  });

  if (meta.title !== undefined) {
    lines.push(
      lineOf(
        jsonObject([
          ["type", "custom-title"],
          ["customTitle", meta.title],
          ["sessionId", sessionId],
        ]),
      ),
    );
  }
  return { lines, trailingNewline: true };
}
