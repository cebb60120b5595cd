// The streaming contract: a conversion that flows message by message, so a
// session too long to hold as one Transcript (a 2 GB JSON-lines file) still
// converts in memory that does not grow with it. A harness that can read
// its format line by line has `readStream`: lines in, parts out (the meta
// first, then each message once it is final, then the subagents). One that
// can write without the whole transcript at hand has `writeStream`: parts
// in, the text of `serialize(fromCommon(t))` out in pieces. Both are
// synchronous, like the codecs they share their code with.
//
// The law (stream.test.ts and each harness's *-stream.test.ts): for every
// input, the stream path's text and warnings are identical to the whole
// path's, `serialize(fromCommon(toCommon(parse(text))))`, leg by leg.
import { type ConversionOptions, RepeatFold, type Warning, WarningCollector } from "./codec.js";
import { TxcriptError } from "./errors.js";
import type { CodecOptions } from "./harness.js";
import type { Message, Meta, Subagent, Transcript } from "./model.js";
import type { LineSource } from "./stream-lines.js";

/** One piece of a transcript in stream order: exactly one meta first, messages, then subagents. */
export type StreamPart =
  | {
      readonly kind: "meta";
      readonly meta: Meta;
      /** Whether subagent parts follow (a writer that drops them warns before the messages). */
      readonly subagents: boolean;
      /**
       * `false` when the reader has read every message of the main
       * conversation before this part and none is a user message holding a
       * tool_use block: a writer that must know of any such block before its
       * first line (Claude Code's user slash commands) need not replay the
       * input to find out. Absent (or `true`) when not known to be so.
       */
      readonly userToolCalls?: boolean;
    }
  | { readonly kind: "message"; readonly message: Message }
  | { readonly kind: "subagent"; readonly subagent: Subagent };

/**
 * What a streaming writer reads: the parts, once, in order; and, for a
 * writer that must look ahead (the first prompt, every answered call),
 * `replay()`, the same parts again from the start without the read leg's
 * warnings. Each replay reads the input again.
 */
export interface StreamInput {
  readonly parts: Iterable<StreamPart>;
  replay(): Iterable<StreamPart>;
}

/**
 * The option under which streamConvert hands its reads of one input (the
 * parts, then each replay) one StreamMemo: a reader may keep there what a
 * pass over the lines found that depends on nothing but the lines and the
 * options, and take it back on the replay instead of reading for it again.
 * One conversion's reads see the same lines (StreamInput#replay), so what
 * is kept holds; no memo outlives its conversion.
 */
export const streamMemoOption = "streamMemo";

/** What a reader keeps for the later reads of one conversion, under a key of its own. */
export type StreamMemo = Map<string, unknown>;

/** The StreamMemo in `options`, if a conversion passed one. */
export function streamMemoOf(options: CodecOptions): StreamMemo | undefined {
  const memo = options[streamMemoOption];
  return memo instanceof Map ? (memo as StreamMemo) : undefined;
}

/**
 * A reader's pass one, once per conversion: the first read of the input runs
 * `scan` and keeps what it found in the conversion's StreamMemo under `key`;
 * a later read (a writer's replay) takes it back instead of reading for it
 * again. Without a memo, every read scans. Each read gets a `meta` of its
 * own, when the findings hold one (the memo keeps a copy; a writer may
 * change or hold on to the meta part it was handed); everything else is
 * shared, so `scan`'s findings must be only read by the reads that use them.
 */
export function scanOnce<T extends object>(options: CodecOptions, key: string, scan: () => T): T {
  const memo = streamMemoOf(options);
  const own = (found: T): T => {
    const { meta } = found as { meta?: Meta };
    return meta === undefined ? found : { ...found, meta: structuredClone(meta) };
  };
  const kept = memo?.get(key) as T | undefined;
  if (kept !== undefined) return own(kept);
  const found = scan();
  memo?.set(key, own(found));
  return found;
}

/** Reads a format's lines as parts; warnings go to `options.onWarning` as in toCommon. */
export type StreamReader = (lines: LineSource, options: CodecOptions) => Iterable<StreamPart>;

