// Every representational loss of the stream-json codec, by code. Read-side
// losses are what a capture holds that the Common model has no place for;
// write-side losses are what a Common transcript holds that a stream-json
// capture (in the chosen dialect) cannot carry. docs/formats/stream-json.md
// explains each one; `streamJsonProject` states them as code.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const streamJsonLoss = {
  runStatistics: loss(
    "stream_json.run-statistics",
    "unsupported",
    "a `result` line's run statistics (duration, API duration, cost, num_turns, usage totals, model usage, permission denials, error text) have no place in Common",
  ),
  systemLines: loss(
    "stream_json.system-lines",
    "unsupported",
    "`system` lines other than `init` and `compact_boundary` (status, hook, error and other subtypes) are dropped",
  ),
  sessionDetails: loss(
    "stream_json.session-details",
    "bookkeeping",
    "what `init` holds beyond the session id, cwd, model and CLI version (tools, MCP servers, permission mode, agent mode, slash commands, ...) is dropped",
  ),
  partialEvents: loss(
    "stream_json.partial-events",
    "bookkeeping",
    "`stream_event` partial-message lines are skipped; the complete `assistant` lines that follow carry the same content",
  ),
  unknownLines: loss(
    "stream_json.unknown-lines",
    "unsupported",
    "lines of a type other than system, user, assistant, result and stream_event are dropped",
  ),
  unknownBlocks: loss(
    "stream_json.unknown-blocks",
    "unsupported",
    "content blocks other than text, image (base64), thinking, redacted_thinking, tool_use and tool_result are dropped",
  ),
  toolUseResult: loss(
    "stream_json.tool-use-result",
    "unsupported",
    "Claude Code's structured `tool_use_result` on user lines is dropped; the tool_result block the model saw stays",
  ),
  usageCount: loss(
    "stream_json.usage-count",
    "degraded",
    "a token count that is there but not a non-negative integer reads as 0",
  ),
  usageDetails: loss(
    "stream_json.usage-details",
    "unsupported",
    "usage keys beyond the four token counts (the `cache_creation` 5m/1h split, service_tier, max_tokens, server tool use) stay in the capture only",
  ),
  synthesizedTimestamps: loss(
    "stream_json.synthesized-timestamps",
    "degraded",
    "lines without a `timestamp` are stamped from the start time (the capture's modification time, or now), one millisecond apart, in order",
  ),
  truncatedLine: loss(
    "stream_json.truncated-line",
    "degraded",
    "a final line cut off mid-write (the producing process was killed) is kept in the capture but not converted",
  ),
  metaFields: loss(
    "stream_json.meta-fields",
    "unsupported",
    "a capture has no place for the title or git branch (and, in the Amp dialect, for the model and CLI version)",
  ),
  messageModel: loss(
    "stream_json.message-model",
    "unsupported",
    "the Amp dialect has no per-message model",
  ),
  stopReason: loss(
    "stream_json.stop-reason",
    "degraded",
    "a stop reason the dialect cannot spell is written as null (Claude spells aborted and error turns with `aborted` and `error`)",
  ),
  image: loss(
    "stream_json.image",
    "unsupported",
    "images in assistant messages (both dialects) and in user messages (Amp dialect, which omits them from its output) are dropped",
  ),
  thinkingDetails: loss(
    "stream_json.thinking-details",
    "degraded",
    "a thinking block's provider, and encrypted content alongside readable text or a signature, have no place in a thinking block",
  ),
  structuredToolResult: loss(
    "stream_json.structured-tool-result",
    "degraded",
    "structured (JSON) tool output is written as its JSON text (Claude: unless it is an array of text and image blocks; Amp: object and array output is read back as JSON)",
  ),
  emptyStrings: loss(
    "stream_json.empty-strings",
    "other",
    'an empty cwd, model, CLI version or thinking signature is written as "" where the format requires the key and reads back as absent; all-zero usage reads back as absent in the Claude dialect',
  ),
  userAttribution: loss(
    "stream_json.user-attribution",
    "unsupported",
    "model, stop reason and usage on a user message have no place on a user line",
  ),
  toolSpelling: loss(
    "stream_json.tool-spelling",
    "degraded",
    "in the Amp dialect, a typed tool Amp has no exact spelling for reads back as a Raw tool, and a Raw call that is an Amp spelling reads back typed (see @txcript/amp)",
  ),
  context: loss(
    "stream_json.context",
    "degraded",
    "a context message (system prompt, developer instructions, injected context) is written as an ordinary user line: a capture has no mark for it",
  ),
  compaction: loss(
    "stream_json.compaction",
    "degraded",
    "a compaction marker's summary and replacement history have no place in a capture (Claude: its trigger and token count are a compact_boundary line; Amp: the marker is not written)",
  ),
  subagents: loss(
    "stream_json.subagents",
    "unsupported",
    "subagents a capture cannot hold exactly are not written or change: one linked to no call, without messages, or a second one of the same call; an id other than its call's, a title, agent type or model; a nesting that reads back otherwise (the Amp dialect writes none)",
  ),
  usageExtras: loss(
    "stream_json.usage-extras",
    "unsupported",
    "reasoning output tokens and cost (Usage.reasoningOutputTokens, Usage.costUsd) have no key in a message's usage",
  ),
} as const;

export const streamJsonLosses: readonly Loss[] = Object.values(streamJsonLoss);
