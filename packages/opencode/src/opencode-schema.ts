// OpenCode's export document as txcript keeps it: the parsed JSON itself
// (`{info, messages: [{info, parts}]}`, every key in order, unknown part
// types included), whether the text ended in a newline, and — for text that
// 2-space JSON.stringify does not give back byte for byte (a hand-edited
// file, a number a double cannot hold) — the source text itself. The
// interfaces describe the keys the codec reads and writes; they are views,
// not a schema the parser enforces.
import {
  isJsonObject,
  type Json,
  type JsonObject,
  jsonPath,
  ownValue,
  type ParseOptions,
  parseJson,
  quote,
  stringifyJson,
  TxcriptError,
} from "@txcript/core";

export const harness = "opencode";

/** `{info: Session, messages: [{info: Message, parts: Part[]}]}`, kept as parsed. */
export type OpencodeDocument = JsonObject & { info: JsonObject; messages: OpencodeEntry[] };
export type OpencodeEntry = JsonObject & { info: JsonObject; parts: JsonObject[] };

/** The native body of the codec: one session as `opencode export` prints it. */
export interface OpencodeSession {
  document: OpencodeDocument;
  /** `opencode export` ends its output with "\n". */
  finalNewline: boolean;
  /**
   * Set by `parse` only when the text is not what `serialize` would write for
   * the parsed document: then `serialize` returns `text` itself while the
   * document still renders as `rendered`. Bodies built by fromCommon never have it.
   */
  source?: { text: string; rendered: string };
  /**
   * Child sessions (OpenCode subagents: sessions whose `parentID` is this
   * one), when a store loaded them. Not part of the export text: `serialize`
   * prints this session only, and `opencode import` takes one session per file.
   */
  children?: OpencodeSession[];
}

/** Token counts as OpenCode records them per assistant message and per step-finish. */
export interface OpencodeTokens {
  input: number;
  output: number;
  reasoning: number;
  cache: { read: number; write: number };
  total?: number;
}

export function invalidExport(
  message: string,
  path: (string | number)[],
  options: ParseOptions,
): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", message, {
    harness,
    location: {
      ...(options.file === undefined ? {} : { file: options.file }),
      path: jsonPath(path),
    },
    hint: 'expected an OpenCode export: {"info": {"id": "ses_…", …}, "messages": [{"info": {…}, "parts": [{…}]}]}',
  });
}

/**
 * Text → OpencodeSession. Requires a JSON object with an `info` object and a
 * `messages` array of `{info: object, parts: object[]}`; everything else is
 * kept as is.
 */
export function parseOpencodeExport(text: string, options: ParseOptions = {}): OpencodeSession {
  const value = parseJson(text, {
    harness,
    ...(options.file === undefined ? {} : { file: options.file }),
  });
  if (!isJsonObject(value))
    throw invalidExport(
      `not an OpenCode export: expected a JSON object, got ${quote(text, 40)}`,
      [],
      options,
    );
  if (!isJsonObject(ownValue(value, "info")))
    throw invalidExport(
      "not an OpenCode export: `info` is missing or not an object",
      ["info"],
      options,
    );
  const messages = ownValue(value, "messages");
  if (!Array.isArray(messages))
    throw invalidExport(
      "not an OpenCode export: `messages` is missing or not an array",
      ["messages"],
      options,
    );
  messages.forEach((entry, index) => {
    checkEntry(entry, index, options);
  });
  const session: OpencodeSession = {
    document: value as OpencodeDocument,
    finalNewline: text.endsWith("\n"),
  };
  const rendered = renderParsed(session, options);
  if (rendered !== text) session.source = { text, rendered };
  return session;
}

/**
 * render() of a document just parsed: JSON.parse takes deeper nesting than
 * JSON.stringify gives back, so a document nested that deep is refused here,
 * naming the file, as too deep to read.
 */
function renderParsed(session: OpencodeSession, options: ParseOptions): string {
  try {
    return render(session);
  } catch (cause) {
    if (!TxcriptError.isInstance(cause) || cause.code !== "TOO_LARGE") throw cause;
    throw new TxcriptError("TOO_LARGE", "document is nested too deeply to read", {
      harness,
      location: options.file === undefined ? {} : { file: options.file },
      cause,
    });
  }
}

export function checkEntry(entry: Json, index: number, options: ParseOptions): void {
  if (!isJsonObject(entry))
    throw invalidExport("a message is not a JSON object", ["messages", index], options);
  if (!isJsonObject(ownValue(entry, "info")))
    throw invalidExport("a message has no `info` object", ["messages", index, "info"], options);
  const parts = ownValue(entry, "parts");
  if (!Array.isArray(parts))
    throw invalidExport("a message has no `parts` array", ["messages", index, "parts"], options);
  const bad = parts.findIndex((part) => !isJsonObject(part));
  if (bad !== -1)
    throw invalidExport("a part is not a JSON object", ["messages", index, "parts", bad], options);
}

function render(session: OpencodeSession): string {
  const text = stringifyJson(session.document, 2, harness);
  return session.finalNewline ? `${text}\n` : text;
}

/**
 * OpencodeSession → text: 2-space JSON and a final newline, as `opencode
 * export` prints it; the source text instead while a parsed document that
 * did not print that way is unchanged.
 */
export function serializeOpencodeExport(session: OpencodeSession): string {
  const text = render(session);
  const source = session.source;
  return source !== undefined && text === source.rendered ? source.text : text;
}

export { looksLikeOpencodeExport } from "./opencode-sniff.js";

/** A string field of a native object, or undefined. */
export function stringField(object: JsonObject, key: string): string | undefined {
  const value = ownValue(object, key);
  return typeof value === "string" ? value : undefined;
}

/** A finite number field of a native object, or undefined. */
export function numberField(object: JsonObject, key: string): number | undefined {
  const value = ownValue(object, key);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** An object field of a native object, or undefined. */
export function objectField(object: JsonObject, key: string): JsonObject | undefined {
  const value = ownValue(object, key);
  return isJsonObject(value) ? value : undefined;
}
