// The streaming law for stream-json: reading a capture line by line gives
// the text and the warnings of the whole path, serialize(fromCommon(
// toCommon(parse(text)))), for generated captures of both dialects (and
// odd shapes), for captures spliced from the fixtures' and real captures'
// lines in any order (repeated uuids, split messages, several sessions,
// subagents, bad lines), for hand-made odd inputs, for the fixtures and the
// real captures, and for a file read in small slices; into stream_json
// also through the stream writer (stream-json-stream-write.ts). The one
// input that reads otherwise (a bad last line followed by a newline) is
// pinned here.
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  type AnyHarness,
  type CodecOptions,
  commonHarness,
  commonWriteStream,
  convertStreamed,
  convertWhole,
  type LineSource,
  readFileLines,
  type StreamPart,
  type StreamReader,
  type StreamWriter,
  streamConvert,
  streamMemoOption,
  type Transcript,
  textLines,
} from "@txcript/core";
import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import {
  countingLines,
  expectSamePaths as expectSamePathsOf,
  lawParameters,
  scratchDirectory,
  sessionFiles,
  wholeOrRefusal,
} from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fixtureReadOptions as fixtureOptions,
  fixturesDirectory,
  realDirectory,
} from "./fixtures-support.js";
import { streamJsonCodec } from "./stream-json-codec.js";
import { streamJsonHarness } from "./stream-json-harness.js";
import { streamJsonReadStream } from "./stream-json-stream.js";

const fixtureReadOptions: CodecOptions = { ...fixtureOptions };

const scratch = scratchDirectory("txcript-stream-json-stream-");

type Dialect = "claude" | "amp";
const dialects: Dialect[] = ["claude", "amp"];

/** Every target a capture is converted to in the law: stream_json in both dialects, Common. */
const targets: { to: AnyHarness; write: CodecOptions }[] = [
  { to: streamJsonHarness, write: { dialect: "claude" } },
  { to: streamJsonHarness, write: { dialect: "amp" } },
  { to: commonHarness, write: {} },
];

/** The Common document through core's commonWriteStream (what the CLI streams into). */
function commonStreamed(text: string, read: CodecOptions, lines?: LineSource) {
  const result = streamConvert(
    lines ?? (() => textLines(text)),
    streamJsonReadStream,
    commonWriteStream,
    { read },
  );
  return { text: [...result.chunks].join(""), warnings: result.warnings() };
}

/** The stream read, required equal to the whole read, to every target (and the Common stream write). */
function expectSamePaths(text: string, read: CodecOptions = fixtureReadOptions): void {
  for (const { to, write } of targets) {
    // The stream writer too, where there is one (stream-json-stream-write.ts), after either read.
    expectSamePathsOf(text, streamJsonHarness, to, { read, write, label: { write } });
    if (to !== commonHarness) continue;
    const whole = wholeOrRefusal(text, streamJsonHarness, to, { read, write });
    if (whole instanceof Error) expect(() => commonStreamed(text, read)).toThrow(whole.message);
    else expect(commonStreamed(text, read)).toEqual(whole);
  }
}

function written(transcript: Transcript, dialect: Dialect): string {
  return streamJsonCodec.serialize(streamJsonCodec.fromCommon(transcript, { dialect }));
}

const fixtures = sessionFiles(fixturesDirectory);
const real = sessionFiles(realDirectory).filter((file) =>
  streamJsonCodec.detect(readFileSync(file, "utf8")),
);
if (real.length === 0)
  console.warn(`stream-json streaming law runs without real captures: ${realDirectory} is absent`);

/** Each fixture's and real capture's lines (short ones), to splice in any order. */
const sourceLines = [...fixtures, ...real].map((file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "" && line.length < 20_000),
);
const anyLine = sourceLines.flat();

/** Whether a last line would be a cut-off write without a final newline: "{…", not JSON. */
function cutOffCandidate(line: string | undefined): boolean {
  if (line === undefined || !line.trimStart().startsWith("{")) return false;
  try {
    JSON.parse(line);
    return false;
  } catch {
    return true;
  }
}

const init = (session: string, extra = "") =>
  `{"type":"system","subtype":"init","session_id":"${session}"${extra}}`;
const assistant = (session: string, id: string, text: string, extra = "") =>
  `{"type":"assistant","session_id":"${session}","message":{"id":"${id}","model":"m-${id}","content":[{"type":"text","text":"${text}"}]}${extra}}`;
