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
export type QwenCodeSession = JsonLines<QwenCodeLine>;

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
