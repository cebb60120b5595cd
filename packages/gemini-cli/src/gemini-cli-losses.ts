// Every representational loss of the Gemini CLI codec, in one list: the
// codec's `losses`, what geminiCliProject states as code, and what
// docs/formats/gemini-cli.md explains. Reading and writing report each
// occurrence through core's `warn`.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const geminiCliLoss = {
  // Reading (Gemini CLI → Common).
  badLine: loss(
    "gemini_cli.bad-line",
    "degraded",
    "A JSONL line that is not a JSON object is skipped, as Gemini CLI's loader skips it.",
  ),
  superseded: loss(
    "gemini_cli.superseded-record",
    "bookkeeping",
    "A message record replaced by a later record with the same id, or cleared by a `$set.messages` checkpoint, is left out: the conversation is what Gemini CLI would load.",
  ),
  rewound: loss(
    "gemini_cli.rewound",
    "bookkeeping",
    "Messages cut by a `$rewindTo` record are left out, as Gemini CLI leaves them out.",
  ),
  notice: loss(
    "gemini_cli.notice",
    "unsupported",
    "info, error and warning messages (notices Gemini CLI shows but never sends to the model) are left out.",
  ),
  unknownMessage: loss(
    "gemini_cli.unknown-message",
    "unsupported",
    "A messages entry without a string id, or of a type other than user, gemini, info, error or warning, is left out.",
  ),
  displayContent: loss(
    "gemini_cli.display-content",
    "bookkeeping",
    "A user message's displayContent (what the terminal showed, e.g. `/init`) is dropped; its content, what the model got, is kept.",
  ),
  unknownPart: loss(
    "gemini_cli.unknown-part",
    "unsupported",
    "Parts Common does not model (fileData, executableCode, codeExecutionResult, video metadata) are dropped.",
  ),
  partFields: loss(
    "gemini_cli.part-fields",
    "unsupported",
    "Part fields Common has no slot for (thoughtSignature, a thought's timestamp, a functionCall's extra keys) are dropped.",
  ),
  toolCallDisplay: loss(
    "gemini_cli.tool-call-display",
    "bookkeeping",
    "A tool call record's display fields (status, resultDisplay, description, displayName, timestamps) are dropped; the call and its result are kept.",
  ),
  cancelledTool: loss(
    "gemini_cli.cancelled-tool",
    "degraded",
    "A tool call whose status is cancelled (or any status but success) and whose result is no error response reads as an error result.",
  ),
  badTimestamp: loss(
    "gemini_cli.bad-timestamp",
    "degraded",
    "A missing or unreadable timestamp is replaced by the previous one (the session start for the first).",
  ),
  tokens: loss(
    "gemini_cli.tokens",
    "degraded",
    "Token counts are mapped onto Common usage (input minus cached, plus tool-use prompt tokens, is input; cached is cache read; output plus thoughts is output, thoughts reasoning output); a `total` that does not add up and unreadable counts are not kept.",
  ),
  // Writing (Common → Gemini CLI).
  foreignSessionId: loss(
    "gemini_cli.foreign-session-id",
    "degraded",
    "A session id Gemini CLI cannot name a file by or resume (characters outside A-Z a-z 0-9 _ -, all digits, or `latest`) is replaced by a deterministic UUID (v5).",
  ),
  metaFields: loss(
    "gemini_cli.meta-fields",
    "unsupported",
    "The session's git branch, CLI version, model and lineage are not in the file (its cwd is: the first of `directories`, and the store's projects.json).",
  ),
  emptyModel: loss(
    "gemini_cli.empty-model",
    "other",
    "An empty model name reads back as no model.",
  ),
  emptyText: loss(
    "gemini_cli.empty-text",
    "other",
    "An empty text block on an assistant message is not written: Gemini CLI leaves a model turn with an empty text part (and the model turns next to it) out of the history it sends on resume.",
  ),
  rawToolTyped: loss(
    "gemini_cli.raw-tool-typed",
    "other",
    "A Raw tool whose name and input are the Gemini spelling of a typed tool (or a typed tool's own name and input) reads back as that typed tool.",
  ),
  context: loss(
    "gemini_cli.context",
    "degraded",
    "A context message becomes an ordinary user message (a recording has no mark for context); only a user message that begins with `<session_context>` or `<hook_context>`, Gemini CLI's own injected context, reads back as injected context.",
  ),
  compaction: loss(
    "gemini_cli.compaction",
    "degraded",
    "A compaction marker is written as a text part holding its summary (a recording has no marker, and Gemini CLI sends every record, so the model reads the summary); its trigger, token count and history are not kept.",
  ),
  subagents: loss(
    "gemini_cli.subagents",
    "degraded",
    "Subagent conversations are not in the session file: a single file written alone (`convert -o`, stdout) leaves them out. A store save (`txcript continue`, the write option `forStore`) writes each as a recording of its own under chats/<session id>/, which the store loads back, but without the link to the tool call that spawned it (the writer sets no `toolCalls[].agentId`), its agent type or model, and in the order of the recordings' names.",
  ),
  subagentMissing: loss(
    "gemini_cli.subagent-missing",
    "unsupported",
    "A tool call names a subagent (`toolCalls[].agentId`) whose recording is not in chats/<session id>/ beside the file read (a lone recording, or one whose subagent recording was removed): that subagent's conversation is left out. Named by the load, and by the line-by-line reader of a lone recording.",
  ),
  cost: loss(
    "gemini_cli.cost",
    "unsupported",
    "A message's cost in US dollars is dropped: tokens have no cost field.",
  ),
  reasoningTokens: loss(
    "gemini_cli.reasoning-tokens",
    "degraded",
    "Reasoning tokens above the output count cannot be split from it (Gemini counts thoughts apart from output): the output count is raised to match.",
  ),
  stopReason: loss(
    "gemini_cli.stop-reason",
    "unsupported",
    "Stop reasons are dropped: a Gemini CLI message record has no place for one.",
  ),
  userToolUse: loss(
    "gemini_cli.user-tool-use",
    "degraded",
    "A tool call on a user message (a slash command, say) becomes a text part `[tool call <name> <input JSON>]`: the Gemini API takes a functionCall in a model turn only.",
  ),
  orphanResult: loss(
    "gemini_cli.orphan-result",
    "degraded",
    "A tool result whose call is not an earlier tool call of a model turn (a call made text, a call nowhere), or that sits on an assistant message, becomes a text part `[tool result] <content>` (`[tool result (error)]`; content not a string as its JSON text): a functionResponse without its functionCall is rejected by the Gemini API.",
  ),
  missingResult: loss(
    "gemini_cli.missing-result",
    "degraded",
    "A model turn's tool call that no user turn before the next model turn answers gets an error functionResponse `[txcript: this tool call has no result in the source session; the call was not answered]` (an `{output}` one for a shell call: gemini_cli.shell-error), on the last user record after it (or a new one): the Gemini API wants every call of a turn answered.",
  ),
  shellError: loss(
    "gemini_cli.shell-error",
    "degraded",
    "A failed shell command's result (an error result of `run_shell_command`, the missing-result answer included) is written as its output `{output}`, as Gemini CLI records a command that ran and failed; it reads back as a result that did not fail. Gemini CLI answers `{error}` for a call that could not run, and masks a bulky one of its shell tool to a bare file path.",
  ),
  commandLike: loss(
    "gemini_cli.command-like",
    "degraded",
    "A user message whose text starts with `/` or `?` (which Gemini CLI takes for a command and leaves out of the history it sends on resume) is written with a text part holding a zero-width space (U+200B) before it, so the model reads it; it reads back with that text block first.",
  ),
  userMessageFields: loss(
    "gemini_cli.user-message-fields",
    "unsupported",
    "Model and usage on a user message are dropped: only gemini records carry them.",
  ),
  cacheCreation: loss(
    "gemini_cli.cache-creation",
    "degraded",
    "Cache creation tokens have no count of their own: they are written as part of `input` and read back as input tokens.",
  ),
  thinkingFields: loss(
    "gemini_cli.thinking-fields",
    "unsupported",
    "A thinking block's signature, encrypted reasoning and provider are dropped: a thought part keeps its text only.",
  ),
} as const;

export const geminiCliLosses: readonly Loss[] = Object.values(geminiCliLoss);
