// The streaming law for the OpenCode reader: reading an export line by line
// (opencodeReadStream: pass one checks what the whole parse checks and
// finds `info`, pass two reads each entry one behind) gives the text and
// the warnings of the whole path into OpenCode and Common, and refuses what
// the whole read refuses with the same error: for generated sessions and
// odd shapes, in 2-space and one-line layouts; for exports whose `info`
// follows the messages, that repeat `messages`, whose entries are not
// objects, and whose compaction's summary is the last entry; for the
// fixtures and real exports; for a file read in 7-byte slices; for broken
// JSON. It hands out a message before reading the lines after the next
// entry, and a control shows a broken reader the law catches.
import { type AnyHarness, commonHarness, type StreamReader, textLines } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import {
  countingLines,
  expectReplayReusesPassOne,
  expectSameInSlices,
  expectSamePaths,
  itReadsGeneratedSessions,
  lawParameters,
  sameRead,
  scratchDirectory,
  streamPaths,
} from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { opencodeHarness } from "./opencode-harness.js";
import { opencodeReadStream } from "./opencode-stream-read.js";
import { fixtureSamples } from "./test-support.js";

const scratch = scratchDirectory("txcript-opencode-stream-");
const targets: AnyHarness[] = [opencodeHarness, commonHarness];

function written(transcript: Parameters<typeof opencodeCodec.fromCommon>[0]): string {
  return opencodeCodec.serialize(opencodeCodec.fromCommon(transcript));
}

function relaid(text: string, layout: number): string {
  return JSON.stringify(JSON.parse(text), null, layout);
}

function expectSameEverywhere(text: string): void {
  for (const to of targets)
    expectSamePaths(text, opencodeHarness, to, {
      paths: streamPaths(opencodeHarness, to, (which) => which.read === "stream"),
    });
}

const info = {
  id: "ses_0001",
  title: "t",
  directory: "/w",
  version: "1.18.33",
  time: { created: 1_765_000_000_000, updated: 1_765_000_000_500 },
};
const user = (id: string, text: string, extra: object = {}) => ({
  info: { id, role: "user", time: { created: 1_765_000_000_100 }, sessionID: "ses_0001" },
  parts: [{ id: `prt_${id}`, type: "text", text, ...extra }],
});
const compaction = {
  info: { id: "msg_c", role: "user", time: { created: 1_765_000_000_200 } },
  parts: [{ id: "prt_c", type: "compaction", auto: true }],
};
const summary = {
  info: {
    id: "msg_s",
    role: "assistant",
    summary: true,
    time: { created: 1_765_000_000_300 },
    modelID: "m",
  },
  parts: [{ id: "prt_s", type: "text", text: "what happened } ] so far" }],
};

const oddExports: [string, string][] = [
  [
    "info after the messages",
    JSON.stringify({ messages: [user("msg_1", "hi"), compaction, summary], info }, null, 2),
  ],
  [
    "a compaction whose summary is the last entry, and one with none",
    JSON.stringify({ info, messages: [user("msg_1", "a"), compaction, summary, compaction] }),
  ],
  [
    "messages twice (the last counts)",
    `{"info":${JSON.stringify(info)},"messages":[${JSON.stringify(user("msg_x", "first"))}],"messages":[${JSON.stringify(user("msg_y", "second"))}]}`,
  ],
  [
    "an entry that is not an object, then one without parts",
    `{"info":${JSON.stringify(info)},"messages":[${JSON.stringify(user("msg_1", "a"))},{"info":{}},3]}`,
  ],
  ["no info", `{"messages":[]}`],
  ["info not an object", `{"info":[1],"messages":[]}`],
  ["messages not an array", `{"info":${JSON.stringify(info)},"messages":{}}`],
  ["no session id", `{"info":{"title":"x"},"messages":[]}`],
  [
    "synthetic context, an unknown role, and an empty export",
    `{"info":${JSON.stringify(info)},"messages":[${JSON.stringify(user("msg_1", "ctx", { synthetic: true }))},{"info":{"role":"system"},"parts":[]}]}`,
  ],
  ["not an object", "[1]"],
  [
    "a part nested too deeply to print (parsed, then refused as the whole parse refuses it)",
    `{"info":${JSON.stringify(info)},"messages":[{"info":{"role":"user"},"parts":[{"type":"text","x":${"[".repeat(6000)}${"]".repeat(6000)}}]}]}`,
  ],
  [
    "a part nested deeply but printable",
    `{"info":${JSON.stringify(info)},"messages":[{"info":{"role":"user"},"parts":[{"type":"text","text":"t","x":${"[".repeat(600)}${"]".repeat(600)}}]}]}`,
  ],
];

