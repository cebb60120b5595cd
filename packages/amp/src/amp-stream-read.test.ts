// The streaming law for the Amp reader: reading a thread line by line
// (ampReadStream: pass one keeps the thread's other keys and the first
// model, pass two hands out each message) gives the text and the warnings
// of the whole path into Amp and Common (written whole and streamed), and
// refuses what the whole read refuses with the same error: for generated
// threads and odd shapes, in 2-space, tab-indented and one-line layouts,
// for threads whose keys follow their messages, repeat `messages`, hold
// `__proto__`, numbers a double cannot hold, strings full of brackets and
// quotes, messages that are not objects or roles Common has no place for,
// for the fixtures and the real export, and for a file read in 7-byte
// slices. It hands out a message before reading the lines after it, and
// controls show broken readers the law catches. Its meta part vouches
// `userToolCalls: false` only when no user message holds a tool call, and a
// replay in one conversion reads pass one's findings from the StreamMemo.
import {
  type AnyHarness,
  commonHarness,
  isUserToolCall,
  type StreamReader,
  TxcriptError,
  textLines,
} from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import {
  countingLines,
  expectReplayReusesPassOne,
  expectSameInSlices,
  expectSamePaths,
  itReadsGeneratedSessions,
  lawParameters,
  sameRead as sameReadOf,
  scratchDirectory,
  streamPaths,
} from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import { ampHarness } from "./amp-harness.js";
import { ampReadStream, walkThread } from "./amp-stream-read.js";
import { fixtureSamples } from "./test-support.js";

const scratch = scratchDirectory("txcript-amp-stream-");
const targets: AnyHarness[] = [ampHarness, commonHarness];

function written(transcript: Parameters<typeof ampCodec.fromCommon>[0]): string {
  return ampCodec.serialize(ampCodec.fromCommon(transcript));
}

/** The same document in another layout: one line, tabs, or 1-space indents. */
function relaid(text: string, layout: number | "\t"): string {
  return JSON.stringify(JSON.parse(text), null, layout);
}

function expectSameEverywhere(text: string): void {
  for (const to of targets)
    expectSamePaths(text, ampHarness, to, {
      paths: streamPaths(ampHarness, to, (which) => which.read === "stream"),
    });
}

function sameRead(text: string, reader: StreamReader = ampReadStream): boolean {
  return sameReadOf(ampHarness, reader, text);
}

const at = "2026-12-06T00:00:00.000Z";
const prompt = { role: "user", messageId: 0, meta: { sentAt: 1_765_000_000_000 }, content: "hi" };
const answer = (model: string) => ({
  role: "assistant",
  messageId: 1,
  content: [{ type: "text", text: 'brackets } ] { [ and "quotes" \\" inside' }],
  state: { type: "complete", stopReason: "end_turn" },
  usage: { model, timestamp: at, inputTokens: 3, outputTokens: 4 },
});

/** Odd threads, as texts: each a case the whole read handles in its own way. */
const oddThreads: [string, string][] = [
  [
    "keys after the messages",
    JSON.stringify(
      { messages: [prompt, answer("m-1")], title: "late", created: 1_765_000_000_000, id: "T-x" },
      null,
      2,
    ),
  ],
  [
    "messages twice (the last counts)",
    `{"v":1,"id":"T-x","created":1765000000000,"messages":[${JSON.stringify(answer("first"))}],"title":"t","messages":[${JSON.stringify(prompt)},${JSON.stringify(answer("second"))}]}`,
  ],
  [
    "messages twice, the last not an array",
    `{"id":"T-x","created":1765000000000,"messages":[${JSON.stringify(prompt)}],"messages":3}`,
  ],
  [
    "messages not an array, then an array",
    `{"id":"T-x","created":1765000000000,"messages":{"a":[1]},"messages":[${JSON.stringify(prompt)}]}`,
  ],
  [
    "a __proto__ key",
    `{"id":"T-x","created":1765000000000,"__proto__":{"polluted":true},"messages":[${JSON.stringify(prompt)}]}`,
  ],
  [
    "numbers a double cannot hold, in the thread and a message",
    `{"id":"T-x","created":1765000000000,"big":12345678901234567890,"messages":[{"role":"user","content":"x","n":[1,98765432109876543210]}]}`,
  ],
  [
    "a message that is not an object",
    `{"id":"T-x","created":1765000000000,"messages":[${JSON.stringify(prompt)},"text",4]}`,
  ],
  ["no messages key", `{"id":"T-x","created":1765000000000}`],
  ["an empty thread object", "{}"],
  ["an empty messages array", `{"id":"T-x","created":1765000000000,"messages":[ ]}`],
  ["no id", `{"created":1765000000000,"messages":[]}`],
  [
    "roles Common has no place for, and scalars between",
    `{"id":"T-x","created":1765000000000,"messages":[{"role":"info","content":[]},${JSON.stringify(prompt)},{"role":"parent"}],"n":null,"b":true,"s":"]"}`,
  ],
  ["not an object", "[1, 2]"],
  ["a top-level string", '"T-x"'],
];