/** Writes parts as the format's text in pieces; their concatenation is serialize(fromCommon(t)). */
export type StreamWriter = (input: StreamInput, options: CodecOptions) => Iterable<string>;

/**
 * Text whose first piece is known only once the rest has been produced:
 * `rest` in pieces, then `head()`, which goes before them (core's
 * writeFileAtomic writes it so). Call `head()` only after iterating `rest`.
 */
export interface HeadLast {
  readonly rest: Iterable<string>;
  head(): string;
}

/**
 * Writes parts as the format's text with its first piece last: `head()`
 * then `rest` is serialize(fromCommon(t)), with the same warnings. For a
 * format whose first line depends on everything after it (stream-json's
 * init line lists the tools the body uses), written to a file: the input
 * is read once, where a StreamWriter must replay it to write that line first.
 */
export type HeadLastWriter = (input: StreamInput, options: CodecOptions) => HeadLast;

/** The parts of a transcript held whole. */
export function* transcriptParts(transcript: Transcript): Generator<StreamPart> {
  const subagents = transcript.subagents ?? [];
  yield { kind: "meta", meta: transcript.meta, subagents: subagents.length > 0 };
  for (const message of transcript.messages) yield { kind: "message", message };
  for (const subagent of subagents) yield { kind: "subagent", subagent };
}

/** A StreamInput over a transcript held whole. */
export function transcriptInput(transcript: Transcript): StreamInput {
  return { parts: transcriptParts(transcript), replay: () => transcriptParts(transcript) };
}

function outOfOrder(what: string): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", `a stream of transcript parts ${what}`, {
    hint: "a stream is one meta part, then messages, then subagents",
  });
}

/**
 * The parts checked for order: a meta first and once, messages, then
 * subagents (and as many as the meta announced: some, or none); and no user
 * message with a tool call when the meta said there is none.
 */
export function* orderedParts(parts: Iterable<StreamPart>): Generator<StreamPart> {
  let meta: (StreamPart & { kind: "meta" }) | undefined;
  let subagents = 0;
  for (const part of parts) {
    if (part.kind === "meta") {
      if (meta !== undefined) throw outOfOrder("has two meta parts");
      meta = part;
    } else if (meta === undefined) throw outOfOrder("does not start with its meta");
    else if (part.kind === "message" && subagents > 0)
      throw outOfOrder("has a message after a subagent");
    else if (
      part.kind === "message" &&
      meta.userToolCalls === false &&
      isUserToolCall(part.message)
    )
      throw outOfOrder("has a user message with a tool call though its meta said it had none");
    else if (part.kind === "subagent") subagents += 1;
    yield part;
  }
  if (meta === undefined) throw outOfOrder("is empty");
  if (meta.subagents !== subagents > 0)
    throw outOfOrder(meta.subagents ? "announced subagents it lacks" : "has unannounced subagents");
}

/** Whether `message` is a user message holding a tool call (what a meta part's `userToolCalls` is about). */
export function isUserToolCall(message: Message): boolean {
  return message.role === "user" && message.content.some((block) => block.type === "tool_use");
}

/** The meta part of a stream, and the rest of it, for writers that start from the meta. */
export function splitMeta(parts: Iterable<StreamPart>): {
  meta: Meta;
  subagents: boolean;
  /** The meta part's `userToolCalls`: false only when the reader vouched for none. */
  userToolCalls: boolean;
  rest: Iterator<StreamPart>;
} {
  const iterator = orderedParts(parts)[Symbol.iterator]();
  const first = iterator.next();
  const part = first.value as StreamPart;
  if (first.done || part.kind !== "meta") throw outOfOrder("does not start with its meta");
  return {
    meta: part.meta,
    subagents: part.subagents,
    userToolCalls: part.userToolCalls !== false,
    rest: iterator,
  };
}

/** The messages of the rest of a stream after its meta; each subagent goes to `onSubagent` (else it is skipped). */
export function* restMessages(
  rest: Iterator<StreamPart>,
  onSubagent?: (subagent: Subagent) => void,
): Generator<Message> {
  for (let next = rest.next(); !next.done; next = rest.next()) {
    const part = next.value;
    if (part.kind === "message") yield part.message;
    else if (part.kind === "subagent") onSubagent?.(part.subagent);
  }
}

