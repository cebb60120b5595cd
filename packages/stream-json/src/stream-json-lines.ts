// The native body of a stream-json capture and its exact text form: one JSON
// object a line, kept whole (unknown types and keys included), blank lines
// and the final newline as captured. Not the meaning of the lines: that is
// stream-json-to-common.ts. A final line cut off mid-write is kept as text.
import {
  isJsonObject,
  type JsonObject,
  type ParseOptions,
  parseJson,
  quote,
  splitJsonLines,
  stringifyJson,
  TxcriptError,
} from "@txcript/core";

export const harness = "stream_json";

/**
 * The key of the init line txcript writes a converted session's lineage
 * under (`{harness, id, txcriptVersion, convertedAt}`): both programs'
 * consumers ignore init keys they do not know.
 */
export const lineageKey = "txcript_lineage";

/** Which program wrote the capture: they share the line types but not the tool names or keys. */
export type StreamJsonDialect = "claude" | "amp";

export interface StreamJsonLine {
  /** The line's object; null for a blank line or a cut-off final line. */
  value: JsonObject | null;
  /** The line exactly as read (without its newline). Absent on lines fromCommon built. */
  text?: string;
  /** True for a final line cut off mid-write (no newline, not JSON). */
  truncated?: true;
}

export interface StreamJsonCapture {
  lines: StreamJsonLine[];
  /** Whether the text ends with a newline (programs write one after every line). */
  finalNewline: boolean;
}

/** Why a line of JSON text is not a stream-json line, as a TxcriptError naming the line. */
export function lineError(
  text: string,
  line: number,
  cause: unknown,
  file: string | undefined,
): TxcriptError {
  const location = { ...(file === undefined ? {} : { file }), line };
  if (TxcriptError.isInstance(cause) && cause.code === "TOO_LARGE") return cause;
  if (TxcriptError.isInstance(cause)) {
    const detail = cause.message.replace(/^not valid JSON: /, "");
    return new TxcriptError("INVALID_JSON", `line ${line} is not JSON: ${detail}`, {
      harness,
      location: {
        ...location,
        ...(cause.location.column ? { column: cause.location.column } : {}),
      },
      hint: `each line must be one JSON object; got ${quote(text, 120)}`,
      cause,
    });
  }
  return new TxcriptError("INVALID_DOCUMENT", `line ${line} is JSON but not an object`, {
    harness,
    location,
    hint: `each line must be one JSON object; got ${quote(text, 120)}`,
  });
}

/** Parse one line's text (already known not to be blank) into its object. */
export function parseLine(text: string, line: number, file?: string): JsonObject {
  let value: unknown;
  try {
    value = parseJson(text, file === undefined ? { harness, line } : { harness, line, file });
  } catch (error) {
    throw lineError(text, line, error, file);
  }
  if (!isJsonObject(value)) throw lineError(text, line, undefined, file);
  return value;
}

export function isBlank(text: string): boolean {
  // Most lines start with "{": no need to trim (and copy) them to know.
  return text.charCodeAt(0) !== 123 && text.trim() === "";
}

/** A capture's text → its lines. Throws INVALID_JSON naming the first bad line. */
export function parseCapture(text: string, options: ParseOptions = {}): StreamJsonCapture {
  const { file } = options;
  // An empty capture is one blank line (serialized back as nothing).
  if (text === "") return { lines: [{ value: null, text }], finalNewline: false };
  return splitJsonLines(text, (piece, number, last): StreamJsonLine => {
    if (isBlank(piece)) return { value: null, text: piece };
    try {
      return { value: parseLine(piece, number, file), text: piece };
    } catch (error) {
      // Only the very last line of a capture without a final newline can be a
      // cut-off write; anything else that is not JSON is an error.
      if (last && !text.endsWith("\n") && piece.trimStart().startsWith("{") && isCutOff(error))
        return { value: null, text: piece, truncated: true };
      throw error;
    }
  });
}

function isCutOff(error: unknown): boolean {
  return TxcriptError.isInstance(error) && error.code === "INVALID_JSON";
}

/** Exact inverse of parseCapture for captured text; compact JSON for built lines. */
export function serializeCapture(capture: StreamJsonCapture): string {
  const { lines } = capture;
  // The final newline is an empty last piece of the join, so the text is one
  // flat string (a newline appended after would make a rope to flatten again).
  const finalNewline = capture.finalNewline && lines.length > 0;
  const texts: string[] = new Array(lines.length + (finalNewline ? 1 : 0));
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as StreamJsonLine;
    // A line read from text is written as that text: never printed again.
    texts[index] =
      line.text ?? (line.value === null ? "" : stringifyJson(line.value, undefined, harness));
  }
  if (finalNewline) texts[lines.length] = "";
  return texts.join("\n");
}
