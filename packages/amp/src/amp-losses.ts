// Every representational loss of the Amp codec, each with a stable code.
// toCommon and fromCommon report the ones that occur through `warn`; the
// law suite's `ampProject` states the fromCommon ones as code, and
// docs/formats/amp.md explains each with its provenance.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const ampLoss = {
  // Reading (native → Common): kept in the native body, not carried into Common.
  runDetails: loss(
    "amp.run-details",
    "bookkeeping",
    "tool-run bookkeeping (run.progress, run.trackFiles, run.~debug, error details beyond the message) has no Common slot",
  ),
  statusCollapsed: loss(
    "amp.status-collapsed",
    "degraded",
    "cancelled, rejected-by-user and other unfinished tool runs become error-flagged text results; the status name is lost",
  ),
  messageBookkeeping: loss(
    "amp.message-bookkeeping",
    "bookkeeping",
    "message and block bookkeeping (messageId, readAt, userState, fileMentions, interrupted, originalToolUseInput, turnElapsedMs, protocolMessageID, blockState, startTime/finalTime, complete, providerToolUseId, openAIReasoning.id, usage.credits/maxInputTokens/totalInputTokens, assistant meta) has no Common slot",
  ),
  threadMetadata: loss(
    "amp.thread-metadata",
    "bookkeeping",
    "thread keys other than id, created, title, env.initial.trees[0] and env.initial.platform.clientVersion (v, agentMode, nextMessageId, ~debug, meta, usageLedger, …) have no Common slot",
  ),
  unmodeledRole: loss(
    "amp.unmodeled-role",
    "unsupported",
    "messages whose role is neither user nor assistant (info, shared-thread parent records) carry nothing into Common",
  ),
  unmodeledBlock: loss(
    "amp.unmodeled-block",
    "unsupported",
    "content blocks Common does not model (manual_bash_invocation, images without base64 data, tool blocks without an id or run) carry nothing into Common",
  ),
  imageSourcePath: loss(
    "amp.image-source-path",
    "degraded",
    "an image block's sourcePath (the file it was attached from) has no Common slot",
  ),
  invalidTimestamp: loss(
    "amp.invalid-timestamp",
    "degraded",
    "a meta.sentAt or usage.timestamp that is not a valid time is ignored; the message inherits the last seen timestamp",
  ),
  plainContent: loss(
    "amp.unmodeled-content",
    "unsupported",
    "a message whose content is neither an array of blocks nor a string carries no blocks into Common",
  ),
  assistantState: loss(
    "amp.assistant-state",
    "degraded",
    "an assistant state other than complete, cancelled and error (streaming, an unknown or missing type) has no Common stop reason",
  ),
  incompleteUsage: loss(
    "amp.incomplete-usage",
    "degraded",
    "usage without both inputTokens and outputTokens as non-negative integers carries no token counts into Common (its model and time still do)",
  ),
  inexactCacheCount: loss(
    "amp.inexact-cache-count",
    "degraded",
    "a cache token count that is not a non-negative integer reads as 0",
  ),
  userUsage: loss(
    "amp.user-usage",
    "unsupported",
    "usage (token counts, model, time) recorded on a user message is not carried into Common",
  ),
  inexactNumber: loss(
    "amp.inexact-number",
    "degraded",
    "a number written with 16 or more digits that a double does not give back digit for digit (an integer past 2^53 such as 9007199254740993) reaches Common as the nearest double; the native body keeps its text while the document is unchanged",
  ),
  // Writing (Common → native): stated in ampProject.
  threadId: loss(
    "amp.thread-id",
    "degraded",
    "a session id that is not T- + a lowercase UUID is replaced by T- + its UUIDv5 (ampThreadId)",
  ),
  metaModel: loss(
    "amp.meta-model",
    "degraded",
    "Meta.model has no slot of its own: Amp's thread model is the first assistant turn's usage.model (absent when no turn names one)",
  ),
  inheritedTimestamp: loss(
    "amp.inherited-timestamp",
    "degraded",
    "tool-result carriers and assistant turns without usage or model carry no time in Amp; they read back with the previous message's timestamp",
  ),
  userAttribution: loss(
    "amp.user-attribution",
    "unsupported",
    "model, stop reason and usage on a user message have no Amp slot",
  ),
  statelessAssistant: loss(
    "amp.stateless-assistant",
    "degraded",
    "an assistant turn with no stop reason is written as complete/end_turn (Amp requires a state)",
  ),
  structuredError: loss(
    "amp.structured-error",
    "degraded",
    "an error result's content is text in Amp (run.error.message): structured error content is written as its JSON text",
  ),
  toolSpelling: loss(
    "amp.tool-spelling",
    "degraded",
    "a typed tool Amp has no exact spelling for (MultiEdit, LS, WebSearch, Command, Bash with a timeout, Read with only an offset, …) is written under its canonical name and reads back as a Raw tool; a Raw call that is itself an Amp spelling reads back typed",
  ),
  illFormedText: loss(
    "amp.ill-formed-cwd",
    "degraded",
    "a working directory with lone UTF-16 surrogates is written (percent-encoded as UTF-8) with U+FFFD in their place",
  ),
  context: loss(
    "amp.context",
    "degraded",
    "a context message (system prompt, developer instructions, injected context) is written as an ordinary prompt: Amp has no mark for it",
  ),
  compaction: loss(
    "amp.compaction",
    "degraded",
    "a compaction marker is written as a prompt holding its summary text; its trigger, token count and replacement history have no Amp slot",
  ),
  subagents: loss(
    "amp.subagents",
    "unsupported",
    "subagent conversations are not written: a thread records only the Task call and its final result",
  ),
  usageExtras: loss(
    "amp.usage-extras",
    "unsupported",
    "reasoning output tokens and cost (Usage.reasoningOutputTokens, Usage.costUsd) have no slot in Amp's usage",
  ),
} as const satisfies Record<string, Loss>;

export const ampLosses: readonly Loss[] = Object.values(ampLoss);
