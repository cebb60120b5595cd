// Every representational loss of the GitHub Copilot CLI codec, in one list:
// the codec's `losses`, what copilotCliProject states as code, and what
// docs/formats/copilot-cli.md explains. Reading and writing report each
// occurrence through core's `warn`.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const copilotCliLoss = {
  // Reading (Copilot CLI → Common).
  bookkeeping: loss(
    "copilot_cli.bookkeeping-event",
    "bookkeeping",
    "Events that carry no conversation (turn markers, usage records, shutdown metrics, hooks, permissions, tool start and progress…) are not read into Common.",
  ),
  attachment: loss(
    "copilot_cli.attachment",
    "degraded",
    "A user message attachment other than an inline image blob (a file, a selection, a GitHub reference) is not read.",
  ),
  // Writing (Common → Copilot CLI).
  foreignSessionId: loss(
    "copilot_cli.foreign-session-id",
    "degraded",
    "A session id that is not a lowercase UUID is written as a UUID v5 of it: Copilot CLI names session directories by UUID.",
  ),
  lineage: loss(
    "copilot_cli.lineage-dropped",
    "unsupported",
    "Where the session came from (meta.lineage) has no place in the event log.",
  ),
  cliVersion: loss(
    "copilot_cli.cli-version",
    "bookkeeping",
    "session.start names the Copilot CLI version txcript was checked with (1.0.102), not the source harness's version.",
  ),
  gitBranch: loss(
    "copilot_cli.git-branch-dropped",
    "degraded",
    "A git branch without a working directory is not written: session.start's context requires cwd.",
  ),
  emptyText: loss(
    "copilot_cli.empty-text",
    "degraded",
    "An empty text block is not written (an empty message content reads back as no text).",
  ),
  subagents: loss(
    "copilot_cli.subagents-dropped",
    "unsupported",
    "Subagent conversations are not written (Copilot CLI's sub-agent events need a running task registry to mean anything).",
  ),
  usage: loss(
    "copilot_cli.usage-dropped",
    "unsupported",
    "Token usage and cost are not written: Copilot CLI keeps them in accounting events txcript does not forge.",
  ),
  stopReason: loss(
    "copilot_cli.stop-reason-dropped",
    "unsupported",
    "Stop reasons have no place in assistant.message.",
  ),
  joinedText: loss(
    "copilot_cli.text-joined",
    "degraded",
    "Several text blocks of one message (or several thinking blocks) are written as one string, joined by a blank line.",
  ),
  blockOrder: loss(
    "copilot_cli.block-order",
    "degraded",
    "An assistant message is written as its reasoning, then its text, then its tool calls, whatever their order was; a user message's images follow its text.",
  ),
  thinkingSignature: loss(
    "copilot_cli.thinking-signature-dropped",
    "degraded",
    "Thinking signatures, encrypted reasoning and thinking providers are not written (Copilot CLI strips them on resume).",
  ),
  assistantImage: loss(
    "copilot_cli.assistant-image-dropped",
    "unsupported",
    "Images in assistant messages and in system or developer context have no place in the event log.",
  ),
  userToolUse: loss(
    "copilot_cli.user-tool-use-dropped",
    "unsupported",
    "A tool call in a user message has no place in user.message.",
  ),
  userThinking: loss(
    "copilot_cli.user-thinking-dropped",
    "unsupported",
    "Thinking in a user message has no place in user.message.",
  ),
  assistantContext: loss(
    "copilot_cli.assistant-context-dropped",
    "degraded",
    "A context label on an assistant message is not written.",
  ),
  contextSource: loss(
    "copilot_cli.context-source-dropped",
    "degraded",
    "The source of system or developer context is not written (system.message has no field for it).",
  ),
  jsonResult: loss(
    "copilot_cli.json-result",
    "degraded",
    "A tool result that is not a string is written as its JSON text: result.content is a string.",
  ),
  orphanResult: loss(
    "copilot_cli.orphan-result",
    "degraded",
    "A tool result whose call is not an earlier assistant tool call is written as a user message `[tool result] <content>` (`[tool result (error)]` for an error): Copilot CLI drops such a result from what it sends.",
  ),
  resultSplit: loss(
    "copilot_cli.result-split",
    "degraded",
    "Tool results and compactions are events of their own: a message mixing them with other blocks is split (a context label stays with its text), and results that follow each other read back as one user message.",
  ),
  compaction: loss(
    "copilot_cli.compaction-fields",
    "degraded",
    "A compaction keeps its summary and context size; its history is not written, nor a trigger Copilot CLI does not know (threshold, context_limit_retry, manual, memory_pressure, model_switch).",
  ),
} as const satisfies Record<string, Loss>;

export const copilotCliLosses: readonly Loss[] = Object.values(copilotCliLoss);