/** A whole transcript from parts (a stream read, written by a whole-transcript writer). */
export function collectTranscript(parts: Iterable<StreamPart>): Transcript {
  const messages: Message[] = [];
  const subagents: Subagent[] = [];
  let meta: Meta | undefined;
  for (const part of orderedParts(parts)) {
    if (part.kind === "meta") meta = part.meta;
    else if (part.kind === "message") messages.push(part.message);
    else subagents.push(part.subagent);
  }
  const transcript: Transcript = { meta: meta as Meta, messages };
  if (subagents.length > 0) transcript.subagents = subagents;
  return transcript;
}

export interface StreamConversion {
  /** The target's text in pieces; produced as it is iterated (iterate once). */
  chunks: Iterable<string>;
  /** Both legs' warnings, read leg first as in convert(); complete once `chunks` is iterated. */
  warnings(): Warning[];
}

/** A streamConvertHeadLast: the text as `head()` before `rest`; warnings complete once both are read. */
export interface HeadLastConversion extends HeadLast {
  warnings(): Warning[];
}

/** streamConvert's options. */
export interface StreamConvertOptions {
  read?: CodecOptions;
  write?: CodecOptions;
  tag?: (warning: Warning, leg: "read" | "write") => Warning;
}

function silent(options: CodecOptions): CodecOptions {
  const { onWarning: _, ...rest } = options;
  return rest;
}

/**
 * Convert through parts: `read` over `lines`, `write` over its parts. The
 * legs' warnings are collected apart and joined read leg first, so they
 * come out as the whole path's do, though the legs interleave here. `tag`
 * marks each warning (the CLI names leg and harness); it is called once per
 * kind (code and message) and its later occurrences are counted into that
 * (RepeatFold), so the leg, harness, code and message it gives must not
 * depend on anything else of the warning (the path, the count).
 */
export function streamConvert(
  lines: LineSource,
  read: StreamReader,
  write: StreamWriter,
  options: StreamConvertOptions = {},
): StreamConversion {
  const { written, warnings } = convertThrough(lines, read, write, options);
  return { chunks: written, warnings };
}

/** streamConvert with a HeadLastWriter: the text as `head()` before `rest`, read once. */
export function streamConvertHeadLast(
  lines: LineSource,
  read: StreamReader,
  write: HeadLastWriter,
  options: StreamConvertOptions = {},
): HeadLastConversion {
  const { written, warnings } = convertThrough(lines, read, write, options);
  return { rest: written.rest, head: () => written.head(), warnings };
}

/** The two legs of a stream conversion, whatever the writer gives. */
function convertThrough<Written>(
  lines: LineSource,
  read: StreamReader,
  write: (input: StreamInput, options: CodecOptions) => Written,
  options: StreamConvertOptions,
): { written: Written; warnings: () => Warning[] } {
  const tag = options.tag ?? ((warning) => warning);
  const readLeg = new RepeatFold((warning) => tag(warning, "read"));
  const writeLeg = new RepeatFold((warning) => tag(warning, "write"));
  const memo: StreamMemo = new Map();
  const readOptions: CodecOptions = { ...options.read, [streamMemoOption]: memo };
  const onRead = readLeg.add;
  const input: StreamInput = {
    parts: read(lines, { ...readOptions, onWarning: chain(onRead, readOptions.onWarning) }),
    replay: () => read(lines, silent(readOptions)),
  };
  const writeOptions = options.write ?? {};
  const onWrite = writeLeg.add;
  const written = write(input, {
    ...writeOptions,
    onWarning: chain(onWrite, writeOptions.onWarning),
  });
  return {
    written,
    warnings: () => {
      const joined = new WarningCollector();
      for (const warning of [...readLeg.warnings(), ...writeLeg.warnings()]) joined.add(warning);
      return joined.warnings;
    },
  };
}

function chain(
  first: (warning: Warning) => void,
  second: ConversionOptions["onWarning"],
): (warning: Warning) => void {
  return second === undefined
    ? first
    : (warning) => {
        first(warning);
        second(warning);
      };
}
