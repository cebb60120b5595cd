// The Qwen Code codec's normalization as code: what toCommon(fromCommon(c))
// equals, written from docs/formats/qwen-code.md ("What txcript writes" and
// "Losses"): the session id Qwen Code can name a file by, the start time of
// the first message, no session model, lineage, subagents, context marks or
// stop reasons, usage as usageMetadata holds it, thinking as a thought part,
// a compaction marker as its summary, tools through the dialect table, and
// no empty text on an assistant message, nor an assistant message left empty.
import type { Block, Message, Transcript, Usage } from "@txcript/core";
import { qwenSessionId } from "./qwen-code-paths.js";
import { emptySessionMeta } from "./qwen-code-to-common.js";
import {
  canonicalToQwenTool,
  qwenToolToCanonical,
  userToolCallText,
  userToolResultText,
} from "./qwen-code-tools.js";

function projectUsage(usage: Usage): Usage {
  const thoughts = Math.min(usage.reasoningOutputTokens ?? 0, usage.outputTokens);
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens,
    cacheCreationInputTokens: 0,
    ...(thoughts > 0 ? { reasoningOutputTokens: thoughts } : {}),
  };
}

function projectBlock(block: Block, alone: boolean): Block {
  switch (block.type) {
    case "thinking":
      return {
        type: "thinking",
        text: block.text,
        ...(block.signature === undefined ? {} : { signature: block.signature }),
      };
    case "tool_use": {
      const { name, args } = canonicalToQwenTool(block.tool);
      return { type: "tool_use", id: block.id, tool: qwenToolToCanonical(name, args) };
    }
    case "compaction":
      return alone
        ? { type: "compaction", summary: block.summary }
        : { type: "text", text: block.summary };
    default:
      return block;
  }
}

function projectMessage(message: Message, userCalls: ReadonlySet<string>): Message {
  const alone =
    message.role === "user" &&
    message.content.length === 1 &&
    message.content[0]?.type === "compaction";
  // A tool call on a user message is text, and so is any result of a call made on a user message.
  const asText = (block: Block): Block =>
    message.role === "user" && block.type === "tool_use"
      ? { type: "text", text: userToolCallText(block.tool) }
      : block.type === "tool_result" && userCalls.has(block.toolUseId)
        ? { type: "text", text: userToolResultText(block.content, block.isError) }
        : projectBlock(block, alone);
  const projected: Message = {
    role: message.role,
    content: message.content.map(asText),
    timestamp: message.timestamp,
  };
  if (message.model !== undefined) projected.model = message.model;
  if (message.usage !== undefined) projected.usage = projectUsage(message.usage);
  return projected;
}

/** An empty text on an assistant message is not written, nor an assistant message with nothing else. */
function withoutEmptyModelTurns(messages: readonly Message[]): Message[] {
  return messages.flatMap((message) => {
    if (message.role !== "assistant") return [message];
    const content = message.content.filter((block) => block.type !== "text" || block.text !== "");
    return content.length === 0 ? [] : [{ ...message, content }];
  });
}

export function qwenCodeProject(transcript: Transcript): Transcript {
  const { meta } = transcript;
  const messages = withoutEmptyModelTurns(transcript.messages);
  if (messages.length === 0 && meta.title === undefined)
    return { meta: { ...emptySessionMeta }, messages: [] };
  const projected: Transcript["meta"] = {
    id: qwenSessionId(meta.id),
    timestamp: messages[0]?.timestamp ?? meta.timestamp,
  };
  if (meta.cwd !== undefined) projected.cwd = meta.cwd;
  if (meta.gitBranch !== undefined) projected.gitBranch = meta.gitBranch;
  if (meta.title !== undefined) projected.title = meta.title;
  if (meta.cliVersion !== undefined) projected.cliVersion = meta.cliVersion;
  const userCalls = new Set(
    messages.flatMap((message) =>
      message.role === "user"
        ? message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))
        : [],
    ),
  );
  return {
    meta: projected,
    messages: messages.map((message) => projectMessage(message, userCalls)),
  };
}
