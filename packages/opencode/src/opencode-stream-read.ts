// An OpenCode export read from its lines (core's stream.ts), with the meta,
// messages and warnings of opencodeToCommon(parseOpencodeExport(text)),
// without the export ever being one string or one parsed document.
//
// An export is one JSON object, `{info, messages}`. Core's
// walkJsonObjectLines hands out `info` (and any other key) whole and each
// entry of `messages` as its own text, parsed alone. Pass one checks what
// the whole parse checks, in its order (the JSON, `info`, `messages`, each
// entry, nesting too deep to print), since `info` may follow the messages
// and the whole read refuses before it gives anything; pass two reads each
// entry through the same OpencodeEntryReader as opencodeToCommon, one entry
// behind (a compaction's summary is the entry after it). Memory: two
// entries' text and values, and `info`. A later read in the same
// conversion (a writer's replay) takes pass one's findings from the
// conversion's StreamMemo (core's scanOnce) and makes pass two only.
import {
  type CodecOptions,
  isJsonObject,
  type JsonObject,
  type JsonObjectEvent,
  type LineSource,
  linesOrBlocks,
  ownValue,
  parseJson,
  quote,
  type StreamPart,
  scanOnce,
  setOwnValue,
  stringifyJson,
  TxcriptError,
  walkJsonObjectLines,
} from "@txcript/core";
import { checkEntry, harness, invalidExport, type OpencodeEntry } from "./opencode-schema.js";
import { OpencodeEntryReader } from "./opencode-to-common.js";

/** The walk of an export: its `messages` entry by entry, refused as parseOpencodeExport refuses. */
export function walkExport(lines: Iterable<string>): Generator<JsonObjectEvent> {
  return walkJsonObjectLines(lines, {
    arrayKey: "messages",
    harness,
    notAnObject: (start) =>
      invalidExport(
        `not an OpenCode export: expected a JSON object, got ${quote(start, 40)}`,
        [],
        {},
      ),
  });
}

/** Whether a value prints (parseOpencodeExport renders what it parsed: deeper nesting is refused). */
function prints(value: unknown): boolean {
  try {
    stringifyJson(value, 2, harness);
    return true;
  } catch (error) {
    if (TxcriptError.isInstance(error) && error.code === "TOO_LARGE") return false;
    throw error;
  }
}

/**
 * Values nested no deeper than this print (JSON.stringify fails far deeper, by running out of
 * stack), so pass one prints, as the whole parse's check does, only those nested deeper.
 */
const printCheckDepth = 256;

/** Pass one: `info`, and which `messages` array counts (JSON.parse keeps a repeated key's last). */
function readHead(lines: LineSource): { info: JsonObject; arrays: number } {
  const document: JsonObject = {};
  let arrays = 0;
  let bad: unknown;
  let deep = false;
  for (const event of walkExport(linesOrBlocks(lines))) {
    if (event.kind === "array") {
      arrays += 1;
      setOwnValue(document, "messages", []);
      bad = undefined;
      continue;
    }
    const value = parseJson(event.text, { harness, line: event.line });
    if (event.kind === "key") {
      setOwnValue(document, event.key, value);
      if (event.key === "messages") bad = undefined;
    } else if (bad === undefined)
      try {
        checkEntry(value, event.index, {});
      } catch (error) {
        bad = error;
      }
    // Printing is what the whole parse's check is; only a deeply nested value can fail it.
    if (!deep && event.depth > printCheckDepth && !prints(value)) deep = true;
  }
  const info = ownValue(document, "info");
  if (!isJsonObject(info))
    throw invalidExport("not an OpenCode export: `info` is missing or not an object", ["info"], {});
  if (!Array.isArray(ownValue(document, "messages")))
    throw invalidExport(
      "not an OpenCode export: `messages` is missing or not an array",
      ["messages"],
      {},
    );
  if (bad !== undefined) throw bad;
  if (deep)
    throw new TxcriptError("TOO_LARGE", "document is nested too deeply to read", { harness });
  return { info, arrays };
}

/** An OpenCode export's lines as parts: the meta, then each message once read (see the module comment). */
export function* opencodeReadStream(
  lines: LineSource,
  options: CodecOptions,
): Generator<StreamPart> {
  // Only read after pass one: `info` (the entry reader makes the meta from it) and `arrays`.
  const head = scanOnce(options, "opencode.head", () => readHead(lines));
  const read = new OpencodeEntryReader(head.info, options, false);
  yield { kind: "meta", meta: read.meta, subagents: false };
  const flush = function* (): Generator<StreamPart> {
    for (const message of read.messages) yield { kind: "message", message };
    read.messages.length = 0;
  };
  let arrays = 0;
  let held: { entry: OpencodeEntry; index: number } | undefined;
  for (const event of walkExport(linesOrBlocks(lines))) {
    if (event.kind === "array") arrays += 1;
    if (event.kind !== "element" || arrays !== head.arrays) continue;
    const entry = parseJson(event.text, { harness, line: event.line }) as OpencodeEntry;
    if (held === undefined) {
      held = { entry, index: event.index };
      continue;
    }
    const tookNext = read.readEntry(held.entry, held.index, entry);
    yield* flush();
    held = tookNext ? undefined : { entry, index: event.index };
  }
  if (held !== undefined) read.readEntry(held.entry, held.index, undefined);
  read.finish();
  yield* flush();
}
