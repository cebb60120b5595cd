// Every representational loss of the Kimi CLI codec: the codec's `losses`,
// what kimiCliProject states as code, and what docs/formats/kimi-cli.md
// explains. Reading and writing report each occurrence through core's `warn`.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const kimiCliLoss = {
  // Reading (Kimi CLI → Common).
  skippedLine: loss(
    "kimi_cli.skipped-line",
    "other",
    "A line Kimi CLI's restore skips (no string role, a bookkeeping record of the wrong shape, a message kosong's Message model rejects) is skipped, as Kimi CLI skips it.",
  ),
  bookkeeping: loss(
    "kimi_cli.bookkeeping",
    "bookkeeping",
    "_checkpoint and _usage records (checkpoint ids for D-Mail reverts; the context's token count) are not kept.",
  ),
  timestamps: loss(
    "kimi_cli.timestamps",
    "degraded",
    "context.jsonl records no times: messages are stamped 1 ms apart from the session's start (the first wire.jsonl record in a store, else the caller's start time, else 1970-01-01).",
  ),
  media: loss(
    "kimi_cli.media",
    "unsupported",
    "audio_url and video_url parts, an image_url that is not a base64 data URL, and the id of an image are not kept.",
  ),
  messageFields: loss(
    "kimi_cli.message-fields",
    "bookkeeping",
    "A message's name and partial flag and a tool call's extras are not kept.",
  ),
  toolArguments: loss(
    "kimi_cli.tool-arguments",
    "degraded",
    "Tool-call arguments that are not JSON text (a call cut off mid-stream) are kept as the string input of a Raw tool; arguments of null read as {}.",
  ),
  emptyId: loss(
    "kimi_cli.empty-id",
    "degraded",
    "An empty tool-call id, or a tool message without a tool_call_id, is replaced by an id made from the line's position (Common ids are never empty).",
  ),
  rotatedContext: loss(
    "kimi_cli.rotated-context",
    "unsupported",
    "Earlier context files (context_N.jsonl, kept when Kimi CLI compacts, clears or reverts) are not read: the session is what context.jsonl holds, which is what Kimi CLI resumes.",
  ),
  noMessages: loss(
    "kimi_cli.no-messages",
    "other",
    "A context file with no line Kimi CLI reads as a message (an empty file among them) reads as an empty session: Kimi CLI skips restoring it and does not list it.",
  ),
  // Writing (Common → Kimi CLI).
  sessionId: loss(
    "kimi_cli.session-id",
    "degraded",
    "The session id lives in the directory name, not in context.jsonl: a session id that is not a lower-case UUID is replaced by a UUID v5 of it, and a context file read alone has no id.",
  ),
  meta: loss(
    "kimi_cli.meta",
    "bookkeeping",
    "The session's start time, git branch, CLI version, model and lineage are not kept (the store keeps the cwd in kimi.json and the title in state.json).",
  ),
  subagents: loss(
    "kimi_cli.subagents",
    "unsupported",
    "Subagent conversations are not written (Kimi CLI keeps them in subagents/<agent id>/ with state txcript does not make).",
  ),
  context: loss(
    "kimi_cli.context",
    "degraded",
    "A context message is written as a system-role message (a _system_prompt record when it is the one system prompt): its kind and source are not kept otherwise.",
  ),
  order: loss(
    "kimi_cli.order",
    "degraded",
    "A kosong message holds its parts before its tool calls, and tool results are messages of their own: blocks are regrouped in that order (text and thinking, then calls; results apart from other blocks).",
  ),
  stopReason: loss("kimi_cli.stop-reason", "bookkeeping", "Stop reasons are not kept."),
  usage: loss(
    "kimi_cli.usage",
    "bookkeeping",
    "Per-message usage is not kept: context.jsonl keeps only the context's token count (_usage).",
  ),
  messageModel: loss("kimi_cli.model", "bookkeeping", "A message's model is not kept."),
  thinking: loss(
    "kimi_cli.thinking",
    "degraded",
    "Opaque encrypted reasoning and its provider are not kept (a think part holds text and one `encrypted` string, which carries the signature).",
  ),
  compaction: loss(
    "kimi_cli.compaction",
    "degraded",
    "A compaction marker keeps only its summary, as the message Kimi CLI's compaction writes; trigger, token count and history are not kept. A marker that is not alone in a user message becomes text.",
  ),
  toolResult: loss(
    "kimi_cli.tool-result",
    "degraded",
    "A tool result is text: JSON output is written as its JSON text, and the error flag is the `<system>ERROR:` prefix Kimi CLI gives a failed call's result.",
  ),
} as const satisfies Record<string, Loss>;

export const kimiCliLosses: readonly Loss[] = Object.values(kimiCliLoss);
