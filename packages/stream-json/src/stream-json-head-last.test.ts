// The law for the stream-json writer with its init line last
// (streamJsonWriteHeadLast, core's HeadLastWriter): `head()` then `rest`
// is the whole write's text, serialize(commonToStreamJson(t)), with its
// warnings, in both dialects and both Amp tool eras, for generated
// transcripts (subagents, nested ones, odd shapes), every harness's fixture
// Common documents, and the stream-json fixtures and real captures read
// line by line into a file. It reads the parts once and never replays:
// each message's line is written having read only the messages up to it.
// Control: a head-last writer that takes the init line's serial before
// the body's.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  type CodecOptions,
  fileLineSource,
  type HeadLastWriter,
  streamConvert,
  streamConvertHeadLast,
  type Transcript,
  writeFileAtomic,
} from "@txcript/core";
import {
  countingInput,
  countingLines,
  fixtureCommonDocuments,
  headFirst,
  itWritesGeneratedSessions,
  longTranscript,
  streamWrite,
  wholeWrite,
} from "@txcript/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import type { StreamJsonWriteOptions } from "./common-to-stream-json.js";
import {
  fixtureReadOptions,
  fixturesDirectory,
  realDirectory,
  repoRoot,
} from "./fixtures-support.js";
import { streamJsonHarness } from "./stream-json-harness.js";
import { streamJsonReadStream } from "./stream-json-stream.js";
import { streamJsonWriteHeadLast, streamJsonWriteStream } from "./stream-json-stream-write.js";

const scratch = mkdtempSync(path.join(os.tmpdir(), "txcript-stream-json-head-last-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The writer settings the law runs under: both dialects, and Amp's modern tool era. */
const settings: StreamJsonWriteOptions[] = [
  { dialect: "claude" },
  { dialect: "amp" },
  { dialect: "amp", toolEra: "modern" },
];

function sameWrite(transcript: Transcript, write: HeadLastWriter): boolean {
  return settings.every((options) => {
    const streamed = streamWrite(headFirst(write), transcript, options as CodecOptions);
    const whole = wholeWrite(streamJsonHarness, transcript, options as CodecOptions);
    return JSON.stringify(streamed) === JSON.stringify(whole);
  });
}

function expectSameWrite(transcript: Transcript): void {
  for (const options of settings)
    expect({
      options,
      ...streamWrite(headFirst(streamJsonWriteHeadLast), transcript, options as CodecOptions),
    }).toEqual({
      options,
      ...wholeWrite(streamJsonHarness, transcript, options as CodecOptions),
    });
}

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

/**
 * Two subagents of main calls, the second's messages holding the first's call too: only the
 * nesting check's main calls keep the first at the top (without them it reads back nested, a
 * warning the whole write does not give).
 */
function withSubagent(): Transcript {
  const base = longTranscript(2);
  const timestamp = base.meta.timestamp;
  const call = (id: string) => ({
    type: "tool_use" as const,
    id,
    tool: { name: "Raw" as const, toolName: "Task", input: { prompt: id } },
  });
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
        messages: [{ role: "user", content: [{ type: "text", text: "a" }], timestamp }],
      },
      {
        id: "toolu_b",
        toolUseId: "toolu_b",
        messages: [
          { role: "user", content: [{ type: "text", text: "b" }], timestamp },
          { role: "assistant", content: [call("toolu_a")], timestamp },
        ],
      },
    ],
  };
}

describe("stream-json writer with its init line last: the law", () => {
  itWritesGeneratedSessions(expectSameWrite, {
    commonDocuments: { files: fixtureCommonDocuments(repoRoot).sort(), atLeast: 10 },
  });

  it("a subagent linked to a main call: the same (the nesting check sees every main call)", () => {
    expectSameWrite(withSubagent());
  });

  it("the fixtures and real captures, read line by line into a file: the replaying writer's bytes and warnings", async () => {
    expect(captures.length).toBeGreaterThanOrEqual(4);
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
        // The reader's two passes, no replay's (the replaying writer: three).
        expect(counted.passes()).toHaveLength(2);
      }
    }
  });
});

describe("stream-json writer with its init line last: reads once", () => {
  it("never replays, and writes each message's line having read only the messages up to it", () => {
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
  });

  it("refuses to give the head before the rest is written", () => {
    const { input } = countingInput(longTranscript(2));
    expect(() => streamJsonWriteHeadLast(input, {}).head()).toThrow(/before the rest/);
  });
});

// Broken head-last writers the law must catch.
/** Takes the init line's serial before the body's (the uuids shift). */
const serialFirst: HeadLastWriter = (input, options) => {
  const replaying = streamJsonWriteStream(input, options)[Symbol.iterator]();
  const first = replaying.next();
  const rest = (function* () {
    for (let next = replaying.next(); !next.done; next = replaying.next()) yield next.value;
  })();
  // The replaying writer's text, with the init line's uuid taken from serial 0.
  const head = () =>
    (first.value as string).replace(
      /"uuid":"[^"]*"/,
      `"uuid":"00000000-0000-4000-8000-000000000000"`,
    );
  return { rest, head };
};
describe("stream-json writer with its init line last: controls the law catches", () => {
  it("the real writer passes where the controls fail", () => {
    expect(sameWrite(withSubagent(), streamJsonWriteHeadLast)).toBe(true);
    expect(sameWrite(withSubagent(), serialFirst)).toBe(false);
  });
});
