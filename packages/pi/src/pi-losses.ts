// Every representational loss of the pi codec, in one list: the codec's
// `losses`, what piProject states as code, and what docs/formats/pi.md
// explains. Reading and writing report each occurrence through core's
// `warn`; nothing here decides when one happens.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const piLoss = {
  // Reading (pi → Common).
  branch: loss(
    "pi.branch",
    "unsupported",
    "Entries on abandoned branches of the session tree are left out: the conversation is the path from the last entry to the root.",
  ),
  notASession: loss(
    "pi.not-a-session",
    "other",
    "The first line is not a session header ({type: session, id}); pi would not open the file, txcript reads the entries anyway.",
  ),
  headerFields: loss(
    "pi.header-fields",
    "bookkeeping",
    "Header fields Common has no place for (parentSession; v1's provider, modelId, thinkingLevel, branchedFrom) are not kept.",
  ),
  settingsEntry: loss(
    "pi.settings-entry",
    "bookkeeping",
    "model_change and thinking_level_change entries are not kept (the first model becomes the session model).",
  ),
  customEntry: loss(
    "pi.custom-entry",
    "bookkeeping",
    "Extension state (custom entries, which never reach the model) is not kept.",
  ),
  label: loss("pi.label", "bookkeeping", "Labels (bookmarks on entries) are not kept."),
  unknownEntry: loss(
    "pi.unknown-entry",
    "unsupported",
    "Entry types and message roles pi 0.73.1 does not define are left out.",
  ),
  unknownBlock: loss(
    "pi.unknown-block",
    "unsupported",
    "Content blocks pi does not define (or a tool call without an id or name) are dropped.",
  ),
  messageProvider: loss(
    "pi.message-provider",
    "bookkeeping",
    "The api, provider and responseId of an assistant message are not kept (the provider stays as the provider of its thinking).",
  ),
  errorMessage: loss(
    "pi.error-message",
    "unsupported",
    "The errorMessage of a failed assistant turn is not kept (its stop reason is).",
  ),
  textSignature: loss(
    "pi.text-signature",
    "unsupported",
    "The textSignature of an assistant text block is not kept.",
  ),
  costBreakdown: loss(
    "pi.cost-breakdown",
    "bookkeeping",
    "Usage cost is kept as its total (costUsd); the split by input, output and cache is not kept, nor a totalTokens that is not the sum.",
  ),
  toolResultDetails: loss(
    "pi.tool-result-details",
    "bookkeeping",
    "The details of a tool result (tool-specific metadata pi does not send the model) are not kept.",
  ),
  bashExecution: loss(
    "pi.bash-execution",
    "degraded",
    "A shell command the person ran (`!cmd`) becomes injected context holding the text pi sends the model; its exit code and flags are not kept apart.",
  ),
  extensionMessageFields: loss(
    "pi.extension-message-fields",
    "bookkeeping",
    "The details and display flag of an extension message (custom_message, custom role) are not kept.",
  ),
  compactionFields: loss(
    "pi.compaction-fields",
    "bookkeeping",
    "The details of a compaction (files read and modified) are not kept; its summary, token count and the messages it kept (as history) are.",
  ),
  // Writing (Common → pi).
  foreignSessionId: loss(
    "pi.foreign-session-id",
    "degraded",
    "A session id pi cannot use as a file name and --session argument is replaced by a deterministic UUID (v5).",
  ),
  metaFields: loss(
    "pi.meta-fields",
    "unsupported",
    "The git branch and CLI version of the session have no place in a pi session.",
  ),
  blankTitle: loss(
    "pi.blank-title",
    "degraded",
    "A title that is empty or only whitespace reads back as no title (pi trims session names).",
  ),
  subagents: loss(
    "pi.subagents",
    "unsupported",
    "Subagent conversations are not written: pi sessions have none.",
  ),
  emptyModel: loss("pi.empty-model", "degraded", "An empty model name reads back as no model."),
  rawToolTyped: loss(
    "pi.raw-tool-typed",
    "degraded",
    "A raw tool call named and shaped like one of pi's built-in tools (read, write, edit, bash) reads back as its canonical tool.",
  ),
  usageFilled: loss(
    "pi.usage-filled",
    "other",
    "An assistant message without usage gets zero usage, since pi requires it; a zero cost reads back as no cost.",
  ),
  reasoningTokens: loss(
    "pi.reasoning-tokens",
    "unsupported",
    "Reasoning output tokens are not counted apart: pi's usage has no such field.",
  ),
  stopReason: loss(
    "pi.stop-reason",
    "degraded",
    "An assistant message without a stop reason gets toolUse or stop; a stop reason spelled as pi spells them (stop, length, toolUse) reads back canonical.",
  ),
  userToolUse: loss(
    "pi.user-tool-use",
    "degraded",
    "A tool call on a user message becomes a text block: pi user messages hold text and images only.",
  ),
  orphanResult: loss(
    "pi.orphan-result",
    "degraded",
    "A tool result whose call is not an earlier assistant tool call (a call on a user message, written as text, or no call at all) becomes a text block too: pi would send it as a tool message without its call, which OpenAI-style APIs reject.",
  ),
  userThinking: loss("pi.user-thinking", "unsupported", "Thinking on a user message is dropped."),
  userMessageFields: loss(
    "pi.user-message-fields",
    "unsupported",
    "Model, stop reason and usage on a user message are dropped.",
  ),
  resultOnAssistant: loss(
    "pi.result-on-assistant",
    "degraded",
    "A tool result on an assistant message is written as a toolResult entry right after it.",
  ),
  assistantImage: loss(
    "pi.assistant-image",
    "unsupported",
    "An image on an assistant message is dropped: pi assistant content holds text, thinking and tool calls.",
  ),
  assistantContext: loss(
    "pi.assistant-context",
    "unsupported",
    "Context marking (system, developer, injected) on an assistant message is dropped.",
  ),
  messageShape: loss(
    "pi.message-shape",
    "other",
    "Messages are regrouped the way pi stores them: each tool result is its own entry (consecutive results read back as one message), and a user message mixing text with results or compactions is split.",
  ),
  messageOrder: loss(
    "pi.message-order",
    "other",
    "A user or context message between an assistant's tool calls and their results is written after those results, where pi puts a message typed while tools run (pi sends a user message between them as an interruption, and the results without their calls).",
  ),
  jsonToolOutput: loss(
    "pi.json-tool-output",
    "degraded",
    "Structured (JSON) tool output that is not a list of pi text and image blocks is flattened to its JSON text.",
  ),
  thinkingEncrypted: loss(
    "pi.thinking-encrypted-dropped",
    "degraded",
    "Encrypted reasoning beside a signature is dropped: a pi thinking block holds one signature.",
  ),
  thinkingProvider: loss(
    "pi.thinking-provider",
    "degraded",
    "Thinking blocks of one message read back with one provider (the message's): the first one given.",
  ),
  compactionHistory: loss(
    "pi.compaction-history",
    "degraded",
    "A compaction's history is written as the entries pi keeps after its summary (kept only when it is exactly the messages before it); its trigger (other than an extension's) is not written; a missing token count reads back as 0.",
  ),
} as const;

export const piLosses: readonly Loss[] = Object.values(piLoss);
