// The law for the Amp writer with its head last (ampWriteHeadLast, core's
// HeadLastWriter): `head()` then `rest` is the whole write's text,
// serializeAmpThread(commonToAmp(t)), with its warnings in its order, for
// generated transcripts (with subagents, which Amp drops, and odd shapes),
// every fixture's Common document and the Amp fixtures read back, in both
// tool eras, and for a thread with no messages. It reads the parts once and
// never replays. Control: a head-last writer that gives the messages'
// warnings as they come, before the write's first ones.
import type { CodecOptions, HeadLastWriter, Transcript, Warning } from "@txcript/core";
import {
  countingInput,
  fixtureCommonDocuments,
  headFirst,
  itWritesGeneratedSessions,
  longTranscript,
  streamWrite,
  wholeWrite,
} from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { ampHarness } from "./amp-harness.js";
import { ampWriteHeadLast } from "./amp-stream-write.js";
import { fixtureSamples, repoRoot } from "./test-support.js";

/** The modern era: the era option must reach the writer (the default is legacy). */
const modern = { toolEra: "modern" } as CodecOptions;

function sameWrite(transcript: Transcript, write: HeadLastWriter): boolean {
  return [{}, modern].every(
    (options) =>
      JSON.stringify(streamWrite(headFirst(write), transcript, options)) ===
      JSON.stringify(wholeWrite(ampHarness, transcript, options)),
  );
}

function expectSameWrite(transcript: Transcript): void {
  for (const options of [{}, modern])
    expect(streamWrite(headFirst(ampWriteHeadLast), transcript, options)).toEqual(
      wholeWrite(ampHarness, transcript, options),
    );
}

const at = "2026-12-06T00:00:00.000Z";
/**
 * A thread whose write warns first about the thread (an id Amp cannot take, Meta.model not the
 * first turn's, a subagent) and then about its messages (a thinking block's signature on a user
 * turn is dropped, say): the order the law holds a head-last writer to.
 */
const warned: Transcript = {
  meta: { id: "not-an-amp-id", timestamp: at, model: "other-model", cwd: "/a\uD800b" },
  messages: [
    { role: "user", timestamp: at, content: [{ type: "text", text: "hi" }] },
    {
      role: "assistant",
      timestamp: at,
      model: "first-model",
      stopReason: "tool_use",
      usage: {
        inputTokens: 3,
        outputTokens: 4,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        reasoningOutputTokens: 9,
        costUsd: 0.5,
      },
      content: [
        { type: "thinking", text: "t", signature: "s", provider: "p", encrypted: "e" },
        { type: "tool_use", id: "call-1", tool: { name: "Bash", input: { command: "ls" } } },
      ],
    },
  ],
  subagents: [{ id: "sub-1", messages: longTranscript(2).messages }],
};

describe("amp writer with its head last: the law", () => {
  itWritesGeneratedSessions(expectSameWrite, {
    commonDocuments: { files: fixtureCommonDocuments(repoRoot), atLeast: 5 },
  });

  it("the Amp fixtures (and the real export when present), read whole: the same", () => {
    const samples = fixtureSamples();
    expect(samples.length).toBeGreaterThan(3);
    for (const { name, text } of samples) {
      const transcript = ampCodec.toCommon(ampCodec.parse(text));
      expect(streamWrite(headFirst(ampWriteHeadLast), transcript, {}), name).toEqual(
        wholeWrite(ampHarness, transcript, {}),
      );
    }
  });

  it("a thread with no messages (the head is the whole document), and one with subagents only", () => {
    const meta = { id: "T-empty", timestamp: at, cwd: "/a\uD800b" };
    const empty: Transcript = { meta, messages: [] };
    expectSameWrite(empty);
    const helper = { id: "sub-1", messages: longTranscript(2).messages };
    expectSameWrite({ ...empty, subagents: [helper, { ...helper, id: "sub-2" }] });
  });

  it("warnings about the thread and its messages: the whole write's, in its order", () => {
    const codes = wholeWrite(ampHarness, warned, {}).warnings.map((warning) => warning.code);
    // The thread's warnings come before the messages' in the whole write, and both kinds occur.
    expect(codes.indexOf("amp.thread-id")).toBe(0);
    expect(codes.length).toBeGreaterThan(3);
    expectSameWrite(warned);
  });
});

describe("amp writer with its head last: reads once", () => {
  it("never replays, and writes each message having read only the messages up to it", () => {
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
  });

  it("refuses to give the head before the rest is written", () => {
    const { input } = countingInput(longTranscript(2));
    expect(() => ampWriteHeadLast(input, {}).head()).toThrow(/before the rest/);
  });
});

/** Gives each warning as it comes: the messages' before the thread's, where the whole write has them after. */
const unheld: HeadLastWriter = (input, options) => {
  const given: Warning[] = [];
  const written = ampWriteHeadLast(input, { ...options, onWarning: (w) => given.push(w) });
  const messagesFirst = (warnings: Warning[]) => [
    ...warnings.filter((w) => !w.code.startsWith("amp.thread-id")),
    ...warnings.filter((w) => w.code.startsWith("amp.thread-id")),
  ];
  return {
    rest: (function* () {
      yield* written.rest;
      for (const warning of messagesFirst(given)) options.onWarning?.(warning);
    })(),
    head: () => written.head(),
  };
};

describe("amp writer with its head last: controls the law catches", () => {
  it("the real writer passes where a writer giving the thread's warnings late fails", () => {
    expect(sameWrite(warned, ampWriteHeadLast)).toBe(true);
    expect(sameWrite(warned, unheld)).toBe(false);
  });
});
