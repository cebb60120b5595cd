// stream-json captures read line by line (core's stream.ts), with the meta,
// messages, subagents and warnings of the codec's toCommon(parse(text)).
//
// Two passes over the lines, both through the codec's own
// StreamJsonAccumulator. The meta cannot come from the head: which session
// the capture is about is only settled at the end (a line of another
// session anywhere makes it AMBIGUOUS), and a capture without an init takes
// its model from the first message that names one. So pass one pushes every
// line into an accumulator in scan mode, with no warnings: it keeps no
// messages (a part of a split Claude message is read but not merged), only
// the meta's facts, the uuids and message ids seen (compact StringIds), the
// subagents' keys, for each main message id the last line that carries
// it, and whether a main user message holds a tool call (the meta part
// says so, and a writer that looks for user slash commands need not
// replay). It refuses what the whole path refuses, as the whole path does:
// a line that is not JSON first (parse() reads every line before toCommon),
// else the first line toCommon cannot read, else the capture's own refusal
// (no session, several). Pass two pushes every line again, with the
// warnings, and hands out each main message once no later line can change
// it: after the last line carrying its message id (the accumulator then
// forgets that id), at once for the rest. Subagents' messages are held to
// the end, where they are nested as toCommon nests them.
//
// One input reads otherwise: a final line that is not JSON and starts with
// "{" is a cut-off write (a warning) only when the text has no final
// newline, and lines do not tell whether it had one. The stream reader
// takes it as cut off (a killed producer is what leaves one); the whole
// path refuses the same line followed by a newline.
import {
  type CodecOptions,
  IntColumn,
  isUserToolCall,
  type LineSource,
  type Message,
  type StreamPart,
  StringIds,
  scanOnce,
  TxcriptError,
  warn,
} from "@txcript/core";
import { harness, isBlank, parseLine } from "./stream-json-lines.js";
import { streamJsonLoss } from "./stream-json-losses.js";
import {
  accumulatorInternals as internals,
  StreamJsonAccumulator,
  type StreamJsonReadOptions,
} from "./stream-json-to-common.js";

/** A capture line as parseCapture reads it: its number, and its object, or null (blank, cut off). */
interface ReadLine {
  number: number;
  value: ReturnType<typeof parseLine> | null;
  truncated: boolean;
}

function fileOf(options: CodecOptions): string | undefined {
  return typeof options.file === "string" ? options.file : undefined;
}

/**
 * The lines parsed as parseCapture parses them, one behind, so the last is
 * known: a last line that is not JSON and starts with "{" is cut off (see
 * the module comment), any other bad line throws parseCapture's error.
 */
function* readLines(lines: LineSource, file: string | undefined): Generator<ReadLine> {
  let number = 0;
  let held: { text: string; error: unknown } | undefined;
  for (const text of lines()) {
    if (held !== undefined) throw held.error;
    number += 1;
    if (isBlank(text)) {
      yield { number, value: null, truncated: false };
      continue;
    }
    try {
      yield { number, value: parseLine(text, number, file), truncated: false };
    } catch (error) {
      const cutOff =
        TxcriptError.isInstance(error) &&
        error.code === "INVALID_JSON" &&
        text.trimStart().startsWith("{");
      if (!cutOff) throw error;
      held = { text, error };
    }
  }
  if (held !== undefined) yield { number, value: null, truncated: true };
}

/** The last line of each main-conversation message id, from pass one. */
class LastLines {
  readonly #ids = new StringIds();
  readonly #last = new IntColumn();

