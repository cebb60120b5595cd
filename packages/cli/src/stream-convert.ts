// The streaming path of `convert`: a session file at least
// TXCRIPT_STREAM_MIN_BYTES long (64 MiB by default), whose harness reads
// line by line (readStream) into a target that writes message by message
// (writeStream), converts without ever being one string or one Transcript,
// so the input limit does not apply. Anything else (stdin, a whole-document
// format, a target that needs the whole transcript, output to stdout) takes
// the whole path, and past the limit its refusal says why. --redact streams
// too: one more read finds the secrets (redaction.ts).
import {
  type CodecOptions,
  commonWriteStream,
  fileLineSource,
  readHead,
  sessionReadsAlone,
  streamConvert,
  streamConvertHeadLast,
  TxcriptError,
  type Warning,
} from "@txcript/core";
import type { Values } from "./args.js";
import { type Converted, convertSource } from "./convert-pipeline.js";
import { type Harness, harnessOf } from "./harnesses.js";
import type { Input, Located } from "./input.js";
import type { Io } from "./io.js";
import { maxInputBytes, streamMinBytes, tooLarge } from "./limits.js";
import type { ReportSettings } from "./losses.js";
import { bigInputStatus } from "./progress.js";
import { redactedReaderIfAsked, redactIfAsked } from "./redaction.js";
import { withFile, withFileEach } from "./report.js";

export { defaultStreamMinBytes, streamMinBytes } from "./limits.js";

/** Enough of a file to tell its harness by (the sniffs read at most 64 KiB). */
const headBytes = 65_536;

/** A file the streaming path converts: where it is, its harness, and its start time. */
export interface StreamSource {
  located: Located & { kind: "file" };
  harness: Harness;
  /** The head the harness was detected from (the writer's options may look at it). */
  head: string;
  /** The read options under which the file alone gives what its load gives (readsAloneOptions). */
  alone: CodecOptions;
}

/** How `to` writes from parts: its own writeStream, or core's for the Common document. */
function streamWriter(to: Harness): Harness["writeStream"] {
  return to.writeStream ?? (to.id === "common" ? commonWriteStream : undefined);
}

/** Why `to` cannot be written line by line, or undefined when it can. */
function notWrittenFromParts(to: Harness): string | undefined {
  return streamWriter(to) === undefined ? `${to.id} is written from the whole session` : undefined;
}

/**
 * The read options under which a file is read line by line alone and gives
 * what its harness's load gives; undefined when the load reads more than it
 * (Claude Code's subagent files beside it, say): then it takes the whole
 * path, where they come with it, held to the input limit.
 */
export function readsAloneOptions(
  harness: Harness,
  located: Located & { kind: "file" },
  io: Io,
): Promise<CodecOptions | undefined> {
  return sessionReadsAlone(harness, located.path, {
    environment: io.env,
    ...(located.discovered === undefined ? {} : { discovered: located.discovered }),
  });
}

/** Why a file is not read line by line alone (readsAloneOptions undefined). */
export function sideFilesReason(harness: Harness): string {
  return `its ${harness.id} load reads files beside it (subagents)`;
}

/** Why a harness's sessions are not read line by line at all (no readStream). */
export function notLineByLine(harness: Harness): string | undefined {
  return harness.readStream === undefined
    ? `${harness.id} is read as one document, not line by line`
    : undefined;
}

/**
 * The one decision of every streaming path (convert, continue): whether a
 * located input is read line by line — a file of TXCRIPT_STREAM_MIN_BYTES or
 * more whose harness reads line by line, whose load reads that file alone,
 * and for which `reasonFor` (the caller's own reasons: its target) has
 * none. Then its harness, head and read-alone options; else undefined for
 * the whole path, and past the input limit a refusal saying why it cannot
 * stream.
 */
export async function lineByLineSource(
  located: Located,
  io: Io,
  reasonFor: (harness: Harness) => string | undefined,
): Promise<StreamSource | undefined> {
  if (located.kind !== "file" || located.size < streamMinBytes(io.env)) return undefined;
  const head = await readHead(located.path, headBytes);
  const harness = located.forced ?? (await harnessOf(head, located.shown));
  const reason = notLineByLine(harness) ?? reasonFor(harness);
  const alone = reason === undefined ? await readsAloneOptions(harness, located, io) : undefined;
  if (reason === undefined && alone !== undefined) return { located, harness, head, alone };
  const limit = maxInputBytes(io.env);
  if (located.size > limit) {
    const refusal = tooLarge(located.shown, limit, located.size);
    throw new TxcriptError(refusal.code, refusal.message, {
      location: refusal.location,
      hint: `${refusal.hint}; it cannot stream: ${reason ?? sideFilesReason(harness)}`,
    });
  }
  return undefined;
}

