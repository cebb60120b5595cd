// The streaming law's test kit (each harness's *-stream*.test.ts): the
// paths a conversion can take, required equal to the whole path (or refused
// alike); a stream writer's text and warnings beside the whole write's;
// inputs that count what was read from them; and broken writers the law
// must catch. The law itself is in each harness's test; this is what they
// all did the same way.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { oddShapesArbitrary, transcriptArbitrary } from "../arbitraries/index.js";
import { type Warning, WarningCollector } from "../codec.js";
import { commonCodec } from "../common-codec.js";
import { TxcriptError } from "../errors.js";
import type { AnyHarness, CodecOptions } from "../harness.js";
import type { Transcript } from "../model.js";
import {
  collectTranscript,
  type HeadLastWriter,
  isUserToolCall,
  type StreamInput,
  type StreamPart,
  type StreamReader,
  type StreamWriter,
  streamConvert,
  streamMemoOption,
  transcriptInput,
  transcriptParts,
} from "../stream.js";
import {
  convertStreamed,
  convertWhole,
  type PathOptions,
  type PathResult,
} from "../stream-check.js";
import { fileLineSource, type LineSource, readFileLines, textLines } from "../stream-lines.js";
import { lawParameters } from "./parameters.js";

/** One way through a conversion: each leg streamed or whole. */
export interface StreamPath {
  read: "stream" | "whole";
  write: "stream" | "whole";
}

/**
 * The paths from → to other than the whole one, as far as the harnesses
 * stream: read streamed and written whole, read and written streamed, read
 * whole and written streamed (`only` keeps some of them).
 */
export function streamPaths(
  from: AnyHarness,
  to: AnyHarness,
  only: (path: StreamPath) => boolean = () => true,
): StreamPath[] {
  const paths: StreamPath[] = [];
  if (from.readStream !== undefined) paths.push({ read: "stream", write: "whole" });
  if (to.writeStream !== undefined) {
    if (from.readStream !== undefined) paths.push({ read: "stream", write: "stream" });
    paths.push({ read: "whole", write: "stream" });
  }
  return paths.filter(only);
}

/** The whole path's result, or the TxcriptError it refuses with. */
export function wholeOrRefusal(
  text: string,
  from: AnyHarness,
  to: AnyHarness,
  options: PathOptions = {},
): PathResult | TxcriptError {
  try {
    return convertWhole(text, from, to, options);
  } catch (error) {
    if (!TxcriptError.isInstance(error)) throw error;
    return error;
  }
}

/**
 * Every path in `paths` (default: streamPaths(from, to)) required equal to
 * the whole path, text and warnings; a refused input refused by each with
 * the same TxcriptError code and message. `label` names the case in a
 * failure.
 */
export function expectSamePaths(
  text: string,
  from: AnyHarness,
  to: AnyHarness,
  options: PathOptions & { paths?: readonly StreamPath[]; label?: Record<string, unknown> } = {},
): void {
  const { paths = streamPaths(from, to), label = {}, ...pathOptions } = options;
  const whole = wholeOrRefusal(text, from, to, pathOptions);
  for (const which of paths) {
    const named = { ...label, from: from.id, to: to.id, which };
    if (whole instanceof Error) {
      let error: unknown;
      try {
        convertStreamed(text, from, to, which, pathOptions);
      } catch (caught) {
        error = caught;
      }
      expect({ ...named, refused: TxcriptError.isInstance(error) }).toEqual({
        ...named,
        refused: true,
      });
      const streamed = error as TxcriptError;
      expect({ ...named, code: streamed.code, message: streamed.message }).toEqual({
        ...named,
        code: whole.code,
        message: whole.message,
      });
      continue;
    }
    const streamed = convertStreamed(text, from, to, which, pathOptions);
    expect({ ...named, text: streamed.text }).toEqual({ ...named, text: whole.text });
    expect({ ...named, warnings: streamed.warnings }).toEqual({
      ...named,
      warnings: whole.warnings,
    });
  }
}

/** A scratch directory removed after the file's tests. */
export function scratchDirectory(prefix: string): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