const user = (session: string, text: string, extra = "") =>
  `{"type":"user","session_id":"${session}","message":{"role":"user","content":"${text}"}${extra}}`;

/** Hand-made captures at the edges of what the reader decides. */
const oddInputs: Record<string, string> = {
  empty: "",
  blank: "\n\n  \n",
  "no session": '{"type":"result"}\n',
  "a split message across a tool result": [
    init("s"),
    assistant("s", "a", "one"),
    user("s", "between"),
    assistant("s", "a", "two"),
    assistant("s", "b", "three"),
    "",
  ].join("\n"),
  "the model only on a later message": [
    init("s").replace("}", ',"cwd":"/x"}').replace(',"session_id"', ',"session_id"'),
    user("s", "hi"),
    `{"type":"assistant","session_id":"s","message":{"content":[]}}`,
    assistant("s", "z", "late"),
  ].join("\n"),
  "no init, the first message's timestamp": [
    user("s", "hi", ',"timestamp":"2026-03-01T00:00:00Z"'),
    assistant("s", "a", "x"),
    "",
  ].join("\n"),
  "two sessions": [init("s"), user("s", "a"), user("t", "b"), ""].join("\n"),
  "a repeated uuid": [
    init("s", ',"uuid":"u1"'),
    user("s", "a", ',"uuid":"u2"'),
    user("s", "b", ',"uuid":"u2"'),
    "",
  ].join("\n"),
  "a line toCommon refuses before a line that is not JSON": [
    init("s"),
    '{"type":"user","session_id":"s"}',
    "{not json",
    user("s", "after"),
  ].join("\n"),
  "a line toCommon refuses before another session": [
    init("s"),
    '{"type":"assistant","session_id":"s","message":{"content":"no"}}',
    user("t", "other"),
    "",
  ].join("\n"),
  "a bad line in the middle": [init("s"), "{cut", user("s", "x"), ""].join("\n"),
  "a JSON line that is not an object": [init("s"), "[1]", ""].join("\n"),
  "a cut-off last line": [init("s"), user("s", "x"), '{"type":"user","mess'].join("\n"),
  "a cut-off last line that is all there is": '{"type":"sys',
  "subagents, nested, the call late": [
    init("s"),
    `{"type":"assistant","session_id":"s","parent_tool_use_id":"call-1","message":{"id":"k","content":[{"type":"tool_use","id":"call-2","name":"Task","input":{}}]}}`,
    `{"type":"user","session_id":"s","parent_tool_use_id":"call-2","message":{"content":"deep"}}`,
    `{"type":"assistant","session_id":"s","message":{"id":"m","content":[{"type":"tool_use","id":"call-1","name":"Task","input":{}}]}}`,
    user("s", "done"),
    "",
  ].join("\n"),
  "a subagent's call in the main conversation and in another subagent": [
    init("s"),
    `{"type":"assistant","session_id":"s","message":{"id":"m","content":[{"type":"tool_use","id":"call-1","name":"Task","input":{}}]}}`,
    `{"type":"assistant","session_id":"s","parent_tool_use_id":"call-1","message":{"id":"k","content":[{"type":"tool_use","id":"call-2","name":"Task","input":{}}]}}`,
    `{"type":"user","session_id":"s","parent_tool_use_id":"call-2","message":{"content":"top level"}}`,
    `{"type":"assistant","session_id":"s","message":{"id":"n","content":[{"type":"tool_use","id":"call-2","name":"Task","input":{}}]}}`,
    "",
  ].join("\n"),
};

