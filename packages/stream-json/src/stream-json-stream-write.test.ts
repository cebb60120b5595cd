// The streaming law for the stream-json writer: writing a transcript's
// parts (streamJsonWriteStream) gives the text and the warnings of the
// whole write, serialize(commonToStreamJson(t)), in both dialects and both
// Amp tool eras, for generated transcripts (subagents, nested ones, odd
// shapes), for every harness's fixture Common documents, and for the
// stream-json fixtures and real captures read whole or line by line.
// Memory: after its one silent replay (the init line needs the tools and
// the uuid count of the body) it writes each message's line before reading
// the messages after it. A replay that differs from the stream is refused.
// The same law holds the writer that gives its init line last
// (streamJsonWriteHeadLast; core testing's headFirst puts it first), which
// never replays; the captures converted by it into a file with core's
// writeFileAtomic are the replaying writer's bytes, read twice, not three
// times. Controls: broken writers the law catches.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import {
  type CodecOptions,
  fileLineSource,
  type StreamWriter,
  streamConvert,
  streamConvertHeadLast,
  type Transcript,
  TxcriptError,
  transcriptParts,
  writeFileAtomic,
} from "@txcript/core";
import {
  collectingWriter,
  countingInput,
  countingLines,
  describeWriterControls,
  noFinalNewline as dropsFinalNewline,
  droppingSubagents as dropsSubagents,
  expectOrderRefused,
  expectSamePaths as expectSamePathsOf,
  fixtureCommonDocuments,
  headFirst,
  ignoringOptions,
  itWritesGeneratedSessions,
  longTranscript,
  sameWrite as sameWriteOf,
  scratchDirectory,
  streamWrite,
  wholeWrite,
} from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { commonToStreamJson, type StreamJsonWriteOptions } from "./common-to-stream-json.js";
import {
  fixtureReadOptions,
  fixturesDirectory,
  realDirectory,
  repoRoot,
} from "./fixtures-support.js";
import { streamJsonCodec } from "./stream-json-codec.js";
import { streamJsonHarness } from "./stream-json-harness.js";
import { streamJsonReadStream } from "./stream-json-stream.js";
import { streamJsonWriteHeadLast, streamJsonWriteStream } from "./stream-json-stream-write.js";

const scratch = scratchDirectory("txcript-stream-json-write-");

/** The writer settings the law runs under: both dialects, and Amp's modern tool era. */
const settings: StreamJsonWriteOptions[] = [
  { dialect: "claude" },
  { dialect: "amp" },
  { dialect: "amp", toolEra: "modern" },
];

/** The law for one transcript and writer, in every setting. */
function sameWrite(transcript: Transcript, writer: StreamWriter = streamJsonWriteStream): boolean {
  return settings.every((options) =>
    sameWriteOf(streamJsonHarness, writer, transcript, options as CodecOptions),
  );
}

function expectSameWrite(
  transcript: Transcript,
  writer: StreamWriter = streamJsonWriteStream,
): void {
  for (const options of settings)
    expect({
      options,
      ...streamWrite(writer, transcript, options as CodecOptions),
    }).toEqual({
      options,
      ...wholeWrite(streamJsonHarness, transcript, options as CodecOptions),
    });
}

/** A capture's paths into stream-json through the stream writer, required equal to the whole path. */
function expectSamePaths(text: string): void {
  const read = { ...fixtureReadOptions } as CodecOptions;
  for (const write of settings as CodecOptions[])
    expectSamePathsOf(text, streamJsonHarness, streamJsonHarness, {
      read,
      write,
      label: { write },
      paths: [
        { read: "whole", write: "stream" },
        { read: "stream", write: "stream" },
      ],
    });
}

/** Every harness's fixture Common documents (fixtures/<harness>/*.common.json). */
const commonFixtures = fixtureCommonDocuments(repoRoot).sort();

const captures = [
  ...readdirSync(fixturesDirectory)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => path.join(fixturesDirectory, name)),
  ...(existsSync(realDirectory)
    ? readdirSync(realDirectory)
        .filter((name) => /stream.*\.jsonl$/.test(name))
        .map((name) => path.join(realDirectory, name))
    : []),
].sort();
const realCount = captures.filter((file) => file.startsWith(realDirectory)).length;