/**
 * The path `which` with the text read from a file in 7-byte slices,
 * required equal to the whole path (the text and warnings both).
 */
export function expectSameInSlices(
  text: string,
  from: AnyHarness,
  to: AnyHarness,
  which: StreamPath,
  options: PathOptions & { scratch: string; name?: string },
): void {
  const { scratch, name = "session.jsonl", ...pathOptions } = options;
  const file = path.join(scratch, name);
  writeFileSync(file, text);
  const whole = convertWhole(text, from, to, pathOptions);
  // Line by line, and in blocks for a reader that takes them (fileLineSource).
  for (const [reading, lines] of [
    ["lines", () => readFileLines(file, { chunkBytes: 7 })],
    ["blocks", fileLineSource(file, { chunkBytes: 7 })],
  ] as const) {
    const streamed = convertStreamed(text, from, to, which, { ...pathOptions, lines });
    expect({ file: name, which, reading, ...streamed }).toEqual({
      file: name,
      which,
      reading,
      ...whole,
    });
  }
}

/** The files in `directory` whose names match (never a .common.json), sorted; none when it is absent. */
export function sessionFiles(directory: string, pattern: RegExp = /\.jsonl$/): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => pattern.test(name) && !name.endsWith(".common.json"))
    .sort()
    .map((name) => path.join(directory, name));
}

/** The fixtures' Common documents (fixtures/<harness>/*.common.json), of `harnesses` or of all. */
export function fixtureCommonDocuments(repoRoot: string, harnesses?: readonly string[]): string[] {
  const fixtures = path.join(repoRoot, "fixtures");
  const names =
    harnesses ??
    readdirSync(fixtures, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  return names.flatMap((harness) => {
    const directory = path.join(fixtures, harness);
    if (!existsSync(directory)) return [];
    return readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".common.json"))
      .map((entry) => path.join(directory, entry.name))
      .sort();
  });
}

/** A text and its warnings, as a write gave them. */
export interface Written {
  text: string;
  warnings: Warning[];
}

/** The whole write, serialize(fromCommon(t)), with its warnings collected. */
export function wholeWrite(
  harness: AnyHarness,
  transcript: Transcript,
  options: CodecOptions = {},
): Written {
  const collector = new WarningCollector();
  const native = harness.codec.fromCommon(transcript, { ...options, onWarning: collector.add });
  return { text: harness.codec.serialize(native), warnings: collector.warnings };
}

/** A stream writer's text and warnings for a transcript held whole (its parts, and their replay). */
export function streamWrite(
  writer: StreamWriter,
  transcript: Transcript,
  options: CodecOptions = {},
): Written {
  const collector = new WarningCollector();
  const chunks = writer(transcriptInput(transcript), { ...options, onWarning: collector.add });
  return { text: [...chunks].join(""), warnings: collector.warnings };
}

/** The law as a check, for controls: the stream write's text and warnings are the whole write's. */
export function sameWrite(
  harness: AnyHarness,
  writer: StreamWriter,
  transcript: Transcript,
  options: CodecOptions = {},
): boolean {
  const whole = wholeWrite(harness, transcript, options);
  const streamed = streamWrite(writer, transcript, options);
  return (
    streamed.text === whole.text &&
    JSON.stringify(streamed.warnings) === JSON.stringify(whole.warnings)
  );
}

/** Parts that count the messages read from them, and the replays asked for. */
export function countingInput(transcript: Transcript): {
  input: StreamInput;
  read: () => number;
  replays: () => number;
} {
  let read = 0;
  let replays = 0;
  const parts = function* (): Generator<StreamPart> {
    for (const part of transcriptParts(transcript)) {
      if (part.kind === "message") read += 1;
      yield part;
    }
  };
  return {
    input: {
      parts: parts(),
      replay: () => {
        replays += 1;
        return transcriptParts(transcript);
      },
    },
    read: () => read,
    replays: () => replays,
  };
}

/**
 * A line source over `lines` that counts what a reader took from it: in the pass under way, in
 * all passes, and each pass's whole count (a stream reader's laziness tests: how far into the
 * text was a part handed out).
 */
