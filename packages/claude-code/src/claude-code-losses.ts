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
  userMessageFields: loss(
    "claude_code.user-message-fields",
    "unsupported",
    "Model, stop reason and usage on a user message are dropped: Claude Code user lines have no place for them.",
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
  // Reading (Claude Code → Common).
  sidechain: loss(
    "claude_code.sidechain",
    "unsupported",
    "Subagent (sidechain) lines, and the usage they record, are left out of the conversation; the Task call and its result stay.",
  ),
  branch: loss(
    "claude_code.branch",
    "unsupported",
    "Lines on abandoned branches (an edited or retried message), and their usage, are left out: the conversation is the chain that ends at the last line.",
  ),
  compactSummary: loss(
    "claude_code.compact-summary",
    "other",
    "A compaction summary is left out when the history it summarizes was read in full across the compact boundary.",
  ),
  duplicateLine: loss(
    "claude_code.duplicate-line",
    "other",
    "Lines repeating an earlier line's uuid are dropped.",
  ),
  unknownBlock: loss(
    "claude_code.unknown-block",
    "unsupported",
    "Content blocks Common does not model (documents, images by URL, server tool blocks) are dropped.",
  ),
  commandMarkup: loss(
    "claude_code.command-markup",
    "degraded",
    "Slash-command markup becomes a Command tool call with its output as the result; the <command-message> label is dropped.",
  ),
} as const;

export const claudeCodeLosses: readonly Loss[] = Object.values(claudeCodeLoss);