// Broken writers the law must catch.
/** Leaves the subagents out, announced or not. */
const droppingSubagents = dropsSubagents(streamJsonWriteStream);
/** Writes in the default dialect whatever it is asked. */
const ignoringDialect = ignoringOptions(streamJsonWriteStream);
/** Holds the whole transcript before writing (the text is right; memory is not). */
const collecting = collectingWriter(streamJsonHarness);
/** Drops the final newline. */
const noFinalNewline = dropsFinalNewline(streamJsonWriteStream);

/** Both streaming writers: the one that replays, and the head-last one (its rest, then its head first). */
const writers: [string, StreamWriter][] = [
  ["streamJsonWriteStream", streamJsonWriteStream],
  ["streamJsonWriteHeadLast", headFirst(streamJsonWriteHeadLast)],
];

/**
 * Two subagents of main calls, the second's messages holding the first's call too: only the
 * nesting check's main calls keep the first at the top (without them it reads back nested, a
 * warning the whole write does not give).
 */
function twoSubagents(): Transcript {
  const base = longTranscript(2);
  const timestamp = base.meta.timestamp;
  const call = (id: string) => ({
    type: "tool_use" as const,
    id,
    tool: { name: "Raw" as const, toolName: "Task", input: { prompt: id } },
  });
  const text = (value: string) => [{ type: "text" as const, text: value }];
  return {
    ...base,
    messages: [
      ...base.messages,
      { role: "assistant", content: [call("toolu_a"), call("toolu_b")], timestamp },
    ],
    subagents: [
      {
        id: "toolu_a",
        toolUseId: "toolu_a",
        messages: [{ role: "user", content: text("a"), timestamp }],
      },
      {
        id: "toolu_b",
        toolUseId: "toolu_b",
        messages: [
          { role: "user", content: text("b"), timestamp },
          { role: "assistant", content: [call("toolu_a")], timestamp },
        ],
      },
    ],
  };
}

for (const [label, writer] of writers)
  describe(`stream-json streaming writer (${label}): the law`, () => {
    itWritesGeneratedSessions((transcript) => expectSameWrite(transcript, writer), {
      commonDocuments: { files: commonFixtures, atLeast: 10 },
    });

    it("an empty subagent list is no subagents, on both paths", () => {
      const transcript = { ...longTranscript(2), subagents: [] };
      expectSameWrite(transcript, writer);
      expect(
        wholeWrite(streamJsonHarness, transcript, { dialect: "amp" } as CodecOptions).warnings,
      ).toEqual([]);
    });

    it("a subagent whose call another subagent holds too: the same (the nesting check sees the main calls)", () => {
      expectSameWrite(twoSubagents(), writer);
    });

    it("an input whose parts are out of order is refused as the whole path refuses it", () => {
      expectOrderRefused(writer);
    });
  });

