// Every representational loss of the Crush codec: the codec's `losses`, what
// crushProject states as code, and what docs/formats/crush.md explains.
// Reading and writing report each occurrence through core's `warn`.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const crushLoss = {
  // Reading (Crush → Common).
  sessionUsage: loss(
    "crush.session-usage",
    "unsupported",
    "The session's prompt_tokens, completion_tokens and cost are totals for the session; Common counts usage per message, so they are not kept.",
  ),
  sessionBookkeeping: loss(
    "crush.session-bookkeeping",
    "bookkeeping",
    "The session's updated_at and message_count are not kept (the writer recomputes them).",
  ),
  todos: loss("crush.todos", "unsupported", "The session's todo list (todos column) is not kept."),
  unknownColumn: loss(
    "crush.unknown-column",
    "unsupported",
    "A column no Crush migration txcript knows defines is not kept.",
  ),
  messageBookkeeping: loss(
    "crush.message-bookkeeping",
    "bookkeeping",
    "Each message's id, updated_at, finished_at and provider are not kept.",
  ),
  role: loss(
    "crush.role",
    "unsupported",
    "A message whose role is not user, assistant, tool or system is left out.",
  ),
  imageUrl: loss(
    "crush.image-url",
    "unsupported",
    "An image_url part (an image by URL) is left out.",
  ),
  attachmentPath: loss(
    "crush.attachment-path",
    "bookkeeping",
    "A binary attachment's file path (and an empty MIME type, read as application/octet-stream) is not kept.",
  ),
  reasoningFields: loss(
    "crush.reasoning-fields",
    "unsupported",
    "Reasoning's Google thought_signature and tool_id, OpenAI responses_data and its started_at/finished_at times are not kept.",
  ),
  shellCommand: loss(
    "crush.shell-command",
    "degraded",
    "A shell_command part (a `!` command the person ran) becomes a text block `$ <command>\\n<output>\\n(exit code N)`, as Crush sends it to the model.",
  ),
  toolCallState: loss(
    "crush.tool-call-state",
    "degraded",
    "A tool call's provider_executed and finished flags are not kept (written back as false and true).",
  ),
  emptyToolId: loss(
    "crush.empty-tool-id",
    "unsupported",
    "A tool call or tool result with an empty id is left out (Common requires one).",
  ),
  resultMedia: loss(
    "crush.result-media",
    "unsupported",
    "A tool result's media (data, mime_type: an image a tool returned) is not kept.",
  ),
  resultMetadata: loss(
    "crush.result-metadata",
    "bookkeeping",
    "A tool result's metadata (the tool's display data) and a name that is not its call's are not kept.",
  ),
  finishDetail: loss(
    "crush.finish-detail",
    "degraded",
    "A finish part's message and details (an error's text), and a finish on a user or tool message other than stop, are not kept.",
  ),
  titleSession: loss(
    "crush.title-session",
    "bookkeeping",
    "The child session Crush makes to generate a title (`title-<session id>`) is left out.",
  ),
  unknownPartFields: loss(
    "crush.part-fields",
    "bookkeeping",
    "Keys of a part's data that Crush's Go structs do not declare (older eras' extra fields) are not kept.",
  ),
  // Writing (Common → Crush).
  meta: loss(
    "crush.meta",
    "unsupported",
    "The session's gitBranch, cliVersion, model and lineage have no column and are not kept.",
  ),
  context: loss(
    "crush.context",
    "unsupported",
    "System, developer and injected context messages are not written: Crush builds its own system prompt and context files each turn.",
  ),
  usage: loss(
    "crush.usage",
    "degraded",
    "Per-message usage (tokens and cost) is not kept: Crush counts usage per session, and a total written there would not read back as the same messages' usage. The session's totals are written as 0.",
  ),
  thinkingFields: loss(
    "crush.thinking-fields",
    "unsupported",
    "A thinking block's encrypted content and provider are not kept (Crush keeps Anthropic's signature only in that slot).",
  ),
  imageData: loss(
    "crush.image-data",
    "unsupported",
    "An image whose data is not standard padded base64 is left out: Crush's Go decoding would refuse the whole message.",
  ),
  resultJson: loss(
    "crush.result-json",
    "degraded",
    "Structured (non-string) tool output becomes its JSON text: Crush's tool result content is a string.",
  ),
  stopReason: loss(
    "crush.stop-reason",
    "unsupported",
    "A stop reason on a user message, or on an assistant message with only tool results or compactions, is not kept (Crush records a finish on assistant messages).",
  ),
  timestampOrder: loss(
    "crush.timestamp-order",
    "degraded",
    "Timestamps are kept to the second (Crush's created_at), and one earlier than the message before it is raised to it: Crush orders messages by created_at.",
  ),
  compactionFields: loss(
    "crush.compaction-fields",
    "unsupported",
    "A compaction's trigger, preTokens and history are not kept; its summary becomes a summary message (is_summary_message).",
  ),
  subagentId: loss(
    "crush.subagent-id",
    "degraded",
    "A subagent's session id becomes `<message id>$$<tool call id>` (how Crush names an agent tool session), or gains a `#<n>` suffix when another session of the write has it.",
  ),
  subagentLink: loss(
    "crush.subagent-link",
    "unsupported",
    "A subagent whose toolUseId names no tool call of its parent loses that link.",
  ),
  subagentFields: loss(
    "crush.subagent-fields",
    "unsupported",
    "A subagent's agentType and model have no column and are not kept; subagents nested deeper than 8 are left out.",
  ),
} as const;

export const crushLosses: readonly Loss[] = Object.values(crushLoss);
