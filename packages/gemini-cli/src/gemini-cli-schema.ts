// The native body of a Gemini CLI chat recording, in either file era: the
// JSONL records of 0.39 and later (each line kept as the exact text written
// beside the JSON value parsed from it, bad lines included, so
// serialize(parse(s)) === s) or the whole pretty-printed JSON document of
// 0.38 and earlier (kept as its text). Which era a text is follows Gemini
// CLI's own loader. This module does not map to Common (gemini-cli-to-common.ts).
import {
  isJsonObject,
  type Json,
  type JsonObject,
  joinJsonLines,
  objectAt,
  ownValue,
  parseJson,
  quote,
  splitJsonLines,
  TxcriptError,
} from "@txcript/core";

export const harness = "gemini_cli";

/** One line of a JSONL recording: its text, and its JSON object unless the line is blank or bad. */
export interface GeminiCliLine {
  readonly text: string;
  readonly value?: JsonObject;
  /** The line is not blank but not a JSON object either: Gemini CLI skips it. */
  readonly bad?: true;
}

/** A subagent's own recording (`chats/<parent session id>/<id>.jsonl`), attached by the store. */
export interface GeminiCliSubagentFile {
  readonly id: string;
  readonly session: GeminiCliSession;
}

export interface GeminiCliJsonlSession {
  readonly format: "jsonl";
  readonly lines: readonly GeminiCliLine[];
  readonly finalNewline: boolean;
  /** Subagent recordings beside this one; never part of this file's text. */
  readonly subagents?: readonly GeminiCliSubagentFile[];
  /** The project directory the recording belongs to (projects.json); never part of the text. */
  readonly projectRoot?: string;
}

export interface GeminiCliJsonSession {
  readonly format: "json";
  readonly text: string;
  readonly document: JsonObject;
  readonly subagents?: readonly GeminiCliSubagentFile[];
  readonly projectRoot?: string;
}

export type GeminiCliSession = GeminiCliJsonlSession | GeminiCliJsonSession;

/** Whether a record line sets (or merges in) the session id and project hash, as the loader asks. */
function metadataOf(value: JsonObject): JsonObject | undefined {
  if (typeof ownValue(value, "$rewindTo") === "string") return undefined;
  if (typeof ownValue(value, "id") === "string") return undefined;
  const set = objectAt(value, "$set");
  if (set !== undefined) return set;
  if (
    typeof ownValue(value, "sessionId") === "string" &&
    typeof ownValue(value, "projectHash") === "string"
  )
    return value;
  return undefined;
}

function splitLines(text: string): {
  lines: GeminiCliLine[];
  finalNewline: boolean;
  identified: boolean;
} {
  let sessionId = false;
  let projectHash = false;
  const { lines, finalNewline } = splitJsonLines(text, (lineText): GeminiCliLine => {
    if (lineText.trim() === "") return { text: lineText };
    let value: Json | undefined;
    try {
      value = parseJson(lineText, { harness });
    } catch (error) {
      if (!TxcriptError.isInstance(error)) throw error;
    }
    if (!isJsonObject(value)) return { text: lineText, bad: true };
    const metadata = metadataOf(value);
    if (metadata !== undefined) {
      // Later records override earlier ones, as the loader's object spread does.
      if (Object.hasOwn(metadata, "sessionId"))
        sessionId = typeof metadata.sessionId === "string" && metadata.sessionId !== "";
      if (Object.hasOwn(metadata, "projectHash"))
        projectHash = typeof metadata.projectHash === "string" && metadata.projectHash !== "";
    }
    return { text: lineText, value };
  });
  return { lines, finalNewline, identified: sessionId && projectHash };
}

/**
 * Text → native body. Like Gemini CLI's loader, the text is read as JSONL
 * records first; when they never name a session id and project hash it is
 * read as one whole JSON document, which must hold a `sessionId`.
 */
export function parseSession(text: string, options: { file?: string } = {}): GeminiCliSession {
  const file = options.file === undefined ? {} : { file: options.file };
  const split = splitLines(text);
  if (split.identified)
    return { format: "jsonl", lines: split.lines, finalNewline: split.finalNewline };
  let document: Json;
  try {
    document = parseJson(text, { harness, ...file });
  } catch (error) {
    if (!TxcriptError.isInstance(error) || error.code !== "INVALID_JSON") throw error;
    throw new TxcriptError(
      "INVALID_DOCUMENT",
      "not a Gemini CLI chat recording: no JSONL line names a sessionId and projectHash, and the text is not one JSON document",
      {
        harness,
        location: file,
        hint: `expected {"sessionId":…,"projectHash":…} on the first line, got ${quote(text.slice(0, 200), 80)}`,
        cause: error,
      },
    );
  }
  if (!isJsonObject(document) || !Object.hasOwn(document, "sessionId")) {
    throw new TxcriptError(
      "INVALID_DOCUMENT",
      "a Gemini CLI chat recording must be an object with a sessionId",
      {
        harness,
        location: { ...file, path: "$" },
        hint: `expected {"sessionId":…,"messages":[…]}, got ${quote(text, 80)}`,
      },
    );
  }
  return { format: "json", text, document };
}

export function serializeSession(session: GeminiCliSession): string {
  if (session.format === "json") return session.text;
  return joinJsonLines(session.lines, session.finalNewline);
}
