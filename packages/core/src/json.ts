// JSON values and the one safe way this project turns text into them.
// `parseJson` never throws anything but TxcriptError: syntax errors carry the
// line and column, and hostile depth (a RangeError from the engine) becomes a
// TOO_LARGE error instead of escaping.
import { TxcriptError, type TxcriptErrorLocation } from "./errors.js";
import { jsonErrorOffset } from "./json-error-offset.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Cut a piece of input short for an error message. */
export function quote(text: string, max = 200): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut);
}

/** Line and column (1-based) of a character offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < end;
    index = text.indexOf("\n", index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: end - lineStart + 1 };
}

export interface ParseJsonOptions {
  harness?: string;
  file?: string;
  /** The line this text starts on, for JSONL callers that parse one line at a time. */
  line?: number;
}

/** JSON.parse with errors as TxcriptError (INVALID_JSON or TOO_LARGE) carrying a location. */
export function parseJson(text: string, options: ParseJsonOptions = {}): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (cause) {
    const location: TxcriptErrorLocation = {};
    if (options.file !== undefined) location.file = options.file;
    if (cause instanceof RangeError) {
      if (options.line !== undefined) location.line = options.line;
      throw new TxcriptError("TOO_LARGE", "input is nested too deeply to parse", {
        ...(options.harness === undefined ? {} : { harness: options.harness }),
        location,
        cause,
      });
    }
    const message = cause instanceof Error ? cause.message : String(cause);
    const offset = jsonErrorOffset(text);
    if (offset >= 0) {
      const { line, column } = lineAndColumn(text, offset);
      location.line = (options.line ?? 1) + line - 1;
      location.column = column;
    } else if (options.line !== undefined) {
      location.line = options.line;
    }
    const detail =
      offset >= 0 && offset < text.length
        ? `unexpected ${quote(text.slice(offset, offset + 1))}`
        : offset >= 0
          ? "unexpected end of input"
          : message;
    throw new TxcriptError("INVALID_JSON", `not valid JSON: ${detail}`, {
      ...(options.harness === undefined ? {} : { harness: options.harness }),
      location,
      cause,
      hint: `expected one JSON document, got ${quote(text, 80)}`,
    });
  }
}

/**
 * JSON.stringify that reports hostile depth as TOO_LARGE instead of letting
 * a RangeError escape.
 */
export function stringifyJson(value: unknown, indent?: number, harness?: string): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (cause) {
    if (cause instanceof RangeError) {
      throw new TxcriptError("TOO_LARGE", "document is nested too deeply or too large to write", {
        ...(harness === undefined ? {} : { harness }),
        cause,
      });
    }
    throw cause;
  }
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own-property read that never walks the prototype chain (`__proto__` stays data). */
export function ownValue(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Deep structural equality of JSON values, key order included when `ordered`. */
export function jsonEqual(left: unknown, right: unknown, ordered = false): boolean {
  if (left === right) return true;
  if (typeof left !== typeof right || left === null || right === null) return false;
  if (typeof left !== "object") return Number.isNaN(left) && Number.isNaN(right);
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    return (
      left.length === other.length &&
      left.every((item, index) => jsonEqual(item, other[index], ordered))
    );
  }
  const leftKeys = Object.keys(left as object).filter(
    (key) => (left as Record<string, unknown>)[key] !== undefined,
  );
  const rightKeys = Object.keys(right as object).filter(
    (key) => (right as Record<string, unknown>)[key] !== undefined,
  );
  if (leftKeys.length !== rightKeys.length) return false;
  if (ordered && leftKeys.some((key, index) => key !== rightKeys[index])) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(right as object, key) &&
      jsonEqual(
        (left as Record<string, unknown>)[key],
        (right as Record<string, unknown>)[key],
        ordered,
      ),
  );
}
