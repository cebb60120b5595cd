// A JSON-lines text held whole, split into its lines and joined back byte for
// byte. The lines are those the bounded reader in stream-lines.ts sees: the
// text split on "\n" (a "\r" stays on its line, so CRLF text comes back as
// it was), without the empty piece after a final newline, and none at all
// for an empty text. Each harness decides what a line means; the helpers
// here keep the raw text, the 1-based line number and the final newline.
import { TxcriptError } from "./errors.js";
import { isJsonObject, type JsonObject, parseJson, quote } from "./json.js";

/** The lines of a text, and whether it ended with "\n". */
export interface JsonLines<L> {
  lines: L[];
  finalNewline: boolean;
}

/** One line as written, and its JSON object (absent for a blank line). */
export interface JsonObjectLine {
  readonly text: string;
  readonly value?: JsonObject;
}

export interface JsonLineOptions {
  /** Harness named in errors. */
  harness: string;
  /** The file named in errors. */
  file?: string;
}

/**
 * Split `text` into lines and read each with `read(lineText, number, last)`:
 * `number` counts from 1, `last` is true for the final line. One pass with
 * indexOf, no array of pieces beside the lines.
 */
export function splitJsonLines<L>(
  text: string,
  read: (lineText: string, number: number, last: boolean) => L,
): JsonLines<L> {
  const finalNewline = text.endsWith("\n");
  const lines: L[] = [];
  if (text === "") return { lines, finalNewline };
  const end = finalNewline ? text.length - 1 : text.length;
  for (let start = 0, number = 1; ; number++) {
    let stop = text.indexOf("\n", start);
    if (stop === -1 || stop > end) stop = end;
    const last = stop === end;
    lines.push(read(text.slice(start, stop), number, last));
    if (last) break;
    start = stop + 1;
  }
  return { lines, finalNewline };
}

/**
 * The exact inverse of splitJsonLines for lines that keep their text. The
 * final newline is joined in with the lines (an empty last piece), so the
 * text is one flat string, copied once; appending it afterwards would make
 * a rope that every writer flattens again.
 */
export function joinJsonLines(
  lines: readonly { readonly text: string }[],
  finalNewline: boolean,
): string {
  if (lines.length === 0) return finalNewline ? "\n" : "";
  const texts: string[] = new Array(lines.length + (finalNewline ? 1 : 0));
  for (let index = 0; index < lines.length; index++)
    texts[index] = (lines[index] as { readonly text: string }).text;
  if (finalNewline) texts[lines.length] = "";
  return texts.join("\n");
}

/**
 * Line `number` of a session file that must be a JSON object. A line with
 * only whitespace (a "\r" left by an editor, say) is kept verbatim with no
 * value; bad JSON is INVALID_JSON and other JSON INVALID_DOCUMENT, both
 * naming the file and line.
 */
export function parseJsonObjectLine(
  lineText: string,
  number: number,
  options: JsonLineOptions,
): JsonObjectLine {
  if (lineText.trim() === "") return { text: lineText };
  const { harness } = options;
  const file = options.file === undefined ? {} : { file: options.file };
  const value = parseJson(lineText, { harness, ...file, line: number });
  if (!isJsonObject(value)) {
    throw new TxcriptError("INVALID_DOCUMENT", "a session line must be a JSON object", {
      harness,
      location: { ...file, line: number },
      hint: `expected {"type": ...}, got ${quote(lineText, 80)}`,
    });
  }
  return { text: lineText, value };
}

/** A text whose every non-blank line is a JSON object (see parseJsonObjectLine). */
export function parseJsonObjectLines(
  text: string,
  options: JsonLineOptions,
): JsonLines<JsonObjectLine> {
  return splitJsonLines(text, (lineText, number) => parseJsonObjectLine(lineText, number, options));
}

/**
 * A line a writer printed: its text, and the value parsed from that text only
 * when asked (and then kept), so a long written session is held once, as text.
 */
export function writtenJsonLine(text: string, harness: string): JsonObjectLine {
  let parsed: JsonObject | undefined;
  return {
    text,
    get value(): JsonObject {
      parsed ??= parseJson(text, { harness }) as JsonObject;
      return parsed;
    },
  };
}
