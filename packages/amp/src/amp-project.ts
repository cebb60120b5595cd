// ampProject: what toCommon(fromCommon(c)) equals, written as code. Each
// rule is one of the write losses in amp-losses.ts; the law suite checks it
// over the full Common generator. It is documentation that runs, not a
// conversion path: nothing in the codec calls it.
import {
  type Block,
  type Json,
  jsonEqual,
  type Message,
  type Meta,
  stringifyJson,
  type Tool,
  type Transcript,
} from "@txcript/core";
import { ampThreadId } from "./amp-ids.js";
import { ampSpelling, ampToolToCommon } from "./amp-tools.js";
import { carriesTimestamp } from "./common-to-amp.js";

/** amp.tool-spelling: Raw pairs read as Amp reads them; unspellable typed tools come back Raw. */
function projectTool(tool: Tool): Tool {
  if (tool.name === "Raw") return ampToolToCommon(tool.toolName, tool.input);
  return ampSpelling(tool) === undefined
    ? { name: "Raw", toolName: tool.name, input: tool.input as Json }
    : tool;
}

function projectBlock(block: Block): Block {
  if (block.type === "tool_use") {
    const tool = projectTool(block.tool);
    return jsonEqual(tool, block.tool) ? block : { ...block, tool };
  }
  // amp.structured-error: error content is text in Amp.
  if (block.type === "tool_result" && block.isError && typeof block.content !== "string")
    return { ...block, content: stringifyJson(block.content) };
  return block;
}

/** amp.ill-formed-cwd: lone surrogates become U+FFFD. */
function wellFormed(text: string): string {
  return (text as unknown as { toWellFormed(): string }).toWellFormed();
}

/** The documented normalization of the Amp codec (the law suite's `project`). */
export function ampProject(transcript: Transcript): Transcript {
  let clock = transcript.meta.timestamp;
  const messages = transcript.messages.map((message): Message => {
    // amp.inherited-timestamp
    if (carriesTimestamp(message)) clock = message.timestamp;
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
      if (message.usage !== undefined) projected.usage = message.usage;
    }
    return projected;
  });
  const { meta } = transcript;
  // amp.thread-id
  const projectedMeta: Meta = { id: ampThreadId(meta.id), timestamp: meta.timestamp };
  if (meta.cwd !== undefined) projectedMeta.cwd = wellFormed(meta.cwd);
  if (meta.gitBranch !== undefined) projectedMeta.gitBranch = meta.gitBranch;
  if (meta.title !== undefined) projectedMeta.title = meta.title;
  if (meta.cliVersion !== undefined) projectedMeta.cliVersion = meta.cliVersion;
  // amp.meta-model: the first assistant turn's model.
  const model = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (model !== undefined) projectedMeta.model = model;
  return { meta: projectedMeta, messages };
}