describe("stream-json streaming law", () => {
  it("generated captures of both dialects: stream and whole reads give the same text and warnings", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), fc.constantFrom(...dialects), (transcript, dialect) => {
        expectSamePaths(written(transcript, dialect));
      }),
      lawParameters(Math.min(300, lawParameters().numRuns ?? 300)),
    );
  });

  it("odd shapes: the same", () => {
    fc.assert(
      fc.property(oddShapesArbitrary(), fc.constantFrom(...dialects), (transcript, dialect) => {
        expectSamePaths(written(transcript, dialect));
      }),
      lawParameters(Math.min(300, lawParameters().numRuns ?? 300)),
    );
  });

  it("captures spliced from the fixtures' and real captures' lines, in any order: the same", () => {
    expect(anyLine.length).toBeGreaterThan(40);
    // Mostly one capture's lines (one session), now and then a line of another or an odd one.
    const body = fc
      .constantFrom(...sourceLines)
      .chain((own) =>
        fc.array(
          fc.oneof(
            { weight: 8, arbitrary: fc.constantFrom(...own) },
            { weight: 1, arbitrary: fc.constantFrom(...anyLine) },
            { weight: 1, arbitrary: fc.constantFrom("", "  ", "[1]", "{}", "{cut", "\r") },
          ),
          { maxLength: 30 },
        ),
      );
    fc.assert(
      fc.property(
        body,
        fc.boolean(),
        fc.constantFrom<CodecOptions>(fixtureReadOptions, {
          ...fixtureReadOptions,
          dialect: "amp",
        }),
        (lines, finalNewline, read) => {
          // A bad last line before a final newline is the one known difference (pinned below).
          let text = lines.join("\n") + (finalNewline ? "\n" : "");
          if (text.endsWith("\n") && cutOffCandidate([...textLines(text)].at(-1)))
            text = text.slice(0, -1);
          expectSamePaths(text, read);
        },
      ),
      lawParameters(Math.min(300, lawParameters().numRuns ?? 300)),
    );
  });

  for (const [name, text] of Object.entries(oddInputs))
    it(`odd input: ${name}`, () => expectSamePaths(text));

  it("a chosen session (sessionId), found or not: the same", () => {
    const text = oddInputs["two sessions"] as string;
    expectSamePaths(text, { ...fixtureReadOptions, sessionId: "t" });
    expectSamePaths(text, { ...fixtureReadOptions, sessionId: "nobody" });
  });

  it("fixtures and real captures: the same", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(4);
    for (const file of [...fixtures, ...real]) expectSamePaths(readFileSync(file, "utf8"));
  });

  it.skipIf(real.length === 0)(
    `real captures are among the inputs${real.length === 0 ? " (skipped: ../shared/real is absent)" : ""}`,
    () => {
      expect(real.map((file) => path.basename(file))).toContain("amp-stream-same-run.jsonl");
    },
  );

  it("a file read in small slices gives the same as its text", () => {
    const file = path.join(scratch, "capture.jsonl");
    const text = readFileSync(fixtures[0] as string, "utf8");
    writeFileSync(file, text);
    const lines = () => readFileLines(file, { chunkBytes: 7 });
    const streamed = convertStreamed(
      text,
      streamJsonHarness,
      commonHarness,
      { read: "stream", write: "whole" },
      { lines, read: fixtureReadOptions },
    );
    expect(streamed).toEqual(
      convertWhole(text, streamJsonHarness, commonHarness, { read: fixtureReadOptions }),
    );
    expect(commonStreamed(text, fixtureReadOptions, lines)).toEqual(streamed);
  });

  it("hands out the meta first and each message before the capture ends", () => {
    const text = readFileSync(path.join(fixturesDirectory, "claude-tools.jsonl"), "utf8");
    const all = text.split("\n").filter((line) => line !== "");
    // Count the lines read (both passes) at the moment each part comes out.
    const counted = countingLines(() => all);
    const seen: { kind: StreamPart["kind"]; read: number }[] = [];
    for (const part of streamJsonReadStream(counted.source, fixtureReadOptions))
      seen.push({ kind: part.kind, read: counted.total() });
    expect(seen[0]).toEqual({ kind: "meta", read: all.length });
    const messages = seen.filter((entry) => entry.kind === "message");
    expect(messages.length).toBeGreaterThan(2);
    // The first message is out well before pass two has read every line.
    expect((messages[0] as { read: number }).read).toBeLessThan(2 * all.length);
  });

  it("the one difference: a bad last line followed by a newline is a cut-off write to the stream read", () => {
    const text = `${[init("s"), user("s", "x"), '{"type":"user","mess'].join("\n")}\n`;
    // The whole path refuses it; lines cannot tell it from the same line without a newline.
    expect(() => convertWhole(text, streamJsonHarness, commonHarness)).toThrow(
      "line 3 is not JSON",
    );
    const streamed = convertStreamed(text, streamJsonHarness, commonHarness, {
      read: "stream",
      write: "whole",
    });
    expect(streamed).toEqual(convertWhole(text.slice(0, -1), streamJsonHarness, commonHarness));
    expect(streamed.warnings.map((warning) => warning.code)).toContain(
      "stream_json.truncated-line",
    );
  });
});

