// The streaming law for the Gemini CLI writer: writing a transcript's parts
// one message at a time (geminiCliWriteStream) gives the text and the
// warnings of the whole write, serialize(fromCommon(t)), for generated
// transcripts (with subagents, nested ones, and odd shapes), for the
// fixtures of every harness and the real captures read into it (stream
// reads where the source has one), and it writes a record before it has
// read the messages after it. Controls: broken writers the law catches.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { claudeCodeHarness } from "@txcript/claude-code";
import { codexHarness } from "@txcript/codex";
import type { AnyHarness, CodecOptions, StreamWriter, Transcript } from "@txcript/core";
import {
  collectingWriter,
  countingInput,
  describeWriterControls,
  noFinalNewline as dropsFinalNewline,
  droppingSubagents as dropsSubagents,
  expectOrderRefused,
  expectSamePaths,
  fixtureCommonDocuments,
  ignoringOptions as ignoresOptions,
  itWritesGeneratedSessions,
  longTranscript,
  sameWrite as sameWriteOf,
  sessionFiles,
  streamWrite,
  wholeWrite,
} from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { geminiCliHarness } from "./gemini-cli-harness.js";
import { geminiCliWriteStream } from "./gemini-cli-stream-write.js";
import { realDirectory, repoRoot } from "./test-support/interop.js";

const now = new Date("2026-12-02T06:00:00.000Z");

/** The law for one transcript and writer: the stream write is the whole write. */
function sameWrite(transcript: Transcript, writer: StreamWriter = geminiCliWriteStream): boolean {
  return sameWriteOf(geminiCliHarness, writer, transcript, { now } as CodecOptions);
}

function expectSameWrite(transcript: Transcript, options: CodecOptions = {}): void {
  const given = { now, ...options } as CodecOptions;
  expect(streamWrite(geminiCliWriteStream, transcript, given)).toEqual(
    wholeWrite(geminiCliHarness, transcript, given),
  );
}

const sources: { harness: AnyHarness; fixtures: string; real: string; pattern: RegExp }[] = [
  { harness: claudeCodeHarness, fixtures: "claude-code", real: "claude-code", pattern: /\.jsonl$/ },
  { harness: codexHarness, fixtures: "codex", real: "codex", pattern: /\.jsonl$/ },
  { harness: geminiCliHarness, fixtures: "gemini-cli", real: "gemini", pattern: /\.jsonl?$/ },
];

const inputs = sources.flatMap(({ harness, fixtures, real, pattern }) => [
  ...sessionFiles(path.join(repoRoot, "fixtures", fixtures), pattern).map((file) => ({
    harness,
    file,
  })),
  ...sessionFiles(path.join(realDirectory, real), pattern).map((file) => ({ harness, file })),
]);
const realCount = sources
  .map(({ real, pattern }) => sessionFiles(path.join(realDirectory, real), pattern).length)
  .reduce((a, b) => a + b, 0);
const commonFixtures = fixtureCommonDocuments(
  repoRoot,
  sources.map(({ fixtures }) => fixtures),
);

// Broken writers the law must catch.
/** Leaves the subagents out (no warning for them): text the same, warnings not. */
const droppingSubagents = dropsSubagents(geminiCliWriteStream);
/** Ignores the write options (the time of writing, the project root). */
const ignoringOptions = ignoresOptions(geminiCliWriteStream);
/** Holds the whole transcript before writing (the text is right; memory is not). */
const collecting = collectingWriter(geminiCliHarness);
/** Drops the final newline. */
const noFinalNewline = dropsFinalNewline(geminiCliWriteStream);

describe("gemini-cli streaming writer: the law", () => {
  itWritesGeneratedSessions(expectSameWrite, {
    cwd: true,
    commonDocuments: { files: commonFixtures, atLeast: 3 },
  });

  it("fixtures of Claude Code, Codex and Gemini CLI into Gemini CLI, read whole and streamed: the same", () => {
    expect(inputs.length).toBeGreaterThan(realCount + 5);
    for (const { harness, file } of inputs)
      expectSamePaths(readFileSync(file, "utf8"), harness, geminiCliHarness, {
        write: { now } as CodecOptions,
        paths: [
          { read: "whole", write: "stream" },
          ...(harness.readStream === undefined
            ? []
            : [{ read: "stream", write: "stream" } as const]),
        ],
      });
  });

  it.skipIf(realCount === 0)(
    `real captures (${realCount} in ../shared/real) into Gemini CLI: included above`,
    () => {
      expect(inputs.some(({ file }) => file.startsWith(realDirectory))).toBe(true);
    },
  );
  if (realCount === 0) console.warn("SKIPPED real captures: ../shared/real is absent");

  it("an input whose parts are out of order is refused as the whole path refuses it", () => {
    expectOrderRefused(geminiCliWriteStream, { now } as CodecOptions);
  });
});

describe("gemini-cli streaming writer: memory", () => {
  it("writes each record after reading only the messages up to it (no look-ahead, no replay)", () => {
    const { input, read, replays } = countingInput(longTranscript(2000));
    const iterator = geminiCliWriteStream(input, { now } as CodecOptions)[Symbol.iterator]();
    iterator.next(); // the metadata line
    expect(read()).toBe(0);
    for (let record = 1; record <= 100; record += 1) {
      iterator.next();
      expect(read()).toBeLessThanOrEqual(record);
    }
    expect(replays()).toBe(0);
  });

  it("control: a writer that holds the whole transcript first fails it", () => {
    const { input, read } = countingInput(longTranscript(2000));
    collecting(input, {})[Symbol.iterator]().next();
    expect(read()).toBe(2000);
    // ...though it passes the text law: why the memory test is needed.
    expect(sameWrite(longTranscript(10), collecting)).toBe(true);
  });
});

describeWriterControls({
  label: "gemini-cli streaming writer",
  real: geminiCliWriteStream,
  controls: [
    ["drops the subagents (a warning missing)", droppingSubagents],
    ["drops the final newline", noFinalNewline],
    ["ignores the write options (lastUpdated is not the given time)", ignoringOptions],
  ],
  same: sameWrite,
});