/**
 * The streaming source for a located input, when it converts line by line
 * into `to` (lineByLineSource); undefined for the whole path.
 */
export function streamSource(
  located: Located,
  io: Io,
  to: Harness,
  toFile: boolean,
): Promise<StreamSource | undefined> {
  return lineByLineSource(
    located,
    io,
    () =>
      notWrittenFromParts(to) ??
      (toFile ? undefined : "streaming writes to a file (-o FILE), not stdout"),
  );
}

/** What `--json` and the loss report say the input was. */
export function streamedInput(source: StreamSource): Input {
  const { located } = source;
  return {
    text: "",
    file: located.shown,
    harness: source.harness,
    startTime: located.mtime,
    ...(located.discovered === undefined ? {} : { discovered: located.discovered }),
  };
}

/**
 * Convert a streaming source into `to`: the file is read line by line (as
 * often as the reader and writer need: a head pass, a look-ahead), and the
 * target's text comes out in pieces as `slices` is iterated, with the
 * warnings of the whole path.
 */
export async function convertStreamSource(
  io: Io,
  source: StreamSource,
  to: Harness,
  options: {
    dialect?: string | undefined;
    values: Values;
    settings: ReportSettings;
  },
): Promise<Converted> {
  const { located, harness } = source;
  bigInputStatus(io, located.shown, located.size);
  const read: CodecOptions = {
    ...harness.readOptions?.({ startTime: located.mtime }),
    ...source.alone,
    file: located.shown,
    // A reader that must parse a whole document (Gemini CLI's older era) is held to the input limit.
    maxDocumentBytes: maxInputBytes(io.env),
  };
  const write: CodecOptions = {
    ...to.writeOptions?.({
      from: harness.id,
      sourceText: source.head,
      ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    }),
  };
  const lines = fileLineSource(located.path, { shown: located.shown, harness: harness.id });
  // With --redact, one more read finds the secrets first; every read then gives them replaced.
  const reader = await redactedReaderIfAsked(io, options.values, options.settings, {
    reader: harness.readStream as NonNullable<Harness["readStream"]>,
    lines,
    read,
    file: located.shown,
  });
  const legs = {
    read,
    write,
    tag: (warning: Warning, leg: "read" | "write") => ({
      ...warning,
      leg,
      harness: leg === "read" ? harness.id : to.id,
    }),
  };
  // A target whose first line depends on the rest writes it last, so the input is read once
  // (the streaming path always writes to a file, which puts it first).
  if (to.writeStreamHeadLast !== undefined) {
    const converted = streamConvertHeadLast(lines, reader, to.writeStreamHeadLast, legs);
    return {
      slices: withFileEach(located.shown, converted.rest),
      head: () => withFile(located.shown, converted.head),
      warnings: converted.warnings,
    };
  }
  const converted = streamConvert(
    lines,
    reader,
    streamWriter(to) as NonNullable<Harness["writeStream"]>,
    legs,
  );
  return { slices: withFileEach(located.shown, converted.chunks), warnings: converted.warnings };
}

/**
 * The one stream-or-whole decision of `convert` (one session or a directory's
 * files alike): a long file whose two sides stream, and whose load reads it
 * alone, converts line by line (convertStreamSource); anything else is read
 * (`read`) and goes through core's pipeline (convertSource), redacted when
 * asked. Returns what the input was, for the report, and the converted slices.
 */
export async function convertLocated(
  io: Io,
  located: Located,
  to: Harness,
  options: {
    dialect?: string | undefined;
    values: Values;
    settings: ReportSettings;
    /** The output is a file (written atomically): slices may come line by line. */
    toFile: boolean;
    /** The whole path's read of the input (within the input limit). */
    read: () => Promise<Input>;
  },
): Promise<{ input: Input; converted: Converted }> {
  const streamed = await streamSource(located, io, to, options.toFile);
  if (streamed !== undefined)
    return {
      input: streamedInput(streamed),
      converted: await convertStreamSource(io, streamed, to, options),
    };
  const input = await options.read();
  // The facts the report gives are taken before the conversion takes the input's text.
  const facts = { ...input };
  const converted = await convertSource(input, to, {
    dialect: options.dialect,
    lineByLine: options.toFile,
    transform: (transcript) =>
      redactIfAsked(io, options.values, transcript, options.settings).then(
        (result) => result.transcript,
      ),
  });
  return { input: { ...facts, text: "" }, converted };
}
