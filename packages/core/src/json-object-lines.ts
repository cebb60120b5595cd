// A JSON object read from its lines a value at a time, for documents too
// long to hold (a 2 GB Amp thread, an OpenCode export): the walk keeps only
// JSON's nesting and strings and hands out each top-level value as its own
// text, and each element of one named array (a thread's `messages`), so
// each is parsed alone. JSON.parse gives a value the same whether it sits
// in a document or stands alone. A raw line break cannot occur inside a JSON
// string, so no string spans two lines, which keeps the walk simple; the
// lines are core's readFileLines (or a text's own).
// Why a walker and not a streaming JSON parser: docs/decisions/0016.
import { TxcriptError } from "./errors.js";
import type { Json, JsonObject } from "./json.js";
import { parseJson, quote } from "./json.js";

/**
 * Set a key of an object made from walked values as JSON.parse would: an own property even for
 * `__proto__`, and a repeated key keeps its first place with its last value.
 */
export function setOwnValue(object: JsonObject, key: string, value: Json): void {
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/**
 * What the walk of a document finds, in document order. A value's `depth` is how deeply its
 * arrays and objects nest (0 for a string, number or literal), so a reader can tell a value too
 * deep to print again without printing it.
 */
export type JsonObjectEvent =
  /** A top-level key's value (the array key's too when it is not an array), as text, and its first line. */
  | { kind: "key"; key: string; text: string; line: number; depth: number }
  /** The array key, whose value is an array: its elements follow. */
  | { kind: "array" }
  /** An element of that array, as text, and its first line. */
  | { kind: "element"; index: number; text: string; line: number; depth: number };

export interface JsonObjectWalkOptions {
  /** The top-level key whose array is handed out element by element. */
  arrayKey: string;
  /** The harness named in errors. */
  harness?: string;
  /** The file named in errors. */
  file?: string;
  /**
   * The error for a document that is JSON but not an object, given its start (up to ~200
   * characters: the whole parse's refusal quotes the text).
   */
  notAnObject: (start: string) => Error;
}

/** Index just past the string whose opening quote is at `start` on `line`, or -1 (unterminated). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quoteAt = text.indexOf('"', from);
    if (quoteAt === -1) return -1;
    let before = quoteAt - 1;
    while (text.charCodeAt(before) === 0x5c) before -= 1;
    if ((quoteAt - 1 - before) % 2 === 0) return quoteAt + 1;
    from = quoteAt + 1;
  }
}

/** A character a JSON value can start with. */
const valueStart = /[[{"\-0-9tfn]/;

/** The end of a number or literal starting at `at`: the next whitespace, comma or closing bracket. */
function scalarEnd(line: string, at: number): number {
  let end = at;
  while (end < line.length) {
    const code = line.charCodeAt(end);
    // space, tab, CR, comma, ], }
    if (
      code === 0x20 ||
      code === 0x09 ||
      code === 0x0d ||
      code === 0x2c ||
      code === 0x5d ||
      code === 0x7d
    )
      break;
    end += 1;
  }
  return end;
}

/**
 * Walk a JSON object's lines (see the module comment), handing out each top-level value as
 * text and, for `arrayKey`, each element of its array. Syntax the walk itself needs (the braces,
 * colons and commas of the object and of that array, strings cut by a line break) is refused here
 * with the message JSON.parse's refusal gives (core's parseJson); each value's own syntax is
 * checked by its parse.
 */
export function* walkJsonObjectLines(
  lines: Iterable<string>,
  options: JsonObjectWalkOptions,
): Generator<JsonObjectEvent> {
  const { arrayKey, harness, file } = options;
  const syntax = (what: string, line: number): TxcriptError =>
    new TxcriptError("INVALID_JSON", `not valid JSON: ${what}`, {
      ...(harness === undefined ? {} : { harness }),
      location: { ...(file === undefined ? {} : { file }), line },
    });
  type Phase =
    | "start"
    | "key"
    | "colon"
    | "value"
    | "afterValue"
    | "element"
    | "afterElement"
    | "done";
  let phase: Phase = "start";
  let key = "";
  let firstKey = true;
  let firstElement = false;
  let index = 0;
  // The container value being gathered: its pieces, nesting depth, and first line.
  let pieces: string[] | undefined;
  let depth = 0;
  let deepest = 0;
  let startLine = 0;
  let lineNumber = 0;
  // Each walk its own expressions: a replay walks the same text while this walk is paused.
  const structural = /["{}[\]]/g;
  // JSON's whitespace within a line (a line holds no line feed).
  const space = /[^ \t\r]/g;
  const finish = (text: string, line: number, nested: number): JsonObjectEvent => {
    if (phase === "value") {
      phase = "afterValue";
      return { kind: "key", key, text, line, depth: nested };
    }
    phase = "afterElement";
    index += 1;
    return { kind: "element", index: index - 1, text, line, depth: nested };
  };
  // The text before the first value, kept short: the whole read's "not an object" quotes it.
  let before = "";
  const iterator = lines[Symbol.iterator]();
  for (let next = iterator.next(); !next.done; next = iterator.next()) {
    const line = next.value;
    lineNumber += 1;
    if (phase === "start" && before.length < 200) before += `${lineNumber > 1 ? "\n" : ""}${line}`;
    let at = 0;
    const length = line.length;
    while (at < length) {
      if (pieces !== undefined) {
        // Inside an object or array: where it ends on this line, or the line whole.
        let end = -1;
        structural.lastIndex = at;
        for (let match = structural.exec(line); match !== null; match = structural.exec(line)) {
          const char = match[0];
          if (char === '"') {
            const close = stringEnd(line, match.index);
            if (close === -1) throw syntax(`unexpected ${quote("\n")}`, lineNumber);
            structural.lastIndex = close;
          } else if (char === "{" || char === "[") {
            depth += 1;
            if (depth > deepest) deepest = depth;
          } else {
            depth -= 1;
            if (depth === 0) {
              end = match.index + 1;
              break;
            }
          }
        }
        if (end === -1) {
          pieces.push(line.slice(at), "\n");
          break;
        }
        pieces.push(line.slice(at, end));
        const text = pieces.join("");
        pieces = undefined;
        at = end;
        yield finish(text, startLine, deepest);
        continue;
      }
      space.lastIndex = at;
      const found = space.exec(line);
      if (found === null) break;
      at = found.index;
      const char = line[at] as string;
      switch (phase as Phase) {
        case "start":
          // Not JSON at all: the whole read's parse error (a value that is not an object: its own).
          if (!valueStart.test(char)) throw syntax(`unexpected ${quote(char)}`, lineNumber);
          if (char !== "{") {
            for (
              let more = iterator.next();
              !more.done && before.length < 200;
              more = iterator.next()
            )
              before += `\n${more.value}`;
            throw options.notAnObject(before);
          }
          phase = "key";
          at += 1;
          continue;
        case "key": {
          if (char === "}" && firstKey) {
            phase = "done";
            at += 1;
            continue;
          }
          if (char !== '"') throw syntax(`unexpected ${quote(char)}`, lineNumber);
          const close = stringEnd(line, at);
          if (close === -1) throw syntax(`unexpected ${quote("\n")}`, lineNumber);
          key = parseJson(line.slice(at, close), {
            ...(harness === undefined ? {} : { harness }),
            line: lineNumber,
          }) as string;
          firstKey = false;
          phase = "colon";
          at = close;
          continue;
        }
        case "colon":
          if (char !== ":") throw syntax(`unexpected ${quote(char)}`, lineNumber);
          phase = "value";
          at += 1;
          continue;
        case "value":
        case "element": {
          if (phase === "value" && key === arrayKey && char === "[") {
            yield { kind: "array" };
            phase = "element";
            firstElement = true;
            index = 0;
            at += 1;
            continue;
          }
          if (phase === "element" && char === "]" && firstElement) {
            phase = "afterValue";
            at += 1;
            continue;
          }
          firstElement = false;
          if (char === "{" || char === "[") {
            pieces = [];
            depth = 0;
            deepest = 0;
            startLine = lineNumber;
            continue;
          }
          const end = char === '"' ? stringEnd(line, at) : scalarEnd(line, at);
          if (end === -1) throw syntax(`unexpected ${quote("\n")}`, lineNumber);
          const text = line.slice(at, end);
          at = end;
          yield finish(text, lineNumber, 0);
          continue;
        }
        case "afterValue":
          if (char === ",") phase = "key";
          else if (char === "}") phase = "done";
          else throw syntax(`unexpected ${quote(char)}`, lineNumber);
          at += 1;
          continue;
        case "afterElement":
          if (char === ",") phase = "element";
          else if (char === "]") phase = "afterValue";
          else throw syntax(`unexpected ${quote(char)}`, lineNumber);
          at += 1;
          continue;
        case "done":
          throw syntax(`unexpected ${quote(char)}`, lineNumber);
      }
    }
  }
  if (phase !== "done" || pieces !== undefined) throw syntax("unexpected end of input", lineNumber);
}
