// Every representational loss of the OpenCode codec, each with a stable
// code. toCommon and fromCommon report the ones that occur through `warn`;
// `opencodeProject` states the fromCommon ones as code, and
// docs/formats/opencode.md explains each with its provenance.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const opencodeLossList = {
  // Reading (native → Common): kept in the native body, not carried into Common.
  provider: loss(
    "opencode.provider",
    "degraded",
    "the providerID of every assistant message and of the session's model (anthropic, openai, a custom provider) has no Common slot: Common keeps the modelID",
  ),
  sessionMetadata: loss(
    "opencode.session-metadata",
    "bookkeeping",
    "session keys other than id, title, directory, version, time.created and model.id/providerID (slug, projectID, path, parentID, agent, summary, cost and token totals, permission, share, revert, time.updated, model.variant) have no Common slot; each is named",
  ),
  messageBookkeeping: loss(
    "opencode.message-bookkeeping",
    "bookkeeping",
    "message keys other than role, time.created, modelID, providerID, tokens, cost, finish, error and an assistant's summary mark (id, sessionID, parentID, mode, agent, path, variant, time.completed, a user's summary, system, tools, the model chosen on a user message) have no Common slot; each is named",
  ),
  partBookkeeping: loss(
    "opencode.part-bookkeeping",
    "bookkeeping",
    "part ids and times, step-start/step-finish fields (snapshots, reasons, per-step tokens of one-step messages), text metadata, reasoning metadata beyond a signature or encrypted content (OpenAI's itemId), the synthetic/ignored flags outside context messages and other keys a part's type does not read have no Common slot; each is named",
  ),
  toolDetails: loss(
    "opencode.tool-details",
    "bookkeeping",
    "tool-state details (title, metadata, time.start, attachments, a pending call's raw text, the part's provider metadata) have no Common slot; each is named",
  ),
  toolStatus: loss(
    "opencode.tool-status",
    "degraded",
    "a pending or running tool call reads as a call without a result; its status is lost",
  ),
  messageError: loss(
    "opencode.message-error",
    "degraded",
    "an assistant message's error reads as the stop reason aborted (MessageAbortedError) or error; its name and data are lost (named for each error)",
  ),
  unmodeledPart: loss(
    "opencode.unmodeled-part",
    "unsupported",
    "parts Common does not model (agent, retry, snapshot, patch, subtask, files that are not base64 images, unknown types, parts without their required fields) carry nothing into Common",
  ),
  unmodeledRole: loss(
    "opencode.unmodeled-role",
    "unsupported",
    "messages whose role is neither user nor assistant carry nothing into Common",
  ),
  summaryMessage: loss(
    "opencode.summary-message",
    "other",
    "the assistant message holding a compaction's summary becomes the summary of the compaction block; its model, tokens and times are lost",
  ),
  invalidTime: loss(
    "opencode.invalid-time",
    "degraded",
    "a message or tool time that is missing or not valid epoch milliseconds is replaced by the previous time",
  ),
  usageCount: loss(
    "opencode.usage-count",
    "degraded",
    "a token count past 2^53 − 1 (Common's counts are safe integers) reads as 0, and so does a reasoning count whose sum with the output count is past it",
  ),
  // Writing (Common → native): stated in opencodeProject.
  sessionId: loss(
    "opencode.session-id",
    "degraded",
    "a session id not in OpenCode's form (ses_ + 12 hex + 14 base62) is replaced by one derived from it and the session's start time",
  ),
  defaultTitle: loss(
    "opencode.default-title",
    "degraded",
    'a session without a title gets OpenCode\'s default, "New session - <start time>" (the import schema requires one)',
  ),
  defaultVersion: loss(
    "opencode.default-version",
    "degraded",
    "a session without a cliVersion gets the OpenCode version whose import schema txcript writes (1.18.33)",
  ),
  gitBranch: loss("opencode.git-branch", "unsupported", "Meta.gitBranch has no OpenCode slot"),
  lineage: loss("opencode.lineage", "unsupported", "Meta.lineage has no OpenCode slot"),
  userAttribution: loss(
    "opencode.user-attribution",
    "unsupported",
    "model, stop reason and usage on a user message are not kept (the model OpenCode records on a user message is the one chosen for the next turn)",
  ),
  emptyModel: loss(
    "opencode.empty-model",
    "degraded",
    "an empty model name is written as OpenCode's empty modelID and reads back as no model",
  ),
  stopReasonSpelling: loss(
    "opencode.stop-reason-spelling",
    "degraded",
    "a stop reason spelled like an AI SDK finish reason (stop, length, tool-calls, content-filter) reads back as its canonical name",
  ),
  usageSpelling: loss(
    "opencode.usage-spelling",
    "degraded",
    "a zero costUsd or reasoningOutputTokens reads back as absent, and reasoning tokens above the output tokens raise the output tokens to them",
  ),
  thinkingProvider: loss(
    "opencode.thinking-provider",
    "degraded",
    "a signature or encrypted reasoning without a provider is filed under anthropic and reads back with provider anthropic",
  ),
  toolSpelling: loss(
    "opencode.tool-spelling",
    "degraded",
    "a typed tool OpenCode has no exact spelling for (MultiEdit, Command, WebFetch, Bash in the background, …) is written under its canonical name and reads back Raw; a Raw call spelled like an OpenCode tool reads back typed",
  ),
  toolInput: loss(
    "opencode.tool-input",
    "degraded",
    'a tool input that is not a JSON object is written as {"value": input} (OpenCode requires an object)',
  ),
  structuredResult: loss(
    "opencode.structured-result",
    "degraded",
    "tool output and errors are text in OpenCode: structured result content is written as its JSON text",
  ),
  resultPlacement: loss(
    "opencode.result-placement",
    "degraded",
    "a tool result lives in its call's part in OpenCode: results read back in one user message right after the call's message, in call order, and other blocks of their message stay where they were",
  ),
  orphanResult: loss(
    "opencode.orphan-result",
    "degraded",
    "a tool result without an earlier unanswered call is written as a text part holding its content",
  ),
  duplicateCallId: loss(
    "opencode.duplicate-call-id",
    "degraded",
    "when two calls share an id, a result goes to the latest unanswered call with that id",
  ),
  contextKind: loss(
    "opencode.context-kind",
    "degraded",
    "a context message is written as synthetic text parts: its kind reads back as injected and its source is lost",
  ),
  contextShape: loss(
    "opencode.context-shape",
    "degraded",
    "a context mark on an assistant message, an empty message or one with other than text blocks is dropped",
  ),
  compactionDetails: loss(
    "opencode.compaction-details",
    "degraded",
    "a compaction keeps only its summary and whether it was automatic: preTokens and history are lost, and a trigger other than auto reads back as manual",
  ),
  compactionPlacement: loss(
    "opencode.compaction-placement",
    "degraded",
    "a compaction block that is not alone in a user message is written as a marker of its own, splitting its message",
  ),
  imageType: loss(
    "opencode.image-type",
    "unsupported",
    "an image whose media type is not image/* reads back as a file part Common does not model",
  ),
  subagents: loss(
    "opencode.subagents",
    "unsupported",
    "subagents are separate OpenCode sessions: an export document holds one session, so Transcript.subagents are not written",
  ),
  timeOrder: loss(
    "opencode.time-order",
    "degraded",
    "OpenCode loads messages by creation time: a message earlier than the one before it is written (and reads back) at the previous message's time, so OpenCode keeps the order",
  ),
} as const satisfies Record<string, Loss>;

export const opencodeLosses: readonly Loss[] = Object.values(opencodeLossList);
