// The Qwen Code codec's normalization as code: what toCommon(fromCommon(c))
// equals, written from docs/formats/qwen-code.md ("What txcript writes" and
// "Losses"): the session id Qwen Code can name a file by, the start time of
// the first message, no session model, lineage, context marks or
// stop reasons, usage as usageMetadata holds it, thinking as a thought part,
// a compaction marker as its summary, tools through the dialect table, and
// no empty text on an assistant message, nor an assistant message left empty;
// subagents only where the store saved them (qwenCodeStoreProject).
import type { Block, Message, Subagent, Transcript, Usage } from "@txcript/core";
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

/** A conversation's messages as written and read back (the session's, or a subagent's). */
function projectConversation(messages: readonly Message[]): Message[] {
  const kept = withoutEmptyModelTurns(messages);
  const userCalls = new Set(
    kept.flatMap((message) =>
      message.role === "user"
        ? message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))
        : [],
    ),
  );
  return kept.map((message) => projectMessage(message, userCalls));
}

/**
 * The subagents as the store saves and loads them ("Subagents" on the format
 * page): each keeps its toolUseId, agentType, model and a non-empty title;
 * its id is kept when it is 1 to 128 characters of [A-Za-z0-9_-], else
 * replaced by the UUID v5 a session id would get, and an id already used in
 * the session (nested ones included, in the order written: each agent, then
 * its own) becomes `<id>-<k>` (the first free k from 2); its conversation is
 * normalized like the session's; the order is kept.
 */
function projectSubagents(subagents: readonly Subagent[], used: Set<string>): Subagent[] {
  return subagents.map((subagent) => {
    const safe = /^[A-Za-z0-9_-]{1,128}$/.test(subagent.id)
      ? subagent.id
      : qwenSessionId(subagent.id);
    let id = safe;
    for (let k = 2; used.has(id); k += 1) id = `${safe}-${k}`;
    used.add(id);
    const projected: Subagent = { id, messages: projectConversation(subagent.messages) };
    if (subagent.toolUseId !== undefined) projected.toolUseId = subagent.toolUseId;
    if (subagent.title !== undefined && subagent.title !== "") projected.title = subagent.title;
    if (subagent.agentType !== undefined) projected.agentType = subagent.agentType;
    if (subagent.model !== undefined) projected.model = subagent.model;
    const nested = projectSubagents(subagent.subagents ?? [], used);
    if (nested.length > 0) projected.subagents = nested;
    return projected;
  });
}

/**
 * What a session written by fromCommon and saved by the store (session file
 * and subagent transcripts) loads back as: qwenCodeProject, with the
 * subagents kept as projectSubagents says (none for an empty session, which
 * is written as an empty file).
 */
export function qwenCodeStoreProject(transcript: Transcript): Transcript {
  const projected = qwenCodeProject(transcript);
  const empty = projected.messages.length === 0 && projected.meta.title === undefined;
  if (empty || transcript.subagents === undefined || transcript.subagents.length === 0)
    return projected;
  return { ...projected, subagents: projectSubagents(transcript.subagents, new Set()) };
}

/** What a session written by fromCommon reads back as from its one file (no subagents: they are files of their own). */
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
  return { meta: projected, messages: projectConversation(transcript.messages) };
}
