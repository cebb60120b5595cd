// The streaming law for the Gemini CLI writer: writing a transcript's parts
// one message at a time (geminiCliWriteStream) gives the text and the
// warnings of the whole write, serialize(fromCommon(t)), for generated
// transcripts (with subagents, nested ones, and odd shapes), for the
// fixtures of every harness and the real captures read into it (stream
// reads where the source has one), and it writes a record before it has
// read the messages after it. Controls: broken writers the law catches.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { claudeCodeHarness } from "@txcript/claude-code";
import { codexHarness } from "@txcript/codex";
import {
  type AnyHarness,
  type CodecOptions,
  collectTranscript,
  commonHarness,
  convertStreamed,
  convertWhole,
  type StreamInput,
  type StreamPart,
  type StreamWriter,
  type Transcript,
  TxcriptError,
  transcriptInput,
  transcriptParts,
  type Warning,
  WarningCollector,
} from "@txcript/core";
import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonToGeminiCli } from "./common-to-gemini-cli.js";
import { geminiCliHarness } from "./gemini-cli-harness.js";
import { geminiCliWriteStream } from "./gemini-cli-stream-write.js";
import { realDirectory, repoRoot } from "./test-support/interop.js";

const now = new Date("2026-12-02T06:00:00.000Z");

interface Written {
  text: string;
  warnings: Warning[];
}

function wholeWrite(transcript: Transcript, options: CodecOptions = {}): Written {
  const collector = new WarningCollector();
  const session = geminiCliHarness.codec.fromCommon(transcript, {
    now,
    ...options,
    onWarning: collector.add,
  });
  return { text: geminiCliHarness.codec.serialize(session), warnings: collector.warnings };
}

function streamWrite(
  transcript: Transcript,
  writer: StreamWriter = geminiCliWriteStream,
  options: CodecOptions = {},
): Written {
  const collector = new WarningCollector();
  const chunks = writer(transcriptInput(transcript), {
    now,
    ...options,
    onWarning: collector.add,
  } as CodecOptions);
  const text = [...chunks].join("");
  return { text, warnings: collector.warnings };
}

/** The law for one transcript and writer: the stream write is the whole write. */
function sameWrite(transcript: Transcript, writer: StreamWriter = geminiCliWriteStream): boolean {
  const whole = wholeWrite(transcript);
  const streamed = streamWrite(transcript, writer);
  return (
    streamed.text === whole.text &&
    JSON.stringify(streamed.warnings) === JSON.stringify(whole.warnings)
  );
}

function expectSameWrite(transcript: Transcript, options: CodecOptions = {}): void {
  expect(streamWrite(transcript, geminiCliWriteStream, options)).toEqual(
    wholeWrite(transcript, options),
  );
}

/** Every path an input of `from` can take into Gemini CLI, required equal to the whole path. */
function expectSamePaths(text: string, from: AnyHarness): void {
  const options = { write: { now } };
  let whole: ReturnType<typeof convertWhole> | TxcriptError;
  try {
    whole = convertWhole(text, from, geminiCliHarness, options);
  } catch (error) {
    if (!TxcriptError.isInstance(error)) throw error;
    whole = error;
  }
  type Which = { read: "stream" | "whole"; write: "stream" | "whole" };
  const paths: Which[] = [
    { read: "whole", write: "stream" },
    ...(from.readStream === undefined ? [] : ([{ read: "stream", write: "stream" }] as Which[])),
  ];
  for (const which of paths) {
    if (whole instanceof Error) {
      expect(() => convertStreamed(text, from, geminiCliHarness, which, options)).toThrow(
        whole.message,
      );
      continue;
    }
    const streamed = convertStreamed(text, from, geminiCliHarness, which, options);
    expect({ from: from.id, which, text: streamed.text }).toEqual({
      from: from.id,
      which,
      text: whole.text,
    });
    expect({ from: from.id, which, warnings: streamed.warnings }).toEqual({
      from: from.id,
      which,
      warnings: whole.warnings,
    });
  }
}