export function countingLines(lines: () => Iterable<string>): {
  source: LineSource;
  pass: () => number;
  total: () => number;
  passes: () => number[];
} {
  let total = 0;
  const passes: number[] = [];
  const source = function* (): Generator<string> {
    passes.push(0);
    for (const line of lines()) {
      total += 1;
      passes[passes.length - 1] = (passes.at(-1) ?? 0) + 1;
      yield line;
    }
  };
  return {
    source,
    pass: () => passes.at(-1) ?? 0,
    total: () => total,
    passes: () => [...passes],
  };
}

/**
 * A HeadLastWriter as a StreamWriter, for the writer law's helpers: its rest (held, as only a
 * test may), then its head first. The law for a head-last writer is the law for this.
 */
export function headFirst(write: HeadLastWriter): StreamWriter {
  return function* (input, options) {
    const written = write(input, options);
    const rest = [...written.rest];
    yield written.head();
    yield* rest;
  };
}

/** A reader's parts and one replay of them in one conversion, and the line passes they took. */
export interface ReplayRun {
  /** The first read's parts and the replay's, as JSON, one line each. */
  text: string;
  passes: number[];
}

/**
 * A reader run as a conversion runs it (streamConvert: the parts, then one replay, sharing the
 * conversion's StreamMemo), and the same with the memo taken out of its options (the control:
 * every read makes every pass): the parts both gave, and the passes over `text`'s lines.
 */
export function replayRuns(
  reader: StreamReader,
  text: string,
): { kept: ReplayRun; unkept: ReplayRun } {
  const partsThenReplay: StreamWriter = (input) => [
    JSON.stringify([...input.parts]),
    "\n",
    JSON.stringify([...input.replay()]),
  ];
  const run = (read: StreamReader): ReplayRun => {
    const counted = countingLines(() => textLines(text));
    const chunks = streamConvert(counted.source, read, partsThenReplay).chunks;
    return { text: [...chunks].join(""), passes: counted.passes() };
  };
  const unkept: StreamReader = (lines, options) => {
    const { [streamMemoOption]: _, ...rest } = options;
    return reader(lines, rest);
  };
  return { kept: run(reader), unkept: run(unkept) };
}

/**
 * For a reader that walks its input twice (pass one, then the pass that hands out the
 * messages) and keeps pass one with scanOnce: in one conversion, the parts and a replay take
 * three walks of `text`'s lines and give the parts it gives alone, twice; the control without
 * the conversion's memo takes four and gives the same.
 */
export function expectReplayReusesPassOne(reader: StreamReader, text: string): void {
  const lineCount = text.split("\n").length;
  const alone = JSON.stringify([...reader(() => textLines(text), {})]);
  const { kept, unkept } = replayRuns(reader, text);
  expect(kept.text).toBe(`${alone}\n${alone}`);
  expect(kept.passes).toEqual([lineCount, lineCount, lineCount]);
  expect(unkept.text).toBe(kept.text);
  expect(unkept.passes).toEqual([lineCount, lineCount, lineCount, lineCount]);
}

/** `length` messages, user and assistant in turn, each one line of text. */
export function longTranscript(length: number): Transcript {
  const timestamp = "2026-01-01T00:00:00.000Z";
  return {
    meta: { id: "5b0c6a55-9d1f-4c4e-8d0b-6a1f3f0e2a11", timestamp, cwd: "/work/app" },
    messages: Array.from({ length }, (_, index) => ({
      role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: [{ type: "text" as const, text: `message ${index}` }],
      timestamp,
    })),
  };
}

// Broken writers the law must catch (each harness's test shows it does).

/** `writer` with the subagents left out, announced or not (and so their warnings). */
export function droppingSubagents(writer: StreamWriter): StreamWriter {
  const strip = (parts: Iterable<StreamPart>) =>
    (function* (): Generator<StreamPart> {
      for (const part of parts)
        if (part.kind === "meta") yield { ...part, subagents: false };
        else if (part.kind === "message") yield part;
    })();
  return (input, options) =>
    writer({ parts: strip(input.parts), replay: () => strip(input.replay()) }, options);
}

