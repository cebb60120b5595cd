// An Amp thread read from its lines (core's stream.ts), with the meta,
// messages and warnings of ampToCommon(parseAmpThread(text)), without the
// thread ever being one string or one parsed document.
//
// A thread is one JSON object. splitThread walks its text line by line,
// keeping only JSON's nesting and strings, and hands out each top-level
// value but `messages` whole (small: id, created, title, env, the usage
// ledger) and each element of `messages` as its own text, which is parsed
// alone: JSON.parse gives a value the same whether it sits in a document or
// stands alone. A raw line break cannot occur inside a JSON string, so no
// string spans two lines, which keeps the walk simple.
//
// The meta needs the first assistant model, and a thread's keys may follow
// its messages, so pass one reads every message for those (and for the
// numbers JSON cannot hold, the whole read's first warning); pass two reads
// them again and hands out each message once read. Memory: one message's
// text and value, and the thread's other keys.
import {
  type CodecOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  jsonPath,
  type LineSource,
  type Meta,
  ownValue,
  parseJson,
  quote,
  type StreamPart,
  TxcriptError,
} from "@txcript/core";
import { LossTally, objectAt, type Site, stringAt } from "./amp-loss-tally.js";
import { findInexactNumbers, type InexactNumbers } from "./amp-numbers.js";
import { harness, invalidThread } from "./amp-schema.js";
import { readAmpMessage, readAmpMeta, warnInexactNumbers } from "./amp-to-common.js";

/** What the walk of a thread finds, in document order. */
export type SplitEvent =
  /** A top-level key's value (`messages` too when it is not an array), as text, and its first line. */
  | { kind: "key"; key: string; text: string; line: number }
  /** A `messages` key whose value is an array: its elements follow. */
  | { kind: "messages" }
  /** An element of that array, as text, and its first line. */
  | { kind: "message"; index: number; text: string; line: number };

function syntax(what: string, line: number, file: string | undefined): TxcriptError {
  return new TxcriptError("INVALID_JSON", `not valid JSON: ${what}`, {
    harness,
    location: { ...(file === undefined ? {} : { file }), line },
  });
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
 * Walk a thread's lines, handing out its top-level values and its messages (see the
 * module comment). Syntax the walk itself needs (the braces, colons and commas of the top
 * level and of `messages`) is checked here; each value's own syntax by its parse.
 */
export function* splitThread(lines: Iterable<string>, file?: string): Generator<SplitEvent> {
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
  let startLine = 0;
  let lineNumber = 0;
  // Each walk its own expressions: a replay walks the same text while this walk is paused.
  const structural = /["{}[\]]/g;
  // JSON's whitespace within a line (a line holds no line feed).
  const space = /[^ \t\r]/g;
  const finish = (text: string, line: number): SplitEvent => {
    if (phase === "value") {
      phase = "afterValue";
      return { kind: "key", key, text, line };
    }
    phase = "afterElement";
    index += 1;
    return { kind: "message", index: index - 1, text, line };
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
            if (close === -1) throw syntax(`unexpected ${quote("\n")}`, lineNumber, file);
            structural.lastIndex = close;
          } else if (char === "{" || char === "[") depth += 1;
          else {
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
        yield finish(text, startLine);
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
          if (!valueStart.test(char)) throw syntax(`unexpected ${quote(char)}`, lineNumber, file);
          if (char !== "{") {
            for (
              let more = iterator.next();
              !more.done && before.length < 200;
              more = iterator.next()
            )
              before += `\n${more.value}`;
            throw invalidThread(
              `not an Amp thread: expected a JSON object, got ${quote(before, 40)}`,
              [],
              file === undefined ? {} : { file },
            );
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
          if (char !== '"') throw syntax(`unexpected ${quote(char)}`, lineNumber, file);
          const close = stringEnd(line, at);
          if (close === -1) throw syntax(`unexpected ${quote("\n")}`, lineNumber, file);
          key = parseJson(line.slice(at, close), { harness, line: lineNumber }) as string;
          firstKey = false;
          phase = "colon";
          at = close;
          continue;
        }
        case "colon":
          if (char !== ":") throw syntax(`unexpected ${quote(char)}`, lineNumber, file);
          phase = "value";
          at += 1;
          continue;
        case "value":
        case "element": {
          if (phase === "value" && key === "messages" && char === "[") {
            yield { kind: "messages" };
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
            startLine = lineNumber;
            continue;
          }
          const end = char === '"' ? stringEnd(line, at) : scalarEnd(line, at);
          if (end === -1) throw syntax(`unexpected ${quote("\n")}`, lineNumber, file);
          const text = line.slice(at, end);
          at = end;
          yield finish(text, lineNumber);
          continue;
        }
        case "afterValue":
          if (char === ",") phase = "key";
          else if (char === "}") phase = "done";
          else throw syntax(`unexpected ${quote(char)}`, lineNumber, file);
          at += 1;
          continue;
        case "afterElement":
          if (char === ",") phase = "element";
          else if (char === "]") phase = "afterValue";
          else throw syntax(`unexpected ${quote(char)}`, lineNumber, file);
          at += 1;
          continue;
        case "done":
          throw syntax(`unexpected ${quote(char)}`, lineNumber, file);
      }
    }
  }
  if (phase !== "done" || pieces !== undefined)
    throw syntax("unexpected end of input", lineNumber, file);
}

