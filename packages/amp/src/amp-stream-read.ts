// An Amp thread read from its lines (core's stream.ts), with the meta,
// messages and warnings of ampToCommon(parseAmpThread(text)), without the
// thread ever being one string or one parsed document.
//
// A thread is one JSON object. Core's walkJsonObjectLines walks its text
// line by line, keeping only JSON's nesting and strings, and hands out each
// top-level value but `messages` whole (small: id, created, title, env, the
// usage ledger) and each element of `messages` as its own text, which is
// parsed alone.
//
// The meta needs the first assistant model, and a thread's keys may follow
// its messages, so pass one reads every message for those (and for the
// numbers JSON cannot hold, the whole read's first warning); pass two reads
// them again and hands out each message once read. Memory: one message's
// text and value, and the thread's other keys. Pass one also finds whether
// a user message holds a tool_use block (the meta part's `userToolCalls`,
// so a Claude Code writer need not replay the thread for it), and a later
// read in the same conversion (a writer's replay) takes pass one's findings
// from the conversion's StreamMemo (core's scanOnce) and makes pass two only.
import {
  type CodecOptions,
  isJsonObject,
  type JsonObject,
  type JsonObjectEvent,
  jsonPath,
  type LineSource,
  linesOrBlocks,
  type Meta,
  ownValue,
  parseJson,
  quote,
  type StreamPart,
  scanOnce,
  setOwnValue,
  walkJsonObjectLines,
} from "@txcript/core";
import { LossTally, objectAt, type Site, stringAt } from "./amp-loss-tally.js";
import { findInexactNumbers, type InexactNumbers } from "./amp-numbers.js";
import { harness, invalidThread } from "./amp-schema.js";
import { readAmpMessage, readAmpMeta, warnInexactNumbers } from "./amp-to-common.js";

/** The walk of a thread: its `messages` element by element, refused as parseAmpThread refuses. */
export function walkThread(lines: Iterable<string>): Generator<JsonObjectEvent> {
  return walkJsonObjectLines(lines, {
    arrayKey: "messages",
    harness,
    notAnObject: (start) =>
      invalidThread(`not an Amp thread: expected a JSON object, got ${quote(start, 40)}`, [], {}),
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
 * Whether a message's Common form may be a user message holding a tool call (core's
 * isUserToolCall): readAmpMessage makes a tool_use block only of an object block whose own
 * `type` is "tool_use", and keeps the message's role. Never false for one that is.
 */
function mayBeUserToolCall(message: JsonObject): boolean {
  if (ownValue(message, "role") !== "user") return false;
  const content = ownValue(message, "content");
  return (
    Array.isArray(content) &&
    content.some((block) => isJsonObject(block) && ownValue(block, "type") === "tool_use")
  );
}

/** What pass one finds: all pass two needs but the per-read tally, meta and warnings. */
interface Head {
  /** The thread's keys but its messages; only read after pass one. */
  document: JsonObject;
  model: string | undefined;
  inexact: InexactNumbers | undefined;
  arrays: number;
  /** Whether a user message may hold a tool call (see mayBeUserToolCall). */
  userToolCalls: boolean;
}

/**
 * Pass one: the thread's keys but its messages (`messages` an empty array when it is one), the
 * first assistant model, the inexact numbers, and whether a user message may hold a tool call;
 * the whole read's errors, in its order.
 */
function readHead(lines: LineSource): Head {
  const document: JsonObject = {};
  let inexact: InexactNumbers | undefined;
  let model: string | undefined;
  let userToolCalls = false;
  let arrays = 0;
  let bad = -1;
  for (const event of walkThread(linesOrBlocks(lines))) {
    if (event.kind === "array") {
      // A repeated key: JSON.parse keeps the last value, so only the last array counts.
      arrays += 1;
      setOwnValue(document, "messages", []);
      model = undefined;
      userToolCalls = false;
      bad = -1;
      continue;
    }
    const value = parseJson(event.text, { harness, line: event.line });
    if (event.kind === "key") {
      inexact = addInexact(inexact, event.text, [event.key]);
      setOwnValue(document, event.key, value);
      if (event.key === "messages") bad = -1;
      continue;
    }
    inexact = addInexact(inexact, event.text, ["messages", event.index]);
    if (!isJsonObject(value)) {
      if (bad === -1) bad = event.index;
      continue;
    }
    if (model === undefined && ownValue(value, "role") === "assistant")
      model = stringAt(objectAt(value, "usage"), "model");
    if (!userToolCalls && mayBeUserToolCall(value)) userToolCalls = true;
  }
  if (!Array.isArray(ownValue(document, "messages")))
    throw invalidThread(
      "not an Amp thread: `messages` is missing or not an array",
      ["messages"],
      {},
    );
  if (bad !== -1) throw invalidThread("a message is not a JSON object", ["messages", bad], {});
  return { document, model, inexact, arrays, userToolCalls };
}

/** Where pass one's findings are kept in a conversion's StreamMemo. */
const headMemoKey = "amp.head";

/** An Amp thread's lines as parts: the meta, then each message once read (see the module comment). */
export function* ampReadStream(lines: LineSource, options: CodecOptions): Generator<StreamPart> {
  const head = scanOnce(options, headMemoKey, () => readHead(lines));
  const tally = new LossTally();
  // Made again by each read (readAmpMeta only reads the document), with the tally's counts.
  const meta: Meta = readAmpMeta(head.document, tally);
  warnInexactNumbers(head.inexact, options);
  if (head.model !== undefined) meta.model = head.model;
  yield { kind: "meta", meta, subagents: false, userToolCalls: head.userToolCalls };
  const site: Site = { message: -1, block: -1 };
  let clock = meta.timestamp;
  let arrays = 0;
  for (const event of walkThread(linesOrBlocks(lines))) {
    if (event.kind === "array") arrays += 1;
    if (event.kind !== "element" || arrays !== head.arrays) continue;
    const value = parseJson(event.text, { harness, line: event.line }) as JsonObject;
    site.message = event.index;
    const read = readAmpMessage(value, site, tally, clock);
    clock = read.clock;
    if (read.message !== undefined) yield { kind: "message", message: read.message };
  }
  tally.flush(options);
}