/** `writer` given none of the write options but onWarning (the time of writing, a dialect, a cwd). */
export function ignoringOptions(writer: StreamWriter): StreamWriter {
  return (input, options) =>
    writer(input, options.onWarning === undefined ? {} : { onWarning: options.onWarning });
}

/** `writer` without the text's final newline. */
export function noFinalNewline(writer: StreamWriter): StreamWriter {
  return (input, options) => {
    const pieces = [...writer(input, options)];
    const last = pieces.length - 1;
    pieces[last] = (pieces[last] as string).replace(/\n$/, "");
    return pieces;
  };
}

/** A writer that holds the whole transcript before writing: the text is right, the memory is not. */
export function collectingWriter(harness: AnyHarness): StreamWriter {
  return function* (input, options) {
    yield harness.codec.serialize(
      harness.codec.fromCommon(collectTranscript(input.parts), options),
    );
  };
}

/**
 * Registers a writer's controls: each broken writer fails `same` (the law
 * as a check) for some generated transcript, and the real writer passes
 * the same check, so each control fails for its own fault.
 */
export function describeWriterControls(options: {
  label: string;
  real: StreamWriter;
  controls: readonly (readonly [name: string, writer: StreamWriter])[];
  same: (transcript: Transcript, writer: StreamWriter) => boolean;
  arbitrary?: fc.Arbitrary<Transcript>;
}): void {
  const arbitrary = options.arbitrary ?? transcriptArbitrary();
  describe(`${options.label}: controls the law catches`, () => {
    for (const [name, writer] of options.controls)
      it(`a writer that ${name}`, () => {
        const result = fc.check(
          fc.property(arbitrary, (transcript) => options.same(transcript, writer)),
          lawParameters(),
        );
        expect(result.failed).toBe(true);
      });
    it("the real writer passes the same check (so the controls fail for their fault)", () => {
      const result = fc.check(
        fc.property(arbitrary, (transcript) => options.same(transcript, options.real)),
        lawParameters(),
      );
      expect(result.failed).toBe(false);
    });
  });
}

/** A writer refuses parts out of order (no meta first; subagents announced and missing) as the whole path does. */
export function expectOrderRefused(writer: StreamWriter, options: CodecOptions = {}): void {
  const transcript = longTranscript(2);
  const parts: StreamPart[] = [...transcriptParts(transcript)];
  const reversed = [parts[1], parts[0], parts[2]] as StreamPart[];
  expect(() => [...writer({ parts: reversed, replay: () => reversed }, options)].join("")).toThrow(
    "does not start with its meta",
  );
  const unannounced: StreamPart[] = [
    { kind: "meta", meta: transcript.meta, subagents: true },
    ...parts.slice(1),
  ];
  expect(() =>
    [...writer({ parts: unannounced, replay: () => unannounced }, options)].join(""),
  ).toThrow("announced subagents it lacks");
}

/**
 * Registers a reader's law over generated sessions and odd shapes: each
 * transcript written by the harness (`written`), then checked (`check`,
 * its paths against the whole path), `numRuns` cases each.
 */
export function itReadsGeneratedSessions(
  written: (transcript: Transcript) => string,
  check: (text: string) => void,
  numRuns?: number,
): void {
  const parameters = numRuns === undefined ? lawParameters() : lawParameters(numRuns);
  it("generated sessions: stream and whole paths give the same text and warnings", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        check(written(transcript));
      }),
      parameters,
    );
  });
  it("odd shapes: the same", () => {
    fc.assert(
      fc.property(oddShapesArbitrary(), (transcript) => {
        check(written(transcript));
      }),
      parameters,
    );
  });
}

/**
 * Registers a writer's law over generated transcripts and odd shapes: each
 * checked by `check` (its stream write against the whole write); with
 * `cwd`, generated transcripts written with a `cwd` option too; with
 * `commonDocuments`, each of those Common documents (more than `atLeast`).
 */
