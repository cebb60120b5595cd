// The native body of one Crush session: its `sessions` row, its `messages`
// rows (each `parts` column kept as the exact JSON text Crush stored) and its
// child sessions, as read from `.crush/crush.db`. Its text form is txcript's
// own JSON dump of those rows (Crush has no session file), pretty-printed;
// `serialize(parse(s)) === s` holds for what `serialize` wrote. Not the Go
// unmarshalling rules of `parts` (crush-parts.ts).
import {
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  type ParseOptions,
  parseJson,
  stringifyJson,
  TxcriptError,
} from "@txcript/core";

export const harness = "crush";

/** One session and everything that belongs to it. */
export interface CrushSession {
  /** The project directory whose `.crush/crush.db` holds it, when known (not a column). */
  projectDirectory?: string;
  /** The `sessions` row, column → value. */
  session: JsonObject;
  /** Its `messages` rows in Crush's order (`created_at`, then insertion). */
  messages: JsonObject[];
  /** Sessions whose `parent_session_id` is this one (agent tool sessions, title sessions). */
  children?: CrushSession[];
}

/** Child sessions nest; deeper than this is not read or written. */
export const maxDepth = 8;

function invalid(message: string, jsonPath: string, file: string | undefined): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", message, {
    harness,
    location: { path: jsonPath, ...(file === undefined ? {} : { file }) },
    hint: "expected txcript's dump of a Crush session: {session, messages, children?}",
  });
}

function requireString(row: JsonObject, key: string, at: string, file?: string): void {
  if (typeof ownValue(row, key) !== "string")
    throw invalid(`${key} is not a string`, `${at}.${key}`, file);
}

function requireInteger(row: JsonObject, key: string, at: string, file?: string): void {
  const value = ownValue(row, key);
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    throw invalid(`${key} is not an integer`, `${at}.${key}`, file);
}

/** Checks the columns every era has and the reader relies on. */
export function checkSessionRow(row: Json | undefined, at: string, file?: string): JsonObject {
  if (!isJsonObject(row)) throw invalid("the session row is not an object", at, file);
  requireString(row, "id", at, file);
  requireString(row, "title", at, file);
  requireInteger(row, "created_at", at, file);
  return row;
}

export function checkMessageRow(row: Json | undefined, at: string, file?: string): JsonObject {
  if (!isJsonObject(row)) throw invalid("the message row is not an object", at, file);
  for (const key of ["id", "session_id", "role", "parts"]) requireString(row, key, at, file);
  requireInteger(row, "created_at", at, file);
  return row;
}

function checkSession(value: Json, at: string, depth: number, file?: string): CrushSession {
  if (!isJsonObject(value)) throw invalid("expected an object", at, file);
  if (depth > maxDepth)
    throw new TxcriptError("TOO_LARGE", `child sessions nest deeper than ${maxDepth}`, {
      harness,
      location: { path: at, ...(file === undefined ? {} : { file }) },
    });
  const session = checkSessionRow(ownValue(value, "session"), `${at}.session`, file);
  const rows = ownValue(value, "messages");
  if (!Array.isArray(rows)) throw invalid("messages is not an array", `${at}.messages`, file);
  const messages = rows.map((row, index) => checkMessageRow(row, `${at}.messages[${index}]`, file));
  const result: CrushSession = { session, messages };
  const directory = ownValue(value, "projectDirectory");
  if (directory !== undefined) {
    if (typeof directory !== "string")
      throw invalid("projectDirectory is not a string", `${at}.projectDirectory`, file);
    result.projectDirectory = directory;
  }
  const children = ownValue(value, "children");
  if (children !== undefined) {
    if (!Array.isArray(children)) throw invalid("children is not an array", `${at}.children`, file);
    result.children = children.map((child, index) =>
      checkSession(child, `${at}.children[${index}]`, depth + 1, file),
    );
  }
  for (const key of Object.keys(value))
    if (!["projectDirectory", "session", "messages", "children"].includes(key))
      throw invalid(`unknown key ${JSON.stringify(key)}`, `${at}.${key}`, file);
  return result;
}

export function parseCrushSession(text: string, options: ParseOptions = {}): CrushSession {
  const value = parseJson(text, { harness, ...options });
  return checkSession(value, "$", 0, options.file);
}

function toJson(session: CrushSession): JsonObject {
  const out: JsonObject = {};
  if (session.projectDirectory !== undefined) out.projectDirectory = session.projectDirectory;
  out.session = session.session;
  out.messages = session.messages;
  if (session.children !== undefined) out.children = session.children.map(toJson);
  return out;
}

export function serializeCrushSession(session: CrushSession): string {
  return `${stringifyJson(toJson(session), 2, harness)}\n`;
}

export { detectCrushSession } from "./crush-sniff.js";
