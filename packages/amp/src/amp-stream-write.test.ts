// The streaming law for the Amp writer: writing a transcript's parts one
// message at a time (ampWriteStream) gives the text and the warnings of the
// whole write, serialize(fromCommon(t)), for generated transcripts (with
// subagents, which Amp drops, and odd shapes), for every fixture's Common
// document and the Amp fixtures read back, in both tool eras; it reads the
// parts once plus one replay, and writes a message before it reads the
// next. Controls: broken writers the law catches.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { CodecOptions, StreamWriter, Transcript } from "@txcript/core";
import {
  collectingWriter,
  countingInput,
  describeWriterControls,
  droppingSubagents as dropsSubagents,
  expectOrderRefused,
  fixtureCommonDocuments,
  ignoringOptions as ignoresOptions,
  itWritesGeneratedSessions,
  longTranscript,
  sameWrite as sameWriteOf,
  streamWrite,
  wholeWrite,
} from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { ampHarness } from "./amp-harness.js";
import { ampWriteStream } from "./amp-stream-write.js";
import { fixtureSamples, repoRoot } from "./test-support.js";

/** The modern era: the era option must reach the writer (the default is legacy). */
const modern = { toolEra: "modern" } as CodecOptions;

function sameWrite(transcript: Transcript, writer: StreamWriter = ampWriteStream): boolean {
  return sameWriteOf(ampHarness, writer, transcript, modern);
}

function expectSameWrite(transcript: Transcript, options: CodecOptions = {}): void {
  for (const given of [options, { ...modern, ...options }])
    expect(streamWrite(ampWriteStream, transcript, given)).toEqual(
      wholeWrite(ampHarness, transcript, given),
    );
}

// Broken writers the law must catch.
/** Leaves the subagents out (no warning for them): text the same, warnings not. */
const droppingSubagents = dropsSubagents(ampWriteStream);
/** Ignores the write options (the tool era). */
const ignoringOptions = ignoresOptions(ampWriteStream);
/** Holds the whole transcript before writing (the text is right; memory is not). */
const collecting = collectingWriter(ampHarness);
/** Gives the warnings in another order (the ill-formed cwd's first, as a naive writer would). */
const warningsFirst: StreamWriter = (input, options) => {
  const held: Parameters<NonNullable<CodecOptions["onWarning"]>>[0][] = [];
  const pieces = [...ampWriteStream(input, { ...options, onWarning: (w) => held.push(w) })];
  held.sort((a, b) => a.code.localeCompare(b.code));
  for (const warning of held) options.onWarning?.(warning);
  return pieces;
};

describe("amp streaming writer: the law", () => {
  itWritesGeneratedSessions(expectSameWrite, {
    commonDocuments: { files: fixtureCommonDocuments(repoRoot), atLeast: 5 },
  });

  it("the Amp fixtures (and the real export when present), read whole: the same", () => {
    const samples = fixtureSamples();
    expect(samples.length).toBeGreaterThan(3);
    for (const { name, text } of samples) {
      const transcript = ampCodec.toCommon(ampCodec.parse(text));
      const whole = wholeWrite(ampHarness, transcript, {});
      expect(streamWrite(ampWriteStream, transcript, {}), name).toEqual(whole);
    }
  });

  it("a thread with no messages, and one with subagents only, are written as the whole write", () => {
    const meta = { id: "T-empty", timestamp: "2026-12-06T00:00:00.000Z", cwd: "/a\uD800b" };
    const empty: Transcript = { meta, messages: [] };
    expectSameWrite(empty);
    const helper = { id: "sub-1", messages: longTranscript(2).messages };
    expectSameWrite({ ...empty, subagents: [helper, { ...helper, id: "sub-2" }] });
    expect(streamWrite(ampWriteStream, empty, {}).text).toContain('"messages": []');
  });

  it("an input whose parts are out of order is refused as the whole path refuses it", () => {
    expectOrderRefused(ampWriteStream);
  });

  it("the document is the whole write's byte for byte: 2-space JSON, no final newline", () => {
    const transcript = longTranscript(3);
    const { text } = streamWrite(ampWriteStream, transcript, {});
    expect(text.endsWith("}")).toBe(true);
    expect(JSON.stringify(JSON.parse(text), null, 2)).toBe(text);
  });
});

it("the tool era reaches the writer (control: a writer that ignores the write options)", () => {
  const at = "2026-12-06T00:00:00.000Z";
  const transcript: Transcript = {
    meta: { id: "T-era", timestamp: at },
    messages: [
      {
        role: "assistant",
        timestamp: at,
        stopReason: "tool_use",
        content: [
          { type: "tool_use", id: "call-1", tool: { name: "Bash", input: { command: "ls" } } },
        ],
      },
    ],
  };
  expect(sameWrite(transcript)).toBe(true);
  const whole = wholeWrite(ampHarness, transcript, modern);
  expect(whole.text).not.toEqual(wholeWrite(ampHarness, transcript, {}).text);
  expect(streamWrite(ampWriteStream, transcript, modern)).toEqual(whole);
  expect(sameWrite(transcript, ignoringOptions)).toBe(false);
});

describe("amp streaming writer: memory", () => {
  it("reads the parts once after one replay, and writes each message before reading the next", () => {
    const { input, read, replays } = countingInput(longTranscript(2000));
    const iterator = ampWriteStream(input, {})[Symbol.iterator]();
    const head = iterator.next(); // the keys before the messages
    expect(head.value).toContain('"nextMessageId": 2000');
    expect(replays()).toBe(1);
    const afterReplay = read();
    for (let message = 1; message <= 100; message += 1) {
      iterator.next();
      expect(read() - afterReplay).toBeLessThanOrEqual(message);
    }
    expect(replays()).toBe(1);
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
  label: "amp streaming writer",
  real: ampWriteStream,
  controls: [
    ["drops the subagents (a warning missing)", droppingSubagents],
    ["gives the warnings in another order", warningsFirst],
  ],
  same: sameWrite,
});

it("the harness streams its writes (the CLI's streaming path takes Amp as a target)", () => {
  expect(ampHarness.writeStream).toBe(ampWriteStream);
  expect(readFileSync(path.join(repoRoot, "docs/formats/amp.md"), "utf8")).toContain(
    "ampWriteStream",
  );
});
