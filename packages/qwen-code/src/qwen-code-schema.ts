// Qwen Code's chat recording as txcript holds it: the JSONL text split into
// its lines, each kept as written with its parsed object, so serialize gives
// back the exact bytes. A record is one JSON object per line (see
// docs/formats/qwen-code.md): uuid, parentUuid, sessionId, timestamp, type
// (user | assistant | tool_result | system), and for conversation records a
// Gemini-style `message` {role, parts}.
import {
  isJsonObject,
  type Json,
  type JsonLines,
  type JsonObject,
  type JsonObjectLine,
  joinJsonLines,
  type ParseOptions,
  parseJsonObjectLines,
} from "@txcript/core";

export const harness = "qwen_code";

export type QwenCodeLine = JsonObjectLine;
export type QwenCodeSession = JsonLines<QwenCodeLine>;

/** The record types Qwen Code 0.24.4 reads (transcript-records.ts RECORD_TYPES). */
export const recordTypes = new Set(["user", "assistant", "tool_result", "system"]);

/** System subtypes that are not part of the conversation chain (artifact and managed-session records). */
export const nonConversationSubtypes = new Set([
  "session_artifact_event",
  "session_artifact_snapshot",
  "session_sources_snapshot",
  "managed_session_header_v1",
  "managed_session_event_v1",
  "managed_session_commit_v1",
]);

/** The system subtypes Qwen Code 0.24.4 knows (transcript-records.ts KNOWN_RECORD_SUBTYPES). */
export const knownSystemSubtypes = new Set([
  "chat_compression",
  "slash_command",
  "ui_telemetry",
  "at_command",
  "attribution_snapshot",
  "notification",
  "background_task_completed",
  "cron",
  "mid_turn_user_message",
  "realtime_message",
  "custom_title",
  "parent_session",
  "rewind",
  "agent_bootstrap",
  "agent_launch_prompt",
  "agent_retry",
  "agent_session_ready",
  "file_history_snapshot",
  "session_source",
  "session_model",
  "omni_recall",
  "session_sources_snapshot",
  "branch_checkpoint",
  "goal_state",
  "goal_runtime",
  "goal_turn_end",
  "turn_result",
  ...nonConversationSubtypes,
]);

/** A record whose identity fields Qwen Code accepts; anything else it skips. */
export interface QwenRecord {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  type: string;
  value: JsonObject;
}

function own(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The record a line holds, or undefined when Qwen Code would skip it. */
export function recordOf(value: JsonObject | undefined): QwenRecord | undefined {
  if (value === undefined) return undefined;
  const uuid = own(value, "uuid");
  const parentUuid = own(value, "parentUuid");
  const sessionId = own(value, "sessionId");
  const type = own(value, "type");
  if (typeof uuid !== "string" || uuid === "") return undefined;
  if (typeof parentUuid !== "string" && parentUuid !== null) return undefined;
  if (typeof sessionId !== "string" || sessionId === "") return undefined;
  if (typeof type !== "string" || !recordTypes.has(type)) return undefined;
  return { uuid, parentUuid, sessionId, type, value };
}

export function isConversationRecord(record: QwenRecord): boolean {
  if (record.type !== "system") return true;
  const subtype = own(record.value, "subtype");
  return !(typeof subtype === "string" && nonConversationSubtypes.has(subtype));
}

export function parseSession(text: string, options: ParseOptions = {}): QwenCodeSession {
  return parseJsonObjectLines(text, {
    harness,
    ...(options.file === undefined ? {} : { file: options.file }),
  });
}

export function serializeSession(session: QwenCodeSession): string {
  return joinJsonLines(session.lines, session.finalNewline);
}

/**
 * A record as Qwen Code writes it: identity fields and, for messages,
 * Gemini-style parts (never Claude Code's content); a system record without
 * a message has one of Qwen Code's own subtypes (never Claude Code's).
 */
export function looksLikeRecord(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const record = recordOf(value);
  if (record === undefined) return false;
  const message = own(value, "message");
  if (message === undefined) {
    const subtype = own(value, "subtype");
    return (
      record.type === "system" && typeof subtype === "string" && knownSystemSubtypes.has(subtype)
    );
  }
  return isJsonObject(message) && Array.isArray(own(message, "parts"));
}