describe("opencode streaming reader: the law", () => {
  itReadsGeneratedSessions(written, expectSameEverywhere);

  it("generated sessions on one line: the same", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        expectSameEverywhere(relaid(written(transcript), 0));
      }),
      lawParameters(Math.min(40, lawParameters().numRuns ?? 40)),
    );
  });

  for (const [name, text] of oddExports)
    it(`odd export: ${name}`, () => {
      expectSameEverywhere(text);
    });

  it("the fixtures and the real exports (when present), as written and on one line: the same", () => {
    const samples = fixtureSamples();
    expect(samples.length).toBeGreaterThanOrEqual(2);
    for (const { text } of samples) {
      expectSameEverywhere(text);
      expectSameEverywhere(relaid(text, 0));
    }
  });

  it("a file read in 7-byte slices: the same", () => {
    for (const { text } of fixtureSamples().slice(0, 2))
      expectSameInSlices(
        text,
        opencodeHarness,
        commonHarness,
        { read: "stream", write: "whole" },
        { scratch, name: "export.json" },
      );
  });

  it("broken JSON is refused with the whole read's error", () => {
    for (const text of [
      `{"info":${JSON.stringify(info)},"messages":[{"info":{}`,
      `{"info":${JSON.stringify(info)} "messages":[]}`,
      `{"info":${JSON.stringify(info)},"messages":[]} x`,
      "",
    ])
      expectSameEverywhere(text);
  });
});

describe("opencode streaming reader: memory", () => {
  it("hands out the first messages before reading the lines of the third entry", () => {
    const messages = Array.from({ length: 300 }, (_, index) => user(`msg_${index}`, `q ${index}`));
    const text = JSON.stringify({ info, messages }, null, 2);
    const lines = countingLines(() => textLines(text));
    const iterator = opencodeReadStream(lines.source, {})[Symbol.iterator]();
    expect(iterator.next().value?.kind).toBe("meta");
    expect(lines.passes()).toEqual([text.split("\n").length]);
    expect(iterator.next().value?.kind).toBe("message");
    // Two entries of ~20 lines, after info's ~15.
    expect(lines.pass()).toBeLessThan(80);
  });

  it("a replay in one conversion reuses pass one: three walks, the same parts (control: four without the memo)", () => {
    const messages = Array.from({ length: 5 }, (_, index) => user(`msg_${index}`, `q ${index}`));
    const text = JSON.stringify({ info, messages }, null, 2);
    expectReplayReusesPassOne(opencodeReadStream, text);
  });
});

/** A reader that ignores the entry after a compaction (its summary is lost). */
const noLookahead: StreamReader = function* (lines, options) {
  const text = [...lines()].join("\n").replaceAll('"summary":true', '"summary":false');
  yield* opencodeReadStream(() => textLines(text), options);
};

describe("opencode streaming reader: controls the law catches", () => {
  it("a reader that reads a compaction's summary as a message of its own", () => {
    const text = oddExports[1]?.[1] as string;
    expect(sameRead(opencodeHarness, opencodeReadStream, text)).toBe(true);
    expect(sameRead(opencodeHarness, noLookahead, text)).toBe(false);
  });
});