function files(directory: string, pattern: RegExp): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => pattern.test(name) && !name.endsWith(".common.json"))
    .sort()
    .map((name) => path.join(directory, name));
}

const sources: { harness: AnyHarness; fixtures: string; real: string; pattern: RegExp }[] = [
  { harness: claudeCodeHarness, fixtures: "claude-code", real: "claude-code", pattern: /\.jsonl$/ },
  { harness: codexHarness, fixtures: "codex", real: "codex", pattern: /\.jsonl$/ },
  { harness: geminiCliHarness, fixtures: "gemini-cli", real: "gemini", pattern: /\.jsonl?$/ },
];

const inputs = sources.flatMap(({ harness, fixtures, real, pattern }) => [
  ...files(path.join(repoRoot, "fixtures", fixtures), pattern).map((file) => ({ harness, file })),
  ...files(path.join(realDirectory, real), pattern).map((file) => ({ harness, file })),
]);
const realCount = sources
  .map(({ real, pattern }) => files(path.join(realDirectory, real), pattern).length)
  .reduce((a, b) => a + b, 0);
const commonFixtures = sources.flatMap(({ fixtures }) =>
  existsSync(path.join(repoRoot, "fixtures", fixtures))
    ? readdirSync(path.join(repoRoot, "fixtures", fixtures))
        .filter((name) => name.endsWith(".common.json"))
        .map((name) => path.join(repoRoot, "fixtures", fixtures, name))
    : [],
);

/** Parts that count how many messages have been read from them. */
function countingInput(transcript: Transcript): { input: StreamInput; read: () => number } {
  let read = 0;
  const parts = function* (): Generator<StreamPart> {
    for (const part of transcriptParts(transcript)) {
      if (part.kind === "message") read += 1;
      yield part;
    }
  };
  return {
    input: { parts: parts(), replay: () => transcriptParts(transcript) },
    read: () => read,
  };
}

function longTranscript(length: number): Transcript {
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

// Broken writers the law must catch.
/** Leaves the subagents out (no warning for them): text the same, warnings not. */
const droppingSubagents: StreamWriter = (input, options) =>
  geminiCliWriteStream(
    {
      parts: (function* (): Generator<StreamPart> {
        for (const part of input.parts)
          if (part.kind === "meta") yield { ...part, subagents: false };
          else if (part.kind === "message") yield part;
      })(),
      replay: input.replay,
    },
    options,
  );
/** Ignores the write options (the time of writing, the project root). */
const ignoringOptions: StreamWriter = (input, options) =>
  geminiCliWriteStream(input, { onWarning: options.onWarning } as CodecOptions);
/** Holds the whole transcript before writing (the text is right; memory is not). */
const collecting: StreamWriter = function* (input, options) {
  const session = commonToGeminiCli(collectTranscript(input.parts), options as never);
  for (const line of session.lines) yield `${line.text}\n`;
};
/** Drops the final newline. */
const noFinalNewline: StreamWriter = (input, options) => {
  const pieces = [...geminiCliWriteStream(input, options)];
  const last = pieces.length - 1;
  pieces[last] = (pieces[last] as string).replace(/\n$/, "");
  return pieces;
};

describe("gemini-cli streaming writer: the law", () => {
  it("generated transcripts (subagents too): the stream write is the whole write, text and warnings", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        expectSameWrite(transcript);
      }),
      lawParameters(),
    );
  });

  it("odd shapes (empty and compaction-only messages, nested subagents): the same", () => {
    fc.assert(
      fc.property(oddShapesArbitrary(), (transcript) => {
        expectSameWrite(transcript);
      }),
      lawParameters(),
    );
  });

  it("write options (cwd) pass through the same way", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), fc.constantFrom("/work/other", "/"), (transcript, cwd) => {
        expectSameWrite(transcript, { cwd } as CodecOptions);
      }),
      lawParameters(Math.min(50, lawParameters().numRuns ?? 50)),
    );
  });

  it("every fixture's Common document: the same", () => {
    expect(commonFixtures.length).toBeGreaterThan(3);
    for (const file of commonFixtures) {
      const transcript = commonHarness.codec.toCommon(
        commonHarness.codec.parse(readFileSync(file, "utf8")),
        {},
      );
      expectSameWrite(transcript);
    }
  });

  it("fixtures of Claude Code, Codex and Gemini CLI into Gemini CLI, read whole and streamed: the same", () => {
    expect(inputs.length).toBeGreaterThan(realCount + 5);
    for (const { harness, file } of inputs) expectSamePaths(readFileSync(file, "utf8"), harness);
  });

  it.skipIf(realCount === 0)(
    `real captures (${realCount} in ../shared/real) into Gemini CLI: included above`,
    () => {
      expect(inputs.some(({ file }) => file.startsWith(realDirectory))).toBe(true);
    },
  );
  if (realCount === 0) console.warn("SKIPPED real captures: ../shared/real is absent");

  it("an input whose parts are out of order is refused as the whole path refuses it", () => {
    const transcript = longTranscript(2);
    const parts: StreamPart[] = [...transcriptParts(transcript)];
    const reversed = [parts[1], parts[0], parts[2]] as StreamPart[];
    const input = { parts: reversed, replay: () => reversed };
    expect(() => [...geminiCliWriteStream(input, { now } as CodecOptions)]).toThrow(
      "does not start with its meta",
    );
    const unannounced: StreamPart[] = [
      { kind: "meta", meta: transcript.meta, subagents: true },
      ...parts.slice(1),
    ];
    expect(() =>
      [...geminiCliWriteStream({ parts: unannounced, replay: () => unannounced }, {})].join(""),
    ).toThrow("announced subagents it lacks");
  });
});