describe("stream-json streaming: a replay reuses pass one", () => {
  /** A writer that reads the parts and then one replay (as the Claude Code writer plans), and prints both. */
  const replaying: StreamWriter = (input) => [
    JSON.stringify([...input.parts]),
    "\n",
    JSON.stringify([...input.replay()]),
  ];
  const capture = [
    init("s"),
    user("s", "one"),
    `{"type":"assistant","session_id":"s","message":{"id":"m","content":[{"type":"text","text":"a"}]}}`,
    user("s", "two"),
    `{"type":"assistant","session_id":"s","message":{"id":"m","content":[{"type":"text","text":"b"}]}}`,
  ].join("\n");

  function run(read: StreamReader) {
    const counted = countingLines(() => textLines(capture));
    const text = [...streamConvert(counted.source, read, replaying).chunks].join("");
    return { text, passes: counted.passes().length };
  }

  it("reads the lines three times for the parts and a replay (pass one once), giving the same parts", () => {
    const reused = run(streamJsonReadStream);
    expect(reused.passes).toBe(3);
    const [parts, replayed] = reused.text.split("\n");
    expect(replayed).toBe(parts);
    expect(parts).toBe(JSON.stringify([...streamJsonReadStream(() => textLines(capture), {})]));
    // Control: the same reader without the conversion's memo reads pass one again, to the same text.
    const unkept = run((lines, options) => {
      const { [streamMemoOption]: _, ...rest } = options;
      return streamJsonReadStream(lines, rest);
    });
    expect(unkept.passes).toBe(4);
    expect(unkept.text).toBe(reused.text);
  });
});

describe("stream-json streaming: the meta part says whether a user message holds a tool call", () => {
  /** The meta part's fact, and what the whole path's main messages hold; undefined when the whole path refuses. */
  function facts(text: string): { said: boolean | undefined; whole: boolean } | undefined {
    let messages: Transcript["messages"];
    try {
      messages = streamJsonCodec.toCommon(streamJsonCodec.parse(text), fixtureReadOptions).messages;
    } catch {
      return undefined;
    }
    const [meta] = streamJsonReadStream(() => textLines(text), fixtureReadOptions);
    return {
      said: meta?.kind === "meta" ? meta.userToolCalls : undefined,
      whole: messages.some(
        (message) =>
          message.role === "user" && message.content.some((block) => block.type === "tool_use"),
      ),
    };
  }

  it("is false exactly when no main user message holds one (generated and spliced captures)", () => {
    let withCalls = 0;
    let without = 0;
    fc.assert(
      fc.property(
        transcriptArbitrary(),
        fc.constantFrom(...dialects),
        fc.array(fc.oneof(fc.constant("call"), fc.constantFrom(...anyLine)), { maxLength: 4 }),
        fc.nat(),
        (transcript, dialect, spliced, at) => {
          const lines = written(transcript, dialect).trimEnd().split("\n");
          // "call": a user line of the capture's session holding a tool_use block.
          const session = JSON.stringify(transcript.meta.id);
          const call = `{"type":"user","session_id":${session},"message":{"role":"user","content":[{"type":"tool_use","id":"c","name":"Bash","input":{}}]}}`;
          const where = 1 + (at % lines.length);
          lines.splice(where, 0, ...spliced.map((line) => (line === "call" ? call : line)));
          const found = facts(lines.join("\n"));
          if (found === undefined) return;
          expect(found.said).toBe(found.whole);
          if (found.whole) withCalls += 1;
          else without += 1;
        },
      ),
      lawParameters(200),
    );
    // Both answers were given (a generator that never makes one would prove nothing).
    expect(without).toBeGreaterThan(0);
    expect(withCalls).toBeGreaterThan(0);
  });

  it("is true for a user line holding a tool_use block, false without it", () => {
    const call = `{"type":"user","session_id":"s","message":{"role":"user","content":[{"type":"tool_use","id":"c","name":"Bash","input":{}}]}}`;
    expect(facts([init("s"), user("s", "one"), call].join("\n"))).toEqual({
      said: true,
      whole: true,
    });
    expect(facts([init("s"), user("s", "one")].join("\n"))).toEqual({ said: false, whole: false });
  });
});
