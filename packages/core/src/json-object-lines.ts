// A JSON object read from its lines a value at a time, for documents too
// long to hold (a 2 GB Amp thread, an OpenCode export): the walk keeps only
// JSON's nesting and strings and hands out each top-level value as its own
// text, and each element of one named array (a thread's `messages`), so
// each is parsed alone. JSON.parse gives a value the same whether it sits
// in a document or stands alone. A raw line break cannot occur inside a JSON
// string, so no string spans two lines, which keeps the walk simple; the
// lines are core's readFileLines (or a text's own), or, far cheaper,
// blocks of whole lines (readFileLineBlocks), walked the same way.
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

/** Index just past the string whose opening quote is at `start`, or -1 (no closing quote). */
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
function scalarEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    // space, tab, CR, LF, comma, ], }
    if (
      code === 0x20 ||
      code === 0x09 ||
      code === 0x0d ||
      code === 0x0a ||
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
 * text and, for `arrayKey`, each element of its array. Each string `lines` gives is one line,
 * or several whole lines joined by "\n" (readFileLineBlocks): the walk is the same, and far
 * cheaper in blocks, where a value is cut out of its block in one slice. Syntax the walk itself
 * needs (the braces, colons and commas of the object and of that array, strings cut by a line
 * break) is refused here with the message JSON.parse's refusal gives (core's parseJson); each
 * value's own syntax is checked by its parse.
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
  // The line of the character being looked at (0 before the first line).
  let lineNumber = 0;
  const finish = (text: string, line: number, nested: number): JsonObjectEvent => {
    if (phase === "value") {
      phase = "afterValue";
      return { kind: "key", key, text, line, depth: nested };
    }
    phase = "afterElement";
    index += 1;
    return { kind: "element", index: index - 1, text, line, depth: nested };
  };
  // The text before the first value, in whole lines: the whole read's "not an object" quotes it.
  let head = "";
  const iterator = lines[Symbol.iterator]();
  for (let next = iterator.next(); !next.done; next = iterator.next()) {
    const text = next.value;
    // Each string starts a line; the line break before it belongs to a value being gathered.
    lineNumber += 1;
    if (pieces !== undefined) pieces.push("\n");
    if (phase === "start" && head.length < 200) head += `${lineNumber > 1 ? "\n" : ""}${text}`;
    const length = text.length;
    // Where this line ends: no string may reach past it (JSON strings hold no raw line break).
    let lineEnd = text.indexOf("\n");
    if (lineEnd === -1) lineEnd = length;
    // The string opening at `at`'s end, refused when it does not close on its line.
    const closeString = (at: number): number => {
      const close = stringEnd(text, at);
      if (close === -1 || close > lineEnd) throw syntax(`unexpected ${quote("\n")}`, lineNumber);
      return close;
    };
    let at = 0;
    while (at < length) {
      if (pieces !== undefined) {
        // Inside an object or array: where it ends in this text, or the text whole.
        let end = -1;
        let i = at;
        while (i < length) {
          const code = text.charCodeAt(i);
          if (code === 0x22) {
            i = closeString(i);
            continue;
          }
          if (code === 0x0a) {
            lineNumber += 1;
            lineEnd = text.indexOf("\n", i + 1);
            if (lineEnd === -1) lineEnd = length;
          } else if (code === 0x7b || code === 0x5b) {
            depth += 1;
            if (depth > deepest) deepest = depth;
          } else if (code === 0x7d || code === 0x5d) {
            depth -= 1;
            if (depth === 0) {
              end = i + 1;
              break;
            }
          }
          i += 1;
        }
        if (end === -1) {
          pieces.push(at === 0 ? text : text.slice(at));
          break;
        }
        const value =
          pieces.length === 0 ? text.slice(at, end) : gathered(pieces, text.slice(at, end));
        pieces = undefined;
        at = end;
        yield finish(value, startLine, deepest);
        continue;
      }
      // JSON's whitespace, line breaks counted.
      let code = text.charCodeAt(at);
      while (code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a) {
        if (code === 0x0a) {
          lineNumber += 1;
          lineEnd = text.indexOf("\n", at + 1);
          if (lineEnd === -1) lineEnd = length;
        }
        at += 1;
        code = at < length ? text.charCodeAt(at) : -1;
      }
      if (at >= length) break;
      const char = text[at] as string;
      switch (phase as Phase) {
        case "start":
          // Not JSON at all: the whole read's parse error (a value that is not an object: its own).
          if (!valueStart.test(char)) throw syntax(`unexpected ${quote(char)}`, lineNumber);
          if (char !== "{") {
            for (
              let more = iterator.next();
              !more.done && head.length < 200;
              more = iterator.next()
            )
              head += `\n${more.value}`;
            // Whole lines, as many as make 200 characters.
            const cut = head.indexOf("\n", 200);
            throw options.notAnObject(cut === -1 ? head : head.slice(0, cut));
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
          const close = closeString(at);
          key = parseJson(text.slice(at, close), {
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
          const end = char === '"' ? closeString(at) : scalarEnd(text, at);
          const value = text.slice(at, end);
          at = end;
          yield finish(value, lineNumber, 0);
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

/** A value gathered over several texts: the pieces so far and its last one, joined. */
function gathered(pieces: string[], last: string): string {
  pieces.push(last);
  return pieces.join("");
}