  saw(id: string, line: number): void {
    const index = this.#ids.id(id);
    if (index === this.#last.length) this.#last.push(line);
    else this.#last.set(index, line);
  }

  of(id: string): number {
    const index = this.#ids.find(id);
    return index === -1 ? -1 : this.#last.at(index);
  }
}

/** Where pass one's findings are kept in a conversion's StreamMemo. */
const scanMemoKey = "stream_json.scan";

/** Pass one: the meta, the subagents' keys and the message ids' last lines; or the whole path's refusal. */
function scan(lines: LineSource, options: CodecOptions) {
  const { onWarning: _, ...quiet } = options;
  const accumulator = new StreamJsonAccumulator(quiet as StreamJsonReadOptions, "scan");
  const last = new LastLines();
  internals.main(accumulator).onPartId = (id, line) => last.saw(id, line);
  // The first line toCommon refuses: thrown once every line has parsed.
  let refusal: unknown;
  // Whether a main user message holds a tool call (the meta part's userToolCalls).
  let userToolCalls = false;
  for (const line of readLines(lines, fileOf(options))) {
    if (line.value === null || refusal !== undefined) continue;
    try {
      accumulator.push({ value: line.value, line: line.number });
    } catch (error) {
      refusal = error;
      continue;
    }
    for (const message of internals.take(accumulator, Number.POSITIVE_INFINITY))
      if (isUserToolCall(message)) userToolCalls = true;
    internals.dropSubagentMessages(accumulator);
  }
  if (refusal !== undefined) throw refusal;
  const meta = internals.meta(accumulator);
  return { meta, keys: new Set(internals.subagentKeys(accumulator)), last, userToolCalls };
}

/**
 * The parts of a stream-json capture read line by line (pass `file` in the
 * options for error locations): streamJsonCodec.toCommon's meta, messages,
 * subagents and warnings.
 */
export function* streamJsonReadStream(
  lines: LineSource,
  codecOptions: CodecOptions,
): Generator<StreamPart> {
  const options = codecOptions;
  // Pass one depends only on the lines and the options: a replay in the same conversion reuses it.
  // (Only read here: `keys` and `last` are looked up; the meta is this read's own.)
  const { meta, keys, last, userToolCalls } = scanOnce(options, scanMemoKey, () =>
    scan(lines, options),
  );
  yield { kind: "meta", meta, subagents: keys.size > 0, userToolCalls };
  const accumulator = new StreamJsonAccumulator(options as StreamJsonReadOptions, "stream");
  const main = internals.main(accumulator);
  let partId: string | undefined;
  main.onPartId = (id) => {
    partId = id;
  };
  // The main conversation's calls that spawned a subagent (nestSubagents asks of no other).
  const mainCalls = new Set<string>();
  const handOut = (message: Message): StreamPart => {
    for (const block of message.content)
      if (block.type === "tool_use" && keys.has(block.id)) mainCalls.add(block.id);
    return { kind: "message", message };
  };
  // For each main message not yet handed out: the last line that can change it.
  const finalAt: number[] = [];
  for (const line of readLines(lines, fileOf(options))) {
    if (line.truncated)
      warn(
        options,
        streamJsonLoss.truncatedLine,
        "a cut-off final line was skipped",
        `line ${line.number}`,
      );
    if (line.value === null) continue;
    const before = main.messages.length;
    partId = undefined;
    accumulator.push({ value: line.value, line: line.number });
    if (partId !== undefined && last.of(partId) === line.number) main.forget(partId);
    // A push adds at most one message; a Claude part with an id waits for its id's last line.
    for (let added = before; added < main.messages.length; added += 1)
      finalAt.push(partId === undefined ? line.number : Math.max(line.number, last.of(partId)));
    let ready = 0;
    while (ready < finalAt.length && (finalAt[ready] as number) <= line.number) ready += 1;
    if (ready > 0) {
      finalAt.splice(0, ready);
      for (const message of internals.take(accumulator, ready)) yield handOut(message);
    }
  }
  for (const message of internals.take(accumulator, Number.POSITIVE_INFINITY))
    yield handOut(message);
  if (JSON.stringify(internals.meta(accumulator)) !== JSON.stringify(meta))
    throw new TxcriptError("MISMATCH", "the capture's meta changed between the two passes", {
      harness,
      ...(fileOf(options) === undefined ? {} : { location: { file: fileOf(options) as string } }),
      hint: "the file changed while it was read, or this is a bug in txcript's streaming reader",
    });
  if (keys.size > 0)
    for (const subagent of internals.subagents(accumulator, mainCalls))
      yield { kind: "subagent", subagent };
}
