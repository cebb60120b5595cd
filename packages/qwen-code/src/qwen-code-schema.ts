// Qwen Code's chat recording as txcript holds it: the JSONL text split into
// its lines, each kept as written with its parsed object, so serialize gives
// back the exact bytes. A record is one JSON object per line (see
// docs/formats/qwen-code.md): uuid, parentUuid, sessionId, timestamp, type
// (user | assistant | tool_result | system), and for conversation records a
// Gemini-style `message` {role, parts}.
import {
  type Json,
  type JsonLines,
  type JsonObject,
  type JsonObjectLine,
  joinJsonLines,
  type ParseOptions,
  parseJsonObjectLines,
} from "@txcript/core";
import { nonConversationSubtypes, type QwenRecord } from "./qwen-code-sniff.js";

export const harness = "qwen_code";

export type QwenCodeLine = JsonObjectLine;

/**
 * A subagent's transcript as Qwen Code 0.24.4 keeps it beside the session:
 * `projects/<project>/subagents/<session id>/agent-<agentId>.jsonl` (records
 * like the session's, each with `agentId` and `isSidechain: true`) and its
 * sidecar `agent-<agentId>.meta.json` (agentId, agentType, description,
 * parentSessionId, toolUseId, parentAgentId, …). Never part of the session
 * file's text: the store (and a file's load) reads and writes them.
 */
export interface QwenCodeSubagentFile {
  readonly agentId: string;
  /** The parsed `.meta.json` object. */
  readonly meta: JsonObject;
  /** The transcript's lines (`agent-<agentId>.jsonl`). */
  readonly session: JsonLines<QwenCodeLine>;
}

export interface QwenCodeSession extends JsonLines<QwenCodeLine> {
  /** The session's subagent transcripts, when a load found them or fromCommon wrote them. */
  subagents?: readonly QwenCodeSubagentFile[];
}

export {
  knownSystemSubtypes,
  looksLikeRecord,
  nonConversationSubtypes,
  type QwenRecord,
  recordOf,
  recordTypes,
} from "./qwen-code-sniff.js";

function own(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
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
