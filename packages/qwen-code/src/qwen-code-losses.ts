// Every representational loss of the Qwen Code codec: the codec's `losses`,
// what qwenCodeProject states as code, and what docs/formats/qwen-code.md
// explains. Reading and writing report each occurrence through core's `warn`.
import type { Loss } from "@txcript/core";

function loss(code: string, kind: Loss["kind"], description: string): Loss {
  return { code, kind, description };
}

export const qwenCodeLoss = {
  // Reading (Qwen Code → Common).
  branch: loss(
    "qwen_code.branch",
    "unsupported",
    "Records off the active chain (rewound turns, abandoned branches) are left out: the conversation is the parentUuid chain from the last conversation record.",
  ),
  systemRecord: loss(
    "qwen_code.system-record",
    "bookkeeping",
    "System records other than chat_compression and custom_title (ui_telemetry, attribution_snapshot, slash_command, file_history_snapshot, …) are not kept.",
  ),
  skippedLine: loss(
    "qwen_code.skipped-line",
    "other",
    "A line that is not a record Qwen Code accepts (no uuid, parentUuid, sessionId or known type) is skipped, as Qwen Code skips it.",
  ),
  noRecords: loss(
    "qwen_code.no-records",
    "other",
    "A text with no record Qwen Code accepts (an empty file among them) reads as an empty session: `qwen --resume` finds no session in it.",
  ),
  part: loss(
    "qwen_code.part",
    "unsupported",
    "A message part other than text, thought, functionCall, functionResponse and inlineData (fileData, executableCode, …) is not kept.",
  ),
  recordFields: loss(
    "qwen_code.record-fields",
    "bookkeeping",
    "Per-record bookkeeping (provenance, toolCallResult display data, goal context) is not kept.",
  ),
  // Writing (Common → Qwen Code).
  sessionId: loss(
    "qwen_code.session-id",
    "degraded",
    "A session id `qwen --resume` does not take (not a lower-case UUID of version 1 to 5) is replaced by a UUID v5 of it.",
  ),
  startTime: loss(
    "qwen_code.start-time",
    "bookkeeping",
    "Records carry no session start time apart from the first record's timestamp, so the session starts at its first message.",
  ),
  emptySession: loss(
    "qwen_code.empty-session",
    "unsupported",
    "A session with no messages and no title is written as an empty file: its id, start time and cwd are not kept.",
  ),
  metaModel: loss(
    "qwen_code.meta-model",
    "bookkeeping",
    "The session-level model is not kept (each assistant record keeps its own).",
  ),
  lineage: loss("qwen_code.lineage", "bookkeeping", "The session's lineage is not kept."),
  subagents: loss(
    "qwen_code.subagents",
    "degraded",
    "Subagent conversations are not in the session file: a single file written alone (`convert -o`, stdout) leaves them out. A store save (`txcript continue`, the write option `forStore`) writes them as transcripts of their own beside the session (`subagents/<session id>/agent-<agentId>.jsonl` and `.meta.json`), which the store loads back, and reports nothing; an empty session, written as an empty file, leaves them out there too.",
  ),
  subagentId: loss(
    "qwen_code.subagent-id",
    "degraded",
    "A subagent id that is not 1 to 128 characters of [A-Za-z0-9_-] is replaced by a UUID v5 of it, and one already used in the session by `<id>-<k>` (the first free k from 2): Qwen Code names an agent's files by its id and keeps a session's agents in one directory.",
  ),
  subagentTitle: loss(
    "qwen_code.subagent-title",
    "degraded",
    "An empty subagent title is not kept: the meta file's `description` holds it, and an empty description reads as no title.",
  ),
  subagentMeta: loss(
    "qwen_code.subagent-meta",
    "bookkeeping",
    "A subagent meta file's run state (createdAt, lastUpdatedAt, status, isBackgrounded, persistedCliFlags, resumeCount, lastError, …) is not kept; its agentId, agentType, description, toolUseId, parentAgentId and model are.",
  ),
  subagentFile: loss(
    "qwen_code.subagent-file",
    "unsupported",
    "A file in the session's `subagents/<session id>/` that Qwen Code would not read as an agent of this session (a meta file that is not a JSON object, names no agentId, another file name or another parentSessionId; a transcript missing beside it, not a regular file or not JSON lines; past the 2000 agents Qwen Code reads) is left out. Named by the load.",
  ),
  context: loss(
    "qwen_code.context",
    "degraded",
    "A context message (system prompt, injected instructions) is written as a plain user message.",
  ),
  userToolCall: loss(
    "qwen_code.user-tool-call",
    "degraded",
    "A tool call on a user message (a slash command), and its result in the same message, are written as text: Qwen Code sends no call from a user turn.",
  ),
  emptyMessage: loss(
    "qwen_code.empty-message",
    "degraded",
    "An assistant message with no content but empty texts is not written (nor its usage and model): Qwen Code leaves a model turn with no parts out of the history it sends, and every model turn next to it.",
  ),
  emptyText: loss(
    "qwen_code.empty-text",
    "degraded",
    "An empty text block on an assistant message is not written: Qwen Code leaves a model turn holding an empty text part out of the history it sends, and every model turn next to it.",
  ),
  stopReason: loss("qwen_code.stop-reason", "bookkeeping", "Stop reasons are not kept."),
  usage: loss(
    "qwen_code.usage",
    "bookkeeping",
    "usageMetadata has no cache-creation count and no cost; reasoning tokens above the output count are capped at it.",
  ),
  usageRange: loss(
    "qwen_code.usage-range",
    "unsupported",
    "A usageMetadata token count that is not a whole number from 0 to 2^53 − 1 (negative, fractional, or too large to be exact) reads as 0: Common's counts are safe integers.",
  ),
  thinking: loss(
    "qwen_code.thinking",
    "degraded",
    "Encrypted reasoning and its provider are not kept (a thought part holds text and a thoughtSignature).",
  ),
  compaction: loss(
    "qwen_code.compaction",
    "degraded",
    "A compaction marker keeps only its summary (as the compressed history's one user turn); trigger, token count and the history sent instead are not kept. A marker that is not alone in a user message becomes text.",
  ),
} as const satisfies Record<string, Loss>;

export const qwenCodeLosses: readonly Loss[] = Object.values(qwenCodeLoss);
