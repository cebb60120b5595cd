// JSON values and the one safe way this project turns text into them.
// `parseJson` never throws anything but TxcriptError: syntax errors carry the
// line and column, and hostile depth (a RangeError from the engine) becomes a
// TOO_LARGE error instead of escaping.
import { jsonPath, TxcriptError, type TxcriptErrorLocation } from "./errors.js";
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
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
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
  // JSON.parse reads 1e400 as Infinity, which no JSON writer can carry
  // back (JSON.stringify prints null): refuse it where it stands.
  if (hasNonFiniteNumber(value)) {
    const path = nonFinitePath(value);
    throw new TxcriptError("INVALID_DOCUMENT", "a number is out of range (past ±1.8e308)", {
      ...(options.harness === undefined ? {} : { harness: options.harness }),
      location: {
        ...(options.file === undefined ? {} : { file: options.file }),
        ...(options.line === undefined ? {} : { line: options.line }),
        path,
      },
      hint: "JSON numbers must fit a double",
    });
  }
  return value;
}

/**
 * Iterative, so hostile depth cannot overflow it. Only containers go on the
 * stack, and an object's values are read in place (no `Object.values` copy
 * per object): this walk runs over every document and line read.
 */
function hasNonFiniteNumber(root: Json): boolean {
  if (typeof root !== "object" || root === null)
    return typeof root === "number" && !Number.isFinite(root);
  const stack: (Json[] | JsonObject)[] = [root];
  while (stack.length > 0) {
    const container = stack.pop() as Json[] | JsonObject;
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) {
        const item = container[index] as Json;
        if (typeof item === "object") {
          if (item !== null) stack.push(item);
        } else if (typeof item === "number" && !Number.isFinite(item)) return true;
      }
    } else {
      // JSON.parse makes plain objects: every enumerable key is an own key.
      for (const key in container) {
        const item = container[key] as Json;
        if (typeof item === "object") {
          if (item !== null) stack.push(item);
        } else if (typeof item === "number" && !Number.isFinite(item)) return true;
      }
    }
  }
  return false;
}

/** The JSON path of the first non-finite number (only called once one is known to exist). */
function nonFinitePath(root: Json): string {
  // Each entry links to its parent, so deep documents cost no copied paths.
  interface Step {
    value: Json;
    parent: Step | undefined;
    segment: string | number;
  }
  const stack: Step[] = [{ value: root, parent: undefined, segment: "" }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const { value } = step;
    if (typeof value === "number" && !Number.isFinite(value)) {
      const segments: (string | number)[] = [];
      for (let at: Step | undefined = step; at?.parent !== undefined; at = at.parent)
        segments.push(at.segment);
      return jsonPath(segments.reverse());
    }
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1)
        stack.push({ value: value[index] as Json, parent: step, segment: index });
    } else if (typeof value === "object" && value !== null) {
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string;
        stack.push({ value: value[key] as Json, parent: step, segment: key });
      }
    }
  }
  return "$";
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

/**
 * A line or text as a JSON object, or undefined when it is not one (cut, not JSON, or another
 * value): for readers that skip what they cannot use, such as a store's list peeks.
 */
export function parseJsonObject(text: string): JsonObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isJsonObject(value) ? value : undefined;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own-property read that never walks the prototype chain (`__proto__` stays data). */
export function ownValue(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The string at `key` (an own property), if it is one. `object` may be absent. */
export function stringAt(object: JsonObject | undefined, key: string): string | undefined {
  const value = object === undefined ? undefined : ownValue(object, key);
  return typeof value === "string" ? value : undefined;
}

/** The JSON object at `key` (an own property), if it is one. */
export function objectAt(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object === undefined ? undefined : ownValue(object, key);
  return isJsonObject(value) ? value : undefined;
}

/** The array at `key` (an own property), if it is one. */
export function arrayAt(object: JsonObject | undefined, key: string): Json[] | undefined {
  const value = object === undefined ? undefined : ownValue(object, key);
  return Array.isArray(value) ? value : undefined;
}

/** The finite number at `key` (an own property), if it is one. */
export function numberAt(object: JsonObject | undefined, key: string): number | undefined {
  const value = object === undefined ? undefined : ownValue(object, key);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * Deep structural equality of JSON values, key order included when `ordered`.
 * A key whose value is undefined counts as absent. Unordered, it walks each
 * object's own keys in place (no key arrays per object): writers call it per
 * tool call to check that a spelling reads back as the same tool.
 */
export function jsonEqual(left: unknown, right: unknown, ordered = false): boolean {
  if (left === right) return true;
  if (typeof left !== typeof right || left === null || right === null) return false;
  if (typeof left !== "object") return Number.isNaN(left) && Number.isNaN(right);
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++)
      if (!jsonEqual(left[index], right[index], ordered)) return false;
    return true;
  }
  if (Array.isArray(right)) return false;
  const a = left as Record<string, unknown>;
  const b = right as Record<string, unknown>;
  if (ordered) {
    const leftKeys = Object.keys(a).filter((key) => a[key] !== undefined);
    const rightKeys = Object.keys(b).filter((key) => b[key] !== undefined);
    if (leftKeys.length !== rightKeys.length) return false;
    for (let index = 0; index < leftKeys.length; index++) {
      const key = leftKeys[index] as string;
      if (key !== rightKeys[index] || !jsonEqual(a[key], b[key], true)) return false;
    }
    return true;
  }
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    const value = a[key];
    if (value === undefined) continue;
    count++;
    if (!Object.hasOwn(b, key) || !jsonEqual(value, b[key], false)) return false;
  }
  for (const key in b) if (Object.hasOwn(b, key) && b[key] !== undefined) count--;
  return count === 0;
}