function setOwn(object: JsonObject, key: string, value: Json): void {
  // As JSON.parse: an own property even for `__proto__`; a repeated key keeps its first place.
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** Numbers a double cannot hold in one piece of the thread, added to those found before it. */
function addInexact(
  found: InexactNumbers | undefined,
  text: string,
  at: (string | number)[],
): InexactNumbers | undefined {
  const here = findInexactNumbers(text);
  if (here === undefined) return found;
  if (found !== undefined) return { path: found.path, count: found.count + here.count };
  return { path: `${jsonPath(at)}${here.path.slice(1)}`, count: here.count };
}

/**
 * Pass one: the thread's keys but its messages (`messages` an empty array when it is one), the
 * first assistant model, and the inexact numbers; the whole read's errors, in its order.
 */
function readHead(lines: LineSource): {
  document: JsonObject;
  model: string | undefined;
  inexact: InexactNumbers | undefined;
  arrays: number;
} {
  const document: JsonObject = {};
  let inexact: InexactNumbers | undefined;
  let model: string | undefined;
  let arrays = 0;
  let bad = -1;
  for (const event of splitThread(lines())) {
    if (event.kind === "messages") {
      // A repeated key: JSON.parse keeps the last value, so only the last array counts.
      arrays += 1;
      setOwn(document, "messages", []);
      model = undefined;
      bad = -1;
      continue;
    }
    const value = parseJson(event.text, { harness, line: event.line });
    if (event.kind === "key") {
      inexact = addInexact(inexact, event.text, [event.key]);
      setOwn(document, event.key, value);
      if (event.key === "messages") bad = -1;
      continue;
    }
    inexact = addInexact(inexact, event.text, ["messages", event.index]);
    if (!isJsonObject(value)) {
      if (bad === -1) bad = event.index;
    } else if (model === undefined && ownValue(value, "role") === "assistant")
      model = stringAt(objectAt(value, "usage"), "model");
  }
  if (!Array.isArray(ownValue(document, "messages")))
    throw invalidThread(
      "not an Amp thread: `messages` is missing or not an array",
      ["messages"],
      {},
    );
  if (bad !== -1) throw invalidThread("a message is not a JSON object", ["messages", bad], {});
  return { document, model, inexact, arrays };
}

/** An Amp thread's lines as parts: the meta, then each message once read (see the module comment). */
export function* ampReadStream(lines: LineSource, options: CodecOptions): Generator<StreamPart> {
  const head = readHead(lines);
  const tally = new LossTally();
  const meta: Meta = readAmpMeta(head.document, tally);
  warnInexactNumbers(head.inexact, options);
  if (head.model !== undefined) meta.model = head.model;
  yield { kind: "meta", meta, subagents: false };
  const site: Site = { message: -1, block: -1 };
  let clock = meta.timestamp;
  let arrays = 0;
  for (const event of splitThread(lines())) {
    if (event.kind === "messages") arrays += 1;
    if (event.kind !== "message" || arrays !== head.arrays) continue;
    const value = parseJson(event.text, { harness, line: event.line }) as JsonObject;
    site.message = event.index;
    const read = readAmpMessage(value, site, tally, clock);
    clock = read.clock;
    if (read.message !== undefined) yield { kind: "message", message: read.message };
  }
  tally.flush(options);
}