describe("amp streaming reader: the law", () => {
  itReadsGeneratedSessions(written, expectSameEverywhere);

  it("generated threads in other layouts (one line, tabs, 1-space): the same", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), fc.constantFrom(0, 1, "\t" as const), (t, layout) => {
        expectSameEverywhere(relaid(written(t), layout));
      }),
      lawParameters(Math.min(60, lawParameters().numRuns ?? 60)),
    );
  });

  for (const [name, text] of oddThreads)
    it(`odd thread: ${name}`, () => {
      expectSameEverywhere(text);
      expectSameEverywhere(relaid(text, 2));
    });

  it("the fixtures and the real export (when present), 2-space and on one line: the same", () => {
    const samples = fixtureSamples();
    expect(samples.length).toBeGreaterThan(3);
    for (const { text } of samples) {
      expectSameEverywhere(text);
      expectSameEverywhere(relaid(text, 0));
    }
  });

  it("a file read in 7-byte slices: the same", () => {
    for (const { text } of fixtureSamples().slice(0, 4))
      expectSameInSlices(
        text,
        ampHarness,
        commonHarness,
        { read: "stream", write: "whole" },
        {
          scratch,
          name: "thread.json",
        },
      );
  });

  it("broken JSON is refused with the whole read's error", () => {
    for (const text of [
      '{"id":"T-x","created":1,"messages":[{"role":"user"}',
      '{"id":"T-x" "created":1}',
      '{"id":"T-x","created":1,"messages":[{"role":"user",}]}',
      '{"id":"T-x","created":1,"messages":[]} trailing',
      '{"id":"T-x","created":1,}',
      '{"id":"T-x,"created":1}',
      '{"id":"T-x\n","created":1}',
      '{"id" 1}',
      '{"id":"T-x","created":1,"messages":[1 2]}',
      "\uFEFF{}",
      "xyz",
      "",
      "{",
    ]) {
      expect(() => ampCodec.parse(text), text).toThrow(TxcriptError);
      expectSameEverywhere(text);
    }
  });
});

describe("amp streaming reader: the walk", () => {
  it("hands out each message's text as it stands, and the thread's other keys", () => {
    const text = relaid(oddThreads[0]?.[1] as string, 2);
    const events = [...walkThread(textLines(text))];
    expect(events.map((event) => event.kind)).toEqual([
      "array",
      "element",
      "element",
      "key",
      "key",
      "key",
    ]);
    const [, first] = events;
    expect(first?.kind === "element" && JSON.parse(first.text)).toEqual(prompt);
  });

  it("hands out the first message before reading the lines after it (pass two)", () => {
    const thread = {
      v: 1,
      id: "T-lazy",
      created: 1_765_000_000_000,
      messages: Array.from({ length: 400 }, (_, index) => ({ ...prompt, messageId: index })),
    };
    const text = JSON.stringify(thread, null, 2);
    const lines = countingLines(() => textLines(text));
    const iterator = ampReadStream(lines.source, {})[Symbol.iterator]();
    expect(iterator.next().value?.kind).toBe("meta");
    const total = text.split("\n").length;
    expect(lines.passes()).toEqual([total]);
    expect(iterator.next().value?.kind).toBe("message");
    // The first message's lines and a few around it, not the rest.
    expect(lines.pass()).toBeLessThan(40);
  });
});

