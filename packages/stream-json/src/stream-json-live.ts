// The live reader: stream-json lines as they arrive on a pipe or stdin,
// with memory bounded by the longest line (never the whole stream). Yields
// each complete line's object; feeds StreamJsonAccumulator for a live view.
// Not the file codec (stream-json-codec.ts), which reads whole captures.
import { type Json, TxcriptError, type Warning, warn } from "@txcript/core";
import { isBlank, parseLine } from "./stream-json-lines.js";
import { streamJsonLoss } from "./stream-json-losses.js";

export interface StreamJsonLineRecord {
  /** 1-based line number in the stream (blank lines count). */
  line: number;
  /** The line as read, without its newline. */
  text: string;
  value: Json;
}

export interface ReadStreamJsonLinesOptions {
  /** Called for a final line cut off mid-write (loss `truncated-line`). */
  onWarning?: (warning: Warning) => void;
  /** For error locations. */
  file?: string;
}

/**
 * Yields each line of a stream-json stream as soon as its newline arrives.
 * Blank lines are skipped; a line that is not a JSON object throws
 * INVALID_JSON (or INVALID_DOCUMENT) naming its line number and quoting it
 * cut short; a last line without a newline that is not JSON (a killed
 * producer) is reported through onWarning and ends the stream quietly.
 */
export async function* readStreamJsonLines(
  source: AsyncIterable<string | Uint8Array>,
  options: ReadStreamJsonLinesOptions = {},
): AsyncGenerator<StreamJsonLineRecord, void, undefined> {
  const decoder = new TextDecoder("utf-8");
  // The pieces of the line not yet ended by a newline: all that is held.
  let pending: string[] = [];
  let line = 0;
  const finish = (text: string): StreamJsonLineRecord | undefined => {
    line += 1;
    if (isBlank(text)) return undefined;
    return { line, text, value: parseLine(text, line, options.file) };
  };
  for await (const chunk of source) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      const piece = text.slice(start, end);
      // A line within one chunk (the usual case) needs no joining.
      let whole = piece;
      if (pending.length > 0) {
        pending.push(piece);
        whole = pending.join("");
        pending = [];
      }
      const record = finish(whole);
      start = end + 1;
      if (record !== undefined) yield record;
    }
    if (start < text.length) pending.push(text.slice(start));
  }
  const rest = pending.join("") + decoder.decode();
  if (rest === "") return;
  let record: StreamJsonLineRecord | undefined;
  try {
    record = finish(rest);
  } catch (error) {
    const cutOff =
      TxcriptError.isInstance(error) &&
      error.code === "INVALID_JSON" &&
      rest.trimStart().startsWith("{");
    if (!cutOff) throw error;
    warn(
      options,
      streamJsonLoss.truncatedLine,
      `the last line was cut off mid-write after ${rest.length} characters`,
      `line ${line}`,
    );
    return;
  }
  if (record !== undefined) yield record;
}