describe("stream-json streaming writer: the law", () => {
  it("the stream-json fixtures and real captures, read whole and line by line: the same", () => {
    expect(captures.length).toBeGreaterThanOrEqual(4 + realCount);
    for (const file of captures) expectSamePaths(readFileSync(file, "utf8"));
  });

  it.skipIf(realCount === 0)(
    `real captures (${realCount} in ../shared/real): included above`,
    () => {
      expect(captures.some((file) => file.startsWith(realDirectory))).toBe(true);
    },
  );
  if (realCount === 0) console.warn("SKIPPED real stream-json captures: ../shared/real is absent");

  it("the captures read line by line into a file, the init line written last: the replaying writer's bytes and warnings, two reads", async () => {
    for (const [index, file] of captures.entries()) {
      const lines = fileLineSource(file);
      const read = { ...fixtureReadOptions } as CodecOptions;
      for (const [at, write] of (settings as CodecOptions[]).entries()) {
        const replaying = streamConvert(lines, streamJsonReadStream, streamJsonWriteStream, {
          read,
          write,
        });
        const expected = [...replaying.chunks].join("");
        const counted = countingLines(() => lines());
        const headLast = streamConvertHeadLast(
          counted.source,
          streamJsonReadStream,
          streamJsonWriteHeadLast,
          { read, write },
        );
        const target = path.join(scratch, `${index}-${at}.jsonl`);
        await writeFileAtomic(target, headLast);
        expect({ file, write, text: readFileSync(target, "utf8") }).toEqual({
          file,
          write,
          text: expected,
        });
        expect(headLast.warnings()).toEqual(replaying.warnings());
        // The reader's two passes, no replay's (the replaying writer's conversion: three).
        expect(counted.passes()).toHaveLength(2);
      }
    }
  });

  it("a replay that differs from the stream (the input changed) is refused, not written wrong", () => {
    const first = longTranscript(4);
    const more: Transcript = {
      ...first,
      messages: [
        ...first.messages,
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "toolu_01",
              tool: { name: "Raw", toolName: "probe", input: { path: "/" } },
            },
          ],
          timestamp: first.meta.timestamp,
        },
      ],
    };
    for (const dialect of ["claude", "amp"] as const) {
      const input = { parts: transcriptParts(more), replay: () => transcriptParts(first) };
      let error: unknown;
      try {
        for (const _ of streamJsonWriteStream(input, { dialect } as CodecOptions));
      } catch (caught) {
        error = caught;
      }
      expect(TxcriptError.isInstance(error)).toBe(true);
      expect((error as TxcriptError).code).toBe("MISMATCH");
      expect((error as Error).message).toMatch(/changed between the two passes/);
    }
    // Control: the same replay as the stream writes.
    const same = { parts: transcriptParts(more), replay: () => transcriptParts(more) };
    expect([...streamJsonWriteStream(same, {})].join("")).toBe(
      streamJsonCodec.serialize(commonToStreamJson(more)),
    );
  });
});

describe("stream-json streaming writer: memory", () => {
  it("after one replay, writes each message's line having read only the messages up to it", () => {
    for (const dialect of ["claude", "amp"] as const) {
      const { input, read, replays } = countingInput(longTranscript(2000));
      const iterator = streamJsonWriteStream(input, { dialect } as CodecOptions)[Symbol.iterator]();
      iterator.next(); // the init line
      expect(read()).toBe(0);
      for (let line = 1; line <= 100; line += 1) {
        iterator.next();
        expect(read()).toBeLessThanOrEqual(line);
      }
      expect(replays()).toBe(1);
    }
  });

  it("with its init line last: never replays, and writes each message's line having read only the messages up to it", () => {
    for (const dialect of ["claude", "amp"] as const) {
      const { input, read, replays } = countingInput(longTranscript(2000));
      const written = streamJsonWriteHeadLast(input, { dialect } as CodecOptions);
      const iterator = written.rest[Symbol.iterator]();
      for (let line = 1; line <= 100; line += 1) {
        iterator.next();
        expect(read()).toBeLessThanOrEqual(line);
      }
      for (let next = iterator.next(); !next.done; next = iterator.next());
      expect(written.head()).toMatch(/^\{"type":"system","subtype":"init"/);
      expect(replays()).toBe(0);
    }
    // Asked for before the rest is written, the head is refused.
    const { input } = countingInput(longTranscript(2));
    expect(() => streamJsonWriteHeadLast(input, {}).head()).toThrow(/before the rest/);
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
  label: "stream-json streaming writer",
  real: streamJsonWriteStream,
  controls: [
    ["drops the subagents", droppingSubagents],
    ["drops the final newline", noFinalNewline],
    ["ignores the dialect", ignoringDialect],
  ],
  same: sameWrite,
});

/** The head-last writer with another uuid on its init line, as if it took its serial before the body's. */
const serialFirst: StreamWriter = function* (input, options) {
  const [init, ...rest] = [...headFirst(streamJsonWriteHeadLast)(input, options)];
  yield (init as string).replace(/"uuid":"[^"]*"/, '"uuid":"00000000-0000-4000-8000-000000000000"');
  yield* rest;
};

it("control: the head-last writer's init line with another serial's uuid fails the law", () => {
  expect(sameWrite(longTranscript(3), headFirst(streamJsonWriteHeadLast))).toBe(true);
  expect(sameWrite(longTranscript(3), serialFirst)).toBe(false);
});