// Broken readers the law must catch.
/** Takes the first `messages` array when the key repeats (JSON.parse keeps the last). */
const firstArray: StreamReader = function* (lines, options) {
  let seen = 0;
  const text = [...lines()].join("\n").replace(/"messages":/g, () => {
    seen += 1;
    return seen === 1 ? '"messages":' : '"ignored":';
  });
  yield* ampReadStream(() => textLines(text), options);
};
/** Leaves out the warning for numbers a double cannot hold. */
const noInexact: StreamReader = (lines, options) =>
  ampReadStream(lines, {
    onWarning: (warning) => {
      if (warning.code !== "amp.inexact-number") options.onWarning?.(warning);
    },
  });

describe("amp streaming reader: controls the law catches", () => {
  it("a reader that takes the first of two `messages` arrays", () => {
    const text = oddThreads[1]?.[1] as string;
    expect(sameRead(text, firstArray)).toBe(false);
    expect(sameRead(text)).toBe(true);
  });
  it("a reader that drops the inexact-number warning", () => {
    const text = oddThreads[5]?.[1] as string;
    expect(sameRead(text, noInexact)).toBe(false);
    expect(sameRead(text)).toBe(true);
  });
});

describe("amp streaming reader: pass one's findings", () => {
  const call = { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } };
  const userCall = { role: "user", messageId: 2, content: [{ type: "text", text: "x" }, call] };
  const thread = (...messages: unknown[]) =>
    JSON.stringify({ v: 1, id: "T-x", created: 1_765_000_000_000, messages }, null, 2);

  function vouched(text: string): boolean | undefined {
    const [first] = ampReadStream(() => textLines(text), {});
    return first?.kind === "meta" ? first.userToolCalls : undefined;
  }
  /** Whether the whole read's Common messages hold a user message with a tool call. */
  function wholeHasUserCall(text: string): boolean {
    return ampCodec.toCommon(ampCodec.parse(text)).messages.some(isUserToolCall);
  }

  it("the meta part says whether a user message holds a tool call: the whole read's answer", () => {
    expect(vouched(thread(prompt, answer("m")))).toBe(false);
    expect(vouched(thread(prompt, answer("m"), userCall))).toBe(true);
    // A tool_use in an assistant message is no user tool call.
    expect(vouched(thread(prompt, { ...answer("m"), content: [call] }))).toBe(false);
    // Only the last `messages` array counts, as in the whole read.
    const twice = `{"id":"T-x","created":1765000000000,"messages":[${JSON.stringify(userCall)}],"messages":[${JSON.stringify(prompt)}]}`;
    expect(vouched(twice)).toBe(false);
    expect(wholeHasUserCall(twice)).toBe(false);
    const twiceOther = `{"id":"T-x","created":1765000000000,"messages":[${JSON.stringify(prompt)}],"messages":[${JSON.stringify(userCall)}]}`;
    expect(vouched(twiceOther)).toBe(true);
    for (const [, text] of oddThreads) {
      let whole: boolean;
      try {
        whole = wholeHasUserCall(text);
      } catch {
        continue;
      }
      expect(vouched(text)).toBe(whole);
    }
  });

  it("generated threads, some with a user tool call spliced in: false only when the whole read has none", () => {
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(transcriptArbitrary(), fc.boolean(), (transcript, splice) => {
        const document = JSON.parse(written(transcript));
        if (splice) document.messages.push(userCall);
        const text = JSON.stringify(document, null, 2);
        const whole = wholeHasUserCall(text);
        seen.add(whole);
        expect(vouched(text)).toBe(whole);
      }),
      lawParameters(),
    );
    expect([...seen].sort()).toEqual([false, true]);
  });

  it("a replay in one conversion reuses pass one: three walks, the same parts (control: four without the memo)", () => {
    const text = thread(prompt, answer("m-1"), userCall, answer("m-2"));
    expectReplayReusesPassOne(ampReadStream, text);
  });
});
