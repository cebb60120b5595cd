// Every representational loss of the Claude Code codec, in one list: the
// codec's `losses`, what claudeCodeProject states as code, and what
// docs/formats/claude-code.md explains. Reading and writing report each
// occurrence through core's `warn`.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const claudeCodeLoss = {
  // Writing (Common → Claude Code).
  foreignSessionId: loss(
    "claude_code.foreign-session-id",
    "degraded",
    "A session id that is not a UUID is replaced by a deterministic UUID (v5), since Claude Code names session files by UUID.",
  ),
  thinkingDropped: loss(
    "claude_code.thinking-dropped",
    "unsupported",
    "Thinking Anthropic's API would refuse on resume (another provider's reasoning, or no signature and no redacted data) is dropped.",
  ),
  thinkingEncryptedDropped: loss(
    "claude_code.thinking-encrypted-dropped",
    "degraded",
    "Encrypted reasoning beside signed thinking text is dropped: a Claude Code thinking block holds text and signature only.",
  ),
  jsonToolOutput: loss(
    "claude_code.json-tool-output",
    "degraded",
    "Structured (JSON) tool output is flattened to its JSON text, since Claude Code tool results hold a string or content blocks.",
  ),
  orphanToolUse: loss(
    "claude_code.orphan-tool-use",
    "other",
    "A tool call with no result gets a synthesized error result, since an unanswered call breaks a resumed session.",
  ),
  resultOnAssistant: loss(
    "claude_code.result-on-assistant",
    "degraded",
    "A tool result on an assistant message is moved to a user message right after it: Claude Code carries results on user lines only.",
  ),
  userToolUse: loss(
    "claude_code.user-tool-use",
    "degraded",
    "A model tool call on a user message becomes a text block; a user slash Command gets its own line and a new id.",
  ),
  orphanResult: loss(
    "claude_code.orphan-result",
    "degraded",
    "A tool result on a user message whose call is no earlier assistant tool call becomes a text block `[tool result] <content>` (`[tool result (error)]`; content not a string as its JSON text): the Anthropic API rejects a tool_result without its tool_use.",
  ),
  userMessageFields: loss(
    "claude_code.user-message-fields",
    "unsupported",
    "Model, stop reason and usage on a user message are dropped: Claude Code user lines have no place for them.",
  ),
  syntheticModel: loss(
    "claude_code.synthetic-model",
    "degraded",
    'An assistant model named "" or "<synthetic>" reads back as none: Claude Code marks its own API-error lines with "<synthetic>".',
  ),
  usageExtras: loss(
    "claude_code.usage-extras",
    "unsupported",
    "Reasoning tokens and cost in a message's usage are dropped: Claude Code usage holds the four token counts only.",
  ),
  metaModel: loss(
    "claude_code.meta-model",
    "degraded",
    "The session model is not stored on its own: it reads back as the first assistant message's model.",
  ),
  emptyGitBranch: loss(
    "claude_code.empty-git-branch",
    "degraded",
    'An empty git branch reads back as no branch: Claude Code writes "" outside a repository.',
  ),
  compactionHistory: loss(
    "claude_code.compaction-history",
    "unsupported",
    "The messages a compaction sent in place of the history (Codex replacement_history) are dropped: a Claude Code compaction keeps its summary, trigger and token count only.",
  ),
  compactionMoved: loss(
    "claude_code.compaction-moved",
    "degraded",
    "A compaction marker not alone in a user message gets a boundary of its own: the blocks beside it go to messages before and after it.",
  ),
  assistantContext: loss(
    "claude_code.assistant-context",
    "unsupported",
    "A context mark on an assistant message is dropped: Claude Code marks injected context on user lines only.",
  ),
  subagentId: loss(
    "claude_code.subagent-id",
    "degraded",
    "A subagent whose id repeats an earlier subagent's gets a derived id, since Claude Code tells subagents apart by agentId.",
  ),
  // Reading (Claude Code → Common).
  branch: loss(
    "claude_code.branch",
    "unsupported",
    "Lines on abandoned branches (an edited or retried message), and their usage, are left out: the conversation is the chain that ends at the last line.",
  ),
  duplicateLine: loss(
    "claude_code.duplicate-line",
    "bookkeeping",
    "Lines repeating an earlier line's uuid are dropped.",
  ),
  bookkeepingLines: loss(
    "claude_code.bookkeeping-lines",
    "bookkeeping",
    "Claude Code's own bookkeeping lines are left out, each kind named: file-history snapshots, progress, hook summaries, turn durations, queue operations, permission modes, the last prompt.",
  ),
  lineDropped: loss(
    "claude_code.line-dropped",
    "unsupported",
    "Other lines Common has no place for are left out, each kind named: attachments, API errors, other system lines and line types this reader does not know.",
  ),
  toolUseResult: loss(
    "claude_code.tool-use-result",
    "bookkeeping",
    "The structured toolUseResult Claude Code keeps beside a tool result (diffs, file metadata, subagent totals) is left out; the tool_result the model saw is kept.",
  ),
  compactMetadata: loss(
    "claude_code.compact-metadata",
    "bookkeeping",
    "compactMetadata keys other than trigger and preTokens are left out.",
  ),
  usageDetails: loss(
    "claude_code.usage-details",
    "bookkeeping",
    "Usage beyond the four token counts (service_tier, the cache_creation breakdown, server tool use) is left out.",
  ),
  usageCount: loss(
    "claude_code.usage-count",
    "degraded",
    "A usage count that is absent or not a non-negative integer reads as 0.",
  ),
  unknownBlock: loss(
    "claude_code.unknown-block",
    "unsupported",
    "Content blocks Common does not model (documents, images by URL, server tool blocks) are dropped.",
  ),
  malformedBlock: loss(
    "claude_code.malformed-block",
    "other",
    "A content block without a field the API requires (a text block without text, a tool_use without id) is dropped.",
  ),
  commandMarkup: loss(
    "claude_code.command-markup",
    "degraded",
    "Slash-command markup becomes a Command tool call with its output as the result; the <command-message> label is dropped.",
  ),
  synthesizedTimestamp: loss(
    "claude_code.synthesized-timestamp",
    "degraded",
    "A line without a valid timestamp takes the previous line's (or the epoch).",
  ),
  subagentFileMissing: loss(
    "claude_code.subagent-file-missing",
    "unsupported",
    "A subagent whose Task/Agent result names its agentId, read from a session file with no such subagent file beside it (a lone file, stdin), is left out: its conversation lives in <session>/subagents/agent-<agentId>.jsonl.",
  ),
  missingSessionId: loss(
    "claude_code.missing-session-id",
    "degraded",
    'A session whose lines name no sessionId reads as "unknown-session".',
  ),
} as const;

export const claudeCodeLosses: readonly Loss[] = Object.values(claudeCodeLoss);