describe("gemini-cli streaming writer: memory", () => {
  it("writes each record after reading only the messages up to it (no look-ahead, no replay)", () => {
    const transcript = longTranscript(2000);
    const { input, read } = countingInput(transcript);
    let replays = 0;
    const counted = {
      parts: input.parts,
      replay: () => {
        replays += 1;
        return input.replay();
      },
    };
    const iterator = geminiCliWriteStream(counted, { now } as CodecOptions)[Symbol.iterator]();
    iterator.next(); // the metadata line
    expect(read()).toBe(0);
    for (let record = 1; record <= 100; record += 1) {
      iterator.next();
      expect(read()).toBeLessThanOrEqual(record);
    }
    expect(replays).toBe(0);
  });

  it("control: a writer that holds the whole transcript first fails it", () => {
    const { input, read } = countingInput(longTranscript(2000));
    collecting(input, {})[Symbol.iterator]().next();
    expect(read()).toBe(2000);
    // ...though it passes the text law: why the memory test is needed.
    expect(sameWrite(longTranscript(10), collecting)).toBe(true);
  });
});

describe("gemini-cli streaming writer: controls the law catches", () => {
  it("a writer that drops the subagents (a warning missing)", () => {
    const result = fc.check(
      fc.property(transcriptArbitrary(), (transcript) => sameWrite(transcript, droppingSubagents)),
      lawParameters(),
    );
    expect(result.failed).toBe(true);
  });

  it("a writer that drops the final newline", () => {
    const result = fc.check(
      fc.property(transcriptArbitrary(), (transcript) => sameWrite(transcript, noFinalNewline)),
      lawParameters(),
    );
    expect(result.failed).toBe(true);
  });

  it("the real writer passes the same check (so the controls fail for their fault)", () => {
    const result = fc.check(
      fc.property(transcriptArbitrary(), (transcript) => sameWrite(transcript)),
      lawParameters(),
    );
    expect(result.failed).toBe(false);
  });

  it("a writer that ignores the write options (lastUpdated is not the given time)", () => {
    const result = fc.check(
      fc.property(transcriptArbitrary(), (transcript) => sameWrite(transcript, ignoringOptions)),
      lawParameters(),
    );
    expect(result.failed).toBe(true);
  });
});
