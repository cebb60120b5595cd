// The streaming law for the Amp writer: writing a transcript's parts one
// message at a time (ampWriteStream) gives the text and the warnings of the
// whole write, serialize(fromCommon(t)), for generated transcripts (with
// subagents, which Amp drops, and odd shapes), for every fixture's Common
// document and the Amp fixtures read back, in both tool eras; it reads the
// parts once plus one replay, and writes a message before it reads the
// next. The same law holds the head-last writer (ampWriteHeadLast: each
// message and the tail as read, the head given last; core testing's
// headFirst puts it first), which never replays and must still give the
// thread's warnings before the messages'. Controls: broken writers the
// law catches.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { CodecOptions, StreamWriter, Transcript, Warning } from "@txcript/core";
import {
  collectingWriter,
  countingInput,
  describeWriterControls,
  droppingSubagents as dropsSubagents,
  expectOrderRefused,
  fixtureCommonDocuments,
  headFirst,
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
import { ampWriteHeadLast, ampWriteStream } from "./amp-stream-write.js";
import { fixtureSamples, repoRoot } from "./test-support.js";

/** The modern era: the era option must reach the writer (the default is legacy). */
const modern = { toolEra: "modern" } as CodecOptions;

function sameWrite(transcript: Transcript, writer: StreamWriter = ampWriteStream): boolean {
  return sameWriteOf(ampHarness, writer, transcript, modern);
}

function expectSameWrite(
  transcript: Transcript,
  options: CodecOptions = {},
  writer: StreamWriter = ampWriteStream,
): void {
  for (const given of [options, { ...modern, ...options }])
    expect(streamWrite(writer, transcript, given)).toEqual(
      wholeWrite(ampHarness, transcript, given),
    );
}

/** Both streaming writers: the one that replays, and the head-last one (its rest, then its head first). */
const writers: [string, StreamWriter][] = [
  ["ampWriteStream", ampWriteStream],
  ["ampWriteHeadLast", headFirst(ampWriteHeadLast)],
];

const at = "2026-12-06T00:00:00.000Z";
/**
 * A thread whose write warns first about the thread (an id Amp cannot take, Meta.model not the
 * first turn's, a subagent), then about its messages (usage Amp cannot carry), then its cwd: the
 * order a head-last writer must keep though it knows the thread's facts last.
 */
const warned: Transcript = {
  meta: { id: "not-an-amp-id", timestamp: at, model: "other-model", cwd: "/a\uD800b" },
  messages: [
    { role: "user", timestamp: at, content: [{ type: "text", text: "hi" }] },
    {
      role: "assistant",
      timestamp: at,
      model: "first-model",
      stopReason: "end_turn",
      usage: {
        inputTokens: 3,
        outputTokens: 4,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        reasoningOutputTokens: 9,
      },
      content: [{ type: "text", text: "ok" }],
    },
  ],
  subagents: [{ id: "sub-1", messages: longTranscript(2).messages }],
};

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

for (const [label, writer] of writers)
  describe(`amp streaming writer (${label}): the law`, () => {
    itWritesGeneratedSessions((transcript) => expectSameWrite(transcript, {}, writer), {
      commonDocuments: { files: fixtureCommonDocuments(repoRoot), atLeast: 5 },
    });

    it("the Amp fixtures (and the real export when present), read whole: the same", () => {
      const samples = fixtureSamples();
      expect(samples.length).toBeGreaterThan(3);
      for (const { name, text } of samples) {
        const transcript = ampCodec.toCommon(ampCodec.parse(text));
        const whole = wholeWrite(ampHarness, transcript, {});
        expect(streamWrite(writer, transcript, {}), name).toEqual(whole);
      }
    });

    it("a thread with no messages, and one with subagents only, are written as the whole write", () => {
      const meta = { id: "T-empty", timestamp: "2026-12-06T00:00:00.000Z", cwd: "/a\uD800b" };
      const empty: Transcript = { meta, messages: [] };
      expectSameWrite(empty, {}, writer);
      const helper = { id: "sub-1", messages: longTranscript(2).messages };
      expectSameWrite({ ...empty, subagents: [helper, { ...helper, id: "sub-2" }] }, {}, writer);
      expect(streamWrite(writer, empty, {}).text).toContain('"messages": []');
    });

    it("warnings about the thread and its messages: the whole write's, in its order", () => {
      const codes = wholeWrite(ampHarness, warned, {}).warnings.map((warning) => warning.code);
      // The thread's warnings come before the messages' in the whole write.
      expect(codes).toEqual([
        "amp.thread-id",
        "amp.meta-model",
        "amp.subagents",
        "amp.usage-extras",
        "amp.ill-formed-cwd",
      ]);
      expectSameWrite(warned, {}, writer);
    });

    it("an input whose parts are out of order is refused as the whole path refuses it", () => {
      expectOrderRefused(writer);
    });

    it("the document is the whole write's byte for byte: 2-space JSON, no final newline", () => {
      const transcript = longTranscript(3);
      const { text } = streamWrite(writer, transcript, {});
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

  it("with its head last: never replays, and writes each message having read only those up to it", () => {
    const { input, read, replays } = countingInput(longTranscript(2000));
    const written = ampWriteHeadLast(input, {});
    const iterator = written.rest[Symbol.iterator]();
    for (let message = 1; message <= 100; message += 1) {
      iterator.next();
      expect(read()).toBeLessThanOrEqual(message);
    }
    for (let next = iterator.next(); !next.done; next = iterator.next());
    expect(written.head()).toContain('"nextMessageId": 2000');
    expect(replays()).toBe(0);
    // Asked for before the rest is written, the head is refused.
    expect(() => ampWriteHeadLast(countingInput(longTranscript(2)).input, {}).head()).toThrow(
      /before the rest/,
    );
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

/** The head-last writer giving the thread's warnings after the messages' (as if it did not hold those). */
const unheld: StreamWriter = (input, options) => {
  const given: Warning[] = [];
  const text = [
    ...headFirst(ampWriteHeadLast)(input, { ...options, onWarning: (w) => given.push(w) }),
  ];
  const thread = ["amp.thread-id", "amp.meta-model", "amp.subagents"];
  for (const warning of [
    ...given.filter((w) => !thread.includes(w.code)),
    ...given.filter((w) => thread.includes(w.code)),
  ])
    options.onWarning?.(warning);
  return text;
};

it("control: the head-last writer giving the thread's warnings late fails the law", () => {
  expect(sameWrite(warned, headFirst(ampWriteHeadLast))).toBe(true);
  expect(sameWrite(warned, unheld)).toBe(false);
});

it("the harness streams its writes (the CLI's streaming path takes Amp as a target)", () => {
  expect(ampHarness.writeStream).toBe(ampWriteStream);
  expect(ampHarness.writeStreamHeadLast).toBe(ampWriteHeadLast);
  expect(readFileSync(path.join(repoRoot, "docs/formats/amp.md"), "utf8")).toContain(
    "ampWriteStream",
  );
});
