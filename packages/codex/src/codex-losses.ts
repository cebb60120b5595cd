// Every representational loss of the Codex codec, in one list: the codec's
// `losses`, what codexProject states as code, and what docs/formats/codex.md
// explains. Reading and writing report each occurrence through core's `warn`.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const codexLoss = {
  // Writing (Common → Codex).
  foreignSessionId: loss(
    "codex.foreign-session-id",
    "degraded",
    "A session id that is not a UUID is replaced by a UUIDv7 derived from it and the session time: Codex requires a UUID.",
  ),
  stopReason: loss(
    "codex.stop-reason",
    "unsupported",
    "Stop reasons are dropped: rollouts record no per-response stop reason.",
  ),
  userMessageFields: loss(
    "codex.user-message-fields",
    "unsupported",
    "Model and usage on a user message are dropped: Codex records them for model responses only.",
  ),
  cost: loss("codex.cost", "unsupported", "Recorded cost in US dollars is dropped."),
  zeroReasoningTokens: loss(
    "codex.zero-reasoning-tokens",
    "degraded",
    "A reasoning token count of 0 reads back as no count: Codex always writes the field.",
  ),
  toolErrorFlag: loss(
    "codex.tool-error-flag",
    "unsupported",
    "Whether a tool result was an error is dropped: function_call_output has no error flag.",
  ),
  jsonToolOutput: loss(
    "codex.json-tool-output",
    "degraded",
    "Structured (JSON) tool output that is not a list of Codex content items becomes its JSON text.",
  ),
  assistantImage: loss(
    "codex.assistant-image",
    "unsupported",
    "Images in assistant content are dropped: Codex assistant messages hold text only.",
  ),
  thinkingSignature: loss(
    "codex.thinking-signature",
    "unsupported",
    "A thinking signature is dropped: Codex reasoning items have no place for it.",
  ),
  foreignReasoning: loss(
    "codex.foreign-reasoning",
    "degraded",
    "Thinking not produced by OpenAI (or, when writing text-only, not by this Codex) keeps its text only: its encrypted content is dropped, since Codex would fail every later turn on it; it reads back as OpenAI reasoning.",
  ),
  emptyThinking: loss(
    "codex.empty-thinking",
    "unsupported",
    "Thinking with no text and no OpenAI encrypted content is dropped.",
  ),
  orphanResult: loss(
    "codex.orphan-result",
    "degraded",
    "A tool result whose call is not an earlier call of the session becomes user text `[tool result] <output>` (`[tool result (error)]` for an error; structured output as its JSON text): Codex would send a function_call_output without its call, which the Responses API rejects.",
  ),
  mergedMessages: loss(
    "codex.merged-messages",
    "degraded",
    "Consecutive messages of the same role read back as one message: rollouts separate model responses only by token counts and turn settings.",
  ),
  sideSplit: loss(
    "codex.side-split",
    "degraded",
    "Blocks on the other side's message (a tool call or thinking on a user message, text or a result on an assistant one) move to a message of their own side.",
  ),
  emptyMessage: loss(
    "codex.empty-message",
    "unsupported",
    "A message with nothing Codex can hold is dropped, with its usage.",
  ),
  messageModel: loss(
    "codex.message-model",
    "degraded",
    "An assistant message without a model reads back with the model in force: Codex records models per turn.",
  ),
  metaModel: loss(
    "codex.meta-model",
    "degraded",
    "A session without a model reads back with the first assistant message's model.",
  ),
  contextKind: loss(
    "codex.context-kind",
    "degraded",
    "System context becomes a developer message; injected context whose text is not one of Codex's own blocks becomes a user message; the context source is re-read from the text.",
  ),
  compactionFields: loss(
    "codex.compaction-fields",
    "unsupported",
    "A compaction's trigger and token count are dropped; its history keeps only what response items hold (no times, models or usage).",
  ),
  subagents: loss(
    "codex.subagents",
    "unsupported",
    "Subagent conversations are dropped: Codex keeps each in a rollout of its own.",
  ),
  subagentRolloutMissing: loss(
    "codex.subagent-rollout-missing",
    "unsupported",
    "An agent a spawn_agent call's output names, whose rollout is not in the Codex home the session was read from (or a lone rollout, read alone), is left out.",
  ),
  title: loss(
    "codex.title",
    "degraded",
    "The title is not part of the rollout: the store writes it to session_index.jsonl.",
  ),
  toolRetyped: loss(
    "codex.tool-retyped",
    "degraded",
    "A Raw tool whose Codex name and input fit a canonical tool (shell_command, web_search, …) reads back as that canonical tool.",
  ),
  emptyField: loss(
    "codex.empty-field",
    "degraded",
    "An empty cwd or git branch reads back as none.",
  ),
  // Reading (Codex → Common).
  unmodeledItem: loss(
    "codex.unmodeled-item",
    "unsupported",
    "Response items Common does not model (ghost snapshots, tool lists, configuration updates) and unknown line types are left out.",
  ),
  invalidLine: loss(
    "codex.invalid-line",
    "degraded",
    "A line that is not a JSON object is skipped, as Codex skips it.",
  ),
  callWithoutOutput: loss(
    "codex.call-without-output",
    "other",
    "A tool call has no output in the rollout (Codex answers it with 'aborted' on resume).",
  ),
  outputWithoutCall: loss(
    "codex.output-without-call",
    "other",
    "A tool output has no call in the rollout (Codex drops it from the model's context).",
  ),
  imageUrl: loss(
    "codex.image-url",
    "unsupported",
    "An image given by URL or file path, not inline base64 data, is dropped.",
  ),
  usageCount: loss(
    "codex.usage-count",
    "degraded",
    "A token count past 2^53 − 1 reads as 0: Common's counts are safe integers.",
  ),
  sessionMetadata: loss(
    "codex.session-metadata",
    "bookkeeping",
    "session_meta keys other than id, timestamp, cwd, git.branch, cli_version, the instructions and txcript_lineage (originator, source, model_provider, session_id, thread_source, git.commit_hash, git.repository_url, …) and later session_meta lines have no Common slot; each is named.",
  ),
  parentThread: loss(
    "codex.parent-thread",
    "degraded",
    "A subagent's rollout read on its own: its parent thread, nickname and role (parent_thread_id, source.subagent.thread_spawn, agent_nickname, agent_role) have no Meta slot; read through its parent's session they make it a Common subagent.",
  ),
  turnSettings: loss(
    "codex.turn-settings",
    "bookkeeping",
    "turn_context keys other than model (cwd, approval_policy, sandbox_policy, summary, effort, turn_id, …) have no Common slot; each is named.",
  ),
  eventRecords: loss(
    "codex.event-records",
    "bookkeeping",
    "Event messages that are not the UI echo of a response item or usage (task_started, task_complete, turn_aborted, thread_settings_applied, …) and 0.171's bookkeeping lines (world_state, token_usage_record, inter_agent_communication, …) have no Common slot; each is named.",
  ),
  recordFields: loss(
    "codex.record-fields",
    "bookkeeping",
    "Keys of a record that Common has no slot for: the envelope's ordinal and metadata (0.171), a response item's id (unless it is the call's id), status, phase, internal_chat_message_metadata_passthrough, …, and a token_count's rate_limits and running totals (total_token_usage, model_context_window; Common keeps each response's own usage); each is named. Keys whose value is null carry nothing and are not named.",
  ),
  reasoningContent: loss(
    "codex.reasoning-content",
    "degraded",
    "Raw reasoning text beside a reasoning summary is dropped; the summary is kept.",
  ),
} as const;

export const codexLosses: readonly Loss[] = Object.values(codexLoss);
