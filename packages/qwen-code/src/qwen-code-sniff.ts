// Whether a text is a Qwen Code chat recording: the codec's `detect`, and
// which records Qwen Code accepts (recordOf), with no runtime import (types
// only), so @txcript/harnesses/sniffs (the CLI's detection) tells a
// recording apart without loading the codec or a schema.
// qwen-code-schema.ts re-exports what it reads records with.
import type { Json, JsonObject } from "@txcript/core";

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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

/** Qwen Code's detection: the first line (its first MiB) is a record with Qwen Code's identity fields and, when it carries a message, Gemini-style parts. */
export function qwenCodeSniff(text: string): boolean {
  const end = text.indexOf("\n");
  const first = text.slice(
    0,
    end === -1 ? Math.min(text.length, 1_048_576) : Math.min(end, 1_048_576),
  );
  try {
    return looksLikeRecord(JSON.parse(first));
  } catch {
    return false;
  }
}