export function itWritesGeneratedSessions(
  check: (transcript: Transcript, options?: CodecOptions) => void,
  {
    cwd = false,
    commonDocuments,
  }: { cwd?: boolean; commonDocuments?: { files: readonly string[]; atLeast: number } } = {},
): void {
  it("generated transcripts (subagents too): the stream write is the whole write, text and warnings", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        check(transcript);
      }),
      lawParameters(),
    );
  });
  it("odd shapes (empty and compaction-only messages, nested subagents): the same", () => {
    fc.assert(
      fc.property(oddShapesArbitrary(), (transcript) => {
        check(transcript);
      }),
      lawParameters(),
    );
  });
  if (cwd)
    it("write options (cwd) pass through the same way", () => {
      fc.assert(
        fc.property(
          transcriptArbitrary(),
          fc.constantFrom("/work/other", "/"),
          (transcript, at) => {
            check(transcript, { cwd: at } as CodecOptions);
          },
        ),
        lawParameters(Math.min(50, lawParameters().numRuns ?? 50)),
      );
    });
  if (commonDocuments !== undefined)
    it("every fixture's Common document: the same", () => {
      expect(commonDocuments.files.length).toBeGreaterThan(commonDocuments.atLeast);
      for (const file of commonDocuments.files)
        check(commonCodec.toCommon(commonCodec.parse(readFileSync(file, "utf8")), {}));
    });
}

/** What a stream reader gave for a text: each part as JSON when it was handed out (a part changed after is caught), and the warnings; or the TxcriptError it refused with. */
export interface ReadResult {
  parts: string[] | TxcriptError;
  warnings: Warning[];
}

/** A reader's parts and warnings for a text's lines (or its refusal). */
export function readParts(reader: StreamReader, text: string): ReadResult {
  const collector = new WarningCollector();
  try {
    const parts: string[] = [];
    for (const part of reader(() => textLines(text), { onWarning: collector.add }))
      parts.push(JSON.stringify(part));
    return { parts, warnings: collector.warnings };
  } catch (error) {
    if (!TxcriptError.isInstance(error)) throw error;
    return { parts: error, warnings: collector.warnings };
  }
}

/** A harness's whole read as a stream reader: the lines joined, parsed and read into Common. */
export function wholeReader(harness: AnyHarness): StreamReader {
  return function* (lines, options) {
    const text = [...lines()].join("\n");
    yield* transcriptParts(harness.codec.toCommon(harness.codec.parse(text), options));
  };
}

/**
 * The reader law as a check, for controls: `reader` gives the whole read's parts and warnings
 * for `text`, or refuses it with the same message.
 */
export function sameRead(harness: AnyHarness, reader: StreamReader, text: string): boolean {
  const whole = readParts(wholeReader(harness), text);
  const streamed = readParts(reader, text);
  if (whole.parts instanceof Error || streamed.parts instanceof Error)
    return (
      whole.parts instanceof Error &&
      streamed.parts instanceof Error &&
      whole.parts.message === streamed.parts.message
    );
  const parts = withoutToolCallHint(streamed.parts, whole.parts);
  return parts !== undefined && JSON.stringify(whole) === JSON.stringify({ ...streamed, parts });
}

/**
 * A meta part's `userToolCalls` is a promise about the messages, not part of the transcript:
 * the streamed parts without it, once it holds against the whole read's messages (false only
 * when none is a user message holding a tool call); undefined when it does not.
 */
function withoutToolCallHint(streamed: string[], whole: string[]): string[] | undefined {
  const [first, ...rest] = streamed;
  const part = first === undefined ? undefined : (JSON.parse(first) as Record<string, unknown>);
  if (part?.kind !== "meta" || !Object.hasOwn(part, "userToolCalls")) return streamed;
  const { userToolCalls, ...plain } = part;
  const broken =
    userToolCalls === false &&
    whole.some((text) => {
      const wholePart = JSON.parse(text) as StreamPart;
      return wholePart.kind === "message" && isUserToolCall(wholePart.message);
    });
  return broken ? undefined : [JSON.stringify(plain), ...rest];
}
